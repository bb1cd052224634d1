import { Router } from 'express';
import type { PlatformDeps } from '../../context';

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
