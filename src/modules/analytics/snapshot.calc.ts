import { roundDiv } from '../../platform/money';
import { METER_UTILITY_TYPES, utilityFigure, type MeterUtilityType } from '../meters/units';

/**
 * The owner-wide figures of the dashboard stats and global analytics, from integer sums
 * (cents, Wh, sqft) computed in SQL over each property's one annual cost. Pure; rounding happens
 * once, here.
 */

/** A utility type's annual cost summed over properties, as the answers show it. */
export interface UtilityAnnualSum {
  utility_type: MeterUtilityType;
  cost: number;
  usage: number | null;
  unit: string;
  basis: 'actual' | 'estimate' | 'mixed';
}

/** Dashboard stats without `alerts_unread` (read live: reading a notification is not a change of analytics data). */
export interface DashboardStatsBase {
  total_properties: number;
  total_portfolios: number;
  total_sqft: number;
  total_monthly_cost: number;
  total_annual_cost: number;
  avg_cost_per_sqft: number | null;
  avg_cost_per_kwh: number | null;
  properties_with_savings: number;
  total_potential_savings: number;
  bills_this_month: number;
  cost_by_utility: UtilityAnnualSum[];
  emissions_year: number;
  emissions_tco2e: number;
  emissions_kg_co2e_per_sqft: number | null;
  properties_over_emissions_limit: number;
  projected_emissions_penalty: number;
  audit_findings_open: number;
  audit_amount_at_issue: number;
}

export interface CostGroup {
  annual_cost: number;
  property_count: number;
}

export interface GlobalAnalytics {
  total_properties: number;
  total_portfolios: number;
  total_annual_cost: number;
  total_annual_kwh: number;
  avg_cost_per_kwh: number | null;
  avg_cost_per_sqft: number | null;
  cost_by_state: Array<{ state: string } & CostGroup>;
  cost_by_property_type: Array<{ type: string } & CostGroup>;
  total_potential_savings: number;
  properties_with_savings: number;
  cost_by_utility: UtilityAnnualSum[];
}

export interface OwnerAggregates {
  stats: DashboardStatsBase;
  global: GlobalAnalytics;
}

/** A ratio's inputs: the cost (cents) and the quantity of the properties that have both. */
export interface RatioSums {
  cents: bigint;
  quantity: bigint;
}

/** One utility type's annual figures summed over the properties that have one. */
export interface UtilitySums {
  utilityType: MeterUtilityType;
  cents: bigint;
  /** Thousandths of the type's common unit; null when no property's figure has usage. */
  usageMilli: bigint | null;
  /** Properties whose figure is actual, and all properties with a figure. */
  actual: number;
  count: number;
}

export interface OwnerSums {
  propertyCount: number;
  portfolioCount: number;
  totalSqft: bigint;
  /** The one annual cost (README "One annual cost") of every property, summed. */
  annualCents: bigint;
  /** Electric annual kWh (Wh). */
  annualKwhMilli: bigint;
  /** Annual cost and sqft of the properties with both (sqft > 0). */
  perSqft: RatioSums;
  /** Electric annual cost and electric Wh of the properties with both (kWh > 0): per kWh is electric over electric. */
  perKwh: RatioSums;
  byUtility: UtilitySums[];
  byState: Array<{ key: string; cents: bigint; count: number }>;
  byType: Array<{ key: string; cents: bigint; count: number }>;
  savingsCount: number;
  savingsCents: bigint;
  billsThisMonth: number;
  /** Open bill-audit findings, and the cents at issue in them (per bill, its largest finding's). */
  auditOpen: number;
  auditCents: bigint;
  /** The latest complete calendar year, its location-based kg CO2e summed, and the kg (as `cents`) and sqft of the properties with sqft. */
  emissionsYear: number;
  emissionsKg: bigint;
  emissionsPerSqft: RatioSums;
  /** Properties with a projected building-performance penalty above zero for that year, and their penalties in cents. */
  penaltyCount: number;
  penaltyCents: bigint;
}

/**
 * OwnerSums as the snapshot stores them (a JSON object, one key per column of the recompute's
 * sums): bigints as decimal strings, groups as [key, cents, count], utility types as
 * [type, cents, usage milli or null, actual count, count].
 */
export interface StoredSums {
  property_count: number;
  portfolio_count: number;
  total_sqft: string;
  annual_cents: string;
  annual_milli: string;
  annual_sqft_cents: string;
  annual_sqft_quantity: string;
  electric_kwh_cents: string;
  electric_kwh_quantity: string;
  by_utility: Array<[string, string, string | null, number, number]>;
  savings_count: number;
  savings_cents: string;
  bills_this_month: number;
  by_state: Array<[string, string, number]>;
  by_type: Array<[string, string, number]>;
  audit_open: number;
  audit_cents: string;
  emissions_year: number;
  emissions_kg: string;
  emissions_sqft_kg: string;
  emissions_sqft_quantity: string;
  penalty_count: number;
  penalty_cents: string;
}

