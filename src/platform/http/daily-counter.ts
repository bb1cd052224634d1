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

/** Whole seconds until the next UTC midnight, at least 1 (what Retry-After and RateLimit-Reset report). */
export function secondsUntilUtcMidnight(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
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
 * Counters shared by every `web` process: one key per subject and day,
 * INCR plus EXPIRE in one round trip. The key outlives its day by an hour so
 * clock skew between processes cannot reset a counter early.
 */
export function createRedisDailyCounter(redis: Redis, keyPrefix: string): DailyCounter {
  return {
    async increment(day, subject, ttlSeconds) {
      const key = `${keyPrefix}${day}:${subject}`;
      const results = await redis.multi().incr(key).expire(key, ttlSeconds + 3600).exec();
      const [err, count] = results?.[0] ?? [new Error('empty Redis transaction result'), null];
      if (err) throw err;
      return Number(count);
    },
  };
}
