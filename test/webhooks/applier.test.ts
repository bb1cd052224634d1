import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { eventually } from '../helpers/eventually';
import { createProperty } from '../pm/helpers';
import { createLogger } from '../../src/platform/logger';
import { KICK_WINDOW_MS, createWebhookService, type WebhookService } from '../../src/modules/webhooks/service';
import { createWebhookRepository } from '../../src/modules/webhooks/repository';
import type { EventHandlerFactory } from '../../src/modules/webhooks/handler';
import { client, deliver, nextTimestamp, unitEvent } from './helpers';
import { bindConnectionDirectly } from '../helpers/pms-link';
import { fakeUnit } from '../helpers/fake-pms';
import { appSchedules } from '../../src/schedules';
import { runScheduleTick } from '../../src/platform/scheduler';
import { errorBody } from '../helpers/error-body';

const ADMIN_TOKEN = 'admin-token-0123456789';
const uid = () => crypto.randomBytes(4).toString('hex');

describe('stream applier: order, retries, dead letters, replay, sweeper', () => {
  let t: TestApp;
  // The wall clock's second at the start (events are stamped with the wall clock, and one from
  // more than 5 minutes after the service's clock is refused); the tests move it on from there.
  let now = new Date(Math.floor(Date.now() / 1000) * 1000);
  let svc: WebhookService;
  const failing = new Set<string>();
  const kicks: Array<{ connection_id?: string; jobId: string; delayMs?: number }> = [];

  /** Records what it applies in the event's transaction (so only what commits counts); throws for keys in `failing`. */
  const handler: EventHandlerFactory = (tx) => ({
    prepare: async () => undefined,
    apply: async (env) => {
      const key = String(env.data.key);
      await tx.execute(sql`insert into applier_test_log (key) values (${key})`);
      if (failing.has(key)) throw new Error(`boom ${key}`);
      return { status: 'success', detail: `applied ${key}` };
    },
    finish: async () => undefined,
  });

  beforeAll(async () => {
    t = await createTestApp({ now: () => now, env: { ADMIN_TOKEN, PMS_WEBHOOK_SECRET: 'whsec-test-0123456789' } });
    await t.deps.database.db.execute(sql`create table applier_test_log (n bigserial primary key, key text not null)`);
    svc = createWebhookService({
      db: t.deps.database.db,
      now: () => now,
      logger: createLogger('silent'),
      handler,
      enqueue: async (job, jobId, delayMs) => {
        kicks.push({ connection_id: job.connection_id, jobId, delayMs });
      },
      connectionsOf: async () => [],
      requeueOwedSyncs: async () => 0,
    });
  });
  afterAll(() => t.stop());

  const receive = async (conn: string, key: string) => {
    const raw = Buffer.from(
      JSON.stringify({ event: 'data.update', timestamp: nextTimestamp(), connection_id: conn, resource_type: 'unit', data: { key } }),
    );
    const res = await svc.receive({ rawBody: raw, bodyBytes: raw.length, sha256: crypto.createHash('sha256').update(raw).digest('hex') });
    if (res.status !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(res)}`);
    return res.id;
  };
  const row = (id: string) => createWebhookRepository(t.deps.database.db).findById(id);
  /** The keys applied (committed) for a connection, in the order they were applied. */
  const keysOf = async (conn: string) => {
    const result = await t.deps.database.db.execute(sql`select key from applier_test_log where key like ${`${conn}-%`} order by n`);
    return (result as unknown as { rows: Array<{ key: string }> }).rows.map((r) => r.key);
  };

  it('applies a stream in order, exactly once, however many drains run (concurrently too)', async () => {
    const conn = `c-${uid()}`;
    for (let i = 0; i < 250; i++) await receive(conn, `${conn}-${i}`);
    // One job per window for every stream (the clock stands still here: one window), starting after the window.
    const window = Math.floor(now.getTime() / KICK_WINDOW_MS);
    expect(kicks.filter((k) => k.jobId === `wh.${window}`)).toEqual([
      { connection_id: undefined, jobId: `wh.${window}`, delayMs: (window + 2) * KICK_WINDOW_MS - now.getTime() },
    ]);
    // Jobs of every stream and of this one, at once.
    await Promise.all([svc.drain(), svc.drain(conn), svc.drain(), svc.drain(conn)]);
    await svc.drain(conn);
    expect(await keysOf(conn)).toEqual(Array.from({ length: 250 }, (_, i) => `${conn}-${i}`));
  });

  it('a failing event holds its stream while it is retried with back-off, then is dead-lettered and the stream goes on', async () => {
    const conn = `c-${uid()}`;
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await receive(conn, `${conn}-${i}`));
    failing.add(`${conn}-2`);
    kicks.length = 0;
    await svc.drain(conn);
    expect(await keysOf(conn)).toEqual([`${conn}-0`, `${conn}-1`]); // found inside a batch: the ones before it are applied
    expect(await row(ids[2])).toMatchObject({ status: 'pending', attempts: 1, detail: `attempt 1 failed: boom ${conn}-2` });
    expect(kicks).toEqual([{ connection_id: conn, jobId: `wh-retry.${ids[2]}.1`, delayMs: 1000 }]);

    // Before its back-off is over, another job of the stream applies nothing and makes sure the retry is queued.
    await svc.drain(conn);
    expect(await keysOf(conn)).toHaveLength(2);
    expect(kicks[1]).toEqual({ connection_id: conn, jobId: `wh-retry.${ids[2]}.1`, delayMs: 1000 });

    for (const [attempt, delay] of [
      [2, 2000],
      [3, 4000],
      [4, 8000],
    ]) {
      now = new Date(now.getTime() + delay / 2);
      await svc.drain(conn);
      expect((await row(ids[2]))!.attempts).toBe(attempt);
      expect(kicks[kicks.length - 1]).toEqual({ connection_id: conn, jobId: `wh-retry.${ids[2]}.${attempt}`, delayMs: delay });
    }
    now = new Date(now.getTime() + 8000);
    await svc.drain(conn);
    expect(await row(ids[2])).toMatchObject({
      status: 'failed',
      attempts: 5,
      detail: `failed after 5 attempts: boom ${conn}-2`,
      deadLetteredAt: now,
    });
    expect(await keysOf(conn)).toEqual([0, 1, 3, 4, 5].map((i) => `${conn}-${i}`));
    expect((await svc.deadLetters({ page: 1, per_page: 10 })).items.map((d) => d.id)).toContain(ids[2]);

    // The operator fixes the cause and replays it: it leaves the dead-letter list.
    failing.delete(`${conn}-2`);
    const replayed = await svc.replay(ids[2]);
    expect(replayed).toMatchObject({ id: ids[2], status: 'success', detail: `applied ${conn}-2`, attempts: 6, dead_lettered_at: null });
    expect((await svc.deadLetters({ page: 1, per_page: 10 })).items.map((d) => d.id)).not.toContain(ids[2]);
    await expect(svc.replay(ids[2])).rejects.toMatchObject({ status: 409, detail: 'Only a failed event can be replayed' });
    await expect(svc.replay('nope')).rejects.toMatchObject({ status: 404, detail: 'Webhook event not found' });
  });

  it('a replay that fails again keeps the event dead-lettered with the new reason', async () => {
    const conn = `c-${uid()}`;
    const id = await receive(conn, `${conn}-x`);
    failing.add(`${conn}-x`);
    for (let i = 0; i < 5; i++) {
      await svc.drain(conn);
      now = new Date(now.getTime() + 60_000);
    }
    expect((await row(id))!.status).toBe('failed');
    const again = await svc.replay(id);
    expect(again).toMatchObject({ status: 'failed', detail: `replay failed: boom ${conn}-x`, attempts: 6 });
    expect(again.dead_lettered_at).not.toBeNull();
  });

  it('the sweeper queues a drain once an event has been pending for a while, whatever became of its job', async () => {
    await svc.drain();
    const conn = `c-${uid()}`;
    await receive(conn, `${conn}-0`);
    kicks.length = 0;
    await svc.sweep(10_000);
    expect(kicks).toEqual([]); // not pending long enough
    now = new Date(now.getTime() + 11_000);
    await receive(`c-${uid()}`, 'fresh');
    kicks.length = 0;
    await svc.sweep(10_000);
    expect(kicks).toEqual([{ connection_id: undefined, jobId: expect.stringMatching(/^wh-sweep\.\d{8}T\d{9}Z$/), delayMs: undefined }]);
    await svc.drain();
    expect(await keysOf(conn)).toEqual([`${conn}-0`]);
    kicks.length = 0;
    await svc.sweep(0);
    expect(kicks).toEqual([]);
  });

  it('the scheduler ticks the sweeper every 15 s, one job per tick', async () => {
    const schedule = appSchedules.find((x) => x.name === 'webhook-sweep')!;
    expect(schedule).toMatchObject({ cron: '*/15 * * * * *', queue: 'webhook-sweep' });
    const tick = new Date('2026-05-01T10:20:45Z');
    expect(await runScheduleTick(t.deps.queue, schedule, tick)).toEqual({ jobId: 'webhook-sweep@20260501T102045Z', deduplicated: false });
    expect((await runScheduleTick(t.deps.queue, schedule, tick)).deduplicated).toBe(true);
  });

  describe('operator endpoints', () => {
    it('list dead letters and replay one (X-Admin-Token)', async () => {
      const alice = await registerUser(t);
      const property = await createProperty(t, alice.token);
      // No provider here to complete a link session with: the connection is bound as one from before them.
      await bindConnectionDirectly(t, alice.token, 'conn-admin');
      await client(t, alice.token)
        .put(`/pm/properties/${property.id}/pms`, { connection_id: 'conn-admin', pms_property_id: 'P' })
        .expect(200);
      const res = await deliver(t, unitEvent('conn-admin', fakeUnit(1, 'P'), 'data.new')).expect(200);
      // The app's own queue has no processors here: the event is dead-lettered as a failed handler would leave it.
      const repo = createWebhookRepository(t.deps.database.db);
      await repo.deadLetter(res.body.id, 5, 'failed after 5 attempts: boom', now);
      await repo.advancePointer('conn-admin', 1);

      await request(t.app).get('/api/v1/admin/webhooks/dead-letters').expect(401);
      const list = await request(t.app).get('/api/v1/admin/webhooks/dead-letters').set('X-Admin-Token', ADMIN_TOKEN).expect(200);
      expect(list.body.items[0]).toMatchObject({
        id: res.body.id,
        status: 'failed',
        attempts: 5,
        connection_id: 'conn-admin',
        event: 'data.new',
      });

      await request(t.app).post(`/api/v1/admin/webhooks/${res.body.id}/replay`).set('X-Admin-Token', 'wrong-token-000000').expect(401);
      await request(t.app).post('/api/v1/admin/webhooks/unknown/replay').set('X-Admin-Token', ADMIN_TOKEN).expect(404);
      const replay = await request(t.app)
        .post(`/api/v1/admin/webhooks/${res.body.id}/replay`)
        .set('X-Admin-Token', ADMIN_TOKEN)
        .expect(200);
      expect(replay.body).toMatchObject({ id: res.body.id, status: 'success', detail: 'unit 101 created', dead_lettered_at: null });
      await eventually(async () => {
        const units = (await client(t, alice.token).get(`/pm/properties/${property.id}/units`).expect(200)).body.items;
        expect(units.map((u: { pms_unit_id: string }) => u.pms_unit_id)).toEqual(['u1']);
      });
      const conflict = await request(t.app)
        .post(`/api/v1/admin/webhooks/${res.body.id}/replay`)
        .set('X-Admin-Token', ADMIN_TOKEN)
        .expect(409);
      expect(conflict.body).toEqual(errorBody({ detail: 'Only a failed event can be replayed' }));
    });
  });
});
