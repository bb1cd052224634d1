/**
 * What the bill audit (`audit.calc.ts`) works on and answers: a meter's bills, what the engine said
 * about each, and each bill's audit and findings (README "Rules").
 */

export const SEVERITIES = ['low', 'medium', 'high'] as const;
export type Severity = (typeof SEVERITIES)[number];

export type ReasonCode =
  | 'price_variance'
  | 'duplicate_bill'
  | 'billing_gap'
  | 'period_length'
  | 'estimated_read'
  | 'usage_change'
  | 'cost_change'
  | 'demand_above_applicability'
  | 'expired_tariff'
  | 'unit_price_out_of_range'
  | 'likely_unit_error'
  | 'interval_usage_mismatch';

export const REASON_CODES: readonly ReasonCode[] = [
  'price_variance',
  'duplicate_bill',
  'billing_gap',
  'period_length',
  'estimated_read',
  'usage_change',
  'cost_change',
  'demand_above_applicability',
  'expired_tariff',
  'unit_price_out_of_range',
  'likely_unit_error',
  'interval_usage_mismatch',
];

/**
 * What a bill's expected amount was priced from (README "Interval data"): the meter's interval readings
 * covering the whole period, or the bill's own usage and demand.
 */
export const PRICING_BASES = ['intervals', 'bill'] as const;
export type PricingBasis = (typeof PRICING_BASES)[number];

/** A bill's audit outcome: within the tolerance, a price variance, or not priceable (its reason says why). */
export const BILL_AUDIT_STATUSES = ['ok', 'variance', 'unpriceable'] as const;
export type BillAuditStatus = (typeof BILL_AUDIT_STATUSES)[number];

/** How a finding was resolved: disputed with the utility, accepted as billed, or corrected by the utility. */
export const RESOLUTIONS = ['disputed', 'accepted', 'corrected'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** A line item as the utility printed it on the bill. */
export interface PrintedLine {
  category: string;
  description: string;
  amount: number;
}

export interface AuditBill {
  id: string;
  meterId: string;
  periodStart: string;
  periodEnd: string;
  amountCents: number;
  /** In the bill's unit; null when the bill gave none. */
  usage: number | null;
  unit: string;
  demandKw: number | null;
  isEstimated: boolean;
  lineItems: PrintedLine[] | null;
  /** Write order: of two duplicates, the later one is flagged. */
  createdAt: Date;
  /** Credits granted on disputes that the bill carries, already added back into amountCents (disputes/credits.calc.ts). */
  credits?: ReadonlyArray<{ cents: number; claimReference: string }>;
}

/**
 * A bill of the same property and utility type on another meter (the duplicate rule's candidates): the
 * fields of a bill that rule compares, read as the meter's own bills are.
 */
export type SiblingBill = Pick<AuditBill, 'id' | 'meterId' | 'periodStart' | 'periodEnd' | 'amountCents' | 'createdAt'>;

/** What the engine said about a bill. */
export type BillPricing =
  | {
      kind: 'priced';
      tariffId: string;
      tariffName: string;
      expectedCents: number;
      expectedLines: Array<{ category: string; name: string; amount: number }>;
      /** The tariff's demand limit (kW), null when it publishes none. */
      demandKwMax: number | null;
      /** The day the tariff (version) pricing the period's end expired, when that is before the period's end. */
      expiredOn: string | null;
      /** The least and most the tariff bills for this usage over the months of a year, cents (the unit-price rule). */
      yearRangeCents: { min: number; max: number } | null;
      /** What the variance would mean without line items ("matches at 18 % more usage"), worked out by the caller. */
      explanation: string | null;
      basis: PricingBasis;
      /** Why the meter's interval readings were not used (they do not cover the period), else null. */
      basisNote: string | null;
      /** With basis intervals: the readings' kWh over the period, and the bill's usage in kWh (null when it gave none). */
      intervals: { kwh: number; billKwh: number | null } | null;
    }
  | { kind: 'unpriceable'; reason: string; basisNote?: string | null };

export interface Finding {
  billId: string;
  reason: ReasonCode;
  severity: Severity;
  /** Dollars at issue, in cents (positive: billed more than it should be); null where a rule has no amount. */
  amountCents: number | null;
  message: string;
  details: Record<string, unknown>;
}

export interface BillAudit {
  billId: string;
  status: BillAuditStatus;
  reason: string | null;
  expectedCents: number | null;
  varianceCents: number | null;
  /** (billed - expected) / expected x 100, one decimal; null when nothing was expected or priced. */
  variancePercent: number | null;
  tariffId: string | null;
  expectedLines: Array<{ category: string; name: string; amount: number }> | null;
  /** What the expected amount was priced from; null when nothing was priced. */
  basis: PricingBasis | null;
  /** Why the meter's interval readings were not used, where it has some; else null. */
  basisNote: string | null;
  findings: Finding[];
}

export interface AuditSettings {
  /** A variance within this percent of the expected amount is ok (default 3). */
  tolerancePercent: number;
}