export function ownerSumsOf(s: StoredSums): OwnerSums {
  const ratio = (cents: string, quantity: string): RatioSums => ({ cents: BigInt(cents), quantity: BigInt(quantity) });
  const groupsOf = (list: StoredSums['by_state']) => list.map(([key, cents, count]) => ({ key, cents: BigInt(cents), count }));
  return {
    propertyCount: s.property_count,
    portfolioCount: s.portfolio_count,
    totalSqft: BigInt(s.total_sqft),
    annualCents: BigInt(s.annual_cents),
    annualKwhMilli: BigInt(s.annual_milli),
    perSqft: ratio(s.annual_sqft_cents, s.annual_sqft_quantity),
    perKwh: ratio(s.electric_kwh_cents, s.electric_kwh_quantity),
    byUtility: s.by_utility
      .map(([type, cents, usage, actual, count]) => ({
        utilityType: type as MeterUtilityType,
        cents: BigInt(cents),
        usageMilli: usage === null ? null : BigInt(usage),
        actual,
        count,
      }))
      .sort((a, b) => METER_UTILITY_TYPES.indexOf(a.utilityType) - METER_UTILITY_TYPES.indexOf(b.utilityType)),
    byState: groupsOf(s.by_state),
    byType: groupsOf(s.by_type),
    savingsCount: s.savings_count,
    savingsCents: BigInt(s.savings_cents),
    billsThisMonth: s.bills_this_month,
    auditOpen: s.audit_open,
    auditCents: BigInt(s.audit_cents),
    emissionsYear: s.emissions_year,
    emissionsKg: BigInt(s.emissions_kg),
    emissionsPerSqft: ratio(s.emissions_sqft_kg, s.emissions_sqft_quantity),
    penaltyCount: s.penalty_count,
    penaltyCents: BigInt(s.penalty_cents),
  };
}

/** $ per sqft, 4 decimals: cents x 100 / sqft ten-thousandths. */
export function perSqft(r: RatioSums): number | null {
  return r.quantity > 0n ? roundDiv(r.cents * 100n, r.quantity) / 10_000 : null;
}

/** kg CO2e per sqft, 3 decimals (as the emissions answers give it): kg x 1000 / sqft thousandths. */
export function kgPerSqft(r: RatioSums): number | null {
  return r.quantity > 0n ? roundDiv(r.cents * 1000n, r.quantity) / 1000 : null;
}

/** $ per kWh, 4 decimals: cents x 10^5 / Wh ten-thousandths. */
export function perKwh(r: RatioSums): number | null {
  return r.quantity > 0n ? roundDiv(r.cents * 100_000n, r.quantity) / 10_000 : null;
}

const dollars = (cents: bigint) => Number(cents) / 100;

/** Largest cost first, then the key. */
function groups(list: OwnerSums['byState']) {
  return [...list]
    .sort((a, b) => (a.cents === b.cents ? (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) : a.cents > b.cents ? -1 : 1))
    .map((g) => ({ key: g.key, annual_cost: dollars(g.cents), property_count: g.count }));
}

/** The annual cost by utility type, in METER_UTILITY_TYPES order; usage in the type's common unit. */
export function utilityAnnualSums(list: UtilitySums[]): UtilityAnnualSum[] {
  return list.map((u) => ({
    ...utilityFigure(u.utilityType, Number(u.cents), u.usageMilli === null ? null : Number(u.usageMilli)),
    basis: u.actual === u.count ? 'actual' : u.actual === 0 ? 'estimate' : 'mixed',
  }));
}

export function ownerAggregates(s: OwnerSums): OwnerAggregates {
  const byUtility = utilityAnnualSums(s.byUtility);
  return {
    stats: {
      total_properties: s.propertyCount,
      total_portfolios: s.portfolioCount,
      total_sqft: Number(s.totalSqft),
      total_monthly_cost: roundDiv(s.annualCents, 12) / 100,
      total_annual_cost: dollars(s.annualCents),
      avg_cost_per_sqft: perSqft(s.perSqft),
      avg_cost_per_kwh: perKwh(s.perKwh),
      properties_with_savings: s.savingsCount,
      total_potential_savings: dollars(s.savingsCents),
      bills_this_month: s.billsThisMonth,
      cost_by_utility: byUtility,
      emissions_year: s.emissionsYear,
      emissions_tco2e: Number(s.emissionsKg) / 1000,
      emissions_kg_co2e_per_sqft: kgPerSqft(s.emissionsPerSqft),
      properties_over_emissions_limit: s.penaltyCount,
      projected_emissions_penalty: dollars(s.penaltyCents),
      audit_findings_open: s.auditOpen,
      audit_amount_at_issue: dollars(s.auditCents),
    },
    global: {
      total_properties: s.propertyCount,
      total_portfolios: s.portfolioCount,
      total_annual_cost: dollars(s.annualCents),
      total_annual_kwh: Number(s.annualKwhMilli) / 1000,
      avg_cost_per_kwh: perKwh(s.perKwh),
      avg_cost_per_sqft: perSqft(s.perSqft),
      cost_by_state: groups(s.byState).map(({ key, ...g }) => ({ state: key, ...g })),
      cost_by_property_type: groups(s.byType).map(({ key, ...g }) => ({ type: key, ...g })),
      total_potential_savings: dollars(s.savingsCents),
      properties_with_savings: s.savingsCount,
      cost_by_utility: byUtility,
    },
  };
}
