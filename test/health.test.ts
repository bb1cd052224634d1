import request from 'supertest';
import { createTestApp, type TestApp } from './helpers/app';
import { errorBody } from './helpers/error-body';

describe('site root endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.stop());

  it('GET /health reports healthy with database and queue state', async () => {
    const res = await request(t.app).get('/health').expect(200);
    expect(res.body.status).toBe('healthy');
    expect(res.body.database.status).toBe('up');
    expect(res.headers['x-request-id']).toMatch(/^[\w-]+$/);
  });

  it('GET /health answers 503 unhealthy when the database is unreachable', async () => {
    const other = await createTestApp();
    await other.deps.database.close();
    try {
      const res = await request(other.app).get('/health').expect(503);
      expect(res.body.status).toBe('unhealthy');
      expect(res.body.database.status).toBe('down');
    } finally {
      // Everything stop() closes but the database, closed above: the app's Redis counters too
      // (with REDIS_URL an open client kept jest from exiting).
      await other.close();
      await other.deps.queue.close();
    }
  });

  it('keeps a caller-supplied request id', async () => {
    const res = await request(t.app).get('/health').set('X-Request-Id', 'abc-123').expect(200);
    expect(res.headers['x-request-id']).toBe('abc-123');
  });

  it('unknown paths are 404 with a {"detail"} body', async () => {
    const res = await request(t.app).get('/api/v1/nothing-here').expect(404);
    expect(res.body).toEqual(errorBody({ detail: 'Not Found' }));
  });

  it('serves the OpenAPI 3.1 document and the interactive reference', async () => {
    const doc = await request(t.app).get('/openapi.json').expect(200);
    expect(doc.body.openapi).toBe('3.1.0');
    // Every endpoint that exists is listed, site-root ones included.
    for (const path of [
      '/health',
      '/admin/queues',
      '/api/v1/auth/register',
      '/api/v1/tariffs/{id}',
      '/api/v1/calculate/compare',
      '/api/v1/pm/properties/{id}/bills/import',
    ]) {
      expect(doc.body.paths).toHaveProperty([path]);
    }
    const page = await request(t.app).get('/docs/').expect(200);
    expect(page.text).toContain('swagger-ui');
  });
});
