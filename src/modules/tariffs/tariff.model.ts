/**
 * The normalised tariff the importer produces from a URDB record and the bill
 * engine prices. It keeps everything a bill needs, in URDB's own structure
 * (periods of tiers, 12x24 schedules), with upstream quirks resolved by the
 * importer's written rules. Plain data: JSON-serialisable, no methods.
 *
 * Money is in US dollars as decimal numbers exactly as published (the engine
 * does decimal arithmetic on them); energy in kWh, demand in kW.
 */

import type { Purpose, ServiceType, Voltage } from './tariff-class';

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

/**
 * Coincident-peak demand (URDB `coincidentratestructure`): billed on the
 * customer's demand at the utility's system peak, through the periods of one
 * 12x24 schedule (URDB has no weekday/weekend split for it).
 */
export interface CoincidentDemandStructure {
  periods: DemandTier[][];
  /** Every day of the month; values index `periods`. */
  schedule: Schedule12x24;
  /** "kW" or "kVA" (URDB `coincidentrateunit`; absent means kW). */
  unit: string;
  periodNames: string[];
}

/** A demand ratchet (URDB `lookbackpercent` / `lookbackmonths` / `lookbackrange`): billing demand is at least a share of earlier months' peak. */
export interface DemandRatchet {
  /** Share of the earlier peak, 0-1 as published (0.5 = 50 %). */
  percent: number;
  /** Months (January first) whose demand counts, as published; null when absent. */
  months: boolean[] | null;
  /** Number of months looked back, as published (0 when absent). */
  rangeMonths: number;
}

export interface FixedCharge {
  name: string;
  amount: number;
  frequency: ChargeFrequency;
}

/**
 * A rider of the tariff's own, per unit of usage in the months it applies (a custom tariff's
 * surcharges: a gas cost adjustment, a drought surcharge). URDB's monthly fuel adjustments are
 * `fuelAdjustmentsMonthly`.
 */
export interface UsageRider {
  name: string;
  /** $ per unit of usage (per kWh on electric tariffs); may be negative (a credit). */
  rate: number;
  /** 1-12, ascending: the months whose bills carry it. */
  months: number[];
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
  /** Null when the record has none. */
  demandCoincident: CoincidentDemandStructure | null;
  /** Charge per additional meter (URDB `fixedchargeeaaddl`, in the fixed-charge units); a bill is for one meter, so it is stated, not billed. */
  additionalMeterCharge: { amount: number; frequency: ChargeFrequency } | null;
  /** $ per kVAR of reactive demand (URDB `demandreactivepowercharge`); stated, not billed (requests carry no reactive demand). */
  reactivePowerCharge: number | null;
  /** Stated, not applied (requests carry one month's demand, no history). */
  demandRatchet: DemandRatchet | null;
  /**
   * Minutes a demand is averaged over (URDB `demandwindow`: 15, 30 or 60), read when interval data
   * prices the bill; absent when the record publishes none (15 minutes then).
   */
  demandWindowMinutes?: number;
  /** Named riders per unit of usage (custom tariffs); absent on catalog tariffs. */
  riders?: UsageRider[];
}

/** No energy, demand or fixed charge: nothing for a bill to price (the importer and custom tariffs refuse such a structure). */
export function chargesNothing(s: TariffStructure): boolean {
  return !s.energy && !s.demandTou && !s.demandFlat && !s.demandCoincident && s.fixedCharges.length === 0;
}

/**
 * Who may take the tariff, as the URDB record publishes it (null where it does
 * not): peak demand (`peakkwcapacitymin/max`, kW), monthly energy
 * (`peakkwhusagemin/max`, kWh), `voltagecategory`, `phasewiring`.
 */
export interface TariffApplicability {
  demandKwMin: number | null;
  demandKwMax: number | null;
  usageKwhMin: number | null;
  usageKwhMax: number | null;
  voltageCategory: string | null;
  phaseWiring: string | null;
}

/** The demand and usage limits of a tariff's applicability: what a customer's peak kW and monthly kWh are held against. */
export type ApplicabilityLimits = Pick<TariffApplicability, 'demandKwMin' | 'demandKwMax' | 'usageKwhMin' | 'usageKwhMax'>;

/** Applicability of a tariff that publishes none (also of rows stored before the field existed). */
export const NO_APPLICABILITY: Readonly<TariffApplicability> = Object.freeze({
  demandKwMin: null,
  demandKwMax: null,
  usageKwhMin: null,
  usageKwhMax: null,
  voltageCategory: null,
  phaseWiring: null,
});

/** What a tariff prices: electricity (the catalog, URDB), or a custom tariff's gas, water or sewer service. */
export type UtilityType = 'electric' | 'gas' | 'water' | 'sewer';
export const UTILITY_TYPES: readonly UtilityType[] = ['electric', 'gas', 'water', 'sewer'];

/** Where a catalog tariff came from: the bundled URDB catalog, or a refresh from the URDB API. */
export const CATALOG_SOURCES = ['bundled', 'refreshed'] as const;
/** Where a served tariff came from: the catalog's two sources, or the caller's own (a custom tariff). */
export const TARIFF_SOURCES = [...CATALOG_SOURCES, 'custom'] as const;
export type TariffSource = (typeof TARIFF_SOURCES)[number];

/** Where a custom tariff version's prices came from: a URDB record, or the rates form. */
export const VERSION_SOURCES = ['urdb', 'rates'] as const;
export type VersionSource = (typeof VERSION_SOURCES)[number];

/** A tariff as stored and served: the API's summary fields (present.ts) plus the structure the engine needs. */
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
  applicability: TariffApplicability;
  /** Who may take it (tariff-class.ts): bundled, delivery only or supply only. */
  serviceType: ServiceType;
  /** Service voltage, null when the record does not say. */
  voltage: Voltage | null;
  /** `general`, or the special purpose the rate serves. */
  purpose: Purpose;
  /** What the classification had to assume, when the record was unclear; said in a bill's assumptions. */
  classNote: string | null;
  sourceUrl: string;
  lastUpdated: string;
  structure: TariffStructure;
  /**
   * Catalog tariffs: the id of the later revision of the same schedule that superseded this one
   * (revisions.ts), null when none did. Absent on custom tariffs.
   */
  supersededBy?: string | null;
  /**
   * Where the tariff came from: the bundled catalog, a refresh from the URDB API (refresh/), or an
   * account's own (custom/). Absent reads as `bundled`.
   */
  source?: TariffSource;
  /** When a refresh stored it (catalog) or the version was created (custom); null for bundled records. */
  sourceUpdatedAt?: string | null;
  /**
   * Absent on catalog tariffs (electric, priced per kWh); a custom tariff says what it prices and
   * in which of its type's meter units (meters/units.ts: therms or ccf of gas, kgal of water, ...).
   */
  utilityType?: UtilityType;
  unit?: string;
  /** A custom tariff version's own notes (URDB features not priced, rules applied), said in every bill on it. */
  notes?: string[];
}

/** What a tariff prices and in what unit (catalog tariffs: electric, kWh). */
export function usageOf(t: Pick<Tariff, 'utilityType' | 'unit'>): { utilityType: UtilityType; unit: string } {
  return { utilityType: t.utilityType ?? 'electric', unit: t.unit ?? 'kWh' };
}
