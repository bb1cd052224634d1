import request from 'supertest';
import { createTestApp, type TestApp } from './helpers/app';
import { registerUser } from './helpers/users';
import { errorBody } from './helpers/error-body';

/** A documented path asked with a method it does not have: 405 with Allow (it was a 404). */
describe('405 Method Not Allowed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.stop());

  it('TRACE, PUT and DELETE on GET-only /api/v1/tariffs/search: 405, Allow: GET, HEAD', async () => {
    for (const method of ['trace', 'put', 'delete'] as const) {
      const res = await request(t.app)[method]('/api/v1/tariffs/search');
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      if (method !== 'trace') expect(res.body).toEqual(errorBody({ detail: 'Method Not Allowed' }));
    }
  });

  it('a path with a parameter lists every method its templates have, whatever the case or a trailing slash', async () => {
    const res = await request(t.app).put('/api/v1/PM/Properties/anything/');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, PATCH');
    const post = await request(t.app).get('/api/v1/calculate');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('POST');
  });

  it('a literal path is never an id of its templated sibling: its own methods, 405 for the rest', async () => {
    const { token } = await registerUser(t);
    const auth = { Authorization: `Bearer ${token}` };
    for (const method of ['patch', 'delete'] as const) {
      const custom = await request(t.app)[method]('/api/v1/tariffs/custom').set(auth);
      expect([custom.status, custom.headers.allow]).toEqual([405, 'GET, HEAD, POST']);
      const health = await request(t.app)[method]('/api/v1/pm/properties/health').set(auth);
      expect([health.status, health.headers.allow]).toEqual([405, 'GET, HEAD']);
    }
    expect((await request(t.app).get('/api/v1/tariffs/custom').set(auth).expect(200)).body.items).toEqual([]);
    expect((await request(t.app).get('/api/v1/pm/properties/health').set(auth).expect(200)).body).toHaveProperty('summary');
    // Below the literal path, "health" is an {id} like any other (it was a 405 for a GET).
    expect((await request(t.app).get('/api/v1/pm/properties/health/bills').set(auth).expect(404)).body).toEqual(
      errorBody({ detail: 'Property not found' }),
    );
  });

  it('site paths too (/health), and an unknown path stays 404', async () => {
    const health = await request(t.app).post('/health');
    expect(health.status).toBe(405);
    expect(health.headers.allow).toBe('GET, HEAD');
    const unknown = await request(t.app).trace('/api/v1/no-such-thing');
    expect(unknown.status).toBe(404);
  });
});

/** Conditional requests are for reads: a write's answer is not hashed for an ETag (a RUBS answer is megabytes). */
describe('ETags', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.stop());

  // Issue 48 item 2 replaced "a POST answer has no ETag" (a hash skipped for speed): every answer is Express's res.json.
  it('a POST answer is JSON with its length; a GET answer has an ETag, and revalidates to 304', async () => {
    const created = await request(t.app)
      .post('/api/v1/auth/register')
      .send({ email: 'etag@example.com', password: 'Passw0rd!x', full_name: 'E Tag' })
      .expect(201);
    expect(created.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(created.headers['content-length'])).toBe(Buffer.byteLength(created.text));
    expect(created.body.email).toBe('etag@example.com');

    const read = await request(t.app).get('/api/v1/tariffs/stats').expect(200);
    expect(read.headers.etag).toMatch(/^W\/"/);
    await request(t.app).get('/api/v1/tariffs/stats').set('If-None-Match', read.headers.etag).expect(304);
  });

  it('an answer over 1 KB is gzipped for a client that accepts it, and sent as it is to one that does not', async () => {
    const path = '/openapi.json';
    const gzipped = await request(t.app).get(path).set('Accept-Encoding', 'gzip').expect(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toMatch(/Accept-Encoding/);
    const plain = await request(t.app).get(path).set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBeGreaterThan(1024);
    expect(gzipped.body).toEqual(plain.body);
  });
});

/** Answers are UTF-8 JSON: text beyond ASCII keeps its bytes, and Content-Length counts them. */
describe('UTF-8 answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.stop());

  it('a name with accents, a non-Latin-1 letter and an emoji comes back as sent, from a POST and a GET', async () => {
    const fullName = 'José Łódź 🏢 "quoted"';
    const created = await request(t.app)
      .post('/api/v1/auth/register')
      .send({ email: 'utf8@example.com', password: 'Passw0rd!x', full_name: fullName })
      .expect(201);
    expect(created.body.full_name).toBe(fullName);
    expect(Number(created.headers['content-length'])).toBe(Buffer.byteLength(created.text));
    const login = await request(t.app)
      .post('/api/v1/auth/login')
      .type('form')
      .send({ username: 'utf8@example.com', password: 'Passw0rd!x' })
      .expect(200);
    const me = await request(t.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${login.body.access_token}`).expect(200);
    expect(me.body.full_name).toBe(fullName);
    expect(me.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(me.headers['content-length'])).toBe(Buffer.byteLength(me.text));
    expect(me.text).toContain('Łódź 🏢');
  });
});
