import request from 'supertest';
import { eq } from 'drizzle-orm';
import jwt from 'jsonwebtoken';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from './helpers/app';
import { createApiKey, registerUser, DEFAULT_PASSWORD } from './helpers/users';
import { apiKeys } from '../src/modules/accounts/tables';
import { errorBody } from './helpers/error-body';

const AUTH = '/api/v1/auth';

describe('accounts: register', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.stop());

  it('201 with the registration fields only, e-mail lower-cased, Free tier', async () => {
    const res = await request(t.app)
      .post(`${AUTH}/register`)
      .send({ email: 'Alice@Example.COM', password: 'Kilowatt42', full_name: 'Alice A', company: 'Acme' })
      .expect(201);
    expect(Object.keys(res.body).sort()).toEqual(['company', 'created_at', 'email', 'full_name', 'id', 'tier']);
    expect(res.body).toMatchObject({ email: 'alice@example.com', full_name: 'Alice A', company: 'Acme', tier: 'free' });
    expect(typeof res.body.id).toBe('string');
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    expect(JSON.stringify(res.body)).not.toContain('Kilowatt42');
  });

  it('company is optional and returned as null', async () => {
    const res = await request(t.app)
      .post(`${AUTH}/register`)
      .send({ email: 'nocompany@example.com', password: 'Kilowatt42', full_name: 'No Company' })
      .expect(201);
    expect(res.body.company).toBeNull();
  });

  it('400 Email already registered, whatever the case of the address', async () => {
    await registerUser(t, { email: 'dup@example.com' });
    const res = await request(t.app)
      .post(`${AUTH}/register`)
      .send({ email: 'DUP@example.com', password: 'Kilowatt42', full_name: 'Again' })
      .expect(400);
    expect(res.body).toEqual(errorBody({ detail: 'Email already registered' }));
  });

  it('two concurrent registrations of one address: exactly one succeeds', async () => {
    const body = { email: 'race@example.com', password: 'Kilowatt42', full_name: 'Race' };
    const results = await Promise.all([1, 2, 3].map(() => request(t.app).post(`${AUTH}/register`).send(body)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 400, 400]);
    for (const r of results.filter((x) => x.status === 400)) expect(r.body.detail).toBe('Email already registered');
  });

  it.each([
    ['email', { password: 'Kilowatt42', full_name: 'X' }],
    ['password', { email: 'a1@example.com', full_name: 'X' }],
    ['full_name', { email: 'a2@example.com', password: 'Kilowatt42' }],
  ])('422 field required when %s is missing', async (field, body) => {
    const res = await request(t.app).post(`${AUTH}/register`).send(body).expect(422);
    expect(res.body.detail).toBe('field required');
    expect(res.body.errors[0]).toEqual({ field, message: 'field required' });
  });

  it.each([
    ['Sh0rt', 'ensure this value has at least 8 characters'],
    ['lowercase123', 'password must contain an uppercase letter'],
    ['UPPERCASE123', 'password must contain a lowercase letter'],
    ['NoDigitsHere', 'password must contain a digit'],
  ])('422 for password %s: %s', async (password, detail) => {
    const res = await request(t.app).post(`${AUTH}/register`).send({ email: 'weak@example.com', password, full_name: 'Weak' }).expect(422);
    expect(res.body.detail).toBe(detail);
    expect(res.body.errors[0]).toEqual({ field: 'password', message: detail });
  });

  it('422 for an invalid e-mail address', async () => {
    const res = await request(t.app)
      .post(`${AUTH}/register`)
      .send({ email: 'not-an-email', password: 'Kilowatt42', full_name: 'X' })
      .expect(422);
    expect(res.body.errors[0].field).toBe('email');
  });

  it('400 Invalid JSON body for malformed JSON', async () => {
    const res = await request(t.app)
      .post(`${AUTH}/register`)
      .set('Content-Type', 'application/json')
      .send('{"email": "x@example.com",')
      .expect(400);
    expect(res.body).toEqual(errorBody({ detail: 'Invalid JSON body' }));
  });
});

