/**
 * The hand-worked examples of this folder's README.md, one test each (the README shows the
 * arithmetic), and the allocator's refusals. Examples 9 to 11 (the issue 30 terms) are in
 * rubs.calc.issue30.test.ts.
 */
import { allocate, AllocationError } from './rubs.calc';
import type { AllocationInput, BillingUnit } from './rubs.types';
import { input } from './rubs.test-helpers';

/** [unit_id, allocation_percent, base, fee, total] per unit, amounts in cents. */
function bills(a: ReturnType<typeof allocate>) {
  return a.lines.map((u) => [u.unit.unit_id, u.shareBasisPoints / 100, u.baseCents, u.adminFeeCents, u.totalCents]);
}

const MAPLE_COURT: BillingUnit[] = [
  { unit_id: '101', tenant_name: 'Ana Lima', sqft: 1000 },
  { unit_id: '102', tenant_name: 'Ben Okafor', sqft: 750 },
  { unit_id: '103', tenant_name: 'Chen Wei', sqft: 250 },
  { unit_id: '104', tenant_name: '', sqft: 500, is_vacant: true },
];

describe('README examples', () => {
  it('1. sqft, redistribute, per-unit rounding: rules 1 to 6 of the module README', () => {
    const a = allocate(input({ units: MAPLE_COURT, totalCents: 100_000, commonAreaPercent: 10, adminFeePercent: 5 }));
    expect(a.commonAreaDeductionCents).toBe(10_000);
    expect(a.billableCents).toBe(90_000);
    expect(bills(a)).toEqual([
      ['101', 50, 45_000, 2_250, 47_250],
      ['102', 37.5, 33_750, 1_688, 35_438], // 16.875 rounds half up to 16.88
      ['103', 12.5, 11_250, 563, 11_813], // 5.625 -> 5.63
      ['104', 0, 0, 0, 0],
    ]);
    expect(a.lines.map((u) => u.isVacant)).toEqual([false, false, false, true]);
    expect(a.vacantAbsorptionCents).toBe(18_000); // 900 x 500 / 2,500, reported; the occupied units carried it
    expect(a.reconciliation).toEqual({
      totalAmountCents: 100_000,
      commonAreaDeductionCents: 10_000,
      billedToTenantsCents: 90_000,
      adminFeesCents: 4_501,
      ownerAbsorbsCents: 0,
      roundingDifferenceCents: 0,
      billingFeesCents: 0,
      maxChargeAbsorbedCents: 0,
      minChargeAddedCents: 0,
    });
    expect(a.factorTotals).toEqual([
      { name: 'sqft', weightPercent: 100, billedTotal: 2000, allTotal: 2500, billedFactorDays: null, allFactorDays: null },
    ]);
  });

  it('2. the same building under owner_pays: shares over all units, the owner pays the vacant one', () => {
    const a = allocate(
      input({
        units: MAPLE_COURT,
        totalCents: 100_000,
        commonAreaPercent: 10,
        adminFeePercent: 5,
        vacancyPolicy: 'owner_pays',
      }),
    );
    expect(bills(a)).toEqual([
      ['101', 40, 36_000, 1_800, 37_800],
      ['102', 30, 27_000, 1_350, 28_350],
      ['103', 10, 9_000, 450, 9_450],
      ['104', 0, 0, 0, 0],
    ]);
    expect(a.vacantAbsorptionCents).toBe(18_000);
    expect(a.reconciliation).toMatchObject({
      billedToTenantsCents: 72_000,
      ownerAbsorbsCents: 18_000,
      adminFeesCents: 3_600,
      roundingDifferenceCents: 0,
    });
  });

  const THREE_EQUAL: BillingUnit[] = ['A', 'B', 'C'].map((id) => ({ unit_id: id, tenant_name: `Tenant ${id}`, occupant_count: 2 }));

  it('3a. occupant_count, per-unit rounding: $100 over three equal units leaves a cent over', () => {
    const a = allocate(input({ method: 'occupant_count', units: THREE_EQUAL, totalCents: 10_000, adminFeePercent: 10 }));
    expect(bills(a)).toEqual([
      ['A', 33.33, 3_333, 333, 3_666],
      ['B', 33.33, 3_333, 333, 3_666],
      ['C', 33.33, 3_333, 333, 3_666],
    ]);
    expect(a.reconciliation).toMatchObject({ billedToTenantsCents: 9_999, adminFeesCents: 999, roundingDifferenceCents: 1 });
  });

  it('3b. occupant_count, exact rounding: the cent goes to the largest remainder (a tie: the first unit)', () => {
    const a = allocate(input({ method: 'occupant_count', units: THREE_EQUAL, totalCents: 10_000, adminFeePercent: 10, rounding: 'exact' }));
    // Fee quotas 333.4, 333.3, 333.3 cents; 10 % of $100.00 is $10.00: the leftover cent goes to A (.4).
    expect(bills(a)).toEqual([
      ['A', 33.33, 3_334, 334, 3_668],
      ['B', 33.33, 3_333, 333, 3_666],
      ['C', 33.33, 3_333, 333, 3_666],
    ]);
    expect(a.reconciliation).toMatchObject({ billedToTenantsCents: 10_000, adminFeesCents: 1_000, roundingDifferenceCents: 0 });
  });

  const TWO_AND_VACANT: BillingUnit[] = [
    { unit_id: 'A', tenant_name: 'Tenant A' },
    { unit_id: 'B', tenant_name: 'Tenant B' },
    { unit_id: 'C', tenant_name: '', is_vacant: true },
  ];

  it('4a. unit_count, owner_pays, exact: the owner is a recipient too and takes the tie', () => {
    const a = allocate(
      input({ method: 'unit_count', vacancyPolicy: 'owner_pays', rounding: 'exact', units: TWO_AND_VACANT, totalCents: 100_000 }),
    );
    expect(bills(a)).toEqual([
      ['A', 33.33, 33_333, 0, 33_333],
      ['B', 33.33, 33_333, 0, 33_333],
      ['C', 0, 0, 0, 0],
    ]);
    expect(a.vacantAbsorptionCents).toBe(33_334);
    expect(a.reconciliation).toMatchObject({ billedToTenantsCents: 66_666, ownerAbsorbsCents: 33_334, roundingDifferenceCents: 0 });
  });

  it('4b. unit_count, owner_pays, per-unit: each rounded alone, a cent left in rounding_difference', () => {
    const a = allocate(input({ method: 'unit_count', vacancyPolicy: 'owner_pays', units: TWO_AND_VACANT, totalCents: 100_000 }));
    expect(a.lines.map((u) => u.baseCents)).toEqual([33_333, 33_333, 0]);
    expect(a.reconciliation).toMatchObject({ billedToTenantsCents: 66_666, ownerAbsorbsCents: 33_333, roundingDifferenceCents: 1 });
  });

  it('5. custom_weight with decimals, after a 5 % common-area deduction', () => {
    const units: BillingUnit[] = [
      { unit_id: 'A', tenant_name: 'Shop', custom_weight: 12.5 },
      { unit_id: 'B', tenant_name: 'Cafe', custom_weight: 37.5 },
      { unit_id: 'C', tenant_name: 'Studio', custom_weight: 50 },
    ];
    const a = allocate(input({ method: 'custom_weight', units, totalCents: 200_000, commonAreaPercent: 5 }));
    expect(a.commonAreaDeductionCents).toBe(10_000);
    expect(bills(a)).toEqual([
      ['A', 12.5, 23_750, 0, 23_750],
      ['B', 37.5, 71_250, 0, 71_250],
      ['C', 50, 95_000, 0, 95_000],
    ]);
  });

  const MOVE_IN: BillingUnit[] = [
    { unit_id: 'A', tenant_name: 'Full month', sqft: 1000 },
    { unit_id: 'B', tenant_name: 'Moved in on the 21st', sqft: 1000, move_in: '2026-01-21' },
  ];
  const THIRTY_DAYS = { periodStart: '2026-01-01', periodEnd: '2026-01-30', totalCents: 80_000 };

  it('6a. move-in proration, redistribute: factors x days occupied', () => {
    const a = allocate(input({ units: MOVE_IN, ...THIRTY_DAYS }));
    expect(a.periodDays).toBe(30);
    expect(a.lines.map((u) => u.occupiedDays)).toEqual([30, 10]);
    expect(bills(a)).toEqual([
      ['A', 75, 60_000, 0, 60_000],
      ['B', 25, 20_000, 0, 20_000],
    ]);
    expect(a.vacantAbsorptionCents).toBe(26_667); // 800 x (1,000 x 20 days) / (2,000 x 30 days)
    expect(a.factorTotals).toEqual([
      { name: 'sqft', weightPercent: 100, billedTotal: 1333.3333, allTotal: 2000, billedFactorDays: 40_000, allFactorDays: 60_000 },
    ]);
  });

  it('6b. move-in proration, owner_pays: the owner pays the 20 empty days', () => {
    const a = allocate(input({ units: MOVE_IN, ...THIRTY_DAYS, vacancyPolicy: 'owner_pays' }));
    expect(bills(a)).toEqual([
      ['A', 50, 40_000, 0, 40_000],
      ['B', 16.67, 13_333, 0, 13_333],
    ]);
    expect(a.reconciliation).toMatchObject({ billedToTenantsCents: 53_333, ownerAbsorbsCents: 26_667, roundingDifferenceCents: 0 });
  });

  it('7. sqft_occupant, 50/50: each share blends the sqft share and the occupant share', () => {
    const units: BillingUnit[] = [
      { unit_id: 'A', tenant_name: 'Large, one occupant', sqft: 1000, occupant_count: 1 },
      { unit_id: 'B', tenant_name: 'Small, three occupants', sqft: 500, occupant_count: 3 },
    ];
    const a = allocate(input({ method: 'sqft_occupant', units, totalCents: 120_000 }));
    // A: 50 % x 1,000/1,500 + 50 % x 1/4 = 11/24; B: 50 % x 500/1,500 + 50 % x 3/4 = 13/24.
    expect(bills(a)).toEqual([
      ['A', 45.83, 55_000, 0, 55_000],
      ['B', 54.17, 65_000, 0, 65_000],
    ]);
    expect(a.factorTotals).toEqual([
      { name: 'sqft', weightPercent: 50, billedTotal: 1500, allTotal: 1500, billedFactorDays: null, allFactorDays: null },
      { name: 'occupant_count', weightPercent: 50, billedTotal: 4, allTotal: 4, billedFactorDays: null, allFactorDays: null },
    ]);
  });

  it('8. largest remainder under owner_pays: a new vacant unit can move a cent onto a tenant (the new-states paradox)', () => {
    const units: BillingUnit[] = [1294, 1083, 656, 1107, 1427].map((sqft, i) => ({
      unit_id: `U${i + 1}`,
      tenant_name: `Tenant ${i + 1}`,
      sqft,
    }));
    const terms = { vacancyPolicy: 'owner_pays' as const, rounding: 'exact' as const, totalCents: 123 };
    const before = allocate(input({ ...terms, units }));
    const after = allocate(input({ ...terms, units: [...units, { unit_id: 'V', tenant_name: '', sqft: 19, is_vacant: true }] }));
    expect(before.lines.map((u) => u.baseCents)).toEqual([29, 24, 14, 24, 32]);
    expect(after.lines.map((u) => u.baseCents)).toEqual([29, 24, 15, 24, 31, 0]);
    // Per-unit rounding never does this: every share went down, and so does every rounded charge.
    const perUnitBefore = allocate(input({ ...terms, rounding: 'per_unit', units }));
    const perUnitAfter = allocate(
      input({ ...terms, rounding: 'per_unit', units: [...units, { unit_id: 'V', tenant_name: '', sqft: 19, is_vacant: true }] }),
    );
    perUnitBefore.lines.forEach((u, i) => expect(perUnitAfter.lines[i].baseCents).toBeLessThanOrEqual(u.baseCents));
  });
});

