import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { closeServer, listenLocally, webhookReceiver } from '../helpers/local-server';
import { as, createBill, createMeter, createProperty } from '../pm/helpers';
import { createWaterTariff } from '../../src/modules/tariffs/custom/examples';
import { eventDeliveriesProcessor } from '../../jobs/event-deliveries';

/**
 * Issue 51 item 4: an account's endpoint receives a real event (an audit finding found through the
 * API), verifies it with the standardwebhooks package and replays it; a failing endpoint is retried
 * on the schedule (the clock moved, the job's processor run: no waiting) and disabled after 5 days.
 */
describe('webhook endpoints and signed events (issue 51)', () => {
  let t: TestApp;
  let clock: Date;
  let alice: string;
  let bob: string;
  const good = webhookReceiver();
  const bad = webhookReceiver();
  let goodUrl: string;
  let badUrl: string;
  /** The event-deliveries job, as the queue runs it. */
  const runDeliveries = () => eventDeliveriesProcessor(t.services)({});
  const advance = (ms: number) => (clock = new Date(clock.getTime() + ms));

  beforeAll(async () => {
    // Real time at the start: the standardwebhooks verifier checks the timestamp against its own clock (5 minutes).
    clock = new Date();
    // Tokens that outlive the days the clock is moved.
    t = await createTestApp({ now: () => clock, env: { ACCESS_TOKEN_EXPIRE_MINUTES: String(60 * 24 * 365) } });
    alice = (await registerUser(t)).token;
    bob = (await registerUser(t)).token;
    goodUrl = `${await listenLocally(good.server)}/hooks`;
    badUrl = `${await listenLocally(bad.server)}/hooks`;
    bad.state.status = 500;
  });
  afterAll(async () => {
    await t.stop();
    await closeServer(good.server);
    await closeServer(bad.server);
  });

  it('refuses what is not an endpoint: a non-https URL, an unknown event type, no event types', async () => {
    const post = (body: unknown) => as(t, alice).post('/webhook-endpoints', body);
    expect((await post({ url: 'http://hooks.example.com/x', event_types: ['audit.finding.created'] }).expect(422)).body.errors).toEqual([
      { field: 'url', message: 'url must be an https URL (http only to localhost or 127.0.0.1)' },
    ]);
    expect(
      (await post({ url: 'https://hooks.example.com/x', event_types: ['audit.finding.deleted'] }).expect(422)).body.errors[0].field,
    ).toBe('event_types.0');
    await post({ url: 'https://hooks.example.com/x', event_types: [] }).expect(422);
    await request(t.app)
      .post('/api/v1/webhook-endpoints')
      .send({ url: goodUrl, event_types: ['audit.finding.created'] })
      .expect(401);
  });

  it('an audit finding found through the API reaches the endpoint, signed; the receiver verifies it and it is replayed with the same id', async () => {
    const created = await as(t, alice)
      .post('/webhook-endpoints', {
        url: goodUrl,
        event_types: ['audit.finding.created', 'audit.dispute.updated', 'audit.finding.created'],
        description: 'PMS',
      })
      .expect(201);
    const endpoint = created.body;
    expect(endpoint).toMatchObject({
      url: goodUrl,
      event_types: ['audit.finding.created', 'audit.dispute.updated'],
      enabled: true,
      description: 'PMS',
    });
    expect(endpoint.secret).toMatch(/^whsec_/);
    // The secret is shown once: not in a read.
    expect((await as(t, alice).get(`/webhook-endpoints/${endpoint.id}`).expect(200)).body).not.toHaveProperty('secret');
    // Another account's endpoint is not found.
    await as(t, bob).get(`/webhook-endpoints/${endpoint.id}`).expect(404);
    expect((await as(t, bob).get('/webhook-endpoints').expect(200)).body).toEqual({ items: [], total: 0, page: 1, per_page: 20, pages: 0 });

    // A water bill 10 % over Harlingen's rate (audit README): 12 kgal is $31.51, $34.66 billed is a finding of $3.15.
    const tariff = (await as(t, alice).post('/tariffs/custom', createWaterTariff).expect(201)).body;
    const propertyId = (await createProperty(t, alice, { city: 'Harlingen', state: 'TX', zip_code: '78550' })).id;
    const meterId = (await createMeter(t, alice, propertyId, { utility_type: 'water', unit: 'kgal', tariff_id: tariff.id })).id;
    const bill = await createBill(t, alice, propertyId, {
      meter_id: meterId,
      usage: 12,
      period_start: '2026-02-01',
      period_end: '2026-02-28',
      amount: 34.66,
    });
    const [finding] = (await as(t, alice).post(`/pm/bills/${bill.id}/audit`).expect(200)).body.findings;
    expect(finding).toMatchObject({ reason: 'price_variance', amount_at_issue: 3.15 });

    expect(await runDeliveries()).toBeUndefined();
    expect(good.received).toHaveLength(1);
    const [first] = good.received;
    const payload = new Webhook(endpoint.secret).verify(first!.body, first!.headers);
    expect(payload).toEqual({
      type: 'audit.finding.created',
      timestamp: clock.toISOString(),
      data: {
        finding_id: finding.id,
        property_id: propertyId,
        meter_id: meterId,
        bill_id: bill.id,
        reason: 'price_variance',
        severity: 'high',
        amount_at_issue: 3.15,
        message: finding.message,
      },
    });
    expect(first!.headers['webhook-id']).toMatch(/^evt_/);
    // Another secret does not verify it.
    expect(() => new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').verify(first!.body, first!.headers)).toThrow();

    const log = (await as(t, alice).get(`/webhook-endpoints/${endpoint.id}/deliveries`).expect(200)).body;
    expect(log).toMatchObject({ total: 1, page: 1, per_page: 20, pages: 1 });
    const [delivery] = log.items;
    expect(delivery).toMatchObject({
      event_id: first!.headers['webhook-id'],
      event_type: 'audit.finding.created',
      status: 'succeeded',
      attempts: 1,
      next_attempt_at: null,
      replay_of: null,
      attempt_log: [{ attempt: 1, status_code: 200, error: null, attempted_at: clock.toISOString() }],
    });

    // Replay: a new delivery of the same event, the same webhook-id, verified again.
    await as(t, bob).post(`/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/replay`).expect(404);
    const replay = (await as(t, alice).post(`/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/replay`).expect(202)).body;
    expect(replay).toMatchObject({ replay_of: delivery.id, event_id: delivery.event_id, status: 'pending', attempts: 0 });
    await runDeliveries();
    expect(good.received).toHaveLength(2);
    expect(new Webhook(endpoint.secret).verify(good.received[1]!.body, good.received[1]!.headers)).toEqual(payload);
    expect(good.received[1]!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    // Nothing is due any more: a second run sends nothing.
    await runDeliveries();
    expect(good.received).toHaveLength(2);

    // Disputing the finding is an audit.dispute.updated event.
    await as(t, alice)
      .post(`/pm/audit/findings/${finding.id}/dispute`, { disputed_on: '2026-03-10', claim_reference: '44-1182', amount_claimed: 3.15 })
      .expect(200);
    await runDeliveries();
    expect(new Webhook(endpoint.secret).verify(good.received[2]!.body, good.received[2]!.headers)).toMatchObject({
      type: 'audit.dispute.updated',
      data: {
        finding_id: finding.id,
        status: 'disputed',
        disputed_on: '2026-03-10',
        claim_reference: '44-1182',
        amount_claimed: 3.15,
        amount_credited: null,
      },
    });

    // A rotated secret: for 24 hours deliveries verify with the new and with the old one.
    const rotated = (await as(t, alice).post(`/webhook-endpoints/${endpoint.id}/rotate-secret`).expect(200)).body;
    await as(t, alice).post(`/webhook-endpoints/${endpoint.id}/test`).expect(202);
    await runDeliveries();
    const test = good.received[3]!;
    expect(new Webhook(rotated.secret).verify(test.body, test.headers)).toMatchObject({
      type: 'webhook.test',
      data: { endpoint_id: endpoint.id },
    });
    expect(new Webhook(endpoint.secret).verify(test.body, test.headers)).toMatchObject({ type: 'webhook.test' });
  });

  it('a failing endpoint is retried on the schedule, each attempt logged, then given up after 8 attempts', async () => {
    const endpoint = (
      await as(t, alice)
        .post('/webhook-endpoints', { url: badUrl, event_types: ['billing.posting.failed'] })
        .expect(201)
    ).body;
    const delivery = (await as(t, alice).post(`/webhook-endpoints/${endpoint.id}/test`).expect(202)).body;
    const firstFailure = clock.toISOString();
    const deliveryOf = async () => (await as(t, alice).get(`/webhook-endpoints/${endpoint.id}/deliveries`).expect(200)).body.items[0];

    await runDeliveries();
    expect(bad.received).toHaveLength(1);
    expect(await deliveryOf()).toMatchObject({
      id: delivery.id,
      status: 'pending',
      attempts: 1,
      next_attempt_at: new Date(clock.getTime() + 5000).toISOString(),
      attempt_log: [{ attempt: 1, status_code: 500, error: 'the endpoint answered 500' }],
    });
    // Not due yet: nothing is sent a second before.
    advance(4000);
    await runDeliveries();
    expect(bad.received).toHaveLength(1);
    // 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after each failure (the clock already moved 4 s of the first).
    const delays = [1000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 5 * 3600_000, 10 * 3600_000, 10 * 3600_000];
    for (const [i, delay] of delays.entries()) {
      advance(delay);
      await runDeliveries();
      expect(bad.received).toHaveLength(i + 2);
    }
    const done = await deliveryOf();
    expect(done).toMatchObject({ status: 'failed', attempts: 8, next_attempt_at: null });
    expect(done.attempt_log.map((a: { attempt: number; status_code: number }) => [a.attempt, a.status_code])).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
      [4, 500],
      [5, 500],
      [6, 500],
      [7, 500],
      [8, 500],
    ]);
    // Every signature verified on the receiver's side: the same webhook-id on each attempt.
    expect(new Set(bad.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([delivery.event_id]));
    // 27 h 35 min 5 s of failures: not yet 5 days, still enabled, failing since the first attempt.
    expect((await as(t, alice).get(`/webhook-endpoints/${endpoint.id}`).expect(200)).body).toMatchObject({
      enabled: true,
      failing_since: firstFailure,
    });
  });

  it('an endpoint whose every attempt failed for 5 days is disabled, with one notification', async () => {
    const endpoint = (await as(t, alice).get('/webhook-endpoints').expect(200)).body.items.find((e: { url: string }) => e.url === badUrl);
    const since = new Date(endpoint.failing_since).getTime();
    // 3 s short of 5 days: still enabled.
    clock = new Date(since + 5 * 24 * 3600_000 - 3000);
    await as(t, alice).post(`/webhook-endpoints/${endpoint.id}/test`).expect(202);
    await runDeliveries();
    expect((await as(t, alice).get(`/webhook-endpoints/${endpoint.id}`).expect(200)).body.enabled).toBe(true);
    // Its retry 5 s later, 2 s past the 5 days: disabled.
    advance(5000);
    await runDeliveries();
    const disabled = (await as(t, alice).get(`/webhook-endpoints/${endpoint.id}`).expect(200)).body;
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: `every delivery failed since ${endpoint.failing_since}` });
    const notes = (await as(t, alice).get('/pm/notifications').expect(200)).body.items.filter(
      (n: { type: string }) => n.type === 'webhook_endpoint_disabled',
    );
    expect(notes).toHaveLength(1);
    expect(notes[0].message).toContain(badUrl);
    // Disabled: no test, no replay, nothing sent.
    const sent = bad.received.length;
    await as(t, alice).post(`/webhook-endpoints/${endpoint.id}/test`).expect(409);
    advance(3600_000);
    await runDeliveries();
    expect(bad.received).toHaveLength(sent);

    // Fixed and re-enabled: the failure window starts again, and a success keeps it clear.
    bad.state.status = 204;
    expect((await as(t, alice).patch(`/webhook-endpoints/${endpoint.id}`, { enabled: true }).expect(200)).body).toMatchObject({
      enabled: true,
      disabled_reason: null,
      failing_since: null,
    });
    await as(t, alice).post(`/webhook-endpoints/${endpoint.id}/test`).expect(202);
    await runDeliveries();
    expect((await as(t, alice).get(`/webhook-endpoints/${endpoint.id}/deliveries`).expect(200)).body.items[0]).toMatchObject({
      status: 'succeeded',
    });
  });

  it('events past 30 days go with their delivery logs, unless a delivery is still pending', async () => {
    const list = (await as(t, alice).get('/webhook-endpoints').expect(200)).body.items as Array<{ id: string; url: string }>;
    const [goodId, badId] = [goodUrl, badUrl].map((u) => list.find((e) => e.url === u)!.id);
    const deliveries = async (id: string) => (await as(t, alice).get(`/webhook-endpoints/${id}/deliveries`).expect(200)).body.total;
    bad.state.status = 500;
    await as(t, alice).post(`/webhook-endpoints/${badId}/test`).expect(202);
    await runDeliveries();
    expect(await deliveries(goodId)).toBe(4);
    expect(await deliveries(badId)).toBe(4);
    // A second short of 30 days after the last two events (the re-enabled endpoint's test, and this one): the 5 older events go
    // (the good endpoint's finding, replayed, its dispute and its test; the bad endpoint's first two tests).
    advance(30 * 24 * 3600_000 - 1000);
    expect(await t.services.events.prune()).toBe(5);
    expect(await deliveries(goodId)).toBe(0);
    expect(await deliveries(badId)).toBe(2);
    // 30 days and a second: the re-enabled endpoint's test goes; the one still pending stays.
    advance(2000);
    expect(await t.services.events.prune()).toBe(1);
    expect(await deliveries(badId)).toBe(1);
  });

  it("PATCH changes, DELETE removes, both only the owner's", async () => {
    const endpoint = (
      await as(t, alice)
        .post('/webhook-endpoints', { url: goodUrl, event_types: ['meter.intervals.imported'] })
        .expect(201)
    ).body;
    await as(t, bob).patch(`/webhook-endpoints/${endpoint.id}`, { description: 'mine' }).expect(404);
    await as(t, alice).patch(`/webhook-endpoints/${endpoint.id}`, {}).expect(422);
    await as(t, alice).patch(`/webhook-endpoints/${endpoint.id}`, { url: 'http://example.com/' }).expect(422);
    expect(
      (
        await as(t, alice)
          .patch(`/webhook-endpoints/${endpoint.id}`, { event_types: ['rate_analysis.savings_found'], description: null })
          .expect(200)
      ).body,
    ).toMatchObject({ event_types: ['rate_analysis.savings_found'], description: null });
    await request(t.app).delete(`/api/v1/webhook-endpoints/${endpoint.id}`).set('Authorization', `Bearer ${bob}`).expect(404);
    await request(t.app).delete(`/api/v1/webhook-endpoints/${endpoint.id}`).set('Authorization', `Bearer ${alice}`).expect(204);
    await as(t, alice).get(`/webhook-endpoints/${endpoint.id}`).expect(404);
  });
});
