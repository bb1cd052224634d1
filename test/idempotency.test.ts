/**
 * Idempotent POSTs (platform/http/idempotency.ts, README "Retrying a POST safely"): a key's first
 * answer is replayed for 24 hours, another body is a 409, concurrent requests act once, 5xx answers
 * are not kept, keys are per account.
 */
import express from 'express';
import request from 'supertest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from './helpers/app';
import { registerUser } from './helpers/users';
import { as, createProperty } from './pm/helpers';
import { idempotencyKeys } from '../src/platform/db/tables';
import { idempotency } from '../src/platform/http/idempotency';
import { errorHandler, AppError } from '../src/platform/http/errors';
import { requestLog } from '../src/platform/http/request-log';
import { createLogger } from '../src/platform/logger';
import { createProcessors } from '../jobs';

const KEY = 'Idempotency-Key';

describe('Idempotency-Key on POST', () => {
  let t: TestApp;
  let clock = new Date('2026-11-02T12:00:00Z');
  let alice: string;
  let bob: string;
  let aliceId: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
    const a = await registerUser(t);
    alice = a.token;
    aliceId = a.user.id;
    bob = (await registerUser(t)).token;
  });
  afterAll(() => t.stop());

  const portfolios = async (token: string) =>
    (await as(t, token).get('/pm/portfolios?per_page=100').expect(200)).body.items as Array<{ name: string }>;
  const storedKeys = (scope: string) => t.deps.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.scope, scope));

  it('replays the first answer (status and body) for the same key and body, without acting again', async () => {
    const first = await as(t, alice).post('/pm/portfolios', { name: 'Replayed', description: 'once' }).set(KEY, 'replay-1').expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The same body with its keys in another order is the same body.
    const again = await as(t, alice).post('/pm/portfolios', { description: 'once', name: 'Replayed' }).set(KEY, 'replay-1').expect(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['original-request']).toBe(first.headers['x-request-id']);
    expect((await portfolios(alice)).filter((p) => p.name === 'Replayed')).toHaveLength(1);
  });

  it('the same key with another body, or on another path, is a 409 and acts on nothing', async () => {
    await as(t, alice).post('/pm/portfolios', { name: 'Keyed' }).set(KEY, 'other-body').expect(201);
    const other = await as(t, alice).post('/pm/portfolios', { name: 'Keyed twice' }).set(KEY, 'other-body').expect(409);
    expect(other.body.detail).toBe('This Idempotency-Key was used with another request (method, path or body) in the last 24 hours');
    const elsewhere = await as(t, alice).post('/pm/properties', { name: 'Keyed' }).set(KEY, 'other-body').expect(409);
    expect(elsewhere.body.detail).toBe(other.body.detail);
    expect((await portfolios(alice)).map((p) => p.name)).not.toContain('Keyed twice');
  });

  it('concurrent requests with one key act once: one 201, the others the replay or 409 in progress', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => as(t, alice).post('/pm/portfolios', { name: 'Concurrent' }).set(KEY, 'concurrent-1')),
    );
    const created = answers.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined);
    expect(created).toHaveLength(1);
    for (const r of answers) {
      if (r.status === 201) expect(r.body).toEqual(created[0]!.body);
      else {
        expect(r.status).toBe(409);
        expect(r.body.detail).toBe('A request with this Idempotency-Key is still being processed: retry after it has answered');
        expect(r.headers['retry-after']).toBe('1');
      }
    }
    expect((await portfolios(alice)).filter((p) => p.name === 'Concurrent')).toHaveLength(1);
    expect((await storedKeys(`user:${aliceId}`)).filter((k) => k.key === 'concurrent-1')).toHaveLength(1);
  });

  it("keys are per account: another account's same key and body acts for that account", async () => {
    const mine = await as(t, alice).post('/pm/portfolios', { name: 'Scoped' }).set(KEY, 'shared-key').expect(201);
    const theirs = await as(t, bob).post('/pm/portfolios', { name: 'Scoped' }).set(KEY, 'shared-key').expect(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect((await portfolios(bob)).map((p) => p.name)).toEqual(['Scoped']);
  });

  it('an API key and a bearer token of one account share its keys', async () => {
    const key = (await as(t, alice).post('/auth/api-keys', { name: 'pms' }).expect(201)).body.key as string;
    const first = await as(t, alice).post('/pm/portfolios', { name: 'By token' }).set(KEY, 'token-or-key').expect(201);
    const viaKey = await request(t.app)
      .post('/api/v1/pm/portfolios')
      .set('X-API-Key', key)
      .set(KEY, 'token-or-key')
      .send({ name: 'By token' })
      .expect(201);
    expect(viaKey.headers['idempotent-replayed']).toBe('true');
    expect(viaKey.body.id).toBe(first.body.id);
  });

  it('keeps a 4xx answer too: the replay of a 422 is the 422', async () => {
    const first = await as(t, alice).post('/pm/portfolios', { description: 'no name' }).set(KEY, 'invalid-once').expect(422);
    const again = await as(t, alice).post('/pm/portfolios', { description: 'no name' }).set(KEY, 'invalid-once').expect(422);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.detail).toBe(first.body.detail);
    expect(again.body.errors).toEqual(first.body.errors);
  });

  it('a key longer than 255 characters, or with spaces or non-ASCII characters, is a 400', async () => {
    for (const bad of ['k'.repeat(256), 'has space', 'clé']) {
      const res = await as(t, alice).post('/pm/portfolios', { name: 'Bad key' }).set(KEY, bad).expect(400);
      expect(res.body.detail).toBe('Idempotency-Key must be 1 to 255 visible ASCII characters');
    }
    await as(t, alice).post('/pm/portfolios', { name: 'Long key' }).set(KEY, 'k'.repeat(255)).expect(201);
    expect((await portfolios(alice)).map((p) => p.name)).not.toContain('Bad key');
  });

  it('unauthenticated POSTs are keyed per client: a retried registration answers the first 201', async () => {
    const body = { email: 'retry@example.com', password: 'Kilowatt42', full_name: 'Retry Once' };
    const first = await request(t.app).post('/api/v1/auth/register').set(KEY, 'register-1').send(body).expect(201);
    const again = await request(t.app).post('/api/v1/auth/register').set(KEY, 'register-1').send(body).expect(201);
    expect(again.body).toEqual(first.body);
    // Without the key, the second registration is what it always was.
    await request(t.app).post('/api/v1/auth/register').send(body).expect(400);
  });

  it('a multipart import is keyed by its parts: the same file again is replayed, another file is a 409', async () => {
    const property = (await createProperty(t, alice)).id as string;
    const csv = 'utility_type,period_start,period_end,amount,usage\nelectric,2026-01-01,2026-01-31,120.00,900\n';
    const path = `/pm/properties/${property}/bills/import`;
    const first = await as(t, alice).upload(path, csv).set(KEY, 'import-1').expect(200);
    expect(first.body).toMatchObject({ imported: 1, duplicates: 0 });
    // supertest writes a new random boundary each time: the parts, not the bytes, are compared.
    const again = await as(t, alice).upload(path, csv).set(KEY, 'import-1').expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = csv.replace('120.00', '130.00');
    await as(t, alice).upload(path, other).set(KEY, 'import-1').expect(409);
    // Without a key the import reads the request itself, as before: the row is a duplicate.
    expect((await as(t, alice).upload(path, csv).expect(200)).body).toMatchObject({ imported: 0, duplicates: 1 });
  });

  it('keys expire after 24 hours: the key acts again, and the hourly sweep deletes the expired ones', async () => {
    // An API key: bearer tokens last 24 hours too.
    const apiKey = (await as(t, bob).post('/auth/api-keys', { name: 'clock' }).expect(201)).body.key as string;
    const post = () => request(t.app).post('/api/v1/pm/portfolios').set('X-API-Key', apiKey).set(KEY, 'expiring').send({ name: 'Day one' });
    await post().expect(201);
    clock = new Date(clock.getTime() + 24 * 3600_000 - 1000);
    expect((await post().expect(201)).headers['idempotent-replayed']).toBe('true');
    clock = new Date(clock.getTime() + 2000);
    const later = await post().expect(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    const names = (await request(t.app).get('/api/v1/pm/portfolios').set('X-API-Key', apiKey).expect(200)).body.items.map(
      (p: { name: string }) => p.name,
    );
    expect(names.filter((n: string) => n === 'Day one')).toHaveLength(2);

    const db = t.deps.database.db;
    const before = await db.select().from(idempotencyKeys);
    expect(before.some((k) => k.key === 'replay-1')).toBe(true);
    await createProcessors(t.services)['idempotency-sweep']({}, { attempt: 1 } as never);
    const after = await db.select().from(idempotencyKeys);
    // Every key used at the first clock is gone; the one used again just now stays.
    expect(after.map((k) => k.key)).toEqual(['expiring']);
    const [kept] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.key, 'expiring')));
    expect(kept!.createdAt.getTime()).toBe(clock.getTime());
  });
});

describe('Idempotency-Key and 5xx answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.stop());

  it('an answer of 500 or more is not kept: the retry acts again', async () => {
    const logger = createLogger('silent');
    let calls = 0;
    const app = express();
    app.use(requestLog(logger, { enabled: false }));
    app.post('/work', express.json(), idempotency({ store: t.services.idempotency, logger }), (_req, res) => {
      calls++;
      if (calls === 1) throw new AppError(503, 'Service temporarily unavailable');
      res.status(201).json({ call: calls });
    });
    app.use(errorHandler(logger));
    await request(app).post('/work').set(KEY, 'flaky').send({ a: 1 }).expect(503);
    const retried = await request(app).post('/work').set(KEY, 'flaky').send({ a: 1 }).expect(201);
    expect(retried.body).toEqual({ call: 2 });
    const replayed = await request(app).post('/work').set(KEY, 'flaky').send({ a: 1 }).expect(201);
    expect(replayed.body).toEqual({ call: 2 });
    expect(calls).toBe(2);
  });
});
