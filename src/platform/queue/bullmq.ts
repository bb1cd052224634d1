import crypto from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../logger';
import type { BullJobQueue, EnqueueOptions, EnqueueResult, QueueDefinition, QueueDefinitions } from './types';
import { checkJobId, parsePayload, retryPolicy } from './policy';
import { OrderingStore } from './ordering';
import { PRODUCER_CONNECT_TIMEOUT_MS, closeRedis, ensureReady, producerConnection } from './redis';

export const DEFAULT_PREFIX = 'bull';

/** What a BullMQ job carries: the payload as enqueued, its ordering key, and a nonce that tells a new job from a duplicate. */
export interface StoredJobData {
  payload: unknown;
  orderingKey?: string;
  nonce: string;
}

/** Finished jobs are kept this long: it is also the window in which a jobId deduplicates. */
export const KEEP_COMPLETED = { age: 24 * 3600, count: 1000 };
export const KEEP_FAILED = { age: 7 * 24 * 3600, count: 5000 };

function defaultJobOptions(def: QueueDefinition) {
  const { attempts, backoffMs } = retryPolicy(def);
  return {
    attempts,
    backoff: { type: 'exponential' as const, delay: backoffMs },
    removeOnComplete: KEEP_COMPLETED,
    removeOnFail: KEEP_FAILED,
  };
}

/** A BullMQ queue with its definition's job options, for the producer and the workers alike. */
export function openQueue(name: string, def: QueueDefinition, connection: Redis, prefix: string): Queue {
  const queue = new Queue(name, { connection, prefix, defaultJobOptions: defaultJobOptions(def) });
  // The connection logs its own errors; without a listener an 'error' event would crash the process.
  queue.on('error', () => undefined);
  return queue;
}

/** How long closing a queue waits for its start-up (connect, version check) to finish or fail. */
const STARTUP_SETTLE_MS = 2000;

/**
 * Closes a BullMQ queue once its start-up has settled. BullMQ reports a failed start-up as an
 * 'error' event, and closing removes the listeners: a start-up that fails after close (Redis
 * dropped mid-handshake) would be an unhandled 'error'. Waiting for it first avoids that.
 */
export async function closeQueue(queue: Queue): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bounded = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, STARTUP_SETTLE_MS);
  });
  await Promise.race([
    queue.waitUntilReady().then(
      () => undefined,
      () => undefined,
    ),
    bounded,
  ]);
  clearTimeout(timer);
  await queue.close();
}

export interface BullQueueOptions<D extends QueueDefinitions> {
  definitions: D;
  redisUrl: string;
  logger: Logger;
  prefix?: string;
}

/** Producer side of the BullMQ driver (workers: worker.ts). */
export function createBullQueue<D extends QueueDefinitions>(opts: BullQueueOptions<D>): BullJobQueue<D> {
  const { definitions, logger } = opts;
  const prefix = opts.prefix ?? DEFAULT_PREFIX;
  const redis = producerConnection(opts.redisUrl, logger);
  const ordering = new OrderingStore(redis, prefix);
  const queues = new Map<string, Queue>();
  for (const [name, def] of Object.entries(definitions)) queues.set(name, openQueue(name, def, redis, prefix));
  let closed = false;

  async function enqueue(queueName: string, payload: unknown, eo: EnqueueOptions = {}): Promise<EnqueueResult> {
    if (closed) throw new Error('Job queue is closed');
    parsePayload(definitions, queueName, payload);
    if (eo.jobId !== undefined) checkJobId(eo.jobId);
    const queue = queues.get(queueName)!;
    await ensureReady(redis, PRODUCER_CONNECT_TIMEOUT_MS);
    const jobId = eo.jobId ?? crypto.randomUUID();
    const data: StoredJobData = { payload, orderingKey: eo.orderingKey, nonce: crypto.randomUUID() };
    // BullMQ ignores an add whose id exists (and answers the job that was there): the stored
    // nonce tells whether ours was stored.
    await queue.add(queueName, data, { jobId, delay: eo.delayMs && eo.delayMs > 0 ? eo.delayMs : undefined });
    const stored = (await queue.getJob(jobId))?.data as Partial<StoredJobData> | undefined;
    const deduplicated = stored !== undefined && stored.nonce !== data.nonce;
    if (!deduplicated && eo.orderingKey !== undefined) await ordering.register(queueName, eo.orderingKey, jobId);
    return { jobId, deduplicated };
  }

  return {
    driver: 'bullmq',
    enqueue: enqueue as BullJobQueue<D>['enqueue'],
    bullQueues: () => [...queues.values()],
    async ping() {
      try {
        // Just booted: the first connection is waited for (bounded); an outage answers false at once.
        await ensureReady(redis, PRODUCER_CONNECT_TIMEOUT_MS);
        return (await redis.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      if (redis.status !== 'ready') {
        // Never connected: end the client first so BullMQ's pending start-up fails while its error listeners still exist.
        await closeRedis(redis);
      }
      await Promise.allSettled([...queues.values()].map(closeQueue));
      await closeRedis(redis);
    },
  };
}
