/**
 * Issue 51 item 4: posting a calculation to the PMS ledger (tenant-billing README "Posting to the PMS
 * ledger") emits `billing.posting.failed` for the lines the provider refused and
 * `billing.calculation.posted` once every charge is on the ledger; the jobs (posting and event
 * deliveries) run in-process through the real processors, and the receiver verifies each event.
 */
import { Webhook } from 'standardwebhooks';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { eventually } from '../helpers/eventually';
import { FakePmsLedger } from '../helpers/fake-pms-ledger';
import { closeServer, listenLocally, webhookReceiver } from '../helpers/local-server';
import { as } from '../tenant-billing/helpers';
import { API_KEY, linkedCalculation } from '../tenant-billing/posting-helpers';

describe('billing events of a posting (issue 51)', () => {
  const fake = new FakePmsLedger();
  const { server: receiver, received } = webhookReceiver();
  let t: TestApp;
  let token: string;
  let secret: string;

  beforeAll(async () => {
    const url = await fake.start();
    t = await createTestApp({ jobs: true, env: { PMS_API_URL: url, PMS_API_KEY: API_KEY, REDIS_URL: '' } });
    token = (await registerUser(t)).token;
    const hook = `${await listenLocally(receiver)}/hooks`;
    secret = (
      await as(t, token)
        .post('/webhook-endpoints', {
          url: hook,
          event_types: ['billing.calculation.posted', 'billing.posting.failed'],
        })
        .expect(201)
    ).body.secret;
  });
  afterAll(async () => {
    await t.stop();
    await fake.stop();
    await closeServer(receiver);
  });

  const verified = () =>
    received.map((r) => new Webhook(secret).verify(r.body, r.headers) as { type: string; data: Record<string, unknown> });

  it('a refused line is a billing.posting.failed event; posting it again, billing.calculation.posted with the lines and their sum', async () => {
    const { id, propertyId } = await linkedCalculation(t, token, fake, { conn: 'conn-1', pmsProperty: 'P1' });

    // The provider refuses u3's charge once (a 4xx is final for the line).
    let refused = false;
    fake.behaviour = (call, res) => {
      if (refused || call.idempotencyKey !== `${id}:u3:0:post`) return false;
      refused = true;
      res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'resident has moved out' }));
      return true;
    };
    await as(t, token).post(`/billing/calculations/${id}/post`).expect(202);
    await eventually(async () => expect(verified()).toHaveLength(1));
    expect(verified()[0]).toEqual({
      type: 'billing.posting.failed',
      timestamp: expect.any(String),
      data: {
        calculation_id: id,
        property_id: propertyId,
        action: 'post',
        failed_lines: [{ unit_id: 'u3', amount: 118.13, error: 'HTTP 422: resident has moved out' }],
      },
    });

    await as(t, token).post(`/billing/calculations/${id}/post`).expect(202);
    await eventually(async () => expect(verified()).toHaveLength(2));
    // u1 472.50 + u2 354.38 + u3 118.13 = 945.01 (the vacant u4 is charged nothing, so not posted).
    expect(verified()[1]).toEqual({
      type: 'billing.calculation.posted',
      timestamp: expect.any(String),
      data: { calculation_id: id, property_id: propertyId, lines: 3, amount: 945.01 },
    });
  });
});
