import { execFile } from 'node:child_process';
import fs from 'node:fs';
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
 * Writes PostgreSQL's dirty pages out before a measurement (CHECKPOINT), then whatever else the
 * kernel holds unwritten (sync(1): the processes' logs, at info level, grow through a full run),
 * so the measurement does not share the disk with the write-back of what earlier scenarios
 * stored. After the analytics seed (192,000 bills, about 1 GB of WAL) the checkpointer was still
 * writing when the webhook scenario ran, its commits waited in IO:WALSync, and every
 * acknowledgment of a 350-550 ms window was answered at once: p99 75-440 ms in such runs, 24-28 ms
 * in runs of its own. The bench connects as a superuser (CHECKPOINT needs one, or pg_checkpoint).
 * Returns the seconds it took; 0 without a database URL (embedded mode).
 */
export async function databaseSettled(databaseUrl: string | undefined): Promise<number> {
  if (!databaseUrl) return 0;
  const started = Date.now();
  const dirty = dirtyMiB();
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('CHECKPOINT');
  } finally {
    await client.end();
  }
  await new Promise<void>((resolve) => execFile('sync', () => resolve()));
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  console.log(`[settle] checkpoint and sync: ${seconds} s${dirty === null ? '' : ` (${dirty} MiB of dirty pages before)`}`);
  return seconds;
}

/** The kernel's dirty and under-write-back memory in MiB (/proc/meminfo), null where there is none. */
function dirtyMiB(): number | null {
  try {
    const info = fs.readFileSync('/proc/meminfo', 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(info)?.[1] ?? 0);
    return Math.round((kb('Dirty') + kb('Writeback')) / 1024);
  } catch {
    return null;
  }
}
