import type { Redis } from 'ioredis';

/** Counts requests per subject per UTC day. */
export interface DailyCounter {
  /** Adds one hit and returns the subject's count for that day (this hit included). */
  increment(day: string, subject: string, ttlSeconds: number): Promise<number>;
}

/** `YYYY-MM-DD` of the UTC day `now` falls in. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Whole seconds from `nowMs` until `midnightMs`, at least 1 (what Retry-After and RateLimit-Reset report). */
const secondsUntil = (midnightMs: number, nowMs: number) => Math.max(1, Math.ceil((midnightMs - nowMs) / 1000));

/** Whole seconds until the next UTC midnight, at least 1 (what Retry-After and RateLimit-Reset report). */
export function secondsUntilUtcMidnight(now: Date): number {
  return secondsUntil(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1), now.getTime());
}

const DAY_MS = 86_400_000;

/**
 * utcDay and secondsUntilUtcMidnight for a request's time, with the day's label built once per
 * day instead of once per request.
 */
export function createUtcDayClock(): (at: Date) => { day: string; resetSeconds: number } {
  let start = 0;
  let end = -1;
  let day = '';
  return (at) => {
    const ms = at.getTime();
    if (ms < start || ms >= end) {
      start = Math.floor(ms / DAY_MS) * DAY_MS;
      end = start + DAY_MS;
      day = utcDay(at);
    }
    return { day, resetSeconds: secondsUntil(end, ms) };
  };
}

/** One process's counters. Only the current day is kept: the map is replaced when the day changes. */
export function createMemoryDailyCounter(): DailyCounter {
  let currentDay = '';
  let counts = new Map<string, number>();
  return {
    async increment(day, subject) {
      if (day !== currentDay) {
        currentDay = day;
        counts = new Map();
      }
      const count = (counts.get(subject) ?? 0) + 1;
      counts.set(subject, count);
      return count;
    },
  };
}

/** INCR, and the key's expiry on the day's first hit: one command and one reply per request. */
const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return count`;

type CountingPipeline = ReturnType<Redis['pipeline']> & { dailyCounterIncrement(key: string, ttlSeconds: number): unknown };

interface PendingIncrement {
  key: string;
  ttlSeconds: number;
  resolve(count: number): void;
  reject(err: unknown): void;
}

/**
 * Counters shared by every `web` process: one key per subject and day, counted by a script. The
 * key outlives its day by an hour so clock skew between processes cannot reset a counter early.
 * The increments of all requests handled in one turn of the event loop go out as one pipeline
 * (one write and one read on the socket instead of one per request); each still gets its own
 * count back, in order, so the quota is exact across processes.
 */
export function createRedisDailyCounter(redis: Redis, keyPrefix: string): DailyCounter {
  if (!('dailyCounterIncrement' in redis)) redis.defineCommand('dailyCounterIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
  let pending: PendingIncrement[] = [];

  const flush = () => {
    const batch = pending;
    pending = [];
    const pipeline = redis.pipeline() as CountingPipeline;
    for (const item of batch) pipeline.dailyCounterIncrement(item.key, item.ttlSeconds);
    pipeline.exec().then(
      (results) => {
        batch.forEach((item, i) => {
          const [err, count] = results?.[i] ?? [new Error('no reply from Redis for a quota increment'), null];
          if (err) item.reject(err);
          else item.resolve(Number(count));
        });
      },
      (err: unknown) => {
        for (const item of batch) item.reject(err);
      },
    );
  };

  return {
    increment(day, subject, ttlSeconds) {
      return new Promise<number>((resolve, reject) => {
        if (pending.length === 0) setImmediate(flush);
        pending.push({ key: `${keyPrefix}${day}:${subject}`, ttlSeconds: ttlSeconds + 3600, resolve, reject });
      });
    },
  };
}
