import jwt from 'jsonwebtoken';
import request from 'supertest';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from './helpers/app';
import { createApiKey, DEFAULT_PASSWORD, registerUser } from './helpers/users';
import { createCredentialStore } from '../src/modules/accounts/credentials';
import { KeyUsageRecorder } from '../src/modules/accounts/key-usage';
import { errorBody } from './helpers/error-body';

const ADMIN_TOKEN = 'admin-token-0123456789abcdef';

/** Issue 46 items 5 and 6: tokens, keys and passwords. */
describe('accounts hardening', () => {
  let t: TestApp;
  let clock = new Date('2026-03-01T12:00:00Z');
  beforeAll(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN }, now: () => clock });
  });
  afterAll(() => t.stop());

  const me = (token: string) => request(t.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${token}`);
  const login = (email: string, password = DEFAULT_PASSWORD) =>
    request(t.app).post('/api/v1/auth/login').type('form').send({ username: email, password });
  const setActive = (userId: string, active: boolean) =>
    request(t.app).patch(`/api/v1/admin/users/${userId}`).set('X-Admin-Token', ADMIN_TOKEN).send({ is_active: active }).expect(200);

  it.each([
    ['a NUL character', 'abc\u0000def'],
    ['a lone surrogate', 'abc\ud800'],
    ['an empty string', ''],
  ])('a signed token whose sub holds %s is a 401, not a 500', async (_name, sub) => {
    const token = jwt.sign({ sub, exp: Math.floor(clock.getTime() / 1000) + 600 }, TEST_JWT_SECRET);
    const res = await me(token).expect(401);
    expect(res.body).toEqual(errorBody({ detail: 'Not authenticated' }));
  });

  it('login and API-key creation answer Cache-Control: no-store (they carry a token or a key)', async () => {
    const { user, token } = await registerUser(t);
    const res = await login(user.email).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.pragma).toBe('no-cache');
    const key = await request(t.app).post('/api/v1/auth/api-keys').set('Authorization', `Bearer ${token}`).send({ name: 'ci' }).expect(201);
    expect(key.headers['cache-control']).toBe('no-store');
    expect(key.headers.pragma).toBe('no-cache');
  });

  it.each(['Password1', 'PassWord1', 'pAssWord1', 'Qwerty123', 'Trustno1', 'Passw0rd!', 'Password2026', 'Summer2024', 'Aa1aaaaa'])(
    'rejects the common password %s with a 422 naming the rule',
    async (password) => {
      const res = await request(t.app)
        .post('/api/v1/auth/register')
        .send({ email: `common-${password.toLowerCase().replace(/[^a-z0-9]/g, 'x')}@example.com`, password, full_name: 'X' })
        .expect(422);
      expect(res.body.detail).toBe('password is too common: it is on a list of passwords leaked in data breaches, choose another');
      expect(res.body.errors).toEqual([{ field: 'password', message: res.body.detail }]);
    },
  );

  it('accepts a password that meets the rules and is not common', async () => {
    await request(t.app)
      .post('/api/v1/auth/register')
      .send({ email: 'uncommon@example.com', password: 'Kilowatt-Hour-42', full_name: 'X' })
      .expect(201);
  });

  it('tokens issued before a deactivation stay revoked after reactivation; a new login works', async () => {
    const { user, token } = await registerUser(t);
    await me(token).expect(200);
    clock = new Date(clock.getTime() + 60_000);
    await setActive(user.id, false);
    await me(token).expect(401);
    await setActive(user.id, true);
    const res = await me(token).expect(401);
    expect(res.body).toEqual(errorBody({ detail: 'Not authenticated' }));
    // Logged in again (even within the second of the deactivation), the new token works.
    const fresh = (await login(user.email).expect(200)).body.access_token as string;
    await me(fresh).expect(200);
  });

  // Decision record 0015: credentials are read on every request (no 5 s cache per process).
  it("another process refuses a revoked key and a deactivated user's token on its next request", async () => {
    const other = createCredentialStore({
      db: t.deps.database.db,
      now: () => clock,
      usage: new KeyUsageRecorder(async () => undefined, t.deps.logger, 0),
    });
    const { user, token } = await registerUser(t);
    const key = await createApiKey(t, token);
    const issuedAt = (jwt.decode(token) as { iat: number }).iat;
    expect((await other.userByApiKey(key.key))?.id).toBe(user.id);
    expect((await other.userById(user.id, issuedAt))?.id).toBe(user.id);
    await request(t.app).delete(`/api/v1/auth/api-keys/${key.id}`).set('Authorization', `Bearer ${token}`).expect(204);
    expect(await other.userByApiKey(key.key)).toBeNull();
    clock = new Date(clock.getTime() + 60_000);
    await setActive(user.id, false);
    expect(await other.userById(user.id, issuedAt)).toBeNull();
  });

  it('a token issued in the same second as the deactivation, before it, is revoked too', async () => {
    const { user } = await registerUser(t);
    clock = new Date(Math.floor(clock.getTime() / 1000) * 1000 + 60_000 + 100);
    const token = (await login(user.email).expect(200)).body.access_token as string;
    clock = new Date(clock.getTime() + 500); // same second
    await setActive(user.id, false);
    await setActive(user.id, true);
    await me(token).expect(401);
    const fresh = (await login(user.email).expect(200)).body.access_token as string;
    await me(fresh).expect(200);
  });
});
