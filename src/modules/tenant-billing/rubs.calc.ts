/**
 * The RUBS allocator: splits a master-metered utility bill over tenant units. Pure: no database,
 * no clock, no environment; plain objects in, plain objects out (callable from a REPL).
 *
 * Money is integer cents and every share is an exact fraction of BigInts: factors are read as the
 * decimals they were written as (at most FACTOR_PLACES places) and rounded once, where the rules
 * say. The rules, with hand-worked examples, are in this folder's README.md.
 */
import { decimalPlacesOf, fromScaledInteger, roundDivBig, toScaledInteger } from '../../platform/money';
import { dayNumber, periodDays, unitOccupiedDays } from './occupancy';
import { bigIntCore, safeCore, type Core, type FactorPart, type SplitTerms } from './rubs.split';

export const ALLOCATION_METHODS = ['sqft', 'occupant_count', 'unit_count', 'custom_weight', 'sqft_occupant'] as const;
export type AllocationMethod = (typeof ALLOCATION_METHODS)[number];
export const VACANCY_POLICIES = ['redistribute', 'owner_pays'] as const;
export type VacancyPolicy = (typeof VACANCY_POLICIES)[number];
export const ROUNDING_MODES = ['per_unit', 'exact'] as const;
export type RoundingMode = (typeof ROUNDING_MODES)[number];

/** Decimal places read from sqft and custom_weight, and from the configuration's percentages. */
export const FACTOR_PLACES = 4;
export const PERCENT_PLACES = 4;

/** A factor a method allocates by; `unit_count` is 1 for every unit. */
export type FactorName = 'sqft' | 'occupant_count' | 'custom_weight' | 'unit_count';

/** The factors each method reads, in the order their shares are blended. */
export const METHOD_FACTORS: Readonly<Record<AllocationMethod, readonly FactorName[]>> = {
  sqft: ['sqft'],
  occupant_count: ['occupant_count'],
  unit_count: ['unit_count'],
  custom_weight: ['custom_weight'],
  sqft_occupant: ['sqft', 'occupant_count'],
};

/**
 * A tenant unit as the allocator takes it, whatever it came from (a request body, the PMS). The
 * field names are the API's, so a calculate-rubs body's units pass through as they are.
 */
export interface BillingUnit {
  unit_id: string;
  tenant_name: string;
  sqft?: number | null;
  occupant_count?: number | null;
  custom_weight?: number | null;
  /** Vacant for the whole period (default false). */
  is_vacant?: boolean;
  /** YYYY-MM-DD, first day occupied (inclusive); absent: occupied since before the period. */
  move_in?: string | null;
  /** YYYY-MM-DD, last day occupied (inclusive); absent: still occupied after the period. */
  move_out?: string | null;
}

/** The billing configuration's terms. Percentages are percent (5 means 5 %), at most PERCENT_PLACES decimals. */
export interface AllocationTerms {
  method: AllocationMethod;
  vacancyPolicy: VacancyPolicy;
  rounding: RoundingMode;
  commonAreaPercent: number;
  adminFeePercent: number;
  /** sqft_occupant only: the weight of the sqft share; the occupant share gets the rest. */
  sqftWeightPercent: number;
}

export interface AllocationInput extends AllocationTerms {
  totalCents: number;
  periodStart: string;
  periodEnd: string;
  units: readonly BillingUnit[];
}

export interface UnitAllocation {
  unit: BillingUnit;
  /** Vacant for the whole period: sent as vacant, or no occupied day within it. */
  isVacant: boolean;
  occupiedDays: number;
  /** The unit's share in hundredths of a percent (allocation_percent x 100), rounded half up. */
  shareBasisPoints: number;
  baseCents: number;
  adminFeeCents: number;
  totalCents: number;
}

export interface FactorTotal {
  name: FactorName;
  /** Its weight in the blend, percent (100 for a single-factor method). */
  weightPercent: number;
  /** Sum over billed units of factor x occupied days / period days (4 decimals, for display). */
  billedTotal: number;
  /** Sum over all units of the factor, vacant ones included. */
  allTotal: number;
}

export interface Reconciliation {
  totalAmountCents: number;
  commonAreaDeductionCents: number;
  billedToTenantsCents: number;
  adminFeesCents: number;
  ownerAbsorbsCents: number;
  roundingDifferenceCents: number;
}

export interface Allocation {
  periodDays: number;
  commonAreaDeductionCents: number;
  billableCents: number;
  vacantAbsorptionCents: number;
  units: UnitAllocation[];
  factorTotals: FactorTotal[];
  reconciliation: Reconciliation;
}

export { AllocationError } from './rubs.split';

const PERCENT_SCALE = 10n ** BigInt(PERCENT_PLACES);
/** 100 % in scaled percent units. */
const HUNDRED_PERCENT = 100n * PERCENT_SCALE;

function scaledPercent(value: number, what: string): bigint {
  const v = toScaledInteger(value, PERCENT_PLACES);
  if (v === null || v < 0n || v > HUNDRED_PERCENT) {
    throw new RangeError(`${what} must be a percentage from 0 to 100 with at most ${PERCENT_PLACES} decimal places`);
  }
  return v;
}

function rawFactor(unit: BillingUnit, name: FactorName): number {
  if (name === 'unit_count') return 1;
  const raw = unit[name];
  if (raw === null || raw === undefined || !(raw >= 0)) throw new RangeError(`unit ${unit.unit_id}: ${name} must be a number >= 0`);
  return raw;
}

