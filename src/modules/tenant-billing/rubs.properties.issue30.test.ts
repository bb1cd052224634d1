/**
 * Properties of the allocator with the issue 30 terms (fast-check): occupancies that never overlap,
 * occupancy tables, charge limits and billing fees; every cent accounted for, a unit counted once.
 */
import fc from 'fast-check';
import type { AllocationInput } from './rubs.types';
import { date, forEachAllocation, inputArb, inputOf, RUNS, SETTINGS_ARB, tryAllocate, unitArb } from './rubs.test-helpers';

describe('allocator properties with issue 30 terms (turnover, occupancy tables, charge limits, billing fees)', () => {
  /** 1 to 3 occupancies that never overlap: sorted distinct days paired as (move_in, move_out). */
  const occupanciesArb = (periodDays: number) =>
    fc.uniqueArray(fc.integer({ min: 0, max: periodDays - 1 }), { minLength: 1, maxLength: 6 }).chain((days) => {
      const sorted = [...days].sort((a, b) => a - b);
      const pairs: Array<[number, number]> = [];
      for (let k = 0; k < sorted.length; k += 2) pairs.push([sorted[k], sorted[k + 1] ?? sorted[k]]);
      return fc.tuple(
        ...pairs.map(([from, to]) =>
          fc.record({
            tenant_name: fc.constant(`Resident ${from}`),
            move_in: fc.constant(date(from)),
            move_out: fc.constant(date(to)),
            occupant_count: fc.integer({ min: 0, max: 6 }),
          }),
        ),
      );
    });

  const termsArb = fc
    .record({
      periodDays: fc.integer({ min: 1, max: 62 }),
      ...SETTINGS_ARB,
      n: fc.integer({ min: 1, max: 12 }),
      commonAreaPercent: fc.constant(0),
      totalCents: fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 9_999_999_999_999 })),
      occupantFactors: fc.option(fc.constantFrom<Record<string, number>>({ 1: 1, 2: 1.6, 3: 2.2, 4: 2.6 }, { 0: 0.5, 1: 1, 2: 1.75 }), {
        nil: null,
      }),
      maxChargeCents: fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: null }),
      minChargeCents: fc.option(fc.integer({ min: 0, max: 5_000 }), { nil: null }),
      billingFeeCents: fc.integer({ min: 0, max: 1_000 }),
    })
    .map((t) =>
      t.maxChargeCents !== null && t.minChargeCents !== null && t.maxChargeCents < t.minChargeCents
        ? { ...t, maxChargeCents: t.minChargeCents }
        : t,
    );

  const turnoverInputArb: fc.Arbitrary<AllocationInput> = termsArb
    .chain((t) =>
      fc.tuple(
        fc.constant(t),
        fc.tuple(
          ...Array.from({ length: t.n }, (_, i) =>
            fc
              .tuple(unitArb(i, t.periodDays), fc.option(occupanciesArb(t.periodDays), { nil: null, freq: 2 }))
              .map(([u, occupancies]) =>
                occupancies ? { unit_id: u.unit_id, tenant_name: '', sqft: u.sqft, custom_weight: u.custom_weight, occupancies } : u,
              ),
          ),
        ),
      ),
    )
    .map(([t, units]) => ({
      ...inputOf(t, t.periodDays, units),
      occupantFactors: t.occupantFactors,
      maxChargeCents: t.maxChargeCents,
      minChargeCents: t.minChargeCents,
      billingFeeCents: t.billingFeeCents,
    }));

  it('every cent is accounted for: the identity, the sums, the limits and the fees on billed lines only', () => {
    forEachAllocation(turnoverInputArb, (i, a) => {
      const r = a.reconciliation;
      expect(r.commonAreaDeductionCents + r.billedToTenantsCents + r.ownerAbsorbsCents + r.roundingDifferenceCents).toBe(
        r.totalAmountCents,
      );
      expect(r.billedToTenantsCents).toBe(a.lines.reduce((s, l) => s + l.baseCents, 0));
      expect(r.adminFeesCents).toBe(a.lines.reduce((s, l) => s + l.adminFeeCents, 0));
      expect(r.billingFeesCents).toBe(a.lines.filter((l) => !l.isVacant).length * (i.billingFeeCents ?? 0));
      expect(r.maxChargeAbsorbedCents - r.minChargeAddedCents).toBe(a.lines.reduce((s, l) => s + l.shareCents - l.baseCents, 0));
      if (i.rounding === 'exact') expect(r.roundingDifferenceCents).toBe(0);
      for (const l of a.lines) {
        expect(l.totalCents).toBe(l.baseCents + l.adminFeeCents + l.billingFeeCents);
        if (l.isVacant) expect([l.baseCents, l.totalCents]).toEqual([0, 0]);
        else {
          if (i.maxChargeCents != null) expect(l.baseCents).toBeLessThanOrEqual(i.maxChargeCents);
          if (i.minChargeCents != null) expect(l.baseCents).toBeGreaterThanOrEqual(i.minChargeCents);
        }
      }
      // One line per unit, or per occupancy.
      expect(a.lines).toHaveLength(i.units.reduce((s, u) => s + (u.occupancies?.length ?? 1), 0));
    });
  });

  it('a unit counts once: occupancies that cover the whole period are charged what the unit would be with one tenant', () => {
    fc.assert(
      fc.property(inputArb, fc.integer({ min: 1, max: 30 }), (raw, cut) => {
        if (raw.method === 'occupant_count' || raw.method === 'sqft_occupant') return;
        const units = raw.units.map((u) => ({ ...u, is_vacant: false, move_in: null, move_out: null }));
        const period = Math.round((Date.parse(raw.periodEnd) - Date.parse(raw.periodStart)) / 86_400_000) + 1;
        if (period < 2) return;
        const split = Math.min(cut, period - 1);
        const turnover = units.map((u, k) =>
          k === 0
            ? {
                ...u,
                occupancies: [
                  { tenant_name: 'first', move_out: date(split - 1) },
                  { tenant_name: 'second', move_in: date(split) },
                ],
              }
            : u,
        );
        const whole = tryAllocate({ ...raw, units, rounding: 'per_unit' });
        const turned = tryAllocate({ ...raw, units: turnover, rounding: 'per_unit' });
        if (!whole || !turned) return;
        const [first, second] = turned.lines;
        expect(Math.abs(first.baseCents + second.baseCents - whole.lines[0].baseCents)).toBeLessThanOrEqual(1);
        turned.lines.slice(2).forEach((l, k) => expect(l.baseCents).toBe(whole.lines[k + 1].baseCents));
      }),
      RUNS,
    );
  });

  it('the plain-number and the BigInt arithmetic agree', () => {
    fc.assert(
      fc.property(turnoverInputArb, (i) => {
        const plain = tryAllocate(i);
        const big = tryAllocate(i, 'bigint');
        expect(big).toEqual(plain);
      }),
      RUNS,
    );
  });
});
