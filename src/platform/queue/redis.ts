import { Redis } from 'ioredis';
import type { Logger } from '../logger';
import { availabilityOf, logOutages, RedisOutageError } from '../redis';

/** How long a producer waits for a (re)connecting Redis before enqueue fails. */
export const PRODUCER_CONNECT_TIMEOUT_MS = 2000;

/** An enqueue refused because Redis is out of reach: an outage the process logs once (platform/redis.ts logOutages). */
export class QueueUnavailableError extends RedisOutageError {
  constructor() {
    super('QueueUnavailableError', 'Job queue unavailable: Redis is not reachable');
  }
}

/**
 * Producer connection: no offline queue and one retry per command, so a call
 * made while Redis is down fails at once instead of hanging an HTTP request.
 */
export function producerConnection(url: string, logger: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    connectTimeout: PRODUCER_CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  logOutages(redis, logger);
  // Follow the connection from the start: ensureReady asks whether it failed since it was last ready.
  availabilityOf(redis);
  return redis;
}

/** Worker connection: BullMQ requires maxRetriesPerRequest null for its blocking calls. */
export function workerConnection(url: string, logger: Logger): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null });
  logOutages(redis, logger);
  return redis;
}

/**
 * Resolves once the client is ready; rejects at once when it was closed or Redis is known to be
 * down (platform/redis.ts availabilityOf: the connection failed since it was last ready, or a wait
 * here timed out lately), so a request never waits on an outage. Only the first connection of a
 * client that has not failed yet is waited for, at most timeoutMs; a time-out then counts as an
 * outage, so the next callers do not wait again.
 */
export async function ensureReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return;
  if (redis.status === 'end') throw new Error('Job queue is closed');
  const availability = availabilityOf(redis);
  if (redis.status === 'reconnecting' || redis.status === 'close' || !availability.up()) {
    throw new QueueUnavailableError();
  }
  // Still connecting (just booted): wait for the outcome, but no longer than timeoutMs.
  await new Promise<void>((resolve, reject) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', onError);
      if (err) reject(err);
      else resolve();
    };
    const onReady = () => done();
    const onError = () => done(new QueueUnavailableError());
    const timer = setTimeout(() => {
      availability.timedOut();
      onError();
    }, timeoutMs);
    redis.once('ready', onReady);
    redis.once('error', onError);
  });
}

/** Closes a client whether or not it ever connected. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status === 'ready') {
    await redis.quit().catch(() => redis.disconnect());
  } else {
    // disconnect() ends a connecting client with an 'end' event; one waiting to reconnect just stops, without it.
    const ended = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 200);
      redis.once('end', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    redis.disconnect();
    await ended;
  }
  // Let promise chains waiting on this client (BullMQ's start-up) settle before their owners close.
  await new Promise((resolve) => setImmediate(resolve));
}
