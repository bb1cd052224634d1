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
import { rankBills } from '../service';
import { calculateBill, type BillRequest, type BillResult } from './index';

const shapes = bundledLoadShapes();
let sample: Tariff[];
let nonNegative: Tariff[];

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
});

const request = fc.record({
  usageKwh: fc.double({ min: 0, max: 2_000_000, noNaN: true }),
  month: fc.integer({ min: 1, max: 12 }),
  demandKw: fc.double({ min: 0, max: 5000, noNaN: true }),
  solarGenerationKwh: fc.option(fc.double({ min: 0, max: 2_000_000, noNaN: true }), { nil: null }),
  taxRatePercent: fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: null }),
});
const cents = (x: number) => Math.round(x * 100);

describe('engine properties', () => {
  it('samples every rate type', () => {
    expect(new Set(sample.map((t) => t.rateType))).toEqual(new Set(['flat', 'tiered', 'tou', 'demand']));
    expect(nonNegative.length).toBeGreaterThan(200);
  });

  it('line items always add up to the summary, and the summary to total_cost', () => {
    fc.assert(fc.property(fc.nat(), request, (i, req) => {
      const tariff = sample[i % sample.length];
      const b = calculateBill(tariff, req, shapes);
      const sum = (cat: string) => b.lineItems.filter((l) => l.category === cat).reduce((a, l) => a + cents(l.amount), 0);
      expect(sum('energy')).toBe(cents(b.summary.energyCharge));
      expect(sum('demand')).toBe(cents(b.summary.demandCharge));
      expect(sum('fixed')).toBe(cents(b.summary.fixedCharge));
      expect(sum('rider')).toBe(cents(b.summary.riders));
      const total = cents(b.summary.energyCharge) + cents(b.summary.demandCharge) + cents(b.summary.fixedCharge) + cents(b.summary.riders);
      expect(cents(b.totalCost)).toBe(total);
      expect(b.totalCostCents).toBe(total);
      for (const l of b.lineItems) expect(Number.isInteger(cents(l.amount)) && Math.abs(l.amount * 100 - cents(l.amount)) < 1e-6).toBe(true);
    }), { numRuns: 2000 });
  });

  it('the total never decreases when usage grows (tariffs without negative prices)', () => {
    fc.assert(fc.property(
      fc.nat(), request, fc.double({ min: 0.001, max: 100_000, noNaN: true }),
      (i, req, extra) => {
        const tariff = nonNegative[i % nonNegative.length];
        const base: BillRequest = { ...req, solarGenerationKwh: null };
        const before = calculateBill(tariff, base, shapes);
        const after = calculateBill(tariff, { ...base, usageKwh: base.usageKwh + extra }, shapes);
        expect(after.totalCostCents).toBeGreaterThanOrEqual(before.totalCostCents);
      },
    ), { numRuns: 2000 });
  });

  it('compare ranking is always sorted by total, ranks 1..n, ties in request order', () => {
    fc.assert(fc.property(
      fc.uniqueArray(fc.nat({ max: 300 }), { minLength: 2, maxLength: 10 }), request,
      (picks, req) => {
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
      },
    ), { numRuns: 500 });
  });
});
