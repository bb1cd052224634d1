import { DISABLE_AFTER_MS, MAX_ATTEMPTS, RETRY_DELAYS_MS, failedTooLong, nextAttemptAt } from './retry-schedule';

describe('the retry schedule (README "Retries")', () => {
  const at = new Date('2026-11-28T12:00:00Z');

  it('tries 8 times: at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure', () => {
    expect(MAX_ATTEMPTS).toBe(8);
    expect(nextAttemptAt(1, at)).toEqual(new Date('2026-11-28T12:00:05Z'));
    expect(nextAttemptAt(2, at)).toEqual(new Date('2026-11-28T12:05:00Z'));
    expect(nextAttemptAt(3, at)).toEqual(new Date('2026-11-28T12:30:00Z'));
    expect(nextAttemptAt(4, at)).toEqual(new Date('2026-11-28T14:00:00Z'));
    expect(nextAttemptAt(5, at)).toEqual(new Date('2026-11-28T17:00:00Z'));
    expect(nextAttemptAt(6, at)).toEqual(new Date('2026-11-28T22:00:00Z'));
    expect(nextAttemptAt(7, at)).toEqual(new Date('2026-11-28T22:00:00Z'));
    expect(nextAttemptAt(8, at)).toBeNull();
  });

  it('spreads the attempts over more than 24 hours: 5 s + 5 min + 30 min + 2 h + 5 h + 10 h + 10 h = 27 h 35 min 5 s', () => {
    const total = RETRY_DELAYS_MS.reduce((s, d) => s + d, 0);
    expect(total).toBe(((27 * 60 + 35) * 60 + 5) * 1000);
    expect(total).toBeGreaterThan(24 * 3600_000);
  });

  it('disables an endpoint failing for 5 days, not a minute less', () => {
    const since = new Date('2026-11-23T12:00:00Z');
    expect(DISABLE_AFTER_MS).toBe(5 * 24 * 3600_000);
    expect(failedTooLong(since, new Date('2026-11-28T11:59:00Z'))).toBe(false);
    expect(failedTooLong(since, new Date('2026-11-28T12:00:00Z'))).toBe(true);
    expect(failedTooLong(null, at)).toBe(false);
  });
});
