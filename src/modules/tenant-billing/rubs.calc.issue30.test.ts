/**
 * The hand-worked examples of this folder's README.md for the issue 30 terms (examples 9 to 11:
 * turnover, occupancy factor tables, charge limits and the billing fee), one test each.
 */
import { allocate } from './rubs.calc';
import type { BillingUnit } from './rubs.types';
import { input, turnoverUnit } from './rubs.test-helpers';

describe('README examples, issue 30: turnover, occupancy tables, charge limits, billing fee', () => {
  const APRIL = { periodStart: '2026-04-01', periodEnd: '2026-04-30' };
  /** [unit_id, occupancy, tenant, days, base cents, total cents] per line. */
  const lines = (a: ReturnType<typeof allocate>) =>
    a.lines.map((l) => [l.unit.unit_id, l.occupancy, l.tenantName, l.occupiedDays, l.baseCents, l.totalCents]);

  it('9a. turnover under owner_pays: unit 301 counts once, so the tenant who stayed pays half ($460.00, not $306.66)', () => {
    const units: BillingUnit[] = [
      turnoverUnit('301', { tenant_name: 'Dana', move_out: '2026-04-15' }, { tenant_name: 'Eli', move_in: '2026-04-16' }),
      { unit_id: '302', tenant_name: 'Fay' },
    ];
    const a = allocate(input({ method: 'unit_count', vacancyPolicy: 'owner_pays', units, totalCents: 92_000, ...APRIL }));
    // 2 units x 30 days = 60 unit-days: Dana 15/60, Eli 15/60, Fay 30/60.
    expect(lines(a)).toEqual([
      ['301', 0, 'Dana', 15, 23_000, 23_000],
      ['301', 1, 'Eli', 15, 23_000, 23_000],
      ['302', null, 'Fay', 30, 46_000, 46_000],
    ]);
    expect(a.reconciliation).toMatchObject({ billedToTenantsCents: 92_000, ownerAbsorbsCents: 0, roundingDifferenceCents: 0 });
    expect([a.unitsBilled, a.unitsVacant]).toEqual([2, 0]);
  });

  it('9b. turnover with 10 empty days between residents: the vacancy policy takes them', () => {
    const units: BillingUnit[] = [
      turnoverUnit('301', { tenant_name: 'Dana', move_out: '2026-04-10' }, { tenant_name: 'Eli', move_in: '2026-04-21' }),
      { unit_id: '302', tenant_name: 'Fay' },
    ];
    const ownerPays = allocate(input({ method: 'unit_count', vacancyPolicy: 'owner_pays', units, totalCents: 92_000, ...APRIL }));
    // 60 unit-days: Dana 10 ($153.33), Eli 10 ($153.33), Fay 30 ($460.00); the owner pays the 10 empty days ($153.33).
    expect(lines(ownerPays).map((l) => l[4])).toEqual([15_333, 15_333, 46_000]);
    expect(ownerPays.reconciliation).toMatchObject({ ownerAbsorbsCents: 15_333, roundingDifferenceCents: 1 });
    const redistribute = allocate(input({ method: 'unit_count', units, totalCents: 92_000, ...APRIL }));
    // 50 billed unit-days: Dana 10 ($184.00), Eli 10 ($184.00), Fay 30 ($552.00).
    expect(lines(redistribute).map((l) => l[4])).toEqual([18_400, 18_400, 55_200]);
    expect(redistribute.vacantAbsorptionCents).toBe(15_333);
  });

  it('9c. turnover by occupants: each occupancy brings its own head count', () => {
    const units: BillingUnit[] = [
      turnoverUnit(
        '301',
        { tenant_name: 'Dana', move_out: '2026-04-15', occupant_count: 1 },
        { tenant_name: 'Eli', move_in: '2026-04-16', occupant_count: 3 },
      ),
      { unit_id: '302', tenant_name: 'Fay', occupant_count: 2 },
    ];
    const a = allocate(input({ method: 'occupant_count', units, totalCents: 90_000, ...APRIL }));
    // Person-days: Dana 15, Eli 45, Fay 60, 120 in all.
    expect(lines(a).map((l) => l[4])).toEqual([11_250, 33_750, 45_000]);
  });

  it('10. an occupancy factor table: 0 occupants of an occupied unit count as 1, 5 take the last row', () => {
    const units: BillingUnit[] = [
      { unit_id: 'A', tenant_name: 'Nobody registered', occupant_count: 0 },
      { unit_id: 'B', tenant_name: 'Two', occupant_count: 2 },
      { unit_id: 'C', tenant_name: 'Five', occupant_count: 5 },
      { unit_id: 'D', tenant_name: '', occupant_count: 0, is_vacant: true },
    ];
    const occupantFactors = { 1: 1, 2: 1.6, 3: 2, 4: 2.3 };
    const a = allocate(input({ method: 'occupant_count', units, totalCents: 60_000, occupantFactors }));
    // Factors 1.0, 1.6, 2.3 (and 0 for the vacant unit): $600.00 x 1/4.9, x 1.6/4.9, x 2.3/4.9.
    expect(a.lines.map((l) => l.occupantFactor)).toEqual([1, 1.6, 2.3, 0]);
    // Issue 46 replaced per-unit rounding half up with rounding down (never bill more than the bill): 12,245 and 19,592 before.
    expect(a.lines.map((l) => l.baseCents)).toEqual([12_244, 19_591, 28_163, 0]);
    expect(a.factorTotals[0]).toMatchObject({ billedTotal: 4.9, allTotal: 4.9 });
    // Linear (no table), the same units: A pays nothing.
    expect(allocate(input({ method: 'occupant_count', units, totalCents: 60_000 })).lines.map((l) => l.baseCents)).toEqual([
      0, 17_142, 42_857, 0,
    ]);
  });

  it('11. max_charge, min_charge and a billing fee: the owner takes the differences, the fee comes on top', () => {
    const units: BillingUnit[] = [
      { unit_id: 'A', tenant_name: 'a', sqft: 2000 },
      { unit_id: 'B', tenant_name: 'b', sqft: 1000 },
      { unit_id: 'C', tenant_name: 'c', sqft: 600 },
      { unit_id: 'D', tenant_name: 'd', sqft: 400 },
      { unit_id: 'E', tenant_name: '', sqft: 400, is_vacant: true },
    ];
    const a = allocate(
      input({
        units,
        totalCents: 100_000,
        adminFeePercent: 5,
        maxChargeCents: 40_000,
        minChargeCents: 12_000,
        billingFeeCents: 350,
      }),
    );
    // Shares of $1,000.00 over 4,000 occupied sqft: $500, $250, $150, $100; A capped at $400, D raised to $120.
    expect(a.lines.map((l) => [l.shareCents, l.limit, l.baseCents, l.adminFeeCents, l.billingFeeCents, l.totalCents])).toEqual([
      [50_000, 'max_charge', 40_000, 2_000, 350, 42_350],
      [25_000, null, 25_000, 1_250, 350, 26_600],
      [15_000, null, 15_000, 750, 350, 16_100],
      [10_000, 'min_charge', 12_000, 600, 350, 12_950],
      [0, null, 0, 0, 0, 0],
    ]);
    expect(a.reconciliation).toEqual({
      totalAmountCents: 100_000,
      commonAreaDeductionCents: 0,
      billedToTenantsCents: 92_000,
      adminFeesCents: 4_600,
      billingFeesCents: 1_400,
      ownerAbsorbsCents: 8_000,
      maxChargeAbsorbedCents: 10_000,
      minChargeAddedCents: 2_000,
      roundingDifferenceCents: 0,
    });
  });
});
