import express from 'express';
import request from 'supertest';
import { createTestApp, type TestApp } from './helpers/app';
import { registerUser, setTier } from './helpers/users';
import { as, createBill, createProperty } from './pm/helpers';
import { ApiRouter, createOpenApiRegistry } from '../src/platform/http/router';
import { errorHandler } from '../src/platform/http/errors';
import { createGuards } from '../src/routes';
import { createLimits } from '../src/platform/http/limits';
import { createLogger } from '../src/platform/logger';
import { errorBody } from './helpers/error-body';

/** A 429 of a limit of 2 a minute: the contract's body, no request left, and when to come back. */
function expectRefusedAtTwoPerMinute(limited: { body: unknown; headers: Record<string, string> }): void {
  expect(limited.body).toEqual(errorBody({ detail: 'Rate limit exceeded' }));
  expect(limited.headers['ratelimit-limit']).toBe('2');
  expect(limited.headers['ratelimit-remaining']).toBe('0');
  expect(Number(limited.headers['ratelimit-reset'])).toBeGreaterThan(0);
  expect(Number(limited.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
  expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
}

/** Every limit is tested on the in-memory counters, and on Redis when REDIS_URL is set. */
const drivers: Array<[string, Record<string, string>]> = [['memory', { REDIS_URL: '' }]];
if (process.env.REDIS_URL) drivers.push(['redis', {}]);

/** A site with one `auth: 'optional'` route behind the real guards, like the public tariff endpoints. */
function optionalAuthSite(t: TestApp) {
  const api = new ApiRouter('/api/v1', createOpenApiRegistry(), createGuards(t.deps, t.services));
  api.get('/probe', { summary: 'probe', tags: ['test'], auth: 'optional' }, ({ req }) => ({ user: req.user?.id ?? null }));
  const app = express();
  app.set('trust proxy', true);
  app.use('/api/v1', api.router);
  app.use(errorHandler(t.deps.logger));
  return app;
}

describe.each(drivers)('limits (%s counters)', (driver, driverEnv) => {
  describe('per-IP rate limits of register and login', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({
        env: { ...driverEnv, RATE_LIMIT_REGISTER_PER_MIN: '2', RATE_LIMIT_LOGIN_PER_MIN: '3', TRUST_PROXY: 'true' },
      });
    });
    afterAll(() => t.stop());

    it('register: RATE_LIMIT_REGISTER_PER_MIN requests a minute per IP, then 429 with headers', async () => {
      const ip = '203.0.113.10';
      const first = await request(t.app).post('/api/v1/auth/register').set('X-Forwarded-For', ip).send({}).expect(422);
      expect(first.headers['ratelimit-limit']).toBe('2');
      expect(first.headers['ratelimit-remaining']).toBe('1');
      await request(t.app).post('/api/v1/auth/register').set('X-Forwarded-For', ip).send({}).expect(422);
      const limited = await request(t.app)
        .post('/api/v1/auth/register')
        .set('X-Forwarded-For', ip)
        .send({ email: 'late@example.com', password: 'Kilowatt42', full_name: 'Late' })
        .expect(429);
      expectRefusedAtTwoPerMinute(limited);
      // Another client is not affected.
      await request(t.app).post('/api/v1/auth/register').set('X-Forwarded-For', '203.0.113.11').send({}).expect(422);
    });

    it('login: RATE_LIMIT_LOGIN_PER_MIN attempts a minute per IP, then 429', async () => {
      const ip = '198.51.100.20';
      const form = { username: 'nobody@example.com', password: 'Wrong1234' };
      for (let i = 0; i < 3; i++)
        await request(t.app).post('/api/v1/auth/login').set('X-Forwarded-For', ip).type('form').send(form).expect(401);
      const limited = await request(t.app).post('/api/v1/auth/login').set('X-Forwarded-For', ip).type('form').send(form).expect(429);
      expect(limited.body).toEqual(errorBody({ detail: 'Rate limit exceeded' }));
      expect(limited.headers['retry-after']).toBeDefined();
      expect(limited.headers['ratelimit-limit']).toBe('3');
      expect(limited.headers['ratelimit-remaining']).toBe('0');
      expect(limited.headers['ratelimit-reset']).toBeDefined();
    });
  });

  if (driver === 'redis') {
    it('two web processes with one Redis share the counters', async () => {
      const shared = {
        ...driverEnv,
        REDIS_KEY_PREFIX: `test:shared:${Date.now().toString(36)}${Math.random().toString(36).slice(2)}:`,
        RATE_LIMIT_REGISTER_PER_MIN: '2',
      };
      const a = await createTestApp({ env: shared });
      const b = await createTestApp({ env: shared });
      try {
        await request(a.app).post('/api/v1/auth/register').send({}).expect(422);
        await request(b.app).post('/api/v1/auth/register').send({}).expect(422);
        await request(a.app).post('/api/v1/auth/register').send({}).expect(429);
        await request(b.app).post('/api/v1/auth/register').send({}).expect(429);
      } finally {
        await a.stop();
        await b.stop();
      }
    });
  }

  describe("per-caller limit of re-running a bill's audit (POST /pm/bills/{id}/audit)", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { ...driverEnv, RATE_LIMIT_AUDIT_PER_MIN: '2', TRUST_PROXY: 'true' } });
    });
    afterAll(() => t.stop());

    /** A property with one electric bill of `token`'s owner; the bill's id. */
    async function billOf(token: string): Promise<string> {
      const property = (await createProperty(t, token)).id;
      return (
        await createBill(t, token, property, {
          utility_type: 'electric',
          period_start: '2026-01-01',
          period_end: '2026-01-31',
          amount: 120,
          usage_kwh: 1000,
        })
      ).id;
    }

    it('RATE_LIMIT_AUDIT_PER_MIN re-audits a minute per account (token and API keys alike), then 429 with headers', async () => {
      const ip = '203.0.113.30';
      const alice = await registerUser(t);
      const bill = await billOf(alice.token);
      const key = (await as(t, alice.token).post('/auth/api-keys', { name: 'k' }).expect(201)).body.key;
      const first = await as(t, alice.token).post(`/pm/bills/${bill}/audit`).set('X-Forwarded-For', ip).expect(200);
      // The headers tell the limit nearest to refusing: 1 re-audit left this minute, not the day's 1,000-odd requests.
      expect(first.headers['ratelimit-limit']).toBe('2');
      expect(first.headers['ratelimit-remaining']).toBe('1');
      await request(t.app).post(`/api/v1/pm/bills/${bill}/audit`).set('X-API-Key', key).set('X-Forwarded-For', '203.0.113.31').expect(200);
      const limited = await as(t, alice.token).post(`/pm/bills/${bill}/audit`).set('X-Forwarded-For', ip).expect(429);
      expectRefusedAtTwoPerMinute(limited);
      // Reading the stored audit is not limited, and shows the daily quota's headers.
      const read = await as(t, alice.token).get(`/pm/bills/${bill}/audit`).set('X-Forwarded-For', ip).expect(200);
      expect(read.headers['ratelimit-limit']).toBe('1000');
      // Another account behind the same address has its own count.
      const bob = await registerUser(t);
      await as(t, bob.token)
        .post(`/pm/bills/${await billOf(bob.token)}/audit`)
        .set('X-Forwarded-For', ip)
        .expect(200);
    });

    it('is documented: 429 on the operation names the limit', async () => {
      const doc = (await request(t.app).get('/openapi.json').expect(200)).body;
      expect(doc.paths['/api/v1/pm/bills/{id}/audit'].post.responses['429'].description).toContain('RATE_LIMIT_AUDIT_PER_MIN');
    });
  });

  describe('daily quotas', () => {
    let clock = new Date('2026-03-01T23:00:00Z');
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({
        env: { ...driverEnv, QUOTA_FREE_PER_DAY: '3', QUOTA_PRO_PER_DAY: '5' },
        now: () => clock,
      });
    });
    afterAll(() => t.stop());

    const me = (token: string) => request(t.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${token}`);

    it('Free tier: QUOTA_FREE_PER_DAY requests per UTC day, then 429 until midnight', async () => {
      clock = new Date('2026-03-01T23:00:00Z');
      const { token } = await registerUser(t);
      for (const remaining of ['2', '1', '0']) {
        const res = await me(token).expect(200);
        expect(res.headers['ratelimit-limit']).toBe('3');
        expect(res.headers['ratelimit-remaining']).toBe(remaining);
        expect(res.headers['ratelimit-reset']).toBe('3600');
      }
      const limited = await me(token).expect(429);
      expect(limited.body).toEqual(errorBody({ detail: 'Daily request quota exceeded' }));
      expect(limited.headers['retry-after']).toBe('3600');
      expect(limited.headers['ratelimit-limit']).toBe('3');
      expect(limited.headers['ratelimit-remaining']).toBe('0');
      expect(limited.headers['ratelimit-reset']).toBe('3600');

      clock = new Date('2026-03-02T00:00:01Z');
      const nextDay = await me(token).expect(200);
      expect(nextDay.headers['ratelimit-remaining']).toBe('2');
    });

    it('the quota is per account, shared by its token and API keys', async () => {
      clock = new Date('2026-03-05T10:00:00Z');
      const { token } = await registerUser(t);
      const key = (
        await request(t.app).post('/api/v1/auth/api-keys').set('Authorization', `Bearer ${token}`).send({ name: 'k' }).expect(201)
      ).body.key;
      // Creating the key was request 1 of 3.
      await request(t.app).get('/api/v1/auth/me').set('X-API-Key', key).expect(200);
      await me(token).expect(200);
      await me(token).expect(429);
      await request(t.app).get('/api/v1/auth/me').set('X-API-Key', key).expect(429);
      // Another user still has a full quota.
      const other = await registerUser(t);
      await me(other.token).expect(200);
    });

    it('Pro tier gets QUOTA_PRO_PER_DAY; Enterprise has no daily quota', async () => {
      clock = new Date('2026-03-06T10:00:00Z');
      const pro = await registerUser(t);
      await setTier(t, pro.user.id, 'pro');
      for (let i = 0; i < 5; i++) await me(pro.token).expect(200);
      await me(pro.token).expect(429);

      const ent = await registerUser(t);
      await setTier(t, ent.user.id, 'enterprise');
      for (let i = 0; i < 8; i++) {
        const res = await me(ent.token).expect(200);
        expect(res.headers['ratelimit-limit']).toBeUndefined();
      }
    });

    it('anonymous callers are counted per IP at the Free quota on optional-auth routes', async () => {
      clock = new Date('2026-03-07T12:00:00Z');
      const site = optionalAuthSite(t);
      const ip = '192.0.2.50';
      for (let i = 0; i < 3; i++) {
        const res = await request(site).get('/api/v1/probe').set('X-Forwarded-For', ip).expect(200);
        expect(res.body).toEqual({ user: null });
      }
      const limited = await request(site).get('/api/v1/probe').set('X-Forwarded-For', ip).expect(429);
      expect(limited.body).toEqual(errorBody({ detail: 'Daily request quota exceeded' }));
      expect(limited.headers['retry-after']).toBe(String(12 * 3600));
      expect(limited.headers['ratelimit-limit']).toBe('3');
      // Another IP, and a signed-in caller from the same IP, have their own quotas.
      await request(site).get('/api/v1/probe').set('X-Forwarded-For', '192.0.2.51').expect(200);
      const { user, token } = await registerUser(t);
      const signedIn = await request(site)
        .get('/api/v1/probe')
        .set('X-Forwarded-For', ip)
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(signedIn.body).toEqual({ user: user.id });
    });

    it('optional-auth routes reject credentials that are sent but invalid', async () => {
      clock = new Date('2026-03-08T12:00:00Z');
      const site = optionalAuthSite(t);
      for (const header of [{ Authorization: 'Bearer garbage' }, { 'X-API-Key': 'ek_nope' }]) {
        const res = await request(site).get('/api/v1/probe').set(header).expect(401);
        expect(res.body).toEqual(errorBody({ detail: 'Not authenticated' }));
        expect(res.headers['www-authenticate']).toBe('Bearer');
      }
    });
  });
});

describe('limits when Redis is unreachable', () => {
  it('lets requests through (and logs) instead of failing them', async () => {
    const limits = createLimits({
      config: {
        redisUrl: 'redis://127.0.0.1:1',
        redisKeyPrefix: 'test:down:',
        limits: {
          registerPerMin: 1,
          loginPerMin: 1,
          webhookRefusedPerMin: 1,
          auditPerMin: 1,
          quotaFreePerDay: 1,
          quotaProPerDay: 1,
          maxApiKeys: 1,
        },
      },
      logger: createLogger('silent'),
      now: () => new Date('2026-03-01T12:00:00Z'),
    });
    const app = express();
    app.get('/limited', limits.register, limits.quota, (_req, res) => void res.json({ ok: true }));
    try {
      for (let i = 0; i < 3; i++) await request(app).get('/limited').expect(200);
    } finally {
      await limits.close();
    }
  });
});

describe('the re-audit limit beside the daily quota', () => {
  it('shows the headers of the limit with fewer requests left', async () => {
    const limits = createLimits({
      config: {
        redisKeyPrefix: 'test:audit-headers:',
        limits: {
          registerPerMin: 1,
          loginPerMin: 1,
          webhookRefusedPerMin: 1,
          auditPerMin: 3,
          quotaFreePerDay: 2,
          quotaProPerDay: 100,
          maxApiKeys: 1,
        },
      },
      logger: createLogger('silent'),
      now: () => new Date('2026-03-01T12:00:00Z'),
    });
    const app = express();
    const signedIn: express.RequestHandler = (req, _res, next) => {
      req.user = { id: 'u1', email: 'u1@example.com', tier: req.get('X-Tier') === 'pro' ? 'pro' : 'free' } as NonNullable<
        express.Request['user']
      >;
      next();
    };
    app.post('/audit', signedIn, limits.quota, limits.audit, (_req, res) => void res.json({ ok: true }));
    app.use(errorHandler(createLogger('silent')));
    try {
      // Free: the day's 2 requests run out before the minute's 3 re-audits: the quota's headers (2 - 1 = 1 left, not 3 - 1 = 2).
      const first = await request(app).post('/audit').expect(200);
      expect([first.headers['ratelimit-limit'], first.headers['ratelimit-remaining']]).toEqual(['2', '1']);
      // Pro (100 a day, the same account): the re-audit limit is nearer, 3 - 2 = 1 left.
      const second = await request(app).post('/audit').set('X-Tier', 'pro').expect(200);
      expect([second.headers['ratelimit-limit'], second.headers['ratelimit-remaining']]).toEqual(['3', '1']);
      await request(app).post('/audit').set('X-Tier', 'pro').expect(200);
      const limited = await request(app).post('/audit').set('X-Tier', 'pro').expect(429);
      expect(limited.body).toEqual(errorBody({ detail: 'Rate limit exceeded' }));
      expect([limited.headers['ratelimit-limit'], limited.headers['ratelimit-remaining']]).toEqual(['3', '0']);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limits.close();
    }
  });
});
