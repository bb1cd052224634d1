import { utcDay } from '../dates';
import type { Redis } from 'ioredis';

/** Counts requests per subject per UTC day. */
export interface DailyCounter {
  /** Adds one hit and returns the subject's count for that day (this hit included). */
  increment(day: string, subject: string, ttlSeconds: number): Promise<number>;
}

export { utcDay };

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

/**
 * INCR each key in order, and set a key's expiry (its ARGV entry) on the day's first hit: one
 * command and one reply for every increment of a batch. A key whose INCR fails (not a counter)
 * gets its error in its own place of the reply; the others still count.
 */
const INCREMENT_MANY_SCRIPT = `
local counts = {}
for i, key in ipairs(KEYS) do
  local count = redis.pcall('INCR', key)
  if type(count) == 'number' and count == 1 then redis.call('EXPIRE', key, ARGV[i]) end
  counts[i] = count
end
return counts`;

/** Keys per script call: a turn of the event loop with more increments sends several calls. */
const MAX_KEYS_PER_CALL = 1000;

type CountingRedis = Redis & {
  dailyCounterIncrementMany(numberOfKeys: number, ...keysThenTtls: Array<string | number>): Promise<unknown[]>;
};

interface PendingIncrement {
  key: string;
  ttlSeconds: number;
  resolve(count: number): void;
  reject(err: unknown): void;
}

/**
 * Counters shared by every `web` process: one key per subject and day, counted by a script. The
 * key outlives its day by an hour so clock skew between processes cannot reset a counter early.
 * The increments of all requests handled in one turn of the event loop go out as one script call
 * (one command on the socket instead of one per request); each still gets its own count back, in
 * order, so the quota is exact across processes. One call rather than a pipeline of one command
 * per request: ioredis keeps each pipelined command reachable from its long-lived queues for a
 * while, so every one of them outlived the young generation and became old-space garbage; a
 * single call leaves almost nothing.
 */
export function createRedisDailyCounter(redis: Redis, keyPrefix: string): DailyCounter {
  if (!('dailyCounterIncrementMany' in redis)) redis.defineCommand('dailyCounterIncrementMany', { lua: INCREMENT_MANY_SCRIPT });
  const counting = redis as CountingRedis;
  let pending: PendingIncrement[] = [];

  const send = (batch: PendingIncrement[]) => {
    counting.dailyCounterIncrementMany(batch.length, ...batch.map((item) => item.key), ...batch.map((item) => item.ttlSeconds)).then(
      (counts) => {
        batch.forEach((item, i) => {
          const count = counts[i];
          if (count instanceof Error) item.reject(count);
          else if (typeof count !== 'number') item.reject(new Error('no count from Redis for a quota increment'));
          else item.resolve(count);
        });
      },
      (err: unknown) => {
        for (const item of batch) item.reject(err);
      },
    );
  };

  const flush = () => {
    const batch = pending;
    pending = [];
    for (let i = 0; i < batch.length; i += MAX_KEYS_PER_CALL) send(batch.slice(i, i + MAX_KEYS_PER_CALL));
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
