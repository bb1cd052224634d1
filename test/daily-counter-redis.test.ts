import { Redis } from 'ioredis';
import { createRedisDailyCounter } from '../src/platform/http/daily-counter';

/** The Redis daily counter on a real Redis (REDIS_URL); skipped without one, like the other Redis drivers. */
const describeWithRedis = process.env.REDIS_URL ? describe : describe.skip;

describeWithRedis('Redis daily counter', () => {
  let redis: Redis;
  const prefix = `test-daily-${process.pid}-${Date.now().toString(36)}:`;
  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('gives each increment of one turn its own count, in order, per subject; the next turn goes on counting', async () => {
    const counter = createRedisDailyCounter(redis, prefix);
    const firstTurn = [
      counter.increment('2026-11-24', 'user:a', 100),
      counter.increment('2026-11-24', 'user:a', 100),
      counter.increment('2026-11-24', 'ip:1.2.3.4', 100),
      counter.increment('2026-11-24', 'user:a', 100),
    ];
    expect(await Promise.all(firstTurn)).toEqual([1, 2, 1, 3]);
    expect(await counter.increment('2026-11-24', 'user:a', 100)).toBe(4);
    // Another day is another key.
    expect(await counter.increment('2026-11-25', 'user:a', 100)).toBe(1);
    expect(await redis.get(`${prefix}2026-11-24:user:a`)).toBe('4');
  });

  it("sets the key's expiry on the day's first hit: the seconds given plus an hour", async () => {
    const counter = createRedisDailyCounter(redis, prefix);
    await Promise.all([counter.increment('2026-11-26', 'user:ttl', 500), counter.increment('2026-11-26', 'user:ttl', 9)]);
    const ttl = await redis.ttl(`${prefix}2026-11-26:user:ttl`);
    expect(ttl).toBeGreaterThan(4000);
    expect(ttl).toBeLessThanOrEqual(4100);
  });

  it('counts two counters of one Redis (two web processes) as one', async () => {
    const web1 = createRedisDailyCounter(redis, prefix);
    const web2 = createRedisDailyCounter(redis, prefix);
    const counts = await Promise.all([
      web1.increment('2026-11-27', 'user:b', 100),
      web2.increment('2026-11-27', 'user:b', 100),
      web1.increment('2026-11-27', 'user:b', 100),
    ]);
    expect([...counts].sort()).toEqual([1, 2, 3]);
  });

  it('fails only the increment whose key is not a counter; the others of its turn count', async () => {
    await redis.set(`${prefix}2026-11-28:user:broken`, 'not a number');
    const counter = createRedisDailyCounter(redis, prefix);
    const results = await Promise.allSettled([
      counter.increment('2026-11-28', 'user:ok', 100),
      counter.increment('2026-11-28', 'user:broken', 100),
      counter.increment('2026-11-28', 'user:ok', 100),
    ]);
    expect(results[0]).toEqual({ status: 'fulfilled', value: 1 });
    expect(results[1]).toMatchObject({
      status: 'rejected',
      reason: expect.objectContaining({ message: expect.stringContaining('not an integer') }),
    });
    expect(results[2]).toEqual({ status: 'fulfilled', value: 2 });
  });

  it('counts a turn with more increments than one call carries', async () => {
    const counter = createRedisDailyCounter(redis, prefix);
    const counts = await Promise.all(Array.from({ length: 2500 }, () => counter.increment('2026-11-29', 'user:burst', 100)));
    expect(counts).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
  });
});
