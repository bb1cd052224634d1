import { Client } from 'pg';
import { Redis } from 'ioredis';
import { queuePrefix } from '../src/platform/queue';
import { bullQueues, unfinishedJobs } from '../test/helpers/bull';

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
  const queues = bullQueues(connection, queuePrefix(redis.keyPrefix));
  try {
    for (;;) {
      const pending = Object.values(await unfinishedJobs(queues)).reduce((a, b) => a + b, 0);
      if (pending === 0) break;
      if (Date.now() - started > timeoutMs) {
        console.warn(`the worker still has ${pending} jobs after ${timeoutMs / 1000} s; measuring anyway`);
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await Promise.all([...queues.values()].map((q) => q.close()));
    connection.disconnect();
  }
  return Math.round((Date.now() - started) / 100) / 10;
}

/**
 * Writes PostgreSQL's dirty pages out before a measurement (CHECKPOINT), so it does not share the
 * disk with a checkpoint of what earlier scenarios stored (the analytics seed writes about 1 GB of
 * WAL): a figure measures its scenario, not where it fell in the run. The bench connects as a
 * superuser (CHECKPOINT needs one, or pg_checkpoint). Nothing to do in embedded mode (no database
 * URL).
 */
export async function databaseSettled(databaseUrl: string | undefined): Promise<void> {
  if (!databaseUrl) return;
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('CHECKPOINT');
  } finally {
    await client.end();
  }
}