describe('occupancy', () => {
  const units: BillingUnit[] = [
    { unit_id: 'stay', tenant_name: 'a', sqft: 100 },
    { unit_id: 'left', tenant_name: 'b', sqft: 100, move_out: '2026-01-10' },
    { unit_id: 'both', tenant_name: 'c', sqft: 100, move_in: '2026-01-05', move_out: '2026-01-06' },
    { unit_id: 'before', tenant_name: 'd', sqft: 100, move_out: '2025-12-31' },
    { unit_id: 'after', tenant_name: 'e', sqft: 100, move_in: '2026-02-01' },
    { unit_id: 'outside', tenant_name: 'f', sqft: 100, move_in: '2025-06-01', move_out: '2026-06-01' },
  ];

  it('counts both ends, clamps to the period, and treats a unit with no day in it as vacant', () => {
    const a = allocate(input({ units, totalCents: 10_000 }));
    expect(a.lines.map((u) => [u.occupiedDays, u.isVacant])).toEqual([
      [31, false],
      [10, false],
      [2, false],
      [0, true],
      [0, true],
      [31, false],
    ]);
    expect(a.lines[3].totalCents).toBe(0);
    expect(a.lines[4].totalCents).toBe(0);
  });

  it('a one-day period', () => {
    const a = allocate(input({ units: units.slice(0, 1), periodStart: '2026-03-01', periodEnd: '2026-03-01', totalCents: 500 }));
    expect(a.periodDays).toBe(1);
    expect(a.lines[0].baseCents).toBe(500);
  });
});

