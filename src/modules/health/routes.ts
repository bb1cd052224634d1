import { Router } from 'express';
import { z } from 'zod';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { PlatformDeps } from '../../context';
import { errorResponse } from '../../platform/http/router';
import type { Limits } from '../../platform/http/limits';

/** A dependency check answers within this long, or counts as down: /health itself never hangs on one. */
export const HEALTH_CHECK_TIMEOUT_MS = 1500;

const within = (check: Promise<boolean>, ms: number): Promise<boolean> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([check.catch(() => false), late]).finally(() => clearTimeout(timer));
};

/** How current the tariff catalog is (tariffs/currency.ts), with whether a refresh is configured. */
export interface TariffDataHealth {
  imported_at: string | null;
  newest_effective_date: string | null;
  last_refresh: { run_id: string; status: string; finished_at: string } | null;
  refresh_configured: boolean;
}

/** The value, or null when it fails or takes longer than `ms`. */
const withinOrNull = <T>(p: Promise<T>, ms: number): Promise<T | null> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  return Promise.race([p.catch(() => null), late]).finally(() => clearTimeout(timer));
};

const REDIS_DOWN =
  'Redis (REDIS_URL) is unreachable: background jobs cannot be queued, and rate limits and ' + 'quotas are not enforced, until it is back';
const DATABASE_DOWN = 'The database is unreachable';

/**
 * GET /health (site root): the state of each dependency. 200 `healthy` when all are up; 503
 * `unhealthy` when the database is down (nothing works), 503 `degraded` when only Redis is (the
 * BullMQ queue, or the rate-limit and quota counters): requests are served, but jobs are not
 * queued and limits are not counted. `failing` names the dependencies that are down.
 */
export function healthRouter(
  deps: Pick<PlatformDeps, 'database' | 'queue'>,
  limits: Pick<Limits, 'storeStatus'>,
  tariffData?: () => Promise<TariffDataHealth>,
): Router {
  const router = Router();
  router.get('/health', async (_req, res) => {
    const [database, queue, counters, tariffs] = await Promise.all([
      within(deps.database.ping(), HEALTH_CHECK_TIMEOUT_MS),
      within(deps.queue.ping(), HEALTH_CHECK_TIMEOUT_MS),
      limits.storeStatus().catch(() => ({ store: 'redis' as const, up: false })),
      tariffData ? withinOrNull(tariffData(), HEALTH_CHECK_TIMEOUT_MS) : Promise.resolve(null),
    ]);
    const redisDown = (deps.queue.driver === 'bullmq' && !queue) || (counters.store === 'redis' && !counters.up);
    const failing = [...(database ? [] : ['database']), ...(redisDown ? ['redis'] : [])];
    const status = !database ? 'unhealthy' : redisDown ? 'degraded' : 'healthy';
    const detail = [database ? null : DATABASE_DOWN, redisDown ? REDIS_DOWN : null].filter(Boolean).join('; ');
    res.status(status === 'healthy' ? 200 : 503).json({
      status,
      database: { status: database ? 'up' : 'down', driver: deps.database.kind },
      queue: { status: queue ? 'up' : 'down', driver: deps.queue.driver },
      rate_limits: { status: counters.up ? 'up' : 'down', store: counters.store },
      failing,
      ...(detail ? { detail } : {}),
      ...(tariffData ? { tariff_data: tariffs } : {}),
    });
  });
  return router;
}

/** GET /admin/queues without Redis: the jobs that failed every attempt (platform/queue/board.ts). */
const failedJobsBody = z.object({
  driver: z.literal('inprocess'),
  failed_jobs: z.array(
    z.object({
      queue: z.string(),
      job_id: z.string(),
      ordering_key: z.string().nullable(),
      attempts: z.number().int(),
      error: z.string(),
      payload: z.unknown(),
      failed_at: z.string(),
    }),
  ),
});

/** GET /admin/queues in the single-process mode: a job that failed its last attempt. */
const failedJobsExample = {
  driver: 'inprocess',
  failed_jobs: [
    {
      queue: 'bill-audit',
      job_id: '17',
      ordering_key: 'meter:6f1c2a8e-3b7d-4c55-9a0e-1d2f3b4c5d6e',
      attempts: 3,
      error: 'Connection terminated unexpectedly',
      payload: { meter_id: '6f1c2a8e-3b7d-4c55-9a0e-1d2f3b4c5d6e' },
      failed_at: '2026-11-03T06:02:40.000Z',
    },
  ],
};

/** GET /health of a single process on its embedded database. */
const healthyExample = {
  status: 'healthy',
  database: { status: 'up', driver: 'pglite' },
  queue: { status: 'up', driver: 'inprocess' },
  rate_limits: { status: 'up', store: 'memory' },
  failing: [],
};

const healthBody = z.object({
  status: z.enum(['healthy', 'degraded', 'unhealthy']),
  database: z.object({ status: z.enum(['up', 'down']), driver: z.enum(['postgres', 'pglite']) }),
  queue: z.object({ status: z.enum(['up', 'down']), driver: z.enum(['bullmq', 'inprocess']) }),
  rate_limits: z.object({ status: z.enum(['up', 'down']), store: z.enum(['redis', 'memory']) }),
  failing: z.array(z.enum(['database', 'redis'])).describe('The dependencies that are down'),
  detail: z.string().optional().describe('What is down and what that means, when something is'),
  tariff_data: z
    .object({
      imported_at: z.string().nullable().describe('when the bundled catalog was imported'),
      newest_effective_date: z.string().nullable().describe('the latest effective date of a catalog tariff in force today'),
      last_refresh: z
        .object({ run_id: z.string(), status: z.string(), finished_at: z.string() })
        .nullable()
        .describe('the last catalog refresh from the URDB API that finished; null when none ran'),
      refresh_configured: z.boolean().describe('URDB_API_KEY is set: POST /admin/tariffs/refresh can fetch current records'),
    })
    .nullable()
    .optional()
    .describe('How current the tariff catalog is; null when the database did not answer in time'),
});

/** The site-root endpoints outside ApiRouter, so /openapi.json lists every endpoint that exists. */
export function documentSiteRoutes(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/health',
    tags: ['Service'],
    summary: 'Health: the state of the database, the queue and the rate-limit counters',
    security: [],
    description:
      '`healthy` (200) when every dependency answers. 503 `unhealthy` when the database does not; 503 `degraded` when ' +
      'only Redis does not (REDIS_URL set): requests are still served, without background jobs being queued or rate limits ' +
      'and quotas counted. `failing` names what is down. Each check answers within ' +
      `${HEALTH_CHECK_TIMEOUT_MS} ms.`,
    responses: {
      200: { description: 'Healthy', content: { 'application/json': { schema: healthBody.meta({ example: healthyExample }) } } },
      503: {
        description: 'The database (`unhealthy`) or Redis (`degraded`) is unreachable',
        content: { 'application/json': { schema: healthBody } },
      },
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/admin/queues',
    tags: ['Operators'],
    summary: 'Bull Board over every queue (HTTP Basic: user admin, password ADMIN_TOKEN); with in-process jobs, the failed jobs as JSON',
    security: [{ adminBasic: [] }],
    responses: {
      200: {
        description: 'The Bull Board page, or {driver, failed_jobs} in the single-process mode',
        content: {
          'text/html': { schema: z.string() },
          'application/json': { schema: failedJobsBody.meta({ example: failedJobsExample }) },
        },
      },
      401: errorResponse('Wrong or missing credentials'),
      404: errorResponse('ADMIN_TOKEN is not set'),
    },
  });
}