/**
 * One factor of every unit as integers: value x 10^places, with places the most decimals any unit
 * used (usually 0), so the integers stay small and the arithmetic in plain numbers where it can.
 */
function readFactor(name: FactorName, weight: bigint, units: readonly BillingUnit[]): FactorPart {
  const raw = units.map((u) => rawFactor(u, name));
  let places = 0;
  for (const v of raw) {
    const p = decimalPlacesOf(v, FACTOR_PLACES);
    if (p === null) throw new RangeError(`${name} must have at most ${FACTOR_PLACES} decimal places`);
    if (p > places) places = p;
  }
  // The scaled values themselves must be exact integers (they were once multiplied by 10^places a second time here).
  const values = places === 0 ? raw : raw.map((v) => Number(toScaledInteger(v, places)));
  if (values.some((v) => !Number.isSafeInteger(v))) throw new RangeError(`${name} is too large`);
  return { name, weight, values, places };
}

export interface AllocateOptions {
  /** 'bigint' forces the BigInt arithmetic (tests compare it with the plain-number path). */
  arithmetic?: 'auto' | 'bigint';
}

/** Splits the master bill over the units; throws AllocationError for input it cannot split by. */
export function allocate(input: AllocationInput, options: AllocateOptions = {}): Allocation {
  const { units } = input;
  const n = units.length;
  if (!Number.isSafeInteger(input.totalCents) || input.totalCents < 0) throw new RangeError('totalCents must be a non-negative integer');
  const total = BigInt(input.totalCents);
  const commonArea = scaledPercent(input.commonAreaPercent, 'commonAreaPercent');
  const adminFee = scaledPercent(input.adminFeePercent, 'adminFeePercent');

  // Rules 1 and 2: the common-area deduction, rounded to the cent; the rest is billable.
  const deduction = roundDivBig(total * commonArea, HUNDRED_PERCENT);
  const billable = total - deduction;

  // Occupied days; when nobody moved in or out within the period, every occupied unit counts 1
  // (the period's days cancel out of every share) and the integers stay smaller.
  const period = periodDays(input.periodStart, input.periodEnd);
  const startDay = dayNumber(input.periodStart);
  const endDay = dayNumber(input.periodEnd);
  const days = units.map((u) => (u.is_vacant ? 0 : u.move_in || u.move_out ? unitOccupiedDays(u, startDay, endDay) : period));
  const prorated = days.some((d) => d !== 0 && d !== period);
  const dayWeights = prorated ? days : days.map((d) => (d === 0 ? 0 : 1));
  const fullWeight = prorated ? period : 1;

  const names = METHOD_FACTORS[input.method];
  const weights = names.length === 1 ? [1n] : (() => {
    const sqftWeight = scaledPercent(input.sqftWeightPercent, 'sqftWeightPercent');
    return [sqftWeight, HUNDRED_PERCENT - sqftWeight];
  })();
  const parts = names
    .map((name, k) => ({ name, weight: weights[k] }))
    .filter((p) => p.weight > 0n)
    .map((p) => readFactor(p.name, p.weight, units));

  const terms: SplitTerms = {
    vacancyPolicy: input.vacancyPolicy, rounding: input.rounding, billable: Number(billable),
    adminFeeScaled: Number(adminFee), adminFeeDen: Number(HUNDRED_PERCENT), dayWeights, fullWeight,
    anyBilled: days.some((d) => d > 0),
  };
  const core: Core = (options.arithmetic !== 'bigint' && safeCore(parts, terms)) || bigIntCore(parts, terms);

  const unitAllocations: UnitAllocation[] = new Array(n);
  let billed = 0;
  let fees = 0;
  for (let i = 0; i < n; i++) {
    billed += core.base[i];
    fees += core.fees[i];
    unitAllocations[i] = {
      unit: units[i],
      isVacant: days[i] === 0,
      occupiedDays: days[i],
      shareBasisPoints: core.basisPoints[i],
      baseCents: core.base[i],
      adminFeeCents: core.fees[i],
      totalCents: core.base[i] + core.fees[i],
    };
  }
  const ownerAbsorbs = input.vacancyPolicy === 'owner_pays' ? core.vacantAbsorption : 0;
  return {
    periodDays: period,
    commonAreaDeductionCents: Number(deduction),
    billableCents: Number(billable),
    vacantAbsorptionCents: core.vacantAbsorption,
    units: unitAllocations,
    factorTotals: parts.map((p, k) => ({
      name: p.name,
      weightPercent: names.length === 1 ? 100 : fromScaledInteger(p.weight, PERCENT_PLACES),
      // Shown with FACTOR_PLACES decimals: billed factor-days over the full weight, rounded.
      billedTotal: fromScaledInteger(
        roundDivBig(core.billedSums[k] * 10n ** BigInt(FACTOR_PLACES), BigInt(fullWeight) * 10n ** BigInt(p.places)), FACTOR_PLACES,
      ),
      allTotal: fromScaledInteger(core.allSums[k] / BigInt(fullWeight), p.places),
    })),
    reconciliation: {
      totalAmountCents: input.totalCents,
      commonAreaDeductionCents: Number(deduction),
      billedToTenantsCents: billed,
      adminFeesCents: fees,
      ownerAbsorbsCents: ownerAbsorbs,
      roundingDifferenceCents: input.totalCents - Number(deduction) - billed - ownerAbsorbs,
    },
  };
}
