import { daysInMonth } from '../../platform/dates';
import { roundDiv, toCents } from '../../platform/money';
import { classExclusionOf, switchingExclusion, type ClassExclusionCode } from '../rate-analysis/rate-analysis.calc';
import { customerTraits, eligibilityOf } from '../tariffs/eligibility';
import { priceDefects } from '../tariffs/price-defects';
import type { Tariff } from '../tariffs/tariff.model';
import { runningShare } from './calendarise.calc';

/**
 * The acquisition due-diligence cost model, pure. See README.md for the sources
 * and a worked example.
 *
 * - Consumption: residential = one EIA-861 average residential customer per unit (each unit is
 *   its own metered customer, so each unit is billed separately and the bills are summed);
 *   every other type = sqft x 14.6 kWh (COMMERCIAL_WH_PER_SQFT), billed as one building.
 * - The annual kWh is spread over the months with the sector load shape's
 *   `monthly_share_of_annual` (running-total rounding to the Wh, so the months add up exactly);
 *   a month's demand is the load shape's typical-day peak hour: kWh of the month x the largest
 *   hourly share of that month (weekday or weekend), i.e. the average kW of that hour.
 * - The serving utility is the ZIP code's primary utility (utilities/serving.ts); its eligible
 *   tariffs (`tariffExclusion`: the sector's, general purpose, secondary or unstated voltage,
 *   bundled or delivery only, whose applicability admits one meter's average month and its peak
 *   demand) are its current ones, or without any current one its latest known revisions
 *   (`latestRevisions`); bundled ones first, else delivery-only ones with a supply price; with
 *   none, its average rate prices the building (`averageRateAnnualCents`).
 * - Each eligible tariff of the serving utility is priced by the bill engine month by month;
 *   `estimated_costs` use the median tariff (the lower middle one of an even count, by annual
 *   cost then id), `best_tariff` the cheapest.
 */

/**
 * 14.6 kWh per sqft, in Wh (exact): EIA, Commercial Buildings Energy Consumption Survey 2012,
 * Table C14 "Electricity consumption and expenditure intensities": electricity consumption per
 * square foot, all buildings.
 */
const COMMERCIAL_WH_PER_SQFT = 14_600;

export interface Consumption {
  /** Annual kWh of one meter, in Wh. */
  perMeterMilli: number;
  /** Meters billed alike: the units of a residential property, else 1. */
  meters: number;
}

export function annualConsumption(input: {
  propertyType: string;
  unitCount: number;
  sqft: number | null;
  /** EIA-861 average annual residential kWh per customer of the serving utility. */
  residentialKwhPerCustomer: number;
}): Consumption {
  if (input.propertyType === 'residential') {
    return { perMeterMilli: Math.round(input.residentialKwhPerCustomer * 1000), meters: input.unitCount };
  }
  if (input.sqft === null) throw new RangeError('sqft is required for a non-residential property');
  return { perMeterMilli: input.sqft * COMMERCIAL_WH_PER_SQFT, meters: 1 };
}

/** The typical-day shape of one month: shares of the month's kWh per hour (24 values each). */
export interface MonthShape {
  weekday: number[];
  weekend: number[];
}

export interface MonthUsage {
  /** 1..12 */
  month: number;
  usageMilli: number;
  /** Demand in W (milli-kW). */
  demandMilli: number;
}

/** Integer weights (millionths) of 12 monthly shares; equal days-of-year weights without shares. */
function monthWeights(shares: number[] | undefined): number[] {
  // The days of a common year's months (2001 is one).
  if (!shares || shares.length !== 12) return Array.from({ length: 12 }, (_, m) => daysInMonth(2001, m + 1));
  return shares.map((s) => Math.round(s * 1_000_000));
}

/** The annual Wh split over January..December, with each month's typical peak demand. */
export function monthlyUsage(annualMilli: number, shares: number[] | undefined, shape: MonthShape[] | undefined): MonthUsage[] {
  const weights = monthWeights(shares);
  const total = weights.reduce((s, w) => s + w, 0);
  const out: MonthUsage[] = [];
  let before = 0;
  for (let m = 0; m < 12; m++) {
    const through = before + weights[m]!;
    const usageMilli = runningShare(annualMilli, through, total) - runningShare(annualMilli, before, total);
    before = through;
    const hours = shape?.[m];
    const peakShare = hours ? Math.max(...hours.weekday, ...hours.weekend) : 0;
    out.push({ month: m + 1, usageMilli, demandMilli: Math.round(usageMilli * peakShare) });
  }
  return out;
}

