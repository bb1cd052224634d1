import type { Request, RequestHandler } from 'express';
import { rateLimit, ipKeyGenerator, MemoryStore, type Options, type Store } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { availabilityOf, createRedisClient, closeRedisClient, isRedisConnectionError } from '../redis';
import { AppError } from './errors';
import type { Tier } from './auth';
import { createMemoryDailyCounter, createRedisDailyCounter, createUtcDayClock, type DailyCounter } from './daily-counter';

export const RATE_LIMIT_DETAIL = 'Rate limit exceeded';
export const QUOTA_DETAIL = 'Daily request quota exceeded';

export interface Limits {
  /** Per-IP limit of POST /auth/register (RATE_LIMIT_REGISTER_PER_MIN). */
  register: RequestHandler;
  /** Per-IP limit of POST /auth/login (RATE_LIMIT_LOGIN_PER_MIN). */
  login: RequestHandler;
  /**
   * Per-account limit of re-running a bill's audit (RATE_LIMIT_AUDIT_PER_MIN): each re-prices every
   * bill of a meter now, in the request. Runs after authentication (the account is the key).
   */
  audit: RequestHandler;
  /** Daily quota of the caller's tier (anonymous: per IP at the Free quota). Runs after authentication. */
  quota: RequestHandler;
  /**
   * Per-IP limit of the requests a route refuses with a 4xx (RATE_LIMIT_WEBHOOK_REFUSED_PER_MIN),
   * for the unauthenticated webhook receiver: answered requests (2xx) and 5xx do not count, so a
   * provider's steady stream of signed events is never limited; past the limit an address gets 429
   * for the rest of the minute. Counted in each process's memory, off the path to Redis.
   */
  refusals: RequestHandler;
  /**
   * Where the counters are, and whether that store answers now (/health): memory is always up; a
   * Redis store is asked (a PING, or nothing at all while it is known to be down).
   */
  storeStatus(): Promise<{ store: 'redis' | 'memory'; up: boolean }>;
  close(): Promise<void>;
}

export interface LimitsDeps {
  config: Pick<Config, 'limits' | 'redisUrl' | 'redisKeyPrefix'>;
  logger: Logger;
  now: () => Date;
}

/** Requests a caller may make per UTC day; null means unlimited (Enterprise). Anonymous callers get the Free quota. */
export function dailyQuotaFor(tier: Tier | null, limits: Config['limits']): number | null {
  if (tier === 'enterprise') return null;
  if (tier === 'pro') return limits.quotaProPerDay;
  return limits.quotaFreePerDay;
}

/** The address a limit counts by (an IPv6 client by its /56). */
function clientIp(req: Request): string {
  return ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown');
}

/** rate-limit-redis keeps a failed SCRIPT LOAD (Redis down at start) for ever; load the script again after a failure. */
class RecoveringRedisStore extends RedisStore {
  override async increment(key: string) {
    try {
      return await super.increment(key);
    } catch (err) {
      this.incrementScriptSha = this.loadIncrementScript();
      this.incrementScriptSha.catch(() => undefined);
      throw err;
    }
  }
}

/**
 * Logs a counter that failed, unless it failed with Redis's outage (skipped while known down,
 * unreachable, or a command that timed out while the connection was failing): the client logs an
 * outage once (platform/redis.ts logOutages), where each request would log it per limiter, with a
 * stack. A command that timed out on a connected Redis (stalled) is one line, without a stack.
 */
function logCounterError(logger: Logger, redis: Redis | undefined, err: unknown, fields: Record<string, unknown>, msg: string): void {
  if (isRedisConnectionError(err)) return;
  if (err instanceof Error && /timed out/i.test(err.message)) {
    if (redis?.status === 'ready') logger.warn({ ...fields, reason: err.message }, `${msg} (Redis did not answer in time)`);
    return;
  }
  logger.error({ err, ...fields }, msg);
}

/** The account a limit counts by (its token and API keys alike); an unauthenticated request by its address. */
function callerKey(req: Request): string {
  return req.user ? `user:${req.user.id}` : `ip:${clientIp(req)}`;
}

function perMinuteLimiter(
  name: string,
  perMinute: number,
  store: Store,
  logger: Logger,
  redis: Redis | undefined,
  keyGenerator: (req: Request) => string = clientIp,
): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    // draft-6: RateLimit-Limit / RateLimit-Remaining / RateLimit-Reset on every response, Retry-After on a 429.
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    store,
    keyGenerator,
    handler: (_req, _res, next) => next(new AppError(429, RATE_LIMIT_DETAIL)),
    // A Redis outage must not lock everybody out of login; the error is logged.
    passOnStoreError: true,
    logger: {
      error: (err, msg) => logCounterError(logger, redis, err, { limiter: name }, msg ?? 'rate limiter error'),
      warn: (err, msg) => logger.warn({ err, limiter: name }, msg ?? 'rate limiter warning'),
    },
  });
}

const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const;

/**
 * A per-minute limit on a route that the daily quota also counts: its RateLimit-* headers are those
 * of the limit with fewer requests remaining (the one the caller meets first); a 429 carries the
 * headers of the limit that refused it.
 */
