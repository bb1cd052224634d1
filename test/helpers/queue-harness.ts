import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { createLogger } from '../../src/platform/logger';
import { createJobQueue, startWorkers, type JobQueue, type Processors } from '../../src/platform/queue';

/** Test queues: tiny back-off so retries finish quickly. */
export const testQueues = {
  ordered: {
    payload: z.object({ key: z.string(), n: z.number().int(), ms: z.number().int(), failAttempts: z.number().int() }),
    attempts: 3,
    backoffMs: 10,
    concurrency: 4,
  },
  flaky: {
    payload: z.object({ id: z.string(), failTimes: z.number().int(), unrecoverable: z.boolean().default(false) }),
    attempts: 3,
    backoffMs: 20,
  },
  gated: { payload: z.object({ id: z.string() }), attempts: 1 },
};
export type TestQueues = typeof testQueues;

export interface Harness {
  queue: JobQueue<TestQueues>;
  /** Stops taking jobs and waits for running ones (the queue and, for BullMQ, every worker). */
  stop(): Promise<void>;
}

export const silentLogger = createLogger('silent');

export function inProcessHarness(processors: Processors<TestQueues>): Harness {
  const queue = createJobQueue({ definitions: testQueues, logger: silentLogger, processors: () => processors });
  return { queue, stop: () => queue.close() };
}

/** A unique Redis prefix per test file run, and its clean-up. */
export function redisPrefix(name: string): string {
  return `test-${name}-${crypto.randomBytes(4).toString('hex')}`;
}

export async function deleteRedisPrefix(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
  await redis.quit();
}

/** A BullMQ producer plus `workerProcesses` independent worker sets, as separate processes would have. */
export function bullHarness(redisUrl: string, prefix: string, processors: Processors<TestQueues>, workerProcesses = 2): Harness {
  const queue = createJobQueue({ definitions: testQueues, logger: silentLogger, redisUrl, prefix });
  const closers = Array.from({ length: workerProcesses }, () =>
    startWorkers({ definitions: testQueues, redisUrl, prefix, processors, logger: silentLogger, orderingPollMs: 20 }),
  );
  return {
    queue,
    stop: async () => {
      await Promise.all(closers.map((close) => close()));
      await queue.close();
    },
  };
}

/** Polls until check() is truthy (tests bound the wait with their own timeout). */
export async function waitFor(check: () => boolean | Promise<boolean>, intervalMs = 10): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, intervalMs));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
