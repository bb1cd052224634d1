import { periodIntervals } from './period-intervals';
import type { DayRow } from './repository';

/** UTC days of 15-minute readings, every slot `wh` unless set. */
const day = (date: string, wh: number | null = 250, minutes = 15): DayRow => ({
  day: date,
  intervalMinutes: minutes,
  wh: Array.from({ length: 1440 / minutes }, () => wh),
});

describe('periodIntervals: the readings of a billing period in the property time zone', () => {
  it('the spring-forward day in New York is 92 intervals, from 05:00 UTC to 04:00 UTC the next day', () => {
    // Local midnight of 2025-03-09 is 05:00Z (EST), of 2025-03-10 04:00Z (EDT): slots 20-95 of March 9 and 0-15 of March 10.
    const rows = [day('2025-03-08', null), day('2025-03-09'), day('2025-03-10'), day('2025-03-11', null)];
    rows[1]!.wh[40] = 1000; // 10:00Z, 05:00 EST: a 4 kW interval
    rows[2]!.wh[16] = null; // 04:00Z March 10 is past the period: its gap does not matter
    const got = periodIntervals(rows, 'America/New_York', { start: '2025-03-09', end: '2025-03-09' });
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    expect(got.data.start).toBe('2025-03-09T00:00:00-05:00');
    expect(got.data.timezone).toBe('America/New_York');
    expect(got.data.intervalMinutes).toBe(15);
    expect(got.data.kwh).toHaveLength(92);
    // 91 x 0.25 + 1 = 23.75 kWh; the largest interval, 1 kWh in 15 minutes, is 4 kW.
    expect(got.kwh).toBe(23.75);
    expect(got.peakKw).toBe(4);
  });

  it('one interval missing, readings of two lengths, or none: not covered, and why', () => {
    const rows = [day('2025-03-09'), day('2025-03-10')];
    rows[1]!.wh[3] = null; // 00:45Z March 10 = 20:45 EDT March 9
    expect(periodIntervals(rows, 'America/New_York', { start: '2025-03-09', end: '2025-03-09' })).toEqual({
      ok: false,
      reason:
        "the meter's interval readings cover 91 of the 92 15-minute intervals from 2025-03-09 to 2025-03-09 (America/New_York); " +
        'the first missing starts 2025-03-09T20:45:00-04:00',
    });
    expect(
      periodIntervals([day('2025-03-09'), day('2025-03-10', 1000, 60)], 'America/New_York', { start: '2025-03-09', end: '2025-03-09' }),
    ).toEqual({
      ok: false,
      reason: "the meter's interval readings from 2025-03-09 to 2025-03-09 (America/New_York) are not all of one length",
    });
    expect(periodIntervals([day('2025-01-01')], 'America/New_York', { start: '2025-03-09', end: '2025-03-09' })).toEqual({
      ok: false,
      reason: 'the meter has no interval readings from 2025-03-09 to 2025-03-09 (America/New_York)',
    });
  });
});
