import { fromCents, fromScaledInteger, toCents, toScaledInteger } from '../../platform/money';
import type { UtilityType } from '../bills/utility-types';
import {
  METHOD_FACTORS,
  PERCENT_PLACES,
  type Allocation,
  type AllocationMethod,
  type AllocationTerms,
  type CalculationSource,
  type RoundingMode,
  type UnitAllocation,
  type VacancyPolicy,
} from './rubs.types';
import type { BillingConfigRow, CalculationState, HistoryRow } from './repository';
import type { CalculationResponse, ConfigResponse } from './schemas.response';
import type { TimeBasisAnswer } from './time-basis';

export type UnitBill = CalculationResponse['unit_bills'][number];

/** The billing configuration as answered (README "Billing configuration"). */
export function presentConfig(r: BillingConfigRow): ConfigResponse {
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
    methods_by_utility: r.methodsByUtility as ConfigResponse['methods_by_utility'],
    occupant_factors: r.occupantFactors ?? null,
    max_charge: r.maxCharge,
    min_charge: r.minCharge,
    billing_fee: r.billingFee,
    version: r.version,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt ? r.updatedAt.toISOString() : null,
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

/** INV-000042: statements are numbered per property. */
export function invoiceNumber(n: number): string {
  return `INV-${String(n).padStart(6, '0')}`;
}

/** A calculation as made: its configuration, period and the terms it allocated with (defaults applied; sqft weight not kept). */
export interface CalculationHeader extends Required<Omit<AllocationTerms, 'sqftWeightPercent'>> {
  id: string;
  propertyId: string;
  configId: string;
  configVersion: number;
  periodStart: string;
  periodEnd: string;
  utilityType: UtilityType;
  dueDate: string;
  source: CalculationSource;
  calculatedAt: Date;
  /** What the proration counted days by (README "Interval proration"). */
  timeBasis: TimeBasisAnswer;
}

/** What the rows' columns say about a calculation after it was made: its status and invoice numbers. */
export interface CalculationMeta extends CalculationState {
  firstInvoiceNumber: number | null;
}

/** The extra figures of a line, stored only when it has them. */
export interface LineExtras {
  occupancy?: number;
  occupant_factor?: number;
  share_cents?: number;
  limit?: 'max_charge' | 'min_charge';
  /** Interval proration, a line occupied for part of the period: the Wh of its days. */
  occupied_wh?: number;
}

/**
 * A unit bill in the answer's key order from the stored figures (an allocation's, or a stored
 * row's): a line with no occupied day is vacant; the move dates are set only when the unit was
 * sent with one (a 10,000-unit answer stays smaller); the turnover, table and limit fields only
 * when they apply.
 */
export function completeUnitBill(
  bill: Record<string, unknown>,
  basisPoints: number,
  baseCents: number,
  feeCents: number,
  occupiedDays: number,
  moves: ReadonlyArray<string | null> | null,
  extras: LineExtras | null,
  billingFeeCents: number,
  invoice: string | null,
): UnitBill {
  const lineFee = occupiedDays > 0 ? billingFeeCents : 0;
  bill.allocation_percent = basisPoints / 100;
  bill.base_charge = fromCents(baseCents);
  bill.admin_fee = fromCents(feeCents);
  bill.total_charge = fromCents(baseCents + feeCents + lineFee);
  bill.is_vacant = occupiedDays === 0;
  bill.occupied_days = occupiedDays;
  if (moves) {
    bill.move_in = moves[0];
    bill.move_out = moves[1];
  }
  if (extras) {
    if (extras.occupancy !== undefined) bill.occupancy = extras.occupancy;
    if (extras.occupant_factor !== undefined) bill.occupant_factor = extras.occupant_factor;
    if (extras.limit) bill.charge_limit = { limit: extras.limit, share_charge: fromCents(extras.share_cents ?? baseCents) };
    if (extras.occupied_wh !== undefined) bill.occupied_kwh = fromScaledInteger(extras.occupied_wh, 3);
  }
  // Present where they apply, as the move dates are: a 10,000-unit answer stays smaller.
  if (billingFeeCents > 0) bill.billing_fee = fromCents(lineFee);
  if (invoice !== null) bill.invoice_number = invoice;
  return bill as UnitBill;
}

/** A line's extras; periodDays tells a line occupied for part of the period (its energy is shown). */
export function extrasOf(l: UnitAllocation, periodDays: number): LineExtras | null {
  const partWh = l.occupiedWh !== null && l.occupiedDays > 0 && l.occupiedDays < periodDays ? l.occupiedWh : null;
  if (l.occupancy === null && l.occupantFactor === null && l.limit === null && partWh === null) return null;
  const extras: LineExtras = {};
  if (partWh !== null) extras.occupied_wh = partWh;
  if (l.occupancy !== null) extras.occupancy = l.occupancy;
  if (l.occupantFactor !== null) extras.occupant_factor = l.occupantFactor;
  if (l.limit !== null) {
    extras.limit = l.limit;
    extras.share_cents = l.shareCents;
  }
  return extras;
}

/**
 * Invoice numbers of a calculation's lines: the billed lines take the numbers from the first on,
 * in order; a vacant line bills nothing and has none.
 */
export function invoiceNumbers(meta: Pick<CalculationMeta, 'firstInvoiceNumber'>, occupiedDays: readonly number[]): Array<string | null> {
  let next = meta.firstInvoiceNumber;
  return occupiedDays.map((days) => (next === null || days === 0 ? null : invoiceNumber(next++)));
}

/** The fields of a calculation that change after it is made: columns of its row, not stored in `result`. */
type StatusField = 'status' | 'supersedes' | 'superseded_by' | 'void_reason' | 'voided_at';

/** The answer without its unit bills and its status: what `result` stores besides the unit rows. */
export type CalculationHead = Omit<CalculationResponse, 'unit_bills' | StatusField>;

/** The answer in its documented key order: the head with the rows' status, the unit bills after `voided_at`. */
export function assemble(head: CalculationHead, unitBills: UnitBill[], meta: CalculationState): CalculationResponse {
  const { units_billed, units_vacant, vacant_absorption, reconciliation, allocation_basis, calculated_at, ...rest } = head;
  return {
    ...rest,
    status: meta.status,
    supersedes: meta.supersedes,
    superseded_by: meta.supersededBy,
    void_reason: meta.voidReason,
    voided_at: meta.voidedAt ? meta.voidedAt.toISOString() : null,
    unit_bills: unitBills,
    units_billed,
    units_vacant,
    vacant_absorption,
    reconciliation,
    allocation_basis,
    calculated_at,
  };
}

/** The RUBS calculation as the API answers it (README "The calculation" lists its fields): its head and unit bills. */
export function presentCalculation(head: CalculationHead, a: Allocation, meta: CalculationMeta): CalculationResponse {
  const fields = factorFields(head.method);
  const feeCents = toCents(head.billing_fee);
  const invoices = invoiceNumbers(
    meta,
    a.lines.map((l) => l.occupiedDays),
  );
  const unitBills: UnitBill[] = a.lines.map((l, i) => {
    const bill: Record<string, unknown> = { unit_id: l.unit.unit_id, tenant_name: l.tenantName };
    for (const f of fields) bill[f] = f === 'occupant_count' ? l.occupantCount : l.unit[f];
    const moves = l.occupancy !== null || l.moveIn || l.moveOut ? [l.moveIn, l.moveOut] : null;
    return completeUnitBill(
      bill,
      l.shareBasisPoints,
      l.baseCents,
      l.adminFeeCents,
      l.occupiedDays,
      moves,
      extrasOf(l, a.periodDays),
      feeCents,
      invoices[i],
    );
  });
  return assemble(head, unitBills, meta);
}

/** A new calculation's answer without its unit bills and status, from its terms and its allocation. */
export function calculationHead(h: CalculationHeader, a: Allocation): CalculationHead {
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
    billing_config_version: h.configVersion,
    occupant_factors: h.occupantFactors,
    max_charge: h.maxChargeCents === null ? null : fromCents(h.maxChargeCents),
    min_charge: h.minChargeCents === null ? null : fromCents(h.minChargeCents),
    billing_fee: fromCents(h.billingFeeCents),
    due_date: h.dueDate,
    units_billed: a.unitsBilled,
    units_vacant: a.unitsVacant,
    vacant_absorption: fromCents(a.vacantAbsorptionCents),
    reconciliation: {
      total_amount: fromCents(r.totalAmountCents),
      common_area_deduction: fromCents(r.commonAreaDeductionCents),
      billed_to_tenants: fromCents(r.billedToTenantsCents),
      admin_fees: fromCents(r.adminFeesCents),
      owner_absorbs: fromCents(r.ownerAbsorbsCents),
      rounding_difference: fromCents(r.roundingDifferenceCents),
      billing_fees: fromCents(r.billingFeesCents),
      max_charge_absorbed: fromCents(r.maxChargeAbsorbedCents),
      min_charge_added: fromCents(r.minChargeAddedCents),
    },
    allocation_basis: {
      period_days: a.periodDays,
      ...h.timeBasis,
      factors: a.factorTotals.map((f) => ({
        factor: f.name,
        weight_percent: f.weightPercent,
        billed_total: f.billedTotal,
        all_total: f.allTotal,
        ...(f.billedFactorDays === null
          ? {}
          : a.periodWeight === null
            ? { billed_factor_days: f.billedFactorDays, all_factor_days: f.allFactorDays! }
            : { billed_factor_kwh: f.billedFactorDays, all_factor_kwh: f.allFactorDays! }),
      })),
    },
    calculated_at: h.calculatedAt.toISOString(),
  };
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
    billing_config_version: r.billingConfigVersion,
    status: r.status as CalculationState['status'],
    supersedes: r.supersedes,
    superseded_by: r.supersededBy,
    calculated_at: r.calculatedAt.toISOString(),
  };
}
