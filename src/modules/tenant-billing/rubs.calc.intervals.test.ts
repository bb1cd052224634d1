/**
 * Interval proration (README "Interval proration", issue 50): the days of a period weighted by the
 * master meter's energy of each day. README example 12, in cents.
 */
import { allocate } from './rubs.calc';
import type { BillingUnit } from './rubs.types';
import { input, inputArb, RUNS, tryAllocate, turnoverUnit } from './rubs.test-helpers';
import fc from 'fast-check';

// July 1 to 10, 2026: 480 kWh a day for five days, then a hot week-end and more at 960 kWh a day.
const JULY = { periodStart: '2026-07-01', periodEnd: '2026-07-10' };
const DAILY_WH = [...Array<number>(5).fill(480_000), ...Array<number>(5).fill(960_000)];
const UNITS: BillingUnit[] = [
  { unit_id: 'A', tenant_name: 'Ana', sqft: 1000 },
  { unit_id: 'B', tenant_name: 'Ben', sqft: 1000 },
  { unit_id: 'C', tenant_name: 'Cy', sqft: 1000, move_out: '2026-07-05' },
];
const example = (overrides: Parameters<typeof input>[0]) =>
  allocate(input({ totalCents: 120_000, ...JULY, dailyWeights: DAILY_WH, ...overrides }));
const bases = (a: ReturnType<typeof allocate>) => a.lines.map((l) => l.baseCents);