describe('refusals', () => {
  const refusal = (i: AllocationInput) => {
    try {
      allocate(i);
    } catch (err) {
      if (err instanceof AllocationError) return [err.field, err.message];
      throw err;
    }
    throw new Error('allocated');
  };

  it('every unit vacant under redistribute: no one to bill', () => {
    const units = [{ unit_id: 'A', tenant_name: '', sqft: 10, is_vacant: true }];
    expect(refusal(input({ units, totalCents: 100 }))).toEqual([
      'units',
      'every unit is vacant: with vacancy_policy redistribute there is no one to bill (use owner_pays)',
    ]);
    // owner_pays: the owner absorbs it all.
    const a = allocate(input({ units, totalCents: 100, vacancyPolicy: 'owner_pays' }));
    expect(a.reconciliation).toMatchObject({ billedToTenantsCents: 0, ownerAbsorbsCents: 100, roundingDifferenceCents: 0 });
  });

  it('factors that add up to 0: nothing to allocate by', () => {
    const units = [
      { unit_id: 'A', tenant_name: 'a', custom_weight: 0 },
      { unit_id: 'B', tenant_name: 'b', custom_weight: 0 },
    ];
    expect(refusal(input({ method: 'custom_weight', units, totalCents: 100 }))).toEqual([
      'units',
      "the billed units' custom_weight add up to 0: there is nothing to allocate by",
    ]);
    expect(refusal(input({ method: 'custom_weight', units, totalCents: 100, vacancyPolicy: 'owner_pays' }))).toEqual([
      'units',
      "the units' custom_weight add up to 0: there is nothing to allocate by",
    ]);
  });

  it('a zero factor among others pays nothing; a zero bill bills nothing', () => {
    const units = [
      { unit_id: 'A', tenant_name: 'a', occupant_count: 0 },
      { unit_id: 'B', tenant_name: 'b', occupant_count: 3 },
    ];
    expect(bills(allocate(input({ method: 'occupant_count', units, totalCents: 999 })))).toEqual([
      ['A', 0, 0, 0, 0],
      ['B', 100, 999, 0, 999],
    ]);
    expect(allocate(input({ method: 'occupant_count', units, totalCents: 0 })).lines.map((u) => u.totalCents)).toEqual([0, 0]);
  });
});

