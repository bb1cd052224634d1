import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { appQueues } from '../src/queues';
import { queuePrefix } from '../src/platform/queue';

/**
 * Waits until the worker process has no job waiting, delayed or running (PostgreSQL mode with the
 * Procfile roles), so a throughput figure measures the request path, not the request path sharing
 * the machine with a rebuild the worker happens to be doing (start-up sweeps, the rollups a seed
 * queued). Gives up after `timeoutMs` and says so. Returns the seconds waited.
 */
export async function workersIdle(redis: { url: string; keyPrefix: string } | undefined, timeoutMs = 120_000): Promise<number> {
  if (!redis) return 0;
  const started = Date.now();
  const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
  const queues = Object.keys(appQueues).map((name) => new Queue(name, { connection, prefix: queuePrefix(redis.keyPrefix) }));
  try {
    for (;;) {
      const counts = await Promise.all(queues.map((q) => q.getJobCounts('wait', 'active', 'delayed', 'prioritized', 'paused')));
      const pending = counts.reduce((n, c) => n + Object.values(c).reduce((a, b) => a + b, 0), 0);
      if (pending === 0) break;
      if (Date.now() - started > timeoutMs) {
        console.warn(`the worker still has ${pending} jobs after ${timeoutMs / 1000} s; measuring anyway`);
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await Promise.all(queues.map((q) => q.close()));
    connection.disconnect();
  }
  return Math.round((Date.now() - started) / 100) / 10;
}
