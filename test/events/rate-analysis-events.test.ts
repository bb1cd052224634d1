/**
 * Issue 51 item 4: a saving the rate-analysis job notifies is also a `rate_analysis.savings_found`
 * event, once per property, recommendation and amount (as the notification); the jobs run
 * in-process through the real processors and the receiver verifies the event.
 */
import { Webhook } from 'standardwebhooks';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { eventually } from '../helpers/eventually';
import { seedTariffs } from '../helpers/tariffs';
import { closeServer, listenLocally, webhookReceiver } from '../helpers/local-server';
import { as, createProperty, GLADSTONE } from '../pm/helpers';
import type { InProcessJobQueue } from '../../src/platform/queue/types';

describe('rate-analysis events (issue 51)', () => {
  const { server: receiver, received } = webhookReceiver();
  let t: TestApp;

  beforeAll(async () => {
    // The in-process queue even when REDIS_URL is set: the test drains it.
    t = await createTestApp({ jobs: true, env: { REDIS_URL: '' } });
    await seedTariffs(t.deps.database, [GLADSTONE.C1, GLADSTONE.C3_NON_CITY, GLADSTONE.SP1]);
  });
  afterAll(async () => {
    await t.stop();
    await closeServer(receiver);
  });

  it('a saving found is sent once, with the recommended tariff and the annual saving', async () => {
    const token = (await registerUser(t)).token;
    const { secret } = (
      await as(t, token)
        .post('/webhook-endpoints', {
          url: `${await listenLocally(receiver)}/hooks`,
          event_types: ['rate_analysis.savings_found'],
        })
        .expect(201)
    ).body;
    // Rate analysis README (test/pm/rate-analysis.test.ts): 20,000 kWh on C1 costs 2,447.54 a month, on SP1 2,050.54:
    // 397.00 a month, 4,764.00 a year saved.
    const p = await createProperty(t, token, { tariff_id: GLADSTONE.C1, monthly_usage_kwh: 20000 });
    await eventually(async () => expect(received).toHaveLength(1));
    expect(new Webhook(secret).verify(received[0]!.body, received[0]!.headers)).toEqual({
      type: 'rate_analysis.savings_found',
      timestamp: expect.any(String),
      data: {
        property_id: p.id,
        property_name: 'Harbor Lofts',
        recommended_tariff_id: GLADSTONE.SP1,
        recommended_tariff_name: 'Rate Schedule SP1- Small Power 1PH( Over 15,000 kWh per Month)',
        annual_savings: 4764,
      },
    });
    // The same state analysed again (a retried job) emits nothing new.
    await t.services.rateAnalysis.process({ property_id: p.id });
    await (t.deps.queue as InProcessJobQueue).drain();
    await t.services.events.deliverDue();
    expect(received).toHaveLength(1);
  });
});
