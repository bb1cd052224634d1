/**
 * Issue 51 item 4 with issue 50: an import of a meter's interval readings is a
 * `meter.intervals.imported` event: the span the file covered, the readings stored in it and their
 * kWh summed to the Wh; the receiver verifies it with the standardwebhooks package.
 */
import { Webhook } from 'standardwebhooks';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { eventually } from '../helpers/eventually';
import { closeServer, listenLocally, webhookReceiver } from '../helpers/local-server';
import { as, createProperty } from '../pm/helpers';

describe('meter.intervals.imported (issue 51)', () => {
  const { server: receiver, received } = webhookReceiver();
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ jobs: true, env: { REDIS_URL: '' } });
  });
  afterAll(async () => {
    await t.stop();
    await closeServer(receiver);
  });

  it('sends the imported span, the readings stored and their kWh; a file storing nothing sends nothing', async () => {
    const token = (await registerUser(t)).token;
    const { secret } = (
      await as(t, token)
        .post('/webhook-endpoints', {
          url: `${await listenLocally(receiver)}/hooks`,
          event_types: ['meter.intervals.imported'],
        })
        .expect(201)
    ).body;
    const property = await createProperty(t, token, { zip_code: '10001', state: 'NY' });
    const meter = (await as(t, token).post(`/pm/properties/${property.id}/meters`, { utility_type: 'electric', name: 'Main' }).expect(201))
      .body;
    // Three 15-minute readings with 00:30 missing: 1.5 + 1 + 0.25 kWh = 2.75 kWh; the span ends 01:00 local (06:00 UTC).
    const csv = [
      'start,end,kwh',
      '2020-01-01T00:00:00-05:00,2020-01-01T00:15:00-05:00,1.5',
      '2020-01-01T00:15:00-05:00,2020-01-01T00:30:00-05:00,1',
      '2020-01-01T00:45:00-05:00,2020-01-01T01:00:00-05:00,0.25',
    ].join('\n');
    const report = (await as(t, token).upload(`/pm/meters/${meter.id}/intervals`, csv, 'day.csv').expect(200)).body;
    expect(report).toMatchObject({ stored: 3, first_start: '2020-01-01T00:00:00-05:00', last_end: '2020-01-01T01:00:00-05:00' });
    await eventually(async () => expect(received).toHaveLength(1));
    expect(new Webhook(secret).verify(received[0]!.body, received[0]!.headers)).toEqual({
      type: 'meter.intervals.imported',
      timestamp: expect.any(String),
      data: {
        meter_id: meter.id,
        property_id: property.id,
        start: '2020-01-01T00:00:00-05:00',
        end: '2020-01-01T06:00:00.000Z',
        intervals: 3,
        interval_minutes: 15,
        kwh: 2.75,
      },
    });
    // A file of readings that are all refused stores nothing: no event.
    const refused = ['start,end,kwh', '2020-01-02T00:07:00-05:00,2020-01-02T00:22:00-05:00,1'].join('\n');
    expect((await as(t, token).upload(`/pm/meters/${meter.id}/intervals`, refused, 'odd.csv').expect(200)).body).toMatchObject({
      stored: 0,
    });
    await t.services.events.deliverDue();
    expect(received).toHaveLength(1);
  });
});
