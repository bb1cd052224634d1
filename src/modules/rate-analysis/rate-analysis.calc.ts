import { fromCents, roundDiv } from '../../platform/money';
import {
  closedToNewCustomers,
  demandLimitsNamed,
  VOLTAGE_RANK,
  type Purpose,
  type ServiceType,
  type Voltage,
} from '../tariffs/tariff-class';
import type { ApplicabilityLimits } from '../tariffs/tariff.model';

/** One tariff priced for a property: its estimated monthly cost in cents. */
export interface PricedTariff {
  id: string;
  name: string;
  monthlyCostCents: number;
}

export interface RateAlternative {
  tariff_id: string;
  name: string;
  estimated_monthly_cost: number;
  /** Current monthly cost minus this one (negative when it costs more); null without a current tariff. */
  monthly_savings: number | null;
  annual_savings: number | null;
  savings_percent: number | null;
}

/** A tariff priced beside the alternatives whose eligibility the evidence does not settle: shown, never recommended. */
export interface ReviewTariff extends RateAlternative {
  reason: string;
}

/** What the costs were priced on: the property's actual bills (per meter, by billing period) or its typed monthly usage. */
export type AnalysisBasis =
  | {
      kind: 'bills';
      months: string[];
      /** Of the bills, those priced from their meter's interval readings (covering the whole period). */
      bills_from_intervals: number;
      meters: Array<{ meter_id: string; bills: number; bills_from_intervals: number; months: string[] }>;
    }
  | { kind: 'typed_usage' };

/** A tariff of the compared utility that the analysis left out, and why. */
export interface ExcludedTariff {
  tariff_id: string;
  name: string;
  reason: string;
}

export interface RateAnalysis {
  property_id: string;
  current_tariff: { id: string; name: string; estimated_monthly_cost: number } | null;
  alternatives: RateAlternative[];
  /** Tariffs the property may not take (applicability) or that cannot be priced from its data; never recommended. */
  excluded: ExcludedTariff[];
  /** Tariffs the evidence neither admits nor excludes, priced with the reason to check them; never recommended. */
  needs_review: ReviewTariff[];
  basis: AnalysisBasis;
  /** False when the compared utility has no current tariff in the catalog (then `latest_tariff_end_date` says how old it is). */
  catalog_current: boolean;
  latest_tariff_end_date: string | null;
  recommendation: string;
  analyzed_at: string;
  /** What the answer rests on that the customer should know: the age of the current and recommended tariffs' data. */
  assumptions?: string[];
}

/** The class of a tariff, as the switching rules read it. */
export interface ClassOf {
  name: string;
  state: string | null;
  serviceType: ServiceType;
  voltage: Voltage | null;
  purpose: Purpose;
}

/** Who is switching: the class of the current tariff (null without one) and where the property is. */
export interface SwitchingCustomer {
  current: ClassOf | null;
  /** The state of the property's ZIP code (null when unknown: then the current tariff's state, if any). */
  state: string | null;
  /** Without a current tariff: the service type compared (bundled where the utility offers it). */
  serviceType: ServiceType;
}

/**
 * Why a customer may not move to a tariff of its utility, or null when it may (data/reference
 * README, "Tariff classes"): the tariff must be for the property's state, of the same service
 * type, general purpose unless the current tariff serves the same special purpose, and at no
 * higher voltage than the current one's (secondary when unknown: most buildings take service at
 * secondary voltage), and open to new customers.
 */
export function classExclusion(t: ClassOf, customer: SwitchingCustomer): string | null {
  return classExclusionOf(t, customer)?.reason ?? null;
}

export type ClassExclusionCode = 'closed' | 'state' | 'service_type' | 'purpose' | 'voltage';

/** classExclusion with the rule that failed, for callers that count exclusions by kind (due diligence). */
export function classExclusionOf(t: ClassOf, customer: SwitchingCustomer): { code: ClassExclusionCode; reason: string } | null {
  if (closedToNewCustomers(t.name)) return { code: 'closed', reason: "closed to new customers (the schedule's name says so)" };
  const state = customer.state ?? customer.current?.state ?? null;
  if (state !== null && t.state !== state)
    return { code: 'state', reason: `a tariff for ${t.state ?? 'another state'}: the property is in ${state}` };
  const serviceType = customer.current?.serviceType ?? customer.serviceType;
  if (t.serviceType !== serviceType)
    return { code: 'service_type', reason: `service type ${t.serviceType}: the property's service is ${serviceType}` };
  const purpose = customer.current?.purpose ?? 'general';
  if (t.purpose !== 'general' && t.purpose !== purpose) {
    return { code: 'purpose', reason: `a special-purpose tariff (${t.purpose}), not a general rate the property could take` };
  }
  const voltage = customer.current?.voltage ?? 'secondary';
  if (t.voltage !== null && VOLTAGE_RANK[t.voltage] > VOLTAGE_RANK[voltage]) {
    const assumed = customer.current?.voltage ? '' : ' (assumed: the current tariff does not say)';
    return { code: 'voltage', reason: `service at ${t.voltage} voltage: the property takes service at ${voltage}${assumed}` };
  }
  return null;
}

/** Hours in an average month (8,760 / 12): monthly kWh / 730 is the average demand, a floor for the peak. */
const HOURS_PER_MONTH = 730;

const fmt = (n: number) => String(Math.round(n * 1000) / 1000);

/**
 * Why a property may not take a tariff, or null when its usage and demand fit the tariff's
 * applicability. Usage is monthly kWh, demand the monthly peak kW (null when unknown). With
 * the demand unknown, a tariff with a demand minimum cannot be shown to fit and is left out,
 * and the average demand (usage / 730 h, which the peak is never below) is held against a
 * demand maximum.
 */
