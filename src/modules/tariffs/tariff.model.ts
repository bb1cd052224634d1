/**
 * The normalised tariff the importer produces from a URDB record and the bill
 * engine prices. It keeps everything a bill needs, in URDB's own structure
 * (periods of tiers, 12x24 schedules), with upstream quirks resolved by the
 * importer's written rules. Plain data: JSON-serialisable, no methods.
 *
 * Money is in US dollars as decimal numbers exactly as published (the engine
 * does decimal arithmetic on them); energy in kWh, demand in kW.
 */

export type Sector = 'residential' | 'commercial' | 'industrial' | 'agricultural' | 'lighting';
export type RateType = 'flat' | 'tiered' | 'tou' | 'demand' | 'real_time';
/** Every Sector and RateType value, for validation and the per-value counts in stats. */
export const SECTORS: readonly Sector[] = ['residential', 'commercial', 'industrial', 'agricultural', 'lighting'];
export const RATE_TYPES: readonly RateType[] = ['flat', 'tiered', 'tou', 'demand', 'real_time'];
export type ChargeFrequency = 'monthly' | 'daily' | 'yearly';

/** How a tier's `max` bound is measured (URDB `unit`; absent means kWh). */
export type EnergyTierUnit = 'kWh' | 'kWh daily' | 'kWh/kW' | 'kWh/kVA';

export interface EnergyTier {
  /** Cumulative upper bound within the billing period, in `unit`; null for the last (unbounded) tier. */
  max: number | null;
  unit: EnergyTierUnit;
  /** $/kWh: URDB rate + adj (the adjustment is part of the price). May be negative (a credit). */
  rate: number;
  /** $/kWh credited for exported energy in this period and tier, when the record has one. */
  sell: number | null;
}

export interface DemandTier {
  /** Upper bound in kW (or the structure's unit); null for the last tier. */
  max: number | null;
  /** $ per kW: URDB rate + adj. */
  rate: number;
}

/** 12 months x 24 hours; each value a 0-based index into `periods`. Month 0 = January, hour h = h:00-h+1:00. */
export type Schedule12x24 = number[][];

export interface EnergyStructure {
  /** periods[p][t]: tiers of period p. */
  periods: EnergyTier[][];
  weekday: Schedule12x24;
  /** Weekends and holidays. */
  weekend: Schedule12x24;
  /** Display name per period (e.g. "on_peak", "off_peak", "summer"), derived by the importer's documented rule. */
  periodNames: string[];
}

export interface TouDemandStructure {
  periods: DemandTier[][];
  weekday: Schedule12x24;
  weekend: Schedule12x24;
  /** "kW", "kVA", "hp", or one of those followed by " daily". */
  unit: string;
  periodNames: string[];
}

export interface FlatDemandStructure {
  periods: DemandTier[][];
  /** 12 values, the 0-based period index for each month (January first). */
  months: number[];
  unit: string;
}

export interface FixedCharge {
  name: string;
  amount: number;
  frequency: ChargeFrequency;
}

export interface MinimumCharge {
  amount: number;
  frequency: ChargeFrequency;
}

export type DgRules = 'Net Metering' | 'Net Billing Instantaneous' | 'Net Billing Hourly' | 'Buy All Sell All';

export interface TariffStructure {
  /** Null when the record has no energy charges. */
  energy: EnergyStructure | null;
  demandTou: TouDemandStructure | null;
  demandFlat: FlatDemandStructure | null;
  fixedCharges: FixedCharge[];
  minimumCharge: MinimumCharge | null;
  /** 12 monthly fuel adjustments in $/kWh (URDB `fueladjustmentsmonthly`), billed as a rider; null when absent. */
  fuelAdjustmentsMonthly: number[] | null;
  dgRules: DgRules | null;
  /** True only for records that carry real-time pricing (none of the bundled data does). */
  realTime: boolean;
}

/** A tariff as stored and served: SPEC.md's summary fields plus the structure the engine needs. */
export interface Tariff {
  id: string;
  name: string;
  utilityId: string;
  utilityName: string;
  state: string | null;
  sector: Sector;
  rateType: RateType;
  hasTou: boolean;
  hasDemand: boolean;
  hasNetMetering: boolean;
  effectiveDate: string | null;
  expirationDate: string | null;
  description: string;
  eligibility: string;
  sourceUrl: string;
  lastUpdated: string;
  structure: TariffStructure;
}
