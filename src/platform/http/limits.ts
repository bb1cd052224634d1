import type { Request, RequestHandler } from 'express';
import { rateLimit, ipKeyGenerator, MemoryStore, type Store } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { createRedisClient, closeRedisClient } from '../redis';
import { AppError } from './errors';
import type { Tier } from './auth';
import {
  createMemoryDailyCounter,
  createRedisDailyCounter,
  createUtcDayClock,
  type DailyCounter,
} from './daily-counter';

export const RATE_LIMIT_DETAIL = 'Rate limit exceeded';
export const QUOTA_DETAIL = 'Daily request quota exceeded';

export interface Limits {
  /** Per-IP limit of POST /auth/register (RATE_LIMIT_REGISTER_PER_MIN). */
  register: RequestHandler;
  /** Per-IP limit of POST /auth/login (RATE_LIMIT_LOGIN_PER_MIN). */
  login: RequestHandler;
  /** Daily quota of the caller's tier (anonymous: per IP at the Free quota). Runs after authentication. */
  quota: RequestHandler;
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

function perMinuteLimiter(name: string, perMinute: number, store: Store, logger: Logger): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    // draft-6: RateLimit-Limit / RateLimit-Remaining / RateLimit-Reset on every response, Retry-After on a 429.
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    store,
    keyGenerator: clientIp,
    handler: (_req, _res, next) => next(new AppError(429, RATE_LIMIT_DETAIL)),
    // A Redis outage must not lock everybody out of login; the error is logged.
    passOnStoreError: true,
    logger: {
      error: (err, msg) => logger.error({ err, limiter: name }, msg ?? 'rate limiter error'),
      warn: (err, msg) => logger.warn({ err, limiter: name }, msg ?? 'rate limiter warning'),
    },
  });
}

/**
 * Rate limits (express-rate-limit) and daily quotas. With REDIS_URL their
 * counters live in Redis, so several `web` processes share them; otherwise in
 * this process's memory.
 */
export function createLimits(deps: LimitsDeps): Limits {
  const { config, logger, now } = deps;
  const prefix = config.redisKeyPrefix;
  const redis: Redis | undefined = config.redisUrl ? createRedisClient(config.redisUrl, logger) : undefined;
  const memoryStores: MemoryStore[] = [];
  const storeFor = (name: string): Store => {
    if (redis) {
      return new RecoveringRedisStore({
        prefix: `${prefix}rl:${name}:`,
        sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<RedisReply>,
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
      count = await counter.increment(day, user ? `user:${user.id}` : `ip:${clientIp(req)}`, reset);
    } catch (err) {
      // Same choice as the rate limiters: an unreachable Redis lets requests through, loudly.
      logger.error({ err }, 'quota counter unavailable, request allowed');
      return next();
    }
    res.setHeader('RateLimit-Limit', String(limit));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, limit - count)));
    res.setHeader('RateLimit-Reset', String(reset));
    if (count > limit) {
      res.setHeader('Retry-After', String(reset));
      return next(new AppError(429, QUOTA_DETAIL));
    }
    next();
  };

  return {
    register: perMinuteLimiter('register', config.limits.registerPerMin, storeFor('register'), logger),
    login: perMinuteLimiter('login', config.limits.loginPerMin, storeFor('login'), logger),
    quota,
    close: async () => {
      for (const store of memoryStores) store.shutdown();
      if (redis) await closeRedisClient(redis);
    },
  };
}