describe('interval proration: days weighted by the master meter', () => {
  it('12a. a tenant who left before the hot days pays their kWh share, not their day share (redistribute, per unit)', () => {
    // Days: A and B 10 days, C 5: 10,000 + 10,000 + 5,000 sqft-days: $480.00, $480.00, $240.00.
    expect(bases(allocate(input({ totalCents: 120_000, ...JULY, units: UNITS })))).toEqual([48_000, 48_000, 24_000]);
    // kWh: the period 7,200 kWh, C's five days 2,400. 1,000 x 7,200 + 1,000 x 7,200 + 1,000 x 2,400 = 16,800,000
    // sqft-kWh: A $1,200.00 x 7,200 / 16,800 = $514.2857 -> $514.28, B the same, C $1,200.00 x 2,400 / 16,800 = $171.4285 -> $171.42.
    const a = example({ units: UNITS });
    expect(bases(a)).toEqual([51_428, 51_428, 17_142]);
    expect(a.lines.map((l) => [l.occupiedDays, l.occupiedWh, l.shareBasisPoints])).toEqual([
      [10, 7_200_000, 4286],
      [10, 7_200_000, 4286],
      [5, 2_400_000, 1429],
    ]);
    expect(a.periodWeight).toBe(7_200_000);
    expect(a.reconciliation).toMatchObject({ billedToTenantsCents: 119_998, roundingDifferenceCents: 2 });
    // C's empty hot days: 1,000 x 4,800 kWh of 3,000 x 7,200: $1,200.00 x 4,800 / 21,600 = $266.67, carried by A and B.
    expect(a.vacantAbsorptionCents).toBe(26_667);
    expect(a.factorTotals[0]).toMatchObject({ billedFactorDays: 16_800_000, allFactorDays: 21_600_000 });
  });

  it('12b. exact rounding: the cents left go to the largest remainders, so the charges add up to the bill', () => {
    // Floors 51,428 + 51,428 + 17,142 = 119,998; remainders .571, .571, .857: C, then A (the first of the tie).
    const a = example({ units: UNITS, rounding: 'exact' });
    expect(bases(a)).toEqual([51_429, 51_428, 17_143]);
    expect(a.reconciliation).toMatchObject({ billedToTenantsCents: 120_000, roundingDifferenceCents: 0 });
  });

  it("12c. owner_pays: the owner pays the departed tenant's hot days", () => {
    // Over every unit's 21,600,000 sqft-kWh: A and B 7,200 / 21,600 = $400.00, C 2,400 / 21,600 = $133.33, the owner $266.67.
    const a = example({ units: UNITS, vacancyPolicy: 'owner_pays', rounding: 'exact' });
    expect(bases(a)).toEqual([40_000, 40_000, 13_333]);
    expect(a.reconciliation).toMatchObject({ ownerAbsorbsCents: 26_667, roundingDifferenceCents: 0 });
  });

  it('12d. a turnover: each occupancy pays for the energy of its own days, the unit counts once', () => {
    const units: BillingUnit[] = [
      { ...turnoverUnit('C', { tenant_name: 'Cy', move_out: '2026-07-05' }, { tenant_name: 'Dee', move_in: '2026-07-08' }), sqft: 1000 },
      { unit_id: 'A', tenant_name: 'Ana', sqft: 1000 },
    ];
    // Cy 2,400 kWh, Dee 3 x 960 = 2,880 kWh, the two empty days 1,920 kWh; A 7,200 kWh. owner_pays, over 14,400 sqft-kWh x 1,000:
    // Cy $1,200.00 x 2,400 / 14,400 = $200.00, Dee $240.00, A $600.00, the owner the gap's $160.00.
    const a = example({ units, vacancyPolicy: 'owner_pays' });
    expect(bases(a)).toEqual([20_000, 24_000, 60_000]);
    expect(a.lines.map((l) => l.occupiedWh)).toEqual([2_400_000, 2_880_000, 7_200_000]);
    expect(a.reconciliation.ownerAbsorbsCents).toBe(16_000);
  });

  it("nobody moved: the weights change nothing; equal weights give the days' answer", () => {
    const stayed = UNITS.map((u) => ({ ...u, move_out: null }));
    expect(bases(example({ units: stayed }))).toEqual([40_000, 40_000, 40_000]);
    const equal = example({ units: UNITS, dailyWeights: Array<number>(10).fill(123_457) });
    expect(bases(equal)).toEqual([48_000, 48_000, 24_000]);
    expect(equal.lines[2].occupiedWh).toBe(5 * 123_457);
  });

  it('refuses daily weights that are not one positive integer per day', () => {
    expect(() => example({ units: UNITS, dailyWeights: DAILY_WH.slice(1) })).toThrow(RangeError);
    expect(() => example({ units: UNITS, dailyWeights: [...DAILY_WH.slice(1), 0] })).toThrow(RangeError);
    expect(() => example({ units: UNITS, dailyWeights: [...DAILY_WH.slice(1), 1.5] })).toThrow(RangeError);
  });

  it("for any units and weights: exact rounding adds up, the arithmetics agree, and with equal weights the days' answer", () => {
    const withWeights = inputArb.chain((i) => {
      const days = Math.round((Date.parse(i.periodEnd) - Date.parse(i.periodStart)) / 86_400_000) + 1;
      return fc
        .array(fc.integer({ min: 1, max: 5_000_000_000 }), { minLength: days, maxLength: days })
        .map((dailyWeights) => ({ ...i, dailyWeights }));
    });
    fc.assert(
      fc.property(withWeights, (i) => {
        const a = tryAllocate(i);
        expect(tryAllocate(i, 'bigint')).toEqual(a);
        if (a && i.rounding === 'exact') {
          const owner = i.vacancyPolicy === 'owner_pays' ? a.vacantAbsorptionCents : 0;
          expect(a.lines.reduce((s, l) => s + l.shareCents, 0) + owner).toBe(a.billableCents);
        }
        const equal = tryAllocate({ ...i, dailyWeights: i.dailyWeights.map(() => 7) });
        const days = tryAllocate({ ...i, dailyWeights: null });
        expect(equal?.lines.map((l) => l.baseCents)).toEqual(days?.lines.map((l) => l.baseCents));
      }),
      { numRuns: RUNS.numRuns / 2 },
    );
  });
});
