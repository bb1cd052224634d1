import { Router, type RequestHandler } from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Config } from '../config';
import { notFound, unauthorized } from '../http/errors';
import { safeEqual } from '../http/auth';
import { methodNotAllowedError } from '../http/method-not-allowed';
import type { JobQueue, QueueDefinitions } from './types';

export const QUEUE_BOARD_PATH = '/admin/queues';
const REALM = 'Basic realm="queues"';

/** HTTP Basic, user `admin`, password ADMIN_TOKEN; the whole board is 404 when ADMIN_TOKEN is unset. */
function basicAuth(adminToken: string | undefined): RequestHandler {
  return (req, _res, next) => {
    if (!adminToken) throw notFound('Not Found');
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.headers.authorization ?? '');
    const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    const sep = decoded.indexOf(':');
    const user = sep >= 0 ? decoded.slice(0, sep) : '';
    const password = sep >= 0 ? decoded.slice(sep + 1) : '';
    // Both compared every time, so the answer's timing does not tell which one was wrong.
    const userOk = safeEqual(user, 'admin');
    const passwordOk = safeEqual(password, adminToken);
    if (!(userOk && passwordOk)) throw unauthorized('Not authenticated', REALM);
    next();
  };
}

/**
 * The operator's view of the queues at /admin/queues (site root).
 * BullMQ driver: Bull Board over every queue. In-process driver (no Redis, so no Bull Board):
 * GET /admin/queues answers the recent finally-failed jobs as JSON.
 */
export function queueBoardRouter<D extends QueueDefinitions>(deps: { config: Pick<Config, 'adminToken'>; queue: JobQueue<D> }): Router {
  const router = Router();
  // The board's page answers GET only: another method is a 405 with Allow, before the credentials are
  // asked for, as every other path of the service answers (404 first when ADMIN_TOKEN is unset).
  router.all(QUEUE_BOARD_PATH, (req, _res, next) => {
    if (!deps.config.adminToken || ['GET', 'HEAD', 'OPTIONS'].includes(req.method)) return next();
    throw methodNotAllowedError(['GET']);
  });
  router.use(QUEUE_BOARD_PATH, basicAuth(deps.config.adminToken));
  const queue = deps.queue;
  if (queue.driver === 'bullmq') {
    const serverAdapter = new ExpressAdapter().setBasePath(QUEUE_BOARD_PATH);
    createBullBoard({ queues: queue.bullQueues().map((q) => new BullMQAdapter(q)), serverAdapter });
    router.use(QUEUE_BOARD_PATH, serverAdapter.getRouter());
  } else {
    router.get(QUEUE_BOARD_PATH, (_req, res) => {
      res.json({
        driver: 'inprocess',
        failed_jobs: queue.failedJobs().map((j) => ({
          queue: j.queue,
          job_id: j.jobId,
          ordering_key: j.orderingKey ?? null,
          attempts: j.attempts,
          error: j.error,
          payload: j.payload,
          failed_at: j.failedAt,
        })),
      });
    });
  }
  return router;
}
