import { Redis } from 'ioredis';
import type { Logger } from './logger';
import { describeRedisError } from './startup-error';

/** A request-path command (rate-limit and quota counters) waits at most this long for Redis's answer. */
export const REQUEST_COMMAND_TIMEOUT_MS = 1000;
/** After a call timed out, calls skip Redis this long; then one trial call goes out again. */
export const REDIS_RETRY_AFTER_MS = 5000;

/**
 * Redis out of reach: a state of the deployment, reported once by logOutages, so its stack is its one
 * line (a stack would only repeat where it was noticed, per request or tick).
 */
export class RedisOutageError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
    this.stack = `${name}: ${message}`;
  }
}

/** Refused without asking Redis: it is known to be unreachable, or not answering, right now. */
export class RedisUnavailableError extends RedisOutageError {
  constructor() {
    super('RedisUnavailableError', 'Redis is unreachable');
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
  logOutages(client, logger);
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

/** What one Redis server's outage log knows: the clients failing now, and whether the log says it is down. */
interface OutageState {
  failing: Set<Redis>;
  down: boolean;
}
const outages = new Map<string, OutageState>();
const outageOf = (where: string) => {
  let state = outages.get(where);
  if (!state) outages.set(where, (state = { failing: new Set(), down: false }));
  return state;
};
const whereOf = (client: Redis) => `${client.options.host ?? 'localhost'}:${client.options.port ?? 6379}`;

/**
 * The start-up check has logged that the Redis of `redisUrl` is unreachable (workers/roles.ts): the
 * clients' first failures are that same outage, and the next line is the one saying it is back.
 */
export function redisOutageAnnounced(redisUrl: string): void {
  try {
    const u = new URL(redisUrl);
    outageOf(`${u.hostname || 'localhost'}:${u.port || 6379}`).down = true;
  } catch {
    // An unparsable URL never connects: the clients' own failures are logged.
  }
}

/**
 * Logs a Redis outage as this process sees it in one line when it starts and one when it ends, however
 * many clients see it (the counters' client, the queue producer, the workers' connection) and however
 * often they retry (ioredis reconnects by itself, every few hundred ms): without it each client, and
 * BullMQ for each queue, logged every failed attempt with its stack. The outage starts when the first
 * client of the server fails and ends when the last failing one is ready again. No stack: an
 * unreachable server is a state of the deployment, not a fault of the code, and the line says which.
 */
export function logOutages(client: Redis, logger: Logger): void {
  const where = whereOf(client);
  const state = outageOf(where);
  client.on('error', (err: unknown) => {
    state.failing.add(client);
    if (state.down) return;
    state.down = true;
    logger.warn(
      { redis: where, reason: describeRedisError(err) },
      `Redis at ${where} (REDIS_URL) is unreachable: ${describeRedisError(err)}. Retrying in the background; until it ` +
        'answers, rate limits and quotas are not enforced and jobs are not queued (GET /health says degraded).',
    );
  });
  client.on('ready', () => {
    state.failing.delete(client);
    if (!state.down || state.failing.size > 0) return;
    state.down = false;
    logger.info({ redis: where }, `Redis at ${where} (REDIS_URL) answers again: rate limits, quotas and job queueing use it again.`);
  });
  client.on('end', () => state.failing.delete(client));
}

/** Whether an error is Redis being out of reach (an outage logOutages reports), not a command's own failure. */
export function isRedisConnectionError(err: unknown): boolean {
  if (err instanceof RedisUnavailableError || (err instanceof Error && err.name === 'QueueUnavailableError')) return true;
  const e = err as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === 'string' && /^E[A-Z_]+$/.test(e.code)) return true;
  return (
    typeof e?.message === 'string' &&
    /Connection is closed|Stream isn't writeable|max retries per request|ECONNREFUSED|ETIMEDOUT/i.test(e.message)
  );
}
