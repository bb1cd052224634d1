/**
 * Properties of the engine over a spread of real bundled tariffs (every 40th
 * record of the bundle, about 340 tariffs of every rate type).
 */
import fc from 'fast-check';
import { normalizeBundle, readUrdbLines } from '../../tariffs/bundled';
import { REFERENCE_DIR } from '../../utilities/reference';
import { utilityReference } from '../../../../test/helpers/tariffs';
import type { Tariff } from '../../tariffs/tariff.model';
import { bundledLoadShapes } from '../load-shapes';
import { rankBills } from '../present';
import { calculateBill, type BillRequest, type BillResult } from './index';
import { planOf } from './plan';
import { calculatePeriodBill, periodTotalCents, type PeriodPiece } from './period';

const shapes = bundledLoadShapes();
let sample: Tariff[];
let nonNegative: Tariff[];
/** Every bundled tariff with a month of several energy periods, one of them tiered, and no zero or negative energy price. */
let tieredTou: Tariff[];

/** No negative price anywhere (energy, demand, fixed, fuel): more usage can only cost more. */
function pricesNonNegative(t: Tariff): boolean {
  const s = t.structure;
  const rates = [
    ...(s.energy?.periods.flat().map((x) => x.rate) ?? []),
    ...(s.demandTou?.periods.flat().map((x) => x.rate) ?? []),
    ...(s.demandFlat?.periods.flat().map((x) => x.rate) ?? []),
    ...(s.fuelAdjustmentsMonthly ?? []),
    ...s.fixedCharges.map((c) => c.amount),
  ];
  return rates.every((r) => r >= 0);
}

beforeAll(() => {
  const bundle = normalizeBundle(readUrdbLines(REFERENCE_DIR), utilityReference(), new Date('2026-01-01T00:00:00Z'));
  sample = bundle.tariffs.filter((_, i) => i % 40 === 0);
  nonNegative = sample.filter(pricesNonNegative);
  tieredTou = bundle.tariffs.filter((t) => {
    const e = t.structure.energy;
    if (!e || !e.periods.flat().every((tier) => tier.rate > 0)) return false;
    return e.weekday.some((row, m) => {
      const active = new Set([...row, ...e.weekend[m]]);
      return active.size > 1 && [...active].some((p) => e.periods[p].length > 1);
    });
  });
});

const request = fc.record({
  usageKwh: fc.double({ min: 0, max: 2_000_000, noNaN: true }),
  month: fc.integer({ min: 1, max: 12 }),
  demandKw: fc.double({ min: 0, max: 5000, noNaN: true }),
  solarGenerationKwh: fc.option(fc.double({ min: 0, max: 2_000_000, noNaN: true }), { nil: null }),
  taxRatePercent: fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: null }),
});
const cents = (x: number) => Math.round(x * 100);

/** Asserts `check` on `numRuns` bills: each request `requests` draws, priced on a tariff of `tariffs` drawn with it. */
function forEachBill<R extends BillRequest>(
  tariffs: Tariff[],
  requests: fc.Arbitrary<R>,
  numRuns: number,
  check: (b: BillResult, tariff: Tariff, req: R) => void,
): void {
  fc.assert(
    fc.property(fc.nat(), requests, (i, req) => {
      const tariff = tariffs[i % tariffs.length];
      check(calculateBill(tariff, req, shapes), tariff, req);
    }),
    { numRuns },
  );
}

