import { Router } from 'express';
import { z } from 'zod';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { PlatformDeps } from '../../context';
import { errorResponse } from '../../platform/http/router';

/** GET /health (site root): database and queue state; 503 when the database is unreachable. */
export function healthRouter(deps: Pick<PlatformDeps, 'database' | 'queue'>): Router {
  const router = Router();
  router.get('/health', async (_req, res) => {
    const [database, queue] = await Promise.all([deps.database.ping(), deps.queue.ping()]);
    const healthy = database;
    res.status(healthy ? 200 : 503).json({
      status: healthy ? 'healthy' : 'unhealthy',
      database: { status: database ? 'up' : 'down', driver: deps.database.kind },
      queue: { status: queue ? 'up' : 'down', driver: deps.queue.driver },
    });
  });
  return router;
}

/** GET /admin/queues without Redis: the jobs that failed every attempt (platform/queue/board.ts). */
const failedJobsBody = z.object({
  driver: z.literal('inprocess'),
  failed_jobs: z.array(z.object({
    queue: z.string(),
    job_id: z.string(),
    ordering_key: z.string().nullable(),
    attempts: z.number().int(),
    error: z.string(),
    payload: z.unknown(),
    failed_at: z.string(),
  })),
});

const healthBody = z.object({
  status: z.enum(['healthy', 'unhealthy']),
  database: z.object({ status: z.enum(['up', 'down']), driver: z.enum(['postgres', 'pglite']) }),
  queue: z.object({ status: z.enum(['up', 'down']), driver: z.enum(['bullmq', 'inprocess']) }),
});

/** The site-root endpoints outside ApiRouter, so /openapi.json lists every endpoint that exists. */
export function documentSiteRoutes(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get', path: '/health', tags: ['Service'], summary: 'Health: database and queue state', security: [],
    responses: {
      200: { description: 'Healthy', content: { 'application/json': { schema: healthBody } } },
      503: { description: 'The database is unreachable', content: { 'application/json': { schema: healthBody } } },
    },
  });
  registry.registerPath({
    method: 'get', path: '/admin/queues', tags: ['Operators'],
    summary: 'Bull Board over every queue (HTTP Basic: user admin, password ADMIN_TOKEN); with in-process jobs, the failed jobs as JSON',
    security: [{ adminBasic: [] }],
    responses: {
      200: {
        description: 'The Bull Board page, or {driver, failed_jobs} in the single-process mode',
        content: { 'text/html': { schema: z.string() }, 'application/json': { schema: failedJobsBody } },
      },
      401: errorResponse('Wrong or missing credentials'),
      404: errorResponse('ADMIN_TOKEN is not set'),
    },
  });
}
