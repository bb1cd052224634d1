import { annualCost, type MonthTotals } from './annual-cost.calc';
import { daysInMonth, monthIndexOfDate } from './months';

const m = (key: string) => monthIndexOfDate(key);
/** Whole months from `first`, `count` of them, each `cents` and `kwhMilli`. */
function months(first: string, count: number, cents: number, kwhMilli = 0): MonthTotals[] {
  return Array.from({ length: count }, (_, i) => ({ month: m(first) + i, cents, kwhMilli, billedDays: daysInMonth(m(first) + i) }));
}

describe('annual cost (README "Annual cost and basis")', () => {
  it('README example: 11 whole months of $1,000.00 and 800 kWh before December 2026, annualised by days', () => {
    // window Jan..Dec 2026 = 365 days; billed Jan..Nov = 334 days
    // cost: 1,100,000 x 365 / 334 = 1,202,095.81 -> 1,202,096 cents; kWh: 8,800,000 x 365 / 334 = 9,616,766.47 -> 9,616,766 Wh
    const r = annualCost({ months: months('2026-01', 11, 100_000, 800_000), asOf: m('2026-12'), estimateCents: 500_000, monthlyUsageMilli: 1 });
    expect(r).toEqual({ cents: 1_202_096, kwhMilli: 9_616_766, basis: 'actual' });
  });

  it('10 covered months is enough; 9 falls back to the estimate (kWh = 12 x monthly usage)', () => {
    expect(annualCost({ months: months('2026-02', 10, 100), asOf: m('2026-11'), estimateCents: 5, monthlyUsageMilli: null })?.basis)
      .toBe('actual');
    expect(annualCost({ months: months('2026-03', 9, 100), asOf: m('2026-11'), estimateCents: 123_456, monthlyUsageMilli: 1_000_500 }))
      .toEqual({ cents: 123_456, kwhMilli: 12_006_000, basis: 'estimate' });
  });

  it('only the 12 months ending with the current one count; months before are ignored', () => {
    const old = months('2024-01', 24, 100);
    expect(annualCost({ months: old, asOf: m('2026-11'), estimateCents: null, monthlyUsageMilli: null })).toBeNull();
  });

  it('null without enough bills and without an estimate; kWh null when the bills carry none', () => {
    expect(annualCost({ months: [], asOf: m('2026-11'), estimateCents: null, monthlyUsageMilli: 5 })).toBeNull();
    expect(annualCost({ months: months('2025-12', 12, 100), asOf: m('2026-11'), estimateCents: null, monthlyUsageMilli: null }))
      .toEqual({ cents: 1200, kwhMilli: null, basis: 'actual' });
  });
});
