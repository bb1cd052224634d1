import { fromCents, fromScaledInteger, toScaledInteger } from '../../platform/money';
import type { UtilityType } from '../bills/utility-types';
import {
  METHOD_FACTORS, PERCENT_PLACES,
  type Allocation, type AllocationMethod, type RoundingMode, type VacancyPolicy,
} from './rubs.calc';
import { readLegacyDeflatedUnits, type LegacyDeflatedDocument } from './legacy-deflated';
import type { BillingConfigRow, HistoryRow } from './repository';
import type { CalculationResponse } from './schemas';

export type CalculationSource = 'request' | 'pms';
export type UnitBill = CalculationResponse['unit_bills'][number];

/** The billing configuration, vacancy_policy, rounding and sqft_weight_percent included (README "Billing configuration"). */
export function presentConfig(r: BillingConfigRow) {
  return {
    id: r.id,
    property_id: r.propertyId,
    method: r.method as AllocationMethod,
    utility_types: r.utilityTypes as UtilityType[],
    common_area_percent: r.commonAreaPercent,
    admin_fee_percent: r.adminFeePercent,
    billing_day: r.billingDay,
    is_active: r.isActive,
    vacancy_policy: r.vacancyPolicy as VacancyPolicy,
    rounding: r.rounding as RoundingMode,
    sqft_weight_percent: r.sqftWeightPercent,
    created_at: r.createdAt.toISOString(),
  };
}

/** The unit-bill fields that echo the method's factors (unit_count has none). */
export function factorFields(method: AllocationMethod): Array<'sqft' | 'occupant_count' | 'custom_weight'> {
  return METHOD_FACTORS[method].filter((f) => f !== 'unit_count') as Array<'sqft' | 'occupant_count' | 'custom_weight'>;
}


/** admin_fee_percent as the API's admin_fee_rate fraction (5 -> 0.05), exactly as a decimal. */
export function adminFeeRate(adminFeePercent: number): number {
  return fromScaledInteger(toScaledInteger(adminFeePercent, PERCENT_PLACES)!, PERCENT_PLACES + 2);
}

export interface CalculationHeader {
  id: string;
  propertyId: string;
  configId: string;
  periodStart: string;
  periodEnd: string;
  utilityType: UtilityType;
  method: AllocationMethod;
  vacancyPolicy: VacancyPolicy;
  rounding: RoundingMode;
  commonAreaPercent: number;
  adminFeePercent: number;
  source: CalculationSource;
  calculatedAt: Date;
}

/**
 * The rest of a unit bill after its unit_id, tenant_name and factor fields, in the answer's key
 * order, from the stored figures (an allocation's, or a stored row's): a unit with no occupied day
 * is vacant, and the move dates are set only when the unit was sent with one (a 10,000-unit
 * answer stays smaller).
 */
function completeUnitBill(
  bill: Record<string, unknown>, basisPoints: number, baseCents: number, feeCents: number, occupiedDays: number,
  moves: ReadonlyArray<string | null> | null,
): UnitBill {
  bill.allocation_percent = basisPoints / 100;
  bill.base_charge = fromCents(baseCents);
  bill.admin_fee = fromCents(feeCents);
  bill.total_charge = fromCents(baseCents + feeCents);
  bill.is_vacant = occupiedDays === 0;
  bill.occupied_days = occupiedDays;
  if (moves) {
    bill.move_in = moves[0];
    bill.move_out = moves[1];
  }
  return bill as UnitBill;
}

/** The RUBS calculation as the API answers it (README "The calculation" lists its fields). */
export function presentCalculation(h: CalculationHeader, a: Allocation): CalculationResponse {
  const fields = factorFields(h.method);
  const unitBills: UnitBill[] = a.units.map((u) => {
    const bill: Record<string, unknown> = { unit_id: u.unit.unit_id, tenant_name: u.unit.tenant_name };
    for (const f of fields) bill[f] = u.unit[f];
    const { move_in: moveIn, move_out: moveOut } = u.unit;
    const moves = moveIn || moveOut ? [moveIn ?? null, moveOut ?? null] : null;
    return completeUnitBill(bill, u.shareBasisPoints, u.baseCents, u.adminFeeCents, u.occupiedDays, moves);
  });
  const billed = a.units.reduce((n, u) => n + (u.isVacant ? 0 : 1), 0);
  const r = a.reconciliation;
  return {
    id: h.id,
    property_id: h.propertyId,
    billing_config_id: h.configId,
    billing_period_start: h.periodStart,
    billing_period_end: h.periodEnd,
    utility_type: h.utilityType,
    total_amount: fromCents(r.totalAmountCents),
    common_area_percent: h.commonAreaPercent,
    common_area_deduction: fromCents(a.commonAreaDeductionCents),
    billable_amount: fromCents(a.billableCents),
    admin_fee_rate: adminFeeRate(h.adminFeePercent),
    method: h.method,
    vacancy_policy: h.vacancyPolicy,
    rounding: h.rounding,
    source: h.source,
    unit_bills: unitBills,
    units_billed: billed,
    units_vacant: a.units.length - billed,
    vacant_absorption: fromCents(a.vacantAbsorptionCents),
    reconciliation: {
      total_amount: fromCents(r.totalAmountCents),
      common_area_deduction: fromCents(r.commonAreaDeductionCents),
      billed_to_tenants: fromCents(r.billedToTenantsCents),
      admin_fees: fromCents(r.adminFeesCents),
      owner_absorbs: fromCents(r.ownerAbsorbsCents),
      rounding_difference: fromCents(r.roundingDifferenceCents),
    },
    allocation_basis: {
      period_days: a.periodDays,
      factors: a.factorTotals.map((f) => ({
        factor: f.name, weight_percent: f.weightPercent, billed_total: f.billedTotal, all_total: f.allTotal,
      })),
    },
    calculated_at: h.calculatedAt.toISOString(),
  };
}

