/**
 * Properties of the allocator for any units and amounts (fast-check): every cent accounted for,
 * shares within [0, 100], vacant units billed nothing, and what a new vacant unit may change.
 */
import fc from 'fast-check';
import { allocate } from './rubs.calc';
import type { Allocation, AllocationInput, BillingUnit } from './rubs.types';
import { MAX_CUSTOM_WEIGHT, MAX_OCCUPANTS, MAX_SQFT } from './schemas.units';
import { date, decimal, forEachAllocation, inputArb, inputOf, RUNS, SETTINGS_ARB, tryAllocate, unitArb } from './rubs.test-helpers';

describe('allocator properties', () => {
  it("exact rounding adds up to the cent: base charges (with the owner's share) to the billable amount, fees to billed x rate", () => {
    const exact = inputArb.map((raw) => ({ ...raw, rounding: 'exact' as const }));
    forEachAllocation(exact, (i, a) => {
      const r = a.reconciliation;
      expect(r.billedToTenantsCents + r.ownerAbsorbsCents).toBe(a.billableCents);
      expect(r.roundingDifferenceCents).toBe(0);
      // admin fees = billed x rate, rounded half up once (rate = percent / 100, exact in integers)
      const rateMillionths = Math.round(i.adminFeePercent * 10_000);
      const expectedFees = Number((BigInt(r.billedToTenantsCents) * BigInt(rateMillionths) * 2n + 1_000_000n) / 2_000_000n);
      expect(r.adminFeesCents).toBe(expectedFees);
    });
  });

  it('the reconciliation identity holds in every mode, and per-unit rounding never bills more than the bill, under a cent a line less', () => {
    forEachAllocation(inputArb, (i, a) => {
      const r = a.reconciliation;
      expect(r.totalAmountCents).toBe(i.totalCents);
      expect(r.commonAreaDeductionCents + r.billedToTenantsCents + r.ownerAbsorbsCents + r.roundingDifferenceCents).toBe(
        r.totalAmountCents,
      );
      expect(r.billedToTenantsCents).toBe(a.lines.reduce((s, u) => s + u.baseCents, 0));
      expect(r.adminFeesCents).toBe(a.lines.reduce((s, u) => s + u.adminFeeCents, 0));
      // Issue 46 replaced per-unit rounding half up with rounding down (never bill more than the bill).
      expect(r.roundingDifferenceCents).toBeGreaterThanOrEqual(0);
      expect(r.roundingDifferenceCents).toBeLessThanOrEqual(a.lines.length + 1);
      if (i.vacancyPolicy === 'redistribute') expect(r.ownerAbsorbsCents).toBe(0);
      for (const u of a.lines) expect(u.totalCents).toBe(u.baseCents + u.adminFeeCents);
    });
  });

  it('shares are within [0, 100] percent, and under redistribute they add up to 100 (to their rounding)', () => {
    forEachAllocation(inputArb, (i, a) => {
      for (const u of a.lines) {
        expect(u.shareBasisPoints).toBeGreaterThanOrEqual(0);
        expect(u.shareBasisPoints).toBeLessThanOrEqual(10_000);
        expect(u.baseCents).toBeGreaterThanOrEqual(0);
        expect(u.baseCents).toBeLessThanOrEqual(a.billableCents);
      }
      const sum = a.lines.reduce((s, u) => s + u.shareBasisPoints, 0);
      if (i.vacancyPolicy === 'redistribute') expect(Math.abs(sum - 10_000)).toBeLessThanOrEqual(Math.ceil(i.units.length / 2));
      else expect(sum).toBeLessThanOrEqual(10_000 + Math.ceil(i.units.length / 2));
    });
  });

  it('a vacant unit pays 0 under both policies', () => {
    fc.assert(
      fc.property(inputArb, fc.constantFrom('redistribute' as const, 'owner_pays' as const), (raw, vacancyPolicy) => {
        const a = tryAllocate({ ...raw, vacancyPolicy });
        if (!a) return;
        for (const u of a.lines) {
          if (u.unit.is_vacant) expect(u.isVacant).toBe(true);
          if (u.isVacant) {
            expect(u.occupiedDays).toBe(0);
            expect([u.shareBasisPoints, u.baseCents, u.adminFeeCents, u.totalCents]).toEqual([0, 0, 0, 0]);
          }
        }
      }),
      RUNS,
    );
  });

  const withVacant = (i: AllocationInput, vacant: BillingUnit): AllocationInput => ({ ...i, units: [...i.units, vacant] });
  const vacantArb = unitArb(999, 62).map((u) => ({ ...u, unit_id: 'NEW-VACANT', is_vacant: true }));
  /** Asserts `check` on the allocations of any input under `terms`, before and after a new vacant unit (both accepted). */
  const forEachVacantAdded = (terms: Partial<AllocationInput>, check: (before: Allocation, after: Allocation) => void) =>
    fc.assert(
      fc.property(inputArb, vacantArb, (raw, vacant) => {
        const i = { ...raw, ...terms };
        const before = tryAllocate(i);
        const after = tryAllocate(withVacant(i, vacant));
        if (before && after) check(before, after);
      }),
      RUNS,
    );

  it("adding a vacant unit under owner_pays never raises anyone's charge (per-unit rounding)", () => {
    forEachVacantAdded({ vacancyPolicy: 'owner_pays', rounding: 'per_unit' }, (before, after) => {
      before.lines.forEach((u, k) => {
        expect(after.lines[k].baseCents).toBeLessThanOrEqual(u.baseCents);
        expect(after.lines[k].adminFeeCents).toBeLessThanOrEqual(u.adminFeeCents);
        expect(after.lines[k].totalCents).toBeLessThanOrEqual(u.totalCents);
      });
      expect(after.vacantAbsorptionCents).toBeGreaterThanOrEqual(before.vacantAbsorptionCents);
    });
  });

  it('with exact rounding it never raises a share, and a charge by at most a cent of base and a cent of fee (README example 8)', () => {
    forEachVacantAdded({ vacancyPolicy: 'owner_pays', rounding: 'exact' }, (before, after) => {
      before.lines.forEach((u, k) => {
        expect(after.lines[k].shareBasisPoints).toBeLessThanOrEqual(u.shareBasisPoints);
        expect(after.lines[k].baseCents).toBeLessThanOrEqual(u.baseCents + 1);
        expect(after.lines[k].adminFeeCents).toBeLessThanOrEqual(u.adminFeeCents + 1);
      });
    });
  });

  it('under redistribute a vacant unit changes nothing for the others', () => {
    forEachVacantAdded({ vacancyPolicy: 'redistribute' }, (before, after) => {
      expect(after.lines.slice(0, -1).map((u) => u.totalCents)).toEqual(before.lines.map((u) => u.totalCents));
    });
  });

  it('exact and per-unit rounding of the same shares differ by at most a cent per unit', () => {
    fc.assert(
      fc.property(inputArb, (i) => {
        const perUnit = tryAllocate({ ...i, rounding: 'per_unit' });
        const exact = tryAllocate({ ...i, rounding: 'exact' });
        if (!perUnit || !exact) return;
        perUnit.lines.forEach((u, k) => expect(Math.abs(exact.lines[k].baseCents - u.baseCents)).toBeLessThanOrEqual(1));
      }),
      RUNS,
    );
  });

  it('the plain-number and the BigInt arithmetic give the same answer', () => {
    fc.assert(
      fc.property(inputArb, (i) => {
        const fast = tryAllocate(i, 'auto');
        const big = tryAllocate(i, 'bigint');
        expect(fast).toEqual(big);
      }),
      RUNS,
    );
  });

  it('units in the same position pay the same: equal factors, equal charges under per-unit rounding', () => {
    fc.assert(
      fc.property(inputArb, (raw) => {
        const units = raw.units.map((u) => ({ ...raw.units[0], unit_id: u.unit_id }));
        const a = tryAllocate({ ...raw, units, rounding: 'per_unit' });
        if (!a) return;
        expect(new Set(a.lines.map((u) => u.totalCents)).size).toBe(1);
      }),
      RUNS,
    );
  });

  // Issue 30: `sqft: 100000000` beside `sqft: 850.0001`, both inside the published limits, was a 500 (the
  // "too large" check scaled the already scaled factors a second time).
  it('a factor at the published limit beside one with 4 decimals splits, and adds up to the cent', () => {
    const units: BillingUnit[] = [
      { unit_id: 'A', tenant_name: 'A', sqft: 100_000_000 },
      { unit_id: 'B', tenant_name: 'B', sqft: 850.0001 },
      { unit_id: 'C', tenant_name: 'C', sqft: MAX_SQFT },
    ];
    const a = allocate({
      method: 'sqft',
      vacancyPolicy: 'redistribute',
      rounding: 'exact',
      commonAreaPercent: 0,
      adminFeePercent: 0,
      sqftWeightPercent: 50,
      totalCents: 123_456_789,
      periodStart: date(0),
      periodEnd: date(29),
      units,
    });
    expect(a.lines.reduce((s, u) => s + u.baseCents, 0)).toBe(123_456_789);
    // B's share: 850.0001 / 1,100,000,850.0001 of $1,234,567.89 is about 95 cents
    expect(a.lines[1]!.baseCents).toBe(95);
  });

  it('never fails on input inside the published limits: every factor to its maximum, with up to 4 decimals', () => {
    const published = (i: number): fc.Arbitrary<BillingUnit> =>
      fc.record({
        unit_id: fc.constant(`U${i}`),
        tenant_name: fc.constant(`Tenant ${i}`),
        sqft: fc.oneof(fc.integer({ min: 0, max: MAX_SQFT }), decimal(MAX_SQFT, 4), decimal(2000, 4)),
        occupant_count: fc.oneof(fc.integer({ min: 0, max: MAX_OCCUPANTS }), fc.integer({ min: 0, max: 6 })),
        custom_weight: fc.oneof(decimal(MAX_CUSTOM_WEIGHT, 4), fc.constant(MAX_CUSTOM_WEIGHT)),
        is_vacant: fc.boolean(),
      });
    const wide = fc
      .record({
        ...SETTINGS_ARB,
        n: fc.integer({ min: 1, max: 12 }),
        commonAreaPercent: decimal(50, 2),
        adminFeePercent: decimal(15, 4),
        sqftWeightPercent: decimal(100, 2),
        totalCents: fc.oneof(fc.integer({ min: 0, max: 9_999_999_999_999 }), fc.constant(9_999_999_999_999)),
      })
      .chain((p) => fc.tuple(fc.constant(p), fc.tuple(...Array.from({ length: p.n }, (_, i) => published(i)))));
    fc.assert(
      fc.property(wide, ([p, units]) => {
        const input = inputOf(p, 31, units); // 2026-01-01 to 2026-01-31
        const a = tryAllocate(input); // only AllocationError (nothing to bill by) may refuse
        if (!a) return;
        const r = a.reconciliation;
        expect(r.commonAreaDeductionCents + r.billedToTenantsCents + r.ownerAbsorbsCents + r.roundingDifferenceCents).toBe(
          r.totalAmountCents,
        );
        expect(tryAllocate(input, 'bigint')).toEqual(a);
      }),
      RUNS,
    );
  });
});