describe('engine properties', () => {
  it('samples every rate type', () => {
    expect(new Set(sample.map((t) => t.rateType))).toEqual(new Set(['flat', 'tiered', 'tou', 'demand']));
    expect(nonNegative.length).toBeGreaterThan(200);
  });

  it('line items always add up to the summary, and the summary to total_cost', () => {
    forEachBill(sample, request, 2000, (b) => {
      const sum = (cat: string) => b.lineItems.filter((l) => l.category === cat).reduce((a, l) => a + cents(l.amount), 0);
      expect(sum('energy')).toBe(cents(b.summary.energyCharge));
      expect(sum('demand')).toBe(cents(b.summary.demandCharge));
      expect(sum('fixed')).toBe(cents(b.summary.fixedCharge));
      expect(sum('rider')).toBe(cents(b.summary.riders));
      const total = cents(b.summary.energyCharge) + cents(b.summary.demandCharge) + cents(b.summary.fixedCharge) + cents(b.summary.riders);
      expect(cents(b.totalCost)).toBe(total);
      expect(b.totalCostCents).toBe(total);
      for (const l of b.lineItems)
        expect(Number.isInteger(cents(l.amount)) && Math.abs(l.amount * 100 - cents(l.amount)) < 1e-6).toBe(true);
    });
  });

  it('the total never decreases when usage grows (tariffs without negative prices)', () => {
    fc.assert(
      fc.property(fc.nat(), request, fc.double({ min: 0.001, max: 100_000, noNaN: true }), (i, req, extra) => {
        const tariff = nonNegative[i % nonNegative.length];
        const base: BillRequest = { ...req, solarGenerationKwh: null };
        const before = calculateBill(tariff, base, shapes);
        const after = calculateBill(tariff, { ...base, usageKwh: base.usageKwh + extra }, shapes);
        expect(after.totalCostCents).toBeGreaterThanOrEqual(before.totalCostCents);
      }),
      { numRuns: 2000 },
    );
  });

  it('compare ranking is always sorted by total, ranks 1..n, ties in request order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat({ max: 300 }), { minLength: 2, maxLength: 10 }), request, (picks, req) => {
        const bills: BillResult[] = picks.map((p) => calculateBill(sample[p % sample.length], req, shapes));
        const ranked = rankBills(bills);
        expect(ranked.map((r) => r.rank)).toEqual(bills.map((_, i) => i + 1));
        for (let k = 1; k < ranked.length; k++) {
          expect(ranked[k].total_cost).toBeGreaterThanOrEqual(ranked[k - 1].total_cost);
          if (ranked[k].total_cost === ranked[k - 1].total_cost) {
            const first = bills.findIndex((b) => b.tariffId === ranked[k - 1].tariff_id);
            const second = bills.findIndex((b, j) => j > first && b.tariffId === ranked[k].tariff_id);
            expect(second).toBeGreaterThan(first);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('energy tiers shared by the periods of a month (every tiered multi-period bundled tariff)', () => {
  const wh = (name: string) => Math.round(Number(/: ([\d.]+) kWh x \$/.exec(name)?.[1]) * 1000);
  const tieredRequest = fc.record({
    usageKwh: fc.integer({ min: 0, max: 200_000_000 }).map((w) => w / 1000),
    month: fc.integer({ min: 1, max: 12 }),
    demandKw: fc.integer({ min: 0, max: 2_000_000 }).map((w) => w / 1000),
  });

  it('finds the tariffs (tiered TOU and seasonal-period records)', () => {
    expect(tieredTou.length).toBeGreaterThan(100);
  });

  it('the pieces add up to usage_kwh exactly, and each shared band to its width of the month', () => {
    forEachBill(tieredTou, tieredRequest, 3000, (b, tariff, req) => {
      const energy = b.lineItems.filter((l) => l.category === 'energy');
      const usage = Math.round(req.usageKwh * 1000);
      expect(energy.reduce((a, l) => a + wh(l.name), 0)).toBe(usage);
      for (const l of energy) expect(wh(l.name)).toBeGreaterThan(0);
      if (!planOf(tariff, shapes).months[req.month - 1].sharedTiers) return;
      const bands = new Map<string, number>();
      for (const l of energy) {
        const band = /\(share of the month's ([^)]*)\)/.exec(l.name)?.[1];
        if (band) bands.set(band, (bands.get(band) ?? 0) + wh(l.name));
      }
      for (const [band, sum] of bands) {
        let m = /^first ([\d.]+) kWh$/.exec(band);
        if (m) expect(sum).toBe(Math.min(usage, Math.round(Number(m[1]) * 1000)));
        m = /^kWh ([\d.]+)-([\d.]+)$/.exec(band);
        if (m) expect(sum).toBe(Math.min(usage, Math.round(Number(m[2]) * 1000)) - Math.round(Number(m[1]) * 1000));
        m = /^kWh above ([\d.]+)$/.exec(band);
        if (m) expect(sum).toBe(usage - Math.round(Number(m[1]) * 1000));
      }
    });
  });

  it('the total never decreases when usage grows (the load-shape split: every piece grows or stays)', () => {
    fc.assert(
      fc.property(fc.nat(), tieredRequest, fc.integer({ min: 1, max: 50_000_000 }), (i, req, extraWh) => {
        const tariff = tieredTou[i % tieredTou.length];
        const before = calculateBill(tariff, req, shapes);
        const after = calculateBill(tariff, { ...req, usageKwh: (Math.round(req.usageKwh * 1000) + extraWh) / 1000 }, shapes);
        expect(after.totalCostCents).toBeGreaterThanOrEqual(before.totalCostCents);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('billing periods', () => {
  it("periodTotalCents is calculatePeriodBill's total, over tariffs, months, days and versions", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 1, max: 31 }),
        fc.double({ min: 0, max: 500_000, noNaN: true }),
        fc.double({ min: 0, max: 2000, noNaN: true }),
        (i, j, month, first, second, usageKwh, demandKw) => {
          // Two pieces, possibly on two tariffs (a version change), in consecutive months.
          const pieces: PeriodPiece[] = [
            { tariff: sample[i % sample.length]!, month, days: first, versionDate: null },
            { tariff: sample[j % sample.length]!, month: (month % 12) + 1, days: second, versionDate: '2025-01-01' },
          ];
          const req = { usageKwh, demandKw };
          let whole: number | null;
          try {
            whole = calculatePeriodBill(pieces, req, shapes).totalCostCents;
          } catch {
            whole = null;
          }
          if (whole === null) expect(() => periodTotalCents(pieces, req, shapes)).toThrow();
          else expect(periodTotalCents(pieces, req, shapes)).toBe(whole);
        },
      ),
      { numRuns: 500 },
    );
  });
});
