import { Redis } from 'ioredis';
import type { Logger } from './logger';

/** A request-path command (rate-limit and quota counters) waits at most this long for Redis's answer. */
export const REQUEST_COMMAND_TIMEOUT_MS = 1000;
/** After a call timed out, calls skip Redis this long; then one trial call goes out again. */
export const REDIS_RETRY_AFTER_MS = 5000;

/** Refused without asking Redis: it is known to be unreachable, or not answering, right now. */
export class RedisUnavailableError extends Error {
  constructor() {
    super('Redis is unreachable');
    this.name = 'RedisUnavailableError';
  }
}

/**
 * Whether a request may wait on a Redis client: a circuit over the connection's own state. Redis
 * is down (calls fail at once, nothing waits) when the connection failed since it was last ready
 * (refused, reset, unreachable: ioredis reconnects by itself, and `ready` closes the circuit), or
 * when a call timed out within REDIS_RETRY_AFTER_MS (connected but not answering); after that
 * while one trial call goes out, the others still skip. Before the first connection has either
 * succeeded or failed, calls wait for it (bounded by the client's time-outs).
 */
export interface RedisAvailability {
  up(): boolean;
  /** Runs `call` unless Redis is down (RedisUnavailableError at once); a call that times out opens the circuit. */
  guard<T>(call: () => Promise<T>): Promise<T>;
  /** Redis did not answer in time (a command or a wait for the connection): skip it for a while. */
  timedOut(): void;
}

const trackers = new WeakMap<Redis, RedisAvailability>();
const isTimeout = (err: unknown) => err instanceof Error && /timed out/i.test(err.message);

/** The availability of a client, created on first use (its listeners then follow the connection). */
export function availabilityOf(client: Redis, now: () => number = Date.now): RedisAvailability {
  const known = trackers.get(client);
  if (known) return known;
  let failedSinceReady = false;
  let timedOutAt: number | null = null;
  let trialRunning = false;
  client.on('error', () => {
    failedSinceReady = true;
  });
  client.on('close', () => {
    failedSinceReady = true;
  });
  client.on('ready', () => {
    failedSinceReady = false;
    timedOutAt = null;
  });
  const state = (): 'up' | 'down' | 'trial' => {
    if (client.status === 'end' || (failedSinceReady && client.status !== 'ready')) return 'down';
    if (timedOutAt === null) return 'up';
    return now() - timedOutAt >= REDIS_RETRY_AFTER_MS && !trialRunning ? 'trial' : 'down';
  };
  const availability: RedisAvailability = {
    up: () => state() !== 'down',
    timedOut: () => {
      timedOutAt = now();
    },
    async guard(call) {
      const s = state();
      if (s === 'down') throw new RedisUnavailableError();
      const trial = s === 'trial';
      if (trial) trialRunning = true;
      try {
        const result = await call();
        timedOutAt = null;
        return result;
      } catch (err) {
        if (isTimeout(err)) timedOutAt = now();
        // Any other answer (an error reply) came from a Redis that answers.
        else if (trial) timedOutAt = null;
        throw err;
      } finally {
        if (trial) trialRunning = false;
      }
    },
  };
  trackers.set(client, availability);
  return availability;
}

/**
 * An ioredis client for request-path use (rate-limit and quota counters). A request never waits on
 * an outage: commands go through `availabilityOf(client).guard`, which fails them at once while
 * Redis is down; each command waits at most REQUEST_COMMAND_TIMEOUT_MS for its answer (the first
 * connection's included), and one reconnect attempt at most when the connection drops under it.
 * (BullMQ opens its own connections: queue/redis.ts.)
 */
export function createRedisClient(url: string, logger: Logger, now: () => number = Date.now): Redis {
  const client = new Redis(url, {
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: REQUEST_COMMAND_TIMEOUT_MS,
  });
  availabilityOf(client, now);
  // Without a listener ioredis prints every failed reconnect; log it once per state change instead.
  let healthy = true;
  client.on('error', (err: Error) => {
    if (healthy) logger.error({ err }, 'redis connection error');
    healthy = false;
  });
  client.on('ready', () => {
    if (!healthy) logger.info('redis connection restored');
    healthy = true;
  });
  return client;
}

/** Closes gracefully (QUIT), falling back to a hard disconnect when the server is unreachable. */
export async function closeRedisClient(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}
