import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import { createTestApp, type TestApp } from './helpers/app';
import { queueBoardRouter } from '../src/platform/queue/board';
import { appQueues } from '../src/queues';
import { UnrecoverableError, createJobQueue } from '../src/platform/queue';
import { errorHandler } from '../src/platform/http/errors';
import { silentLogger, waitFor } from './helpers/queue-harness';
import { errorBody } from './helpers/error-body';

const ADMIN_TOKEN = 'queue-board-secret-0123456789';
const redisUrl = process.env.REDIS_URL;
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('/admin/queues without ADMIN_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.stop());

  it('is 404 even with credentials', async () => {
    const res = await request(t.app).get('/admin/queues').set('Authorization', basic('admin', 'anything')).expect(404);
    expect(res.body).toEqual(errorBody({ detail: 'Not Found' }));
  });
});

describe('/admin/queues with ADMIN_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
  });
  afterAll(() => t.stop());

  it.each([
    ['no credentials', undefined],
    ['a wrong password', basic('admin', `${ADMIN_TOKEN}x`)],
    ['a wrong user', basic('root', ADMIN_TOKEN)],
    ['a bearer token', `Bearer ${ADMIN_TOKEN}`],
    ['garbage', 'Basic !!!'],
  ])('answers 401 with a Basic challenge for %s', async (_label, header) => {
    const req = request(t.app).get('/admin/queues');
    if (header) req.set('Authorization', header);
    const res = await req.expect(401);
    expect(res.headers['www-authenticate']).toBe('Basic realm="queues"');
    expect(res.body).toEqual(errorBody({ detail: 'Not authenticated' }));
  });

  (redisUrl ? it.skip : it)('in-process driver: answers the failed jobs as JSON', async () => {
    const res = await request(t.app).get('/admin/queues').set('Authorization', basic('admin', ADMIN_TOKEN)).expect(200);
    expect(res.body).toEqual({ driver: 'inprocess', failed_jobs: [] });
  });

  (redisUrl ? it : it.skip)('BullMQ driver: serves Bull Board, its assets and its API over every queue', async () => {
    const auth = basic('admin', ADMIN_TOKEN);
    const page = await request(t.app).get('/admin/queues').set('Authorization', auth).expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const script = /<script defer src="(static\/js\/main\.[\w.]+\.js)"/.exec(page.text)?.[1];
    expect(script).toBeDefined();
    const js = await request(t.app).get(`/admin/queues/${script}`).set('Authorization', auth).expect(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    await request(t.app).get(`/admin/queues/${script}`).expect(401);
    const api = await request(t.app).get('/admin/queues/api/queues').set('Authorization', auth).expect(200);
    const names = (api.body.queues as Array<{ name: string }>).map((q) => q.name).sort();
    expect(names).toEqual(Object.keys(appQueues).sort());
  });
});

describe('/admin/queues over the in-process driver', () => {
  it('lists finally-failed jobs with their error and payload', async () => {
    const definitions = { mail: { payload: z.object({ to: z.string() }), attempts: 2, backoffMs: 1 } };
    const queue = createJobQueue({
      definitions,
      logger: silentLogger,
      processors: () => ({
        mail: async (p) => {
          throw new UnrecoverableError(`no mailbox ${p.to}`);
        },
      }),
    });
    const app = express();
    app.use(queueBoardRouter({ config: { adminToken: ADMIN_TOKEN }, queue }));
    app.use(errorHandler(silentLogger));
    await queue.enqueue('mail', { to: 'x@example.com' }, { jobId: 'mail-1', orderingKey: 'x' });
    await waitFor(() => queue.driver === 'inprocess' && queue.failedJobs().length === 1);
    const res = await request(app).get('/admin/queues').set('Authorization', basic('admin', ADMIN_TOKEN)).expect(200);
    expect(res.body).toEqual({
      driver: 'inprocess',
      failed_jobs: [
        {
          queue: 'mail',
          job_id: 'mail-1',
          ordering_key: 'x',
          attempts: 1,
          error: 'no mailbox x@example.com',
          payload: { to: 'x@example.com' },
          failed_at: expect.any(String),
        },
      ],
    });
    await request(app).get('/admin/queues').set('Authorization', basic('admin', 'nope')).expect(401);
    // A method the page does not have is a 405 naming GET, with or without credentials (not a 401 first).
    for (const method of ['post', 'delete', 'put'] as const) {
      const wrong = await request(app)[method]('/admin/queues').expect(405);
      expect(wrong.headers.allow).toBe('GET, HEAD');
    }
    await queue.close();
  });
});