export function applicabilityExclusion(limits: ApplicabilityLimits | null, usageKwh: number, demandKw: number | null): string | null {
  if (!limits) return null;
  const { demandKwMin: dMin, demandKwMax: dMax, usageKwhMin: uMin, usageKwhMax: uMax } = limits;
  if (demandKw !== null) {
    if (dMin !== null && demandKw < dMin) return `peak demand ${fmt(demandKw)} kW is below the tariff's minimum of ${fmt(dMin)} kW`;
    if (dMax !== null && demandKw > dMax) return `peak demand ${fmt(demandKw)} kW is above the tariff's maximum of ${fmt(dMax)} kW`;
  } else {
    if (dMin !== null && dMin > 0) {
      return `the tariff requires a peak demand of at least ${fmt(dMin)} kW and the property has no monthly_demand_kw to show it`;
    }
    const average = usageKwh / HOURS_PER_MONTH;
    if (dMax !== null && average > dMax) {
      return `average demand ${fmt(average)} kW (monthly usage / 730 h; the peak is higher) is above the tariff's maximum of ${fmt(dMax)} kW`;
    }
  }
  if (uMin !== null && usageKwh < uMin) return `monthly usage ${fmt(usageKwh)} kWh is below the tariff's minimum of ${fmt(uMin)} kWh`;
  if (uMax !== null && usageKwh > uMax) return `monthly usage ${fmt(usageKwh)} kWh is above the tariff's maximum of ${fmt(uMax)} kWh`;
  return null;
}

/**
 * The limits a customer's demand and usage are held against: the published ones; where a record
 * publishes no demand limit, the ones its name states ("Less Than 10KW"), and the reason says so.
 */
export function switchingExclusion(
  t: { name: string; applicability: ApplicabilityLimits | null },
  usageKwh: number,
  demandKw: number | null,
): string | null {
  const published = t.applicability;
  if (published && (published.demandKwMin !== null || published.demandKwMax !== null))
    return applicabilityExclusion(published, usageKwh, demandKw);
  const named = demandLimitsNamed(t.name);
  const byName = applicabilityExclusion(
    { demandKwMin: named.min, demandKwMax: named.max, usageKwhMin: null, usageKwhMax: null },
    usageKwh,
    demandKw,
  );
  return byName ? `${byName} (the limit its name states)` : applicabilityExclusion(published, usageKwh, demandKw);
}

/**
 * The rate analysis over already priced tariffs:
 * monthly_savings = current - alternative; annual_savings = 12 x monthly_savings;
 * savings_percent = monthly_savings / current x 100, 1 decimal (0 when the current cost is 0).
 * Alternatives are ordered cheapest first. The recommendation is the cheapest alternative when
 * it saves money, else the current tariff; without a current tariff it is the cheapest one.
 */
export function analyzeRates(input: {
  propertyId: string;
  current: PricedTariff | null;
  candidates: PricedTariff[];
  excluded?: ExcludedTariff[];
  /** Priced tariffs to show for review, each with its reason; they never become the recommendation. */
  needsReview?: Array<PricedTariff & { reason: string }>;
  basis?: AnalysisBasis;
  catalog?: { current: boolean; latestEndDate: string | null };
  analyzedAt: Date;
}): RateAnalysis {
  const { current } = input;
  const byCost = <T extends PricedTariff>(list: T[]) =>
    list
      .filter((c) => c.id !== current?.id)
      .sort((a, b) => a.monthlyCostCents - b.monthlyCostCents || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const alternatives = byCost(input.candidates).map((alt) => priced(alt, current));
  const needsReview = byCost(input.needsReview ?? []).map((t): ReviewTariff => ({ ...priced(t, current), reason: t.reason }));
  const cheapest = alternatives[0];
  let recommendation: string;
  if (!current) {
    if (!cheapest) throw new RangeError('nothing to recommend: no current tariff and no candidates');
    recommendation = cheapest.tariff_id;
  } else {
    recommendation = cheapest && (cheapest.monthly_savings ?? 0) > 0 ? cheapest.tariff_id : current.id;
  }
  return {
    property_id: input.propertyId,
    current_tariff: current ? { id: current.id, name: current.name, estimated_monthly_cost: fromCents(current.monthlyCostCents) } : null,
    alternatives,
    excluded: input.excluded ?? [],
    needs_review: needsReview,
    basis: input.basis ?? { kind: 'typed_usage' },
    catalog_current: input.catalog?.current ?? true,
    latest_tariff_end_date: input.catalog?.latestEndDate ?? null,
    recommendation,
    analyzed_at: input.analyzedAt.toISOString(),
  };
}

/** One priced tariff against the current one (savings null without a current tariff). */
function priced(alt: PricedTariff, current: PricedTariff | null): RateAlternative {
  const cost = { tariff_id: alt.id, name: alt.name, estimated_monthly_cost: fromCents(alt.monthlyCostCents) };
  if (!current) return { ...cost, monthly_savings: null, annual_savings: null, savings_percent: null };
  const savingsCents = current.monthlyCostCents - alt.monthlyCostCents;
  return {
    ...cost,
    monthly_savings: fromCents(savingsCents),
    annual_savings: fromCents(12 * savingsCents),
    savings_percent: current.monthlyCostCents === 0 ? 0 : roundDiv(BigInt(savingsCents) * 1000n, current.monthlyCostCents) / 10,
  };
}

/** Savings of the recommendation over the current tariff, in cents (0 when it is the current one). */
export function recommendationSavingsCents(analysis: RateAnalysis): number | null {
  if (!analysis.current_tariff) return null;
  const alt = analysis.alternatives.find((a) => a.tariff_id === analysis.recommendation);
  return alt?.monthly_savings ? Math.round(alt.monthly_savings * 100) : 0;
}
