/**
 * The one error body (docs/errors-and-retries.md): `detail` as before, a stable snake_case `code`,
 * and `request_id` equal to the answer's X-Request-Id header.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createTestApp, type TestApp } from './helpers/app';
import { registerUser } from './helpers/users';
import { ERROR_CODES } from '../src/platform/http/errors';

describe('error bodies', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { PMS_WEBHOOK_SECRET: 'whsec' } });
    token = (await registerUser(t)).token;
  });
  afterAll(() => t.stop());

  const expectError = (res: request.Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(res.body.request_id).toBe(res.headers['x-request-id']);
  };

  it('carry the code of their kind and the request id of their answer', async () => {
    expectError(await request(t.app).get('/api/v1/pm/portfolios'), 401, 'not_authenticated');
    expectError(await request(t.app).get('/api/v1/nowhere'), 404, 'not_found');
    expectError(await request(t.app).delete('/api/v1/tariffs/search'), 405, 'method_not_allowed');
    const invalid = await request(t.app).post('/api/v1/pm/portfolios').set('Authorization', `Bearer ${token}`).send({});
    expectError(invalid, 422, 'validation_error');
    expect(invalid.body).toEqual({
      detail: 'field required',
      errors: [{ field: 'name', message: 'field required' }],
      code: 'validation_error',
      request_id: invalid.headers['x-request-id'],
    });
    const json = await request(t.app)
      .post('/api/v1/pm/portfolios')
      .set('Authorization', `Bearer ${token}`)
      .set('content-type', 'application/json')
      .send('{"name": ');
    expectError(json, 400, 'invalid_json');
    expect(json.body.detail).toBe('Invalid JSON body');
    expectError(
      await request(t.app)
        .post('/api/v1/pm/portfolios')
        .set('Authorization', `Bearer ${token}`)
        .set('Idempotency-Key', 'a b')
        .send({ name: 'x' }),
      400,
      'invalid_idempotency_key',
    );
  });

  it("name the caller's own X-Request-Id when it sent one, also on the webhook receiver", async () => {
    const res = await request(t.app).get('/api/v1/nowhere').set('X-Request-Id', 'trace-42');
    expect(res.headers['x-request-id']).toBe('trace-42');
    expect(res.body.request_id).toBe('trace-42');
    const unsigned = await request(t.app).post('/api/webhooks/pms').set('X-Request-Id', 'hook-7').send({ event: 'test.ping' });
    expectError(unsigned, 401, 'not_authenticated');
    expect(unsigned.body.request_id).toBe('hook-7');
  });

  it('a JSON body sent without Content-Type: application/json is a 415 saying so, not a 422 "field required"', async () => {
    const auth = { Authorization: `Bearer ${token}` };
    // What `curl -d '{...}'` sends without -H 'content-type: application/json'.
    const form = await request(t.app).post('/api/v1/pm/portfolios').set(auth).type('form').send('{"name": "Lakeside"}');
    expectError(form, 415, 'unsupported_media_type');
    expect(form.body.detail).toBe('Content-Type must be application/json: the body was sent as application/x-www-form-urlencoded');
    const text = await request(t.app)
      .patch('/api/v1/pm/properties/00000000-0000-4000-8000-000000000000')
      .set(auth)
      .set('content-type', 'text/plain')
      .send('{"name": "x"}');
    expect(text.status).toBe(415);
    expect(text.body.detail).toBe('Content-Type must be application/json: the body was sent as text/plain');
    // No body at all: the fields are missing.
    expectError(await request(t.app).post('/api/v1/pm/portfolios').set(auth), 422, 'validation_error');
    // The login form still reads a form, and JSON.
    await request(t.app).post('/api/v1/auth/login').set('content-type', 'text/plain').send('username=a').expect(415);
    await request(t.app)
      .post('/api/v1/pm/portfolios')
      .set(auth)
      .set('content-type', 'application/json; charset=utf-8')
      .send('{"name": "Typed"}')
      .expect(201);
  });

  it('the documented table lists every code, with its status', () => {
    const doc = fs.readFileSync(path.join(__dirname, '..', 'docs', 'errors-and-retries.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => ({ code: m[1], status: Number(m[2]) }));
    expect(rows).toEqual(ERROR_CODES);
  });
});
