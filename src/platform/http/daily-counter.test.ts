import { createMemoryDailyCounter, createUtcDayClock, secondsUntilUtcMidnight, utcDay } from './daily-counter';

describe('daily counter helpers', () => {
  it('names the UTC day', () => {
    expect(utcDay(new Date('2026-03-01T23:59:59.999Z'))).toBe('2026-03-01');
    expect(utcDay(new Date('2026-03-01T19:30:00-05:00'))).toBe('2026-03-02');
  });

  it('counts whole seconds to the next UTC midnight, at least 1', () => {
    expect(secondsUntilUtcMidnight(new Date('2026-03-01T23:00:00Z'))).toBe(3600);
    expect(secondsUntilUtcMidnight(new Date('2026-03-01T00:00:00Z'))).toBe(86400);
    expect(secondsUntilUtcMidnight(new Date('2026-03-01T23:59:59.500Z'))).toBe(1);
    expect(secondsUntilUtcMidnight(new Date('2026-12-31T12:00:00Z'))).toBe(43200);
  });

  it('the day clock agrees with utcDay and secondsUntilUtcMidnight, across midnight and back', () => {
    const clock = createUtcDayClock();
    for (const iso of [
      '2026-03-01T23:59:59.500Z',
      '2026-03-02T00:00:00Z',
      '2026-03-01T12:00:00Z',
      '2026-12-31T23:59:58.001Z',
      '2027-01-01T00:00:00.999Z',
      '1969-12-31T23:00:00Z',
    ]) {
      const at = new Date(iso);
      expect(clock(at)).toEqual({ day: utcDay(at), resetSeconds: secondsUntilUtcMidnight(at) });
    }
  });

  it('memory counter counts per subject and starts again on a new day', async () => {
    const c = createMemoryDailyCounter();
    expect(await c.increment('2026-03-01', 'a', 10)).toBe(1);
    expect(await c.increment('2026-03-01', 'a', 10)).toBe(2);
    expect(await c.increment('2026-03-01', 'b', 10)).toBe(1);
    expect(await c.increment('2026-03-02', 'a', 10)).toBe(1);
  });
});