/**
 * The stored form of a calculation, written as plain JSON to rubs_calculations.result: the answer
 * without its unit bills, and the unit bills as rows of values (amounts in integer cents, the share
 * in hundredths of a percent), a quarter of the size of 10,000 keyed objects.
 */
export interface StoredCalculation {
  /** 3: this plain form (2 was the deflated form, read by legacy-deflated.ts). */
  format: 3;
  calculation: Omit<CalculationResponse, 'unit_bills'>;
  /**
   * Per unit: unit_id, tenant_name, the method's factor fields, the share (1/100 %), base cents,
   * fee cents, occupied days (0: vacant), and move_in, move_out when either is set.
   */
  units: unknown[][];
}

export function toStored(c: CalculationResponse, a: Allocation): StoredCalculation {
  const { unit_bills: _omitted, ...calculation } = c;
  const fields = factorFields(c.method);
  const units = a.units.map((u) => {
    const row: unknown[] = [u.unit.unit_id, u.unit.tenant_name];
    for (const f of fields) row.push(u.unit[f] ?? null);
    row.push(u.shareBasisPoints, u.baseCents, u.adminFeeCents, u.occupiedDays);
    if (u.unit.move_in || u.unit.move_out) row.push(u.unit.move_in ?? null, u.unit.move_out ?? null);
    return row;
  });
  return { format: 3, calculation, units };
}

/** A stored result's text: the plain form as it is, a row stored before issue 28 through its legacy decoder. */
export function readStored(text: string): StoredCalculation {
  const doc = JSON.parse(text) as StoredCalculation | LegacyDeflatedDocument;
  return doc.format === 2 ? { format: 3, calculation: doc.calculation, units: readLegacyDeflatedUnits(doc) } : doc;
}

/** One stored unit row (StoredCalculation['units']) as its unit bill; `fields` are factorFields of the method. */
function unitBillOfRow(row: unknown[], fields: ReturnType<typeof factorFields>): UnitBill {
  const f = fields.length;
  const bill: Record<string, unknown> = { unit_id: row[0], tenant_name: row[1] };
  for (let k = 0; k < f; k++) bill[fields[k]] = row[2 + k];
  const [bp, base, fee, days, ...moves] = row.slice(2 + f) as [number, number, number, number, ...Array<string | null>];
  return completeUnitBill(bill, bp, base, fee, days, moves.length > 0 ? moves : null);
}

export function fromStored(s: StoredCalculation): CalculationResponse {
  const fields = factorFields(s.calculation.method);
  const unitBills = s.units.map((row) => unitBillOfRow(row, fields));
  // Key order as presentCalculation writes it: unit_bills after source.
  const { units_billed, units_vacant, vacant_absorption, reconciliation, allocation_basis, calculated_at, ...head } = s.calculation;
  return {
    ...head, unit_bills: unitBills, units_billed, units_vacant, vacant_absorption, reconciliation, allocation_basis, calculated_at,
  };
}

/**
 * The bill of one unit of a stored calculation, as fromStored would give it in unit_bills (the
 * first with that unit_id), without building the others; undefined when the unit is not in it.
 */
export function storedUnitBill(s: StoredCalculation, unitId: string): UnitBill | undefined {
  const row = s.units.find((r) => r[0] === unitId);
  return row ? unitBillOfRow(row, factorFields(s.calculation.method)) : undefined;
}

export function presentHistoryItem(r: HistoryRow) {
  return {
    id: r.id,
    property_id: r.propertyId,
    billing_period_start: r.billingPeriodStart,
    billing_period_end: r.billingPeriodEnd,
    utility_type: r.utilityType as UtilityType,
    total_amount: r.totalAmount,
    units_billed: r.unitsBilled,
    units_vacant: r.unitsVacant,
    method: r.method as AllocationMethod,
    calculated_at: r.calculatedAt.toISOString(),
  };
}
