import type { Sector, Tariff } from '../../tariffs/tariff.model';
import type { BillingPeriodLength } from './period-length';

/** kWh of the month per time-of-use bucket, as a customer's meter or an estimate gives them. */
export interface UsageProfile {
  onPeakKwh?: number | null;
  midPeakKwh?: number | null;
  offPeakKwh?: number | null;
}

/**
 * A meter's interval data: kWh per interval of `intervalMinutes` from `start` (ISO 8601 with its UTC
 * offset), read at the local clock time of `timezone` (IANA) or, without one, of start's offset.
 */
export interface IntervalData {
  start: string;
  intervalMinutes: number;
  kwh: number[];
  timezone?: string | null;
}

/** What one bill is priced for. The engine is pure: the caller chooses the month (the API defaults it to the current UTC month). */
export interface BillRequest {
  /** Energy consumed in the month, kWh (>= 0). Quantities are metered to 0.001 kWh. */
  usageKwh: number;
  /** 1-12. */
  month: number;
  /** Maximum demand of the month in the tariff's demand unit (kW, kVA or hp); required for demand tariffs. */
  demandKw?: number | null;
  /** Solar generation of the month, kWh (>= 0). */
  solarGenerationKwh?: number | null;
  usageProfile?: UsageProfile | null;
  /** Optional sales-tax style rate for `taxesEstimate`, 0-100. */
  taxRatePercent?: number | null;
  /** The customer's retail supply price, $/kWh (0-5): priced on delivery-only tariffs (supply.calc.ts). */
  supplyRatePerKwh?: number | null;
  /**
   * The customer's supply contract as a supply-only tariff: on a delivery-only tariff its bill for
   * the same usage is added line by line, and it supersedes supplyRatePerKwh (supply.calc.ts).
   */
  supplyTariff?: Tariff | null;
  /**
   * A billing period's length (period-length.ts): per-month charges (fixed, minimum, demand) and
   * usage blocks times its months, per-day charges and bounds times its days. Absent: the month's.
   */
  period?: BillingPeriodLength | null;
  /**
   * Interval data (intervals.ts): each period's kWh and the demand peaks come from it instead of a
   * load-shape split and demandKw; usageKwh and demandKw, when given, must agree with it.
   */
  intervals?: IntervalData | null;
}

export type LineItemCategory = 'energy' | 'demand' | 'fixed' | 'rider';

export interface BillLineItem {
  category: LineItemCategory;
  /** Label and, where it applies, "quantity x rate". */
  name: string;
  /** US dollars, exactly quantity x rate rounded half away from zero to the cent. */
  amount: number;
}

export interface BillSummary {
  energyCharge: number;
  demandCharge: number;
  fixedCharge: number;
  riders: number;
  /** totalCost x taxRatePercent / 100, 0 without a rate; reported beside totalCost, never added to it. */
  taxesEstimate: number;
  /** totalCost / usageKwh to 4 decimals; 0 when usageKwh is 0. */
  effectiveRatePerKwh: number;
}

export interface BillResult {
  tariffId: string;
  tariffName: string;
  month: number;
  season: string;
  /** energy + demand + fixed + riders, in dollars. */
  totalCost: number;
  /** The same total in integer cents, for callers that add bills up exactly. */
  totalCostCents: number;
  lineItems: BillLineItem[];
  summary: BillSummary;
  /** What the calculation had to assume (load shape shares, one demand_kw for every TOU demand period, ...). */
  assumptions: string[];
}

/** One typical load shape: shares of the month's kWh per clock hour of an average weekday and weekend day. */
export interface LoadShape {
  weekday: number[][];
  weekend: number[][];
}

/** The bundled data/reference/load-shapes.json, the parts the engine reads. */
export interface LoadShapeSet {
  /** Sector -> shape id; null where the data has no shape (agricultural). */
  defaults: Partial<Record<Sector, string | null>>;
  shapes: Record<string, LoadShape>;
}

export type BillingErrorCode = 'demand_required' | 'profile_total' | 'profile_period' | 'invalid_request';

/** A request the engine cannot price as given; the API turns it into a 422 with `detail` = message. */
export class BillingError extends Error {
  constructor(
    readonly code: BillingErrorCode,
    message: string,
    /** Dotted request field the error is about. */
    readonly field: string,
  ) {
    super(message);
    this.name = 'BillingError';
  }
}
