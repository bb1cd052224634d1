import request from 'supertest';
import { createTestApp, type TestApp } from './helpers/app';
import { loadConfig } from '../src/platform/config';

const ADMIN_TOKEN = 'queue-board-secret-0123456789';
const EVIL = 'https://evil.example';
const APP = 'https://app.example.com';
const basic = `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}`;

/** Issue 46 item 6: no origin is allowed by default; CORS_ORIGINS lists the ones that are. */
describe('CORS', () => {
  describe('by default (CORS_ORIGINS unset)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { ADMIN_TOKEN } });
    });
    afterAll(() => t.stop());

    it.each(['/health', '/api/v1/tariffs/stats', '/api/v1/auth/me', '/openapi.json'])(
      '%s answers no Access-Control-Allow-Origin',
      async (path) => {
        const res = await request(t.app).get(path).set('Origin', EVIL);
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
      },
    );

    it('a preflight is not answered with CORS headers', async () => {
      const res = await request(t.app).options('/api/v1/auth/login').set('Origin', EVIL).set('Access-Control-Request-Method', 'POST');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-methods']).toBeUndefined();
    });

    it('the queue board answers no Access-Control-Allow-Origin', async () => {
      const res = await request(t.app).get('/admin/queues').set('Authorization', basic).set('Origin', EVIL);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('with CORS_ORIGINS', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { ADMIN_TOKEN, CORS_ORIGINS: `${APP}, http://localhost:3000` } });
    });
    afterAll(() => t.stop());

    it('allows a listed origin and exposes the rate-limit headers', async () => {
      const res = await request(t.app).get('/api/v1/tariffs/stats').set('Origin', APP).expect(200);
      expect(res.headers['access-control-allow-origin']).toBe(APP);
      expect(res.headers['access-control-expose-headers']).toContain('RateLimit-Remaining');
      const preflight = await request(t.app)
        .options('/api/v1/auth/login')
        .set('Origin', 'http://localhost:3000')
        .set('Access-Control-Request-Method', 'POST');
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    });

    it('does not allow an origin it does not list', async () => {
      const res = await request(t.app).get('/api/v1/tariffs/stats').set('Origin', EVIL).expect(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('never allows any origin on the queue board', async () => {
      const res = await request(t.app).get('/admin/queues').set('Authorization', basic).set('Origin', APP);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  it('CORS_ORIGINS=* allows every origin (a public, token-only deployment that says so)', () => {
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
  });

  it('refuses an origin that is not scheme://host[:port]', () => {
    expect(() => loadConfig({ CORS_ORIGINS: 'app.example.com' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://app.example.com/' })).toThrow(/CORS_ORIGINS/);
  });
});
