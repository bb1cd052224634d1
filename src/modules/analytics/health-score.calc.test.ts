import type { MonthTotals } from './annual-cost.calc';
import { DEDUCTIONS, formatDollars, healthScore, statusOf, type HealthInput } from './health-score.calc';
import { daysInMonth, monthIndexOfDate } from './months';

const m = (key: string) => monthIndexOfDate(key);
const whole = (key: string, cents: number): MonthTotals => ({ month: m(key), cents, kwhMilli: 0, billedDays: daysInMonth(m(key)) });
/** Whole months Dec 2025 .. Nov 2026 at `cents` each (12 covered months, flat: no deduction). */
const year = (cents = 10000) => Array.from({ length: 12 }, (_, i) => ({ ...whole('2025-12', cents), month: m('2025-12') + i, billedDays: daysInMonth(m('2025-12') + i) }));
const complete: HealthInput = {
  asOf: m('2026-11'), hasTariff: true, tariffExpiredOn: null, hasUsage: true, hasSqft: true, months: year(), savingsCents: null, estimateCents: 120000,
};

describe('health score (README "Health score")', () => {
  it('a property on an expired tariff loses 10 points, with the date (issue 26)', () => {
    expect(healthScore({ ...complete, tariffExpiredOn: '2022-12-31' })).toEqual({
      score: 90,
      status: 'green',
      issues: ['Tariff expired on 2022-12-31: its estimate and savings rest on rates the utility no longer bills'],
    });
    expect(DEDUCTIONS.expiredTariff).toBe(10);
  });

  it('README example: 7 billed months, a partial November far above the trailing months, costs rising', () => {
    // May..Oct 2026: $100.00 each (184 days); November 1..15: $80.00 (15 days).
    // coverage: 7 of 12 months -> -10
    // anomaly: (8000 / 15) / (60000 / 184) = 1.6356 -> 64 % more per billed day -> -30
    // trend of whole-month equivalents 100, 100, 100, 100, 100, 100, 160 ($): +5.9 %/month -> -15
    const months = ['2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10'].map((k) => whole(k, 10000));
    months.push({ month: m('2026-11'), cents: 8000, kwhMilli: 0, billedDays: 15 });
    expect(healthScore({ ...complete, months })).toEqual({
      score: 45,
      status: 'red',
      issues: [
        'Bills cover only 7 of the last 12 months',
        'Bill anomaly: 2026-11 cost 64% more per billed day than the 6 months before',
        'Costs rising 5.9% a month over the last 12 months',
      ],
    });
  });

  it('a complete, flat, well-priced property scores 100', () => {
    expect(healthScore(complete)).toEqual({ score: 100, status: 'green', issues: [] });
  });

  it('data completeness: tariff -10, usage -10, sqft -5, no bills -20', () => {
    expect(healthScore({ ...complete, hasTariff: false, hasUsage: false, hasSqft: false, months: [] })).toEqual({
      score: 100 - 10 - 10 - 5 - 20,
      status: 'yellow',
      issues: ['No tariff set', 'No monthly usage set', 'No square footage set', 'No bills in the last 12 months'],
    });
    expect(DEDUCTIONS).toMatchObject({ noTariff: 10, noUsage: 10, noSqft: 5, noBills: 20, fewBills: 10 });
  });

  it('bill anomaly: >= +50 % per billed day -30, >= +25 % -15, <= -50 % -10, else nothing (bounds included)', () => {
    // trailing May, June, July: 30 billed days and $100.00 each; November 30 billed days
    const trailing = ['2026-05', '2026-06', '2026-07'].map((k) => ({ month: m(k), cents: 10000, kwhMilli: 0, billedDays: 30 }));
    const anomaly = (cents: number) => healthScore({ ...complete, months: [...trailing, { month: m('2026-11'), cents, kwhMilli: 0, billedDays: 30 }] })
      .issues.filter((i) => i.startsWith('Bill anomaly'));
    const points = (cents: number) => 100 - healthScore({ ...complete, months: [...trailing, { month: m('2026-11'), cents, kwhMilli: 0, billedDays: 30 }] }).score;
    expect(anomaly(15000)).toEqual(['Bill anomaly: 2026-11 cost 50% more per billed day than the 6 months before']);
    expect(points(15000)).toBe(10 + 30 + 15); // coverage 4 of 12, anomaly, rising
    expect(anomaly(14999)).toEqual(['Bill anomaly: 2026-11 cost 50% more per billed day than the 6 months before']);
    expect(points(14999)).toBe(10 + 15 + 15);
    expect(anomaly(12500)).toEqual(['Bill anomaly: 2026-11 cost 25% more per billed day than the 6 months before']);
    expect(anomaly(12499)).toEqual([]);
    expect(anomaly(5000)).toEqual(['Bill anomaly: 2026-11 cost 50% less per billed day than the 6 months before']);
    expect(points(5000)).toBe(10 + 10);
    expect(anomaly(5001)).toEqual([]);
  });

  it('compares per billed day: a month half billed at half the cost is no anomaly', () => {
    // May..Oct 2026 whole months at $100.00 (184 days), November 1..15 at $50.00: 333.3 vs 326.1 cents a day
    const months = ['2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10'].map((k) => whole(k, 10000));
    months.push({ month: m('2026-11'), cents: 5000, kwhMilli: 0, billedDays: 15 });
    expect(healthScore({ ...complete, months }).issues).toEqual(['Bills cover only 7 of the last 12 months']);
  });

  it('needs 3 billed months among the 6 before the latest one', () => {
    const months = [whole('2026-09', 10000), whole('2026-10', 10000), whole('2026-11', 90000)];
    expect(healthScore({ ...complete, months }).issues.some((i) => i.startsWith('Bill anomaly'))).toBe(false);
  });

  it('rising costs -15 (whole months $100.00, $103.00, ... $133.00: +2.6 % a month); falling costs nothing', () => {
    const rising = year().map((x, i) => ({ ...x, cents: 10000 + 300 * i }));
    expect(healthScore({ ...complete, months: rising })).toEqual({
      score: 85, status: 'green', issues: ['Costs rising 2.6% a month over the last 12 months'],
    });
    const falling = year().map((x, i) => ({ ...x, cents: 20000 - 600 * i }));
    expect(healthScore({ ...complete, months: falling }).score).toBe(100);
  });

  it('savings: -10, or -20 when at least a tenth of the estimated annual cost (or nothing is estimated)', () => {
    expect(healthScore({ ...complete, savingsCents: 11999 })).toEqual({ score: 90, status: 'green', issues: ['Rate savings available: $119.99 a year'] });
    expect(healthScore({ ...complete, savingsCents: 12000 }).score).toBe(80);
    expect(healthScore({ ...complete, savingsCents: 5, estimateCents: null }).score).toBe(80);
    expect(healthScore({ ...complete, savingsCents: 0 }).score).toBe(100);
  });

  it('bands: green >= 80, yellow 50..79, red < 50; never below 0', () => {
    expect([80, 79, 50, 49, 0].map(statusOf)).toEqual(['green', 'yellow', 'yellow', 'red', 'red']);
    const worst = healthScore({
      ...complete, hasTariff: false, hasUsage: false, hasSqft: false, savingsCents: 1, estimateCents: null,
      months: [whole('2026-05', 100), whole('2026-06', 100), whole('2026-07', 100), { month: m('2026-08'), cents: 100000, kwhMilli: 0, billedDays: 31 }],
    });
    expect(worst.score).toBe(0);
    expect(worst.issues).toHaveLength(7);
  });

  it('formats dollars with thousands separators', () => {
    expect(formatDollars(123456789)).toBe('$1,234,567.89');
    expect(formatDollars(5)).toBe('$0.05');
  });
});