describe('accounts: login and tokens', () => {
  let clock = new Date('2026-03-01T12:00:00Z');
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
  });
  afterAll(() => t.stop());

  it('login takes the OAuth2 form and returns a bearer token; e-mail is case-insensitive', async () => {
    const { user } = await registerUser(t, { email: 'login@example.com' });
    const res = await request(t.app)
      .post(`${AUTH}/login`)
      .type('form')
      .send({ username: 'LOGIN@example.com', password: DEFAULT_PASSWORD, grant_type: 'password' })
      .expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'token_type']);
    expect(res.body.token_type).toBe('bearer');
    const payload = jwt.verify(res.body.access_token, TEST_JWT_SECRET, {
      algorithms: ['HS256'],
      clockTimestamp: clock.getTime() / 1000,
    }) as jwt.JwtPayload;
    expect(payload.sub).toBe(user.id);
    expect(payload.exp! - payload.iat!).toBe(1440 * 60);
  });

  it('401 Incorrect email or password for a wrong password and for an unknown user', async () => {
    await registerUser(t, { email: 'wrongpw@example.com' });
    for (const form of [
      { username: 'wrongpw@example.com', password: 'Wrong1234' },
      { username: 'nobody@example.com', password: DEFAULT_PASSWORD },
    ]) {
      const res = await request(t.app).post(`${AUTH}/login`).type('form').send(form).expect(401);
      expect(res.body).toEqual(errorBody({ detail: 'Incorrect email or password' }));
    }
  });

  it.each([
    ['username', { password: DEFAULT_PASSWORD }],
    ['password', { username: 'someone@example.com' }],
  ])('422 field required when %s is missing', async (field, form) => {
    const res = await request(t.app).post(`${AUTH}/login`).type('form').send(form).expect(422);
    expect(res.body.detail).toBe('field required');
    expect(res.body.errors[0].field).toBe(field);
  });

  it('GET /auth/me with the bearer token shows is_active and last_login', async () => {
    const { user, token } = await registerUser(t);
    const res = await request(t.app).get(`${AUTH}/me`).set('Authorization', `Bearer ${token}`).expect(200);
    expect(res.body).toEqual({ ...user, is_active: true, last_login: clock.toISOString() });
  });

  it('401 Not authenticated with WWW-Authenticate when no credentials are sent', async () => {
    const res = await request(t.app).get(`${AUTH}/me`).expect(401);
    expect(res.body).toEqual(errorBody({ detail: 'Not authenticated' }));
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it.each([
    ['a malformed token', 'Bearer not-a-jwt'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a token signed with another secret', `Bearer ${jwt.sign({ sub: 'x', exp: 4102444800 }, 'some-other-secret-0123456789abcdefgh')}`],
    ['an unsigned token', `Bearer ${jwt.sign({ sub: 'x', exp: 4102444800 }, '', { algorithm: 'none' })}`],
  ])('401 with WWW-Authenticate for %s', async (_label, header) => {
    const res = await request(t.app).get(`${AUTH}/me`).set('Authorization', header).expect(401);
    expect(res.body).toEqual(errorBody({ detail: 'Not authenticated' }));
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('a token expires after ACCESS_TOKEN_EXPIRE_MINUTES (24 h by default)', async () => {
    const { token } = await registerUser(t);
    const issued = clock;
    try {
      clock = new Date(issued.getTime() + 24 * 3600_000 - 1000);
      await request(t.app).get(`${AUTH}/me`).set('Authorization', `Bearer ${token}`).expect(200);
      clock = new Date(issued.getTime() + 24 * 3600_000);
      const res = await request(t.app).get(`${AUTH}/me`).set('Authorization', `Bearer ${token}`).expect(401);
      expect(res.body).toEqual(errorBody({ detail: 'Not authenticated' }));
    } finally {
      clock = issued;
    }
  });

  it('a token for a user that does not exist is 401', async () => {
    const token = jwt.sign({ sub: 'no-such-user', exp: Math.floor(clock.getTime() / 1000) + 60 }, TEST_JWT_SECRET);
    await request(t.app).get(`${AUTH}/me`).set('Authorization', `Bearer ${token}`).expect(401);
  });
});

describe('accounts: token lifetime from configuration', () => {
  it('ACCESS_TOKEN_EXPIRE_MINUTES=1 gives one-minute tokens', async () => {
    let clock = new Date('2026-05-01T00:00:00Z');
    const t = await createTestApp({ env: { ACCESS_TOKEN_EXPIRE_MINUTES: '1' }, now: () => clock });
    try {
      const { token } = await registerUser(t);
      await request(t.app).get(`${AUTH}/me`).set('Authorization', `Bearer ${token}`).expect(200);
      clock = new Date(clock.getTime() + 60_000);
      await request(t.app).get(`${AUTH}/me`).set('Authorization', `Bearer ${token}`).expect(401);
    } finally {
      await t.stop();
    }
  });
});

describe('accounts: API keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { MAX_API_KEYS: '3' } });
  });
  afterAll(() => t.stop());

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  it('create returns the key once; the list shows its prefix and never the key', async () => {
    const { token } = await registerUser(t);
    const res = await request(t.app).post(`${AUTH}/api-keys`).set(bearer(token)).send({ name: 'ci' }).expect(201);
    expect(Object.keys(res.body).sort()).toEqual(['created_at', 'id', 'key', 'name']);
    expect(res.body.name).toBe('ci');
    expect(res.body.key).toMatch(/^ek_[0-9A-Za-z]{43}$/);

    const list = await request(t.app).get(`${AUTH}/api-keys`).set(bearer(token)).expect(200);
    expect(list.body).toEqual([
      {
        id: res.body.id,
        name: 'ci',
        prefix: res.body.key.slice(0, 8),
        created_at: res.body.created_at,
        last_used_at: null,
        is_active: true,
      },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(res.body.key);
    // Only the SHA-256 of the key is stored.
    const [row] = await t.deps.database.db.select().from(apiKeys).where(eq(apiKeys.id, res.body.id));
    expect(row.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(res.body.key);
  });

  it('X-API-Key authenticates GET /auth/me; last_used_at is written on flush', async () => {
    const { user, token } = await registerUser(t);
    const key = await createApiKey(t, token);
    const me = await request(t.app).get(`${AUTH}/me`).set('X-API-Key', key.key).expect(200);
    expect(me.body.id).toBe(user.id);
    expect(me.body.email).toBe(user.email);

    const [before] = await t.deps.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(before.lastUsedAt).toBeNull();
    await t.services.accounts.flushKeyUsage();
    const [after] = await t.deps.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(after.lastUsedAt).toBeInstanceOf(Date);
    const list = await request(t.app).get(`${AUTH}/api-keys`).set('Authorization', `Bearer ${token}`).expect(200);
    expect(list.body[0].last_used_at).toBe(after.lastUsedAt!.toISOString());
  });

  it('an unknown or malformed API key is 401', async () => {
    for (const key of ['ek_' + 'A'.repeat(43), 'nonsense', '']) {
      const res = await request(t.app).get(`${AUTH}/me`).set('X-API-Key', key).expect(401);
      expect(res.body).toEqual(errorBody({ detail: 'Not authenticated' }));
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
  });

  it('422 field required without a name', async () => {
    const { token } = await registerUser(t);
    const res = await request(t.app).post(`${AUTH}/api-keys`).set(bearer(token)).send({}).expect(422);
    expect(res.body.detail).toBe('field required');
    expect(res.body.errors[0].field).toBe('name');
  });

  it('400 API key limit reached beyond MAX_API_KEYS active keys; revoking frees a slot', async () => {
    const { token } = await registerUser(t);
    const keys = [];
    for (let i = 0; i < 3; i++) keys.push(await createApiKey(t, token, `k${i}`));
    const res = await request(t.app).post(`${AUTH}/api-keys`).set(bearer(token)).send({ name: 'one too many' }).expect(400);
    expect(res.body).toEqual(errorBody({ detail: 'API key limit reached' }));
    await request(t.app).delete(`${AUTH}/api-keys/${keys[0].id}`).set(bearer(token)).expect(204);
    await request(t.app).post(`${AUTH}/api-keys`).set(bearer(token)).send({ name: 'replacement' }).expect(201);
  });

  it('concurrent creations never exceed MAX_API_KEYS', async () => {
    const { token } = await registerUser(t);
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        request(t.app)
          .post(`${AUTH}/api-keys`)
          .set(bearer(token))
          .send({ name: `c${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 400)).toHaveLength(2);
  });

  it('DELETE revokes: 204, then the key is 401 and listed inactive', async () => {
    const { token } = await registerUser(t);
    const key = await createApiKey(t, token);
    await request(t.app).get(`${AUTH}/me`).set('X-API-Key', key.key).expect(200);
    const del = await request(t.app).delete(`${AUTH}/api-keys/${key.id}`).set(bearer(token)).expect(204);
    expect(del.text).toBe('');
    const res = await request(t.app).get(`${AUTH}/me`).set('X-API-Key', key.key).expect(401);
    expect(res.body).toEqual(errorBody({ detail: 'Not authenticated' }));
    const list = await request(t.app).get(`${AUTH}/api-keys`).set(bearer(token)).expect(200);
    expect(list.body[0]).toMatchObject({ id: key.id, is_active: false });
  });

  it("404 API key not found for another user's key and for an unknown id", async () => {
    const owner = await registerUser(t);
    const other = await registerUser(t);
    const key = await createApiKey(t, owner.token);
    for (const id of [key.id, 'does-not-exist']) {
      const res = await request(t.app).delete(`${AUTH}/api-keys/${id}`).set(bearer(other.token)).expect(404);
      expect(res.body).toEqual(errorBody({ detail: 'API key not found' }));
    }
    await request(t.app).get(`${AUTH}/me`).set('X-API-Key', key.key).expect(200);
  });

  it('API-key endpoints need authentication', async () => {
    await request(t.app).get(`${AUTH}/api-keys`).expect(401);
    await request(t.app).post(`${AUTH}/api-keys`).send({ name: 'x' }).expect(401);
    await request(t.app).delete(`${AUTH}/api-keys/x`).expect(401);
  });
});

describe('accounts: documentation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.stop());

  it('/openapi.json lists the account and admin endpoints; login is documented as a form', async () => {
    const doc = (await request(t.app).get('/openapi.json').expect(200)).body;
    for (const path of [
      '/api/v1/auth/register',
      '/api/v1/auth/login',
      '/api/v1/auth/me',
      '/api/v1/auth/api-keys',
      '/api/v1/auth/api-keys/{id}',
      '/api/v1/admin/users',
      '/api/v1/admin/users/{id}',
    ]) {
      expect(doc.paths[path]).toBeDefined();
    }
    expect(Object.keys(doc.paths['/api/v1/auth/login'].post.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
    expect(doc.paths['/api/v1/auth/me'].get.security).toEqual([{ bearerAuth: [] }, { apiKeyAuth: [] }]);
  });
});
