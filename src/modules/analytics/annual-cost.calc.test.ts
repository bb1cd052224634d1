import { annualCosts, type UtilityMonth } from './annual-cost.calc';
import { daysInMonth, monthIndexOfDate } from './months';
import type { MeterUtilityType } from '../meters/units';

const m = (key: string) => monthIndexOfDate(key);
/** Whole months of one utility type from `first`, `count` of them, each `cents` and `usageMilli`. */
function months(type: MeterUtilityType, first: string, count: number, cents: number, usageMilli = 0): UtilityMonth[] {
  return Array.from({ length: count }, (_, i) => ({
    utilityType: type,
    month: m(first) + i,
    cents,
    usageMilli,
    billedDays: daysInMonth(m(first) + i),
  }));
}
const none = { estimateCents: null, monthlyUsageMilli: null };

// Issue 29 replaced "actual over the 12 months ending with the current one, annualised by days" with
// "the 12 complete months before it, at least 10 billed, x 12 / billed months", per utility type.
describe('one annual cost (README "One annual cost")', () => {
  it('example 1: twelve whole billed months of $2,000.00 are $24,000.00 a year, not $23,970', () => {
    const r = annualCosts({ months: months('electric', '2025-11', 12, 200_000, 1_500_000), asOf: m('2026-11'), ...none });
    expect(r).toEqual({
      byUtility: [{ utilityType: 'electric', cents: 2_400_000, usageMilli: 18_000_000, basis: 'actual' }],
      cents: 2_400_000,
      kwhMilli: 18_000_000,
      basis: 'actual',
    });
  });

  it('example 2: 11 of the 12 complete months billed $1,000.00 and 800 kWh: x 12 / 11; the current month does not count', () => {
    // window Dec 2025..Nov 2026; billed Jan..Nov 2026 (11 months) and the current December (ignored)
    const billed = [...months('electric', '2026-01', 11, 100_000, 800_000), ...months('electric', '2026-12', 1, 5_000, 1_000)];
    const r = annualCosts({ months: billed, asOf: m('2026-12'), estimateCents: 500_000, monthlyUsageMilli: 1 });
    // 1,100,000 x 12 / 11 = 1,200,000 cents; 8,800,000 Wh x 12 / 11 = 9,600,000 Wh
    expect(r.byUtility).toEqual([{ utilityType: 'electric', cents: 1_200_000, usageMilli: 9_600_000, basis: 'actual' }]);
  });

  it('example 3: per utility type: water actual, gas with 9 billed months left out, electric on the estimate', () => {
    const billed = [
      ...months('water', '2025-11', 12, 25_000, 9_000_000), // $250.00 and 9,000 gallons a month (quarterly bills, calendarised)
      ...months('gas', '2026-02', 9, 40_000, 100_000),
    ];
    const r = annualCosts({ months: billed, asOf: m('2026-11'), estimateCents: 500_000, monthlyUsageMilli: 1_000_500 });
    expect(r).toEqual({
      byUtility: [
        { utilityType: 'electric', cents: 500_000, usageMilli: 12_006_000, basis: 'estimate' },
        { utilityType: 'water', cents: 300_000, usageMilli: 108_000_000, basis: 'actual' },
      ],
      cents: 800_000,
      kwhMilli: 12_006_000,
      basis: 'estimate',
    });
  });

  it('10 billed months is enough, 9 is not; months before the window are ignored; nothing without bills or estimate', () => {
    expect(annualCosts({ months: months('electric', '2026-01', 10, 100), asOf: m('2026-11'), ...none }).byUtility[0]!.cents).toBe(1200);
    expect(annualCosts({ months: months('electric', '2026-02', 9, 100), asOf: m('2026-11'), ...none })).toEqual({
      byUtility: [],
      cents: null,
      kwhMilli: null,
      basis: null,
    });
    expect(annualCosts({ months: months('electric', '2023-01', 24, 100), asOf: m('2026-11'), ...none }).cents).toBeNull();
    // usage unknown (no bill carried any): null, the cost still counts; a credit month lowers it
    const credits = [...months('sewer', '2025-11', 11, 1_000), ...months('sewer', '2026-10', 1, -500)];
    expect(annualCosts({ months: credits, asOf: m('2026-11'), ...none }).byUtility).toEqual([
      { utilityType: 'sewer', cents: 10_500, usageMilli: null, basis: 'actual' },
    ]);
  });

  it('rounds x 12 / billed half away from zero to the cent', () => {
    // $100.01 x 11 months = 110,011 cents x 12 / 11 = 120,012; $0.01 over 11 months x 12 / 11 = 0.0109 -> 0.01... per month:
    const odd = months('gas', '2025-12', 11, 7); // 77 cents x 12 / 11 = 84
    expect(annualCosts({ months: odd, asOf: m('2026-11'), ...none }).cents).toBe(84);
    const half = [...months('gas', '2025-12', 10, 0), ...months('gas', '2026-10', 1, 11)]; // 11 x 12 / 11 = 12
    expect(annualCosts({ months: half, asOf: m('2026-11'), ...none }).cents).toBe(12);
  });
});
