import fc from 'fast-check';
import { bundledLoadShapes } from '../load-shapes';
import { apportion } from './load-shape';
import { CALENDAR_YEAR, DAYS_IN_MONTH, WEEKDAY_DAYS, WEEKEND_DAYS } from './calendar';

describe('reference calendar', () => {
  it("is the load shapes' own calendar", () => {
    const raw = bundledLoadShapes() as unknown as { reference_calendar: { year: number; weekday_days: number[]; weekend_days: number[] } };
    expect(raw.reference_calendar.year).toBe(CALENDAR_YEAR);
    expect(raw.reference_calendar.weekday_days).toEqual(WEEKDAY_DAYS);
    expect(raw.reference_calendar.weekend_days).toEqual(WEEKEND_DAYS);
    for (let m = 0; m < 12; m++) {
      expect(WEEKDAY_DAYS[m] + WEEKEND_DAYS[m]).toBe(DAYS_IN_MONTH[m]);
      expect(DAYS_IN_MONTH[m]).toBe(new Date(Date.UTC(CALENDAR_YEAR, m + 1, 0)).getUTCDate());
    }
  });
});

describe('apportion', () => {
  const split = (total: number, weights: number[]) => {
    const out: number[] = [];
    apportion(total, weights, out);
    return out;
  };

  it('splits by weight and keeps the exact total', () => {
    expect(split(1000, [0.25, 0.75])).toEqual([250, 750]);
    expect(split(3, [1, 1])).toEqual([2, 1]);
    expect(split(10, [0, 0])).toEqual([5, 5]);
    expect(split(0, [0.3, 0.7])).toEqual([0, 0]);
  });

  it('always adds up and never gives a part less when the total grows (house monotone)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 1, max: 5000 }),
        (weights, total, step) => {
          const a = split(total, weights);
          const b = split(total + step, weights);
          expect(a.reduce((x, y) => x + y, 0)).toBe(total);
          expect(b.reduce((x, y) => x + y, 0)).toBe(total + step);
          for (let i = 0; i < weights.length; i++) expect(b[i]).toBeGreaterThanOrEqual(a[i]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("with integer weights (ties included): house monotone, and the weights' own total gives the weights back", () => {
    // The energy tiers split the kWh below each tier bound with the periods' kWh as weights: every split must
    // stay within the periods' kWh, which holds because splitting their own total returns them unchanged.
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 2_000_000_000 }), { minLength: 1, maxLength: 6 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (weights, x, y) => {
          const sum = weights.reduce((a, w) => a + w, 0);
          expect(split(sum, weights)).toEqual(weights);
          const lo = Math.floor(sum * Math.min(x, y));
          const hi = Math.floor(sum * Math.max(x, y));
          const a = split(lo, weights);
          const b = split(hi, weights);
          for (let i = 0; i < weights.length; i++) {
            expect(a[i]).toBeLessThanOrEqual(b[i]);
            expect(b[i]).toBeLessThanOrEqual(weights[i]);
          }
        },
      ),
      { numRuns: 1000 },
    );
    expect(split(3, [5, 5, 5])).toEqual([1, 1, 1]);
    expect(split(4, [5, 5, 5])).toEqual([2, 1, 1]);
  });
});
