import request from 'supertest';
import { createTestApp, type TestApp } from './helpers/app';
import { createApiKey, registerUser, DEFAULT_PASSWORD } from './helpers/users';
import { errorBody } from './helpers/error-body';

const ADMIN_TOKEN = 'admin-token-0123456789abcdef';

describe('admin endpoints with ADMIN_TOKEN set', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
  });
  afterAll(() => t.stop());

  const admin = () => ({ 'X-Admin-Token': ADMIN_TOKEN });

  it('401 for a missing or wrong X-Admin-Token', async () => {
    const { user } = await registerUser(t);
    await request(t.app).get('/api/v1/admin/users').expect(401);
    await request(t.app).get('/api/v1/admin/users').set('X-Admin-Token', 'wrong').expect(401);
    await request(t.app).get('/api/v1/admin/users').set('X-Admin-Token', `${ADMIN_TOKEN}x`).expect(401);
    const res = await request(t.app)
      .patch(`/api/v1/admin/users/${user.id}`)
      .set('X-Admin-Token', 'wrong')
      .send({ tier: 'pro' })
      .expect(401);
    expect(res.body.detail).toBe('Not authenticated');
    // A user's bearer token is no admin token.
    const { token } = await registerUser(t);
    await request(t.app).get('/api/v1/admin/users').set('Authorization', `Bearer ${token}`).expect(401);
  });

  it('GET /admin/users?email= finds a user case-insensitively', async () => {
    const { user } = await registerUser(t, { email: 'find-me@example.com' });
    const res = await request(t.app).get('/api/v1/admin/users').query({ email: 'Find-Me@Example.com' }).set(admin()).expect(200);
    expect(res.body).toEqual([{ ...user, is_active: true, last_login: expect.any(String) }]);
    const none = await request(t.app).get('/api/v1/admin/users').query({ email: 'nobody@example.com' }).set(admin()).expect(200);
    expect(none.body).toEqual([]);
    const all = await request(t.app).get('/api/v1/admin/users').set(admin()).expect(200);
    expect(all.body.map((u: { id: string }) => u.id)).toContain(user.id);
  });

  it('PATCH sets the tier; /auth/me shows it at once', async () => {
    const { user, token } = await registerUser(t);
    await request(t.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${token}`).expect(200);
    const res = await request(t.app).patch(`/api/v1/admin/users/${user.id}`).set(admin()).send({ tier: 'pro' }).expect(200);
    expect(res.body).toMatchObject({ id: user.id, tier: 'pro', is_active: true });
    const me = await request(t.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${token}`).expect(200);
    expect(me.body.tier).toBe('pro');
  });

  it('a deactivated user gets 401 for token, API key and login; reactivating restores access', async () => {
    const { user, token } = await registerUser(t);
    const key = await createApiKey(t, token);
    await request(t.app).get('/api/v1/auth/me').set('X-API-Key', key.key).expect(200);
    await request(t.app).patch(`/api/v1/admin/users/${user.id}`).set(admin()).send({ is_active: false }).expect(200);

    for (const header of [{ Authorization: `Bearer ${token}` }, { 'X-API-Key': key.key }]) {
      const res = await request(t.app).get('/api/v1/auth/me').set(header).expect(401);
      expect(res.body).toEqual(errorBody({ detail: 'Not authenticated' }));
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    const login = await request(t.app)
      .post('/api/v1/auth/login')
      .type('form')
      .send({ username: user.email, password: DEFAULT_PASSWORD })
      .expect(401);
    expect(login.body).toEqual(errorBody({ detail: 'Incorrect email or password' }));

    await request(t.app).patch(`/api/v1/admin/users/${user.id}`).set(admin()).send({ is_active: true }).expect(200);
    await request(t.app).get('/api/v1/auth/me').set('X-API-Key', key.key).expect(200);
  });

  it('422 for an unknown tier or field; 404 for an unknown user', async () => {
    const { user } = await registerUser(t);
    const bad = await request(t.app).patch(`/api/v1/admin/users/${user.id}`).set(admin()).send({ tier: 'gold' }).expect(422);
    expect(bad.body.errors[0].field).toBe('tier');
    await request(t.app).patch(`/api/v1/admin/users/${user.id}`).set(admin()).send({ password_hash: 'x' }).expect(422);
    await request(t.app).patch(`/api/v1/admin/users/${user.id}`).set(admin()).send({ is_active: 'no' }).expect(422);
    const missing = await request(t.app).patch('/api/v1/admin/users/nope').set(admin()).send({ tier: 'pro' }).expect(404);
    expect(missing.body).toEqual(errorBody({ detail: 'User not found' }));
  });

  it('an empty PATCH changes nothing and returns the user', async () => {
    const { user } = await registerUser(t);
    const res = await request(t.app).patch(`/api/v1/admin/users/${user.id}`).set(admin()).send({}).expect(200);
    expect(res.body).toMatchObject({ id: user.id, tier: 'free', is_active: true });
  });
});

describe('admin endpoints without ADMIN_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.stop());

  it('404 Not Found for both, with or without a token header', async () => {
    for (const headers of [{}, { 'X-Admin-Token': ADMIN_TOKEN }]) {
      const get = await request(t.app).get('/api/v1/admin/users').set(headers).expect(404);
      expect(get.body).toEqual(errorBody({ detail: 'Not Found' }));
      const patch = await request(t.app).patch('/api/v1/admin/users/x').set(headers).send({ tier: 'pro' }).expect(404);
      expect(patch.body).toEqual(errorBody({ detail: 'Not Found' }));
    }
  });
});