function withinQuota(limiter: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const quota = RATE_LIMIT_HEADERS.map((h) => res.getHeader(h));
    void limiter(req, res, (err?: unknown) => {
      const quotaRemaining = quota[1];
      if (err === undefined && quotaRemaining !== undefined && Number(quotaRemaining) < Number(res.getHeader('RateLimit-Remaining'))) {
        RATE_LIMIT_HEADERS.forEach((h, i) => res.setHeader(h, quota[i]!));
      }
      next(err);
    });
  };
}

/** Refusals of unverified deliveries, the ones counted: 401 (bad or missing signature), 413 (too large). */
const REFUSED_STATUSES = new Set([401, 413]);

/**
 * Limits.refusals. A refusal is counted once it is answered, never a request on arrival: a limiter
 * that counts each request and forgives it when answered 2xx (express-rate-limit's
 * skipSuccessfulRequests) refuses a provider's burst while more requests than the limit are in
 * flight. A signed event the service refuses (422: its time too far ahead, nested too deep) is
 * the provider's and is not counted either.
 */
function refusalLimiter(perMinute: number, store: MemoryStore): RequestHandler {
  store.init({ windowMs: 60_000 } as Options);
  return async (req, res, next) => {
    const key = clientIp(req);
    const counted = await store.get(key);
    if (counted && counted.totalHits >= perMinute) {
      const resetSeconds = Math.max(1, Math.ceil(((counted.resetTime?.getTime() ?? Date.now()) - Date.now()) / 1000));
      res.setHeader('Retry-After', String(resetSeconds));
      return next(new AppError(429, RATE_LIMIT_DETAIL));
    }
    res.once('finish', () => {
      if (REFUSED_STATUSES.has(res.statusCode)) void store.increment(key);
    });
    next();
  };
}

/**
 * Rate limits (express-rate-limit) and daily quotas. With REDIS_URL their
 * counters live in Redis, so several `web` processes share them; otherwise in
 * this process's memory.
 */
export function createLimits(deps: LimitsDeps): Limits {
  const { config, logger, now } = deps;
  const prefix = config.redisKeyPrefix;
  const redis: Redis | undefined = config.redisUrl ? createRedisClient(config.redisUrl, logger, () => now().getTime()) : undefined;
  // Every counter command goes through the circuit: while Redis is down a request skips it at once.
  const redisCall = redis ? availabilityOf(redis).guard : undefined;
  const memoryStores: MemoryStore[] = [];
  const storeFor = (name: string): Store => {
    if (redis) {
      return new RecoveringRedisStore({
        prefix: `${prefix}rl:${name}:`,
        sendCommand: (command: string, ...args: string[]) => redisCall!(() => redis.call(command, ...args) as Promise<RedisReply>),
      });
    }
    const store = new MemoryStore();
    memoryStores.push(store);
    return store;
  };
  const counter: DailyCounter = redis ? createRedisDailyCounter(redis, `${prefix}quota:`) : createMemoryDailyCounter();

  const dayOf = createUtcDayClock();
  const quota: RequestHandler = async (req, res, next) => {
    const user = req.user;
    const limit = dailyQuotaFor(user ? user.tier : null, config.limits);
    if (limit === null) return next();
    const { day, resetSeconds: reset } = dayOf(now());
    let count: number;
    try {
      const subject = user ? `user:${user.id}` : `ip:${clientIp(req)}`;
      count = await (redisCall ? redisCall(() => counter.increment(day, subject, reset)) : counter.increment(day, subject, reset));
    } catch (err) {
      // Same choice as the rate limiters: an unreachable Redis lets requests through, loudly.
      logCounterError(logger, redis, err, {}, 'quota counter unavailable, request allowed');
      return next();
    }
    res.setHeader('RateLimit-Limit', String(limit));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, limit - count)));
    res.setHeader('RateLimit-Reset', String(reset));
    if (count > limit) {
      res.setHeader('Retry-After', String(reset));
      return next(new AppError(429, QUOTA_DETAIL, { code: 'quota_exceeded' }));
    }
    next();
  };

  const refusalStore = new MemoryStore();
  memoryStores.push(refusalStore);

  return {
    register: perMinuteLimiter('register', config.limits.registerPerMin, storeFor('register'), logger, redis),
    login: perMinuteLimiter('login', config.limits.loginPerMin, storeFor('login'), logger, redis),
    audit: withinQuota(perMinuteLimiter('audit', config.limits.auditPerMin, storeFor('audit'), logger, redis, callerKey)),
    quota,
    storeStatus: async () => {
      if (!redis) return { store: 'memory', up: true };
      try {
        return { store: 'redis', up: (await redisCall!(() => redis.ping())) === 'PONG' };
      } catch {
        return { store: 'redis', up: false };
      }
    },
    refusals: refusalLimiter(config.limits.webhookRefusedPerMin, refusalStore),
    close: async () => {
      for (const store of memoryStores) store.shutdown();
      if (redis) await closeRedisClient(redis);
    },
  };
}