export interface PricedTariff {
  id: string;
  name: string;
  /** Annual cost of all meters, in cents. */
  annualCents: number;
}

/** Sum of the 12 monthly bills of one meter, or null when the engine cannot price a month. */
export function annualBillCents(months: MonthUsage[], bill: (m: MonthUsage) => number | null): number | null {
  let sum = 0;
  for (const m of months) {
    const cents = bill(m);
    if (cents === null) return null;
    sum += cents;
  }
  return sum;
}

/** Cheapest and median of the priced tariffs (ascending annual cost, then id). */
export function cheapestAndMedian(priced: PricedTariff[]): { cheapest: PricedTariff; median: PricedTariff } | null {
  if (priced.length === 0) return null;
  const sorted = [...priced].sort((a, b) => a.annualCents - b.annualCents || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { cheapest: sorted[0]!, median: sorted[Math.floor((sorted.length - 1) / 2)]! };
}

/** Unit counts within +-50 %: [ceil(u / 2), floor(3u / 2)]. */
export function comparableUnitRange(unitCount: number): [number, number] {
  return [Math.ceil(unitCount / 2), Math.floor((3 * unitCount) / 2)];
}

export interface EstimatedCosts {
  annual_energy_cost: number;
  monthly_energy_cost: number;
  cost_per_unit: number;
  cost_per_sqft: number | null;
}

export function estimatedCosts(annualCents: number, unitCount: number, sqft: number | null): EstimatedCosts {
  return {
    annual_energy_cost: annualCents / 100,
    monthly_energy_cost: roundDiv(annualCents, 12) / 100,
    cost_per_unit: roundDiv(annualCents, unitCount) / 100,
    // $ / sqft to 4 decimals: cents x 100 / sqft ten-thousandths
    cost_per_sqft: sqft ? roundDiv(BigInt(annualCents) * 100n, sqft) / 10_000 : null,
  };
}

export interface NoiImpact {
  annual_revenue: number | null;
  energy_pct_of_revenue: number | null;
  estimated_noi_impact: number;
}

/** energy_pct_of_revenue = annual cost / revenue x 100, 1 decimal (null without revenue or with 0); impact = -annual cost. */
export function noiImpact(annualCents: number, annualRevenue: number | null): NoiImpact {
  const revenueCents = annualRevenue === null ? null : toCents(annualRevenue);
  return {
    annual_revenue: annualRevenue,
    energy_pct_of_revenue: revenueCents ? roundDiv(BigInt(annualCents) * 1000n, revenueCents) / 10 : null,
    estimated_noi_impact: annualCents === 0 ? 0 : -annualCents / 100,
  };
}

/** Unit counts within +-50 % is comparableUnitRange; square feet alike: [ceil(s / 2), floor(3s / 2)]. */
export function comparableSqftRange(sqft: number): [number, number] {
  return [Math.ceil(sqft / 2), Math.floor((3 * sqft) / 2)];
}

/** Why a current tariff of the area is not one a typical building of the sector takes; null when it is eligible. */
export type TariffExclusion = 'sector' | Exclude<ClassExclusionCode, 'state'> | 'applicability' | 'restriction' | 'review';

export type EligibilityTariff = Pick<Tariff, 'name' | 'sector' | 'purpose' | 'voltage' | 'serviceType' | 'applicability'> &
  Partial<Pick<Tariff, 'description' | 'utilityName' | 'structure'>>;

/**
 * Eligibility for due diligence, in this order: the sector's tariff; then rate analysis's switching
 * rule (`classExclusionOf`) for a building with no tariff yet: open to new customers, bundled or
 * delivery only (a supply-only tariff prices part of a bill), general purpose, voltage secondary or
 * not stated (a typical building takes secondary service); then the demand and usage limits
 * (`switchingExclusion`: published, else stated in the name) admitting one meter's average month
 * and its peak demand of the year.
 */
export function tariffExclusion(t: EligibilityTariff, sector: string, monthlyKwh: number, peakKw: number): TariffExclusion | null {
  if (t.sector !== sector) return 'sector';
  // Rate analysis's switching rule for a building with no tariff yet (general purpose, secondary voltage), taking
  // bundled or delivery-only service alike: the serving utility's pick decides between them.
  const byClass = classExclusionOf(
    { ...t, state: null },
    {
      current: null,
      state: null,
      serviceType: t.serviceType === 'delivery_only' ? 'delivery_only' : 'bundled',
    },
  );
  if (byClass) return byClass.code as Exclude<ClassExclusionCode, 'state'>;
  if (switchingExclusion(t, monthlyKwh, peakKw) !== null) return 'applicability';
  // Then the rule rate analysis recommends by (tariffs/eligibility.ts): only a tariff this building is positively
  // eligible for is priced; restricted ones and ones whose eligibility the evidence does not show are not.
  const verdict = eligibilityOf(
    { ...t, description: t.description ?? '', state: null },
    {
      state: null,
      sectors: [sector],
      dwelling: sector === 'residential',
      // Who a customer without a tariff is taken to be (secondary voltage, assumed; general purpose; no conditions).
      ...customerTraits(null),
      serviceType: t.serviceType === 'delivery_only' ? 'delivery_only' : 'bundled',
      usageKwh: monthlyKwh,
      demandKw: peakKw,
    },
  );
  if (verdict.status === 'excluded') return 'restriction';
  // A record that prices bills wrongly (tariffs/price-defects.ts) is no price to quote either.
  if (
    verdict.status === 'needs_review' ||
    (t.structure && priceDefects({ description: t.description ?? '', structure: t.structure }).length > 0)
  )
    return 'review';
  return null;
}

/** One meter's average month (kWh) and its largest monthly demand (kW), the quantities eligibility is judged on. */
export function eligibilityLoad(months: MonthUsage[]): { monthlyKwh: number; peakKw: number } {
  const totalMilli = months.reduce((s, m) => s + m.usageMilli, 0);
  const peakMilli = months.reduce((p, m) => Math.max(p, m.demandMilli), 0);
  return { monthlyKwh: roundDiv(totalMilli, 12) / 1000, peakKw: peakMilli / 1000 };
}

/** The words of a schedule's name: lower case, in order, without punctuation ("GS-1 (Secondary)" = "gs 1 secondary"). */
const scheduleKey = (name: string) =>
  name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join(' ');

/**
 * The latest known revision of each schedule among a utility's tariffs (all expired): a tariff a
 * later revision superseded (its `supersededBy`, set by the catalog's revisions rule) is left out,
 * and of the tariffs with one name (case and punctuation aside) the one that took effect last (then
 * the one that expired last, then the highest id). In name order.
 */
export function latestRevisions<
  T extends Pick<Tariff, 'id' | 'name' | 'effectiveDate' | 'expirationDate'> & { supersededBy?: string | null },
>(tariffs: readonly T[]): T[] {
  const ids = new Set(tariffs.map((t) => t.id));
  const latest = new Map<string, T>();
  const later = (a: T, b: T) =>
    (a.effectiveDate ?? '') > (b.effectiveDate ?? '') ||
    ((a.effectiveDate ?? '') === (b.effectiveDate ?? '') &&
      ((a.expirationDate ?? '') > (b.expirationDate ?? '') || ((a.expirationDate ?? '') === (b.expirationDate ?? '') && a.id > b.id)));
  for (const t of tariffs) {
    if (t.supersededBy && ids.has(t.supersededBy)) continue;
    const key = scheduleKey(t.name);
    const seen = latest.get(key);
    if (!seen || later(t, seen)) latest.set(key, t);
  }
  return [...latest.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
}

/** The latest expiration date among tariffs (ISO dates compare as strings); null when none has one. */
export function latestEndDate(tariffs: ReadonlyArray<Pick<Tariff, 'expirationDate'>>): string | null {
  return tariffs.reduce<string | null>(
    (max, t) => (t.expirationDate !== null && (max === null || t.expirationDate > max) ? t.expirationDate : max),
    null,
  );
}

/**
 * A year on an average rate, in cents: Wh x meters x $/kWh (6 decimals, as micro-dollars per kWh)
 * = Wh x meters x micro$ / 10^7 cents, rounded once, half away from zero.
 */
export function averageRateAnnualCents(perMeterMilli: number, meters: number, ratePerKwh: number): number {
  const microDollarsPerKwh = BigInt(Math.round(ratePerKwh * 1_000_000));
  return roundDiv(BigInt(perMeterMilli) * BigInt(meters) * microDollarsPerKwh, 10_000_000n);
}
