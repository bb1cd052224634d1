/**
 * The RUBS allocator's public types and constants (rubs.calc.ts allocates): the methods, policies
 * and rounding modes a configuration chooses from, the units and terms allocate() takes, and the
 * allocation it gives back. Plain data, no logic.
 */
export const ALLOCATION_METHODS = ['sqft', 'occupant_count', 'unit_count', 'custom_weight', 'sqft_occupant'] as const;
export type AllocationMethod = (typeof ALLOCATION_METHODS)[number];
export const VACANCY_POLICIES = ['redistribute', 'owner_pays'] as const;
export type VacancyPolicy = (typeof VACANCY_POLICIES)[number];
export const ROUNDING_MODES = ['per_unit', 'exact'] as const;
export type RoundingMode = (typeof ROUNDING_MODES)[number];
/** Where a calculation's units came from: the request's body, or the property's PMS units. */
export const CALCULATION_SOURCES = ['request', 'pms'] as const;
export type CalculationSource = (typeof CALCULATION_SOURCES)[number];

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

/** One resident's stay in a unit that turned over within the period (README "Turnover"). */
export interface Occupancy {
  tenant_name: string;
  /** YYYY-MM-DD, first day occupied (inclusive); absent: since before the period. */
  move_in?: string | null;
  /** YYYY-MM-DD, last day occupied (inclusive); absent: still there after the period. */
  move_out?: string | null;
  /** The occupant factor of this stay (occupant methods). */
  occupant_count?: number | null;
}

/**
 * A tenant unit as the allocator takes it, whatever it came from (a request body, the PMS). The
 * field names are the API's, so a calculate-rubs body's units pass through as they are.
 */
export interface BillingUnit {
  unit_id: string;
  /** The resident; for a unit sent with occupancies, not billed (each occupancy names its own). */
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
  /**
   * Turnover: the unit's residents within the period, in place of one tenant (and of is_vacant,
   * move_in, move_out). Each is billed for its days; the unit's factor counts once in the totals;
   * days no occupancy covers are vacant days. The unit's own occupant_count, if any, is that of
   * the empty days.
   */
  occupancies?: readonly Occupancy[] | null;
}

/**
 * Occupancy factors by head count (README "Occupancy factor tables"): keys "0" or "1" up to N,
 * consecutive, factors that never decrease; a head count above N takes N's factor.
 */
export type OccupantFactorTable = Readonly<Record<string, number>>;

/** The billing configuration's terms. Percentages are percent (5 means 5 %), at most PERCENT_PLACES decimals. */
export interface AllocationTerms {
  method: AllocationMethod;
  vacancyPolicy: VacancyPolicy;
  rounding: RoundingMode;
  commonAreaPercent: number;
  adminFeePercent: number;
  /** sqft_occupant only: the weight of the sqft share; the occupant share gets the rest. */
  sqftWeightPercent: number;
  /** The occupant factor by head count instead of the head count itself (null: linear). */
  occupantFactors?: OccupantFactorTable | null;
  /** A billed line's base charge is at most this (cents); the owner absorbs the rest. */
  maxChargeCents?: number | null;
  /** A billed line's base charge is at least this (cents); what it adds reduces what the owner pays. */
  minChargeCents?: number | null;
  /** A flat fee in cents on every billed line (on top of the master bill, like the admin fee). */
  billingFeeCents?: number;
}

export interface AllocationInput extends AllocationTerms {
  totalCents: number;
  periodStart: string;
  periodEnd: string;
  units: readonly BillingUnit[];
  /**
   * The weight of each day of the period, in order (README "Interval proration": the master
   * meter's Wh of the day), positive integers: proration counts a line's days by their weights
   * instead of one each. Absent or null: every day counts the same.
   */
  dailyWeights?: readonly number[] | null;
}

/** One billed line: a unit, or one occupancy of a unit sent with occupancies. */
export interface UnitAllocation {
  unit: BillingUnit;
  /** The occupancy's index in unit.occupancies; null for a unit sent without occupancies. */
  occupancy: number | null;
  tenantName: string;
  moveIn: string | null;
  moveOut: string | null;
  /** The head count of the line as sent (the occupancy's, or the unit's). */
  occupantCount: number | null;
  /** The occupancy table's factor used for the line; null without a table. */
  occupantFactor: number | null;
  /** Vacant for the whole period: sent as vacant, or no occupied day within it. */
  isVacant: boolean;
  occupiedDays: number;
  /** With daily weights: the sum of the weights of the line's occupied days (its Wh); else null. */
  occupiedWh: number | null;
  /** The line's share in hundredths of a percent (allocation_percent x 100), rounded half up. */
  shareBasisPoints: number;
  /** The base charge its share gives, before max_charge / min_charge. */
  shareCents: number;
  /** Which limit moved the base charge, if any. */
  limit: 'max_charge' | 'min_charge' | null;
  baseCents: number;
  adminFeeCents: number;
  billingFeeCents: number;
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
  /**
   * When anyone moved within the period: the exact sums that shares are taken from, in factor-days
   * (with daily weights, in Wh: factor-kWh, the sums / 1000); else null.
   */
  billedFactorDays: number | null;
  allFactorDays: number | null;
}

export interface Reconciliation {
  totalAmountCents: number;
  commonAreaDeductionCents: number;
  billedToTenantsCents: number;
  adminFeesCents: number;
  billingFeesCents: number;
  /** The vacant share (owner_pays) + maxChargeAbsorbedCents - minChargeAddedCents. */
  ownerAbsorbsCents: number;
  /** What max_charge took off the base charges (the owner pays it). */
  maxChargeAbsorbedCents: number;
  /** What min_charge added to the base charges (the owner pays that much less). */
  minChargeAddedCents: number;
  roundingDifferenceCents: number;
}

export interface Allocation {
  periodDays: number;
  /** With daily weights: their sum over the period (its Wh); else null. */
  periodWeight: number | null;
  commonAreaDeductionCents: number;
  billableCents: number;
  vacantAbsorptionCents: number;
  /** One per unit, or per occupancy of a unit sent with occupancies, in the order sent. */
  lines: UnitAllocation[];
  unitsBilled: number;
  unitsVacant: number;
  factorTotals: FactorTotal[];
  reconciliation: Reconciliation;
}