describe('arithmetic', () => {
  it('never bills more than the bill: six equal units of $1,000.00 pay $166.66 each under the default rounding (issue 46)', () => {
    const units: BillingUnit[] = Array.from({ length: 6 }, (_, i) => ({ unit_id: `U${i}`, tenant_name: '', sqft: 500 }));
    const a = allocate(input({ units, totalCents: 100_000 }));
    // Rounded half up each was $166.67, $1,000.02 in all: two cents more than the bill.
    expect(a.lines.map((l) => l.baseCents)).toEqual(Array(6).fill(16_666));
    expect(a.reconciliation).toMatchObject({ billedToTenantsCents: 99_996, roundingDifferenceCents: 4 });
    expect(allocate(input({ units, totalCents: 100_000, rounding: 'exact' })).reconciliation.billedToTenantsCents).toBe(100_000);
  });

  it('a $99 billion bill over 10,000 units (products far beyond 2^53) still adds up to the cent', () => {
    const units: BillingUnit[] = Array.from({ length: 10_000 }, (_, i) => ({ unit_id: `U${i}`, tenant_name: '', sqft: 1000 + i + 0.5 }));
    const totalCents = 9_999_999_999_999;
    const exact = allocate(input({ units, totalCents, rounding: 'exact', adminFeePercent: 15 }));
    expect(exact.reconciliation.billedToTenantsCents).toBe(totalCents);
    // 15 % of 9,999,999,999,999 cents is 1,499,999,999,999.85 cents: the fees add up to that, rounded.
    expect(exact.reconciliation.adminFeesCents).toBe(1_500_000_000_000);
    const perUnit = allocate(input({ units, totalCents }));
    // Issue 46 replaced per-unit rounding half up with rounding down (never bill more than the bill): under a cent a unit, never more.
    expect(perUnit.reconciliation.roundingDifferenceCents).toBeGreaterThanOrEqual(0);
    expect(perUnit.reconciliation.roundingDifferenceCents).toBeLessThanOrEqual(10_000);
    // The first unit: 9,999,999,999,999 x 1000.5 / 60,000,000 (the sqft add up to 60,000,000) = 166,749,999.99998... cents.
    expect(perUnit.lines[0].baseCents).toBe(166_749_999);
  });

  it('reads decimals as written: 0.1 + 0.2 sqft split a bill 1:2 exactly', () => {
    const units = [
      { unit_id: 'A', tenant_name: 'a', sqft: 0.1 },
      { unit_id: 'B', tenant_name: 'b', sqft: 0.2 },
    ];
    expect(allocate(input({ units, totalCents: 300 })).lines.map((u) => u.baseCents)).toEqual([100, 200]);
  });
});
