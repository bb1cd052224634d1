import { roundDiv } from '../../platform/money';

/**
 * The owner-wide figures of the dashboard stats and global analytics, from integer sums
 * (cents, Wh, sqft) computed in SQL. Pure; rounding happens once, here.
 */

/** Dashboard stats without `alerts_unread` (read live: notifications are not analytics data). */
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

export interface CostSums {
  annualCents: bigint;
  /** Cost and sqft of the properties with both (sqft > 0). */
  perSqft: RatioSums;
  /** Cost and Wh of the properties with both (kWh > 0). */
  perKwh: RatioSums;
}

export interface OwnerSums {
  propertyCount: number;
  portfolioCount: number;
  totalSqft: bigint;
  /** Bill-engine estimates (annual_energy_cost, 12 x monthly_usage_kwh). */
  estimate: CostSums;
  /** Annual costs as benchmarks take them (actual when covered, else estimate). */
  annual: CostSums & { annualMilli: bigint };
  byState: Array<{ key: string; cents: bigint; count: number }>;
  byType: Array<{ key: string; cents: bigint; count: number }>;
  savingsCount: number;
  savingsCents: bigint;
  billsThisMonth: number;
}

/**
 * OwnerSums as the snapshot stores them (a JSON object, one key per column of the recompute's
 * sums): bigints as decimal strings, groups as [key, cents, count].
 */
export interface StoredSums {
  property_count: number;
  portfolio_count: number;
  total_sqft: string;
  est_cents: string;
  est_sqft_cents: string;
  est_sqft_quantity: string;
  est_kwh_cents: string;
  est_kwh_quantity: string;
  annual_cents: string;
  annual_milli: string;
  annual_sqft_cents: string;
  annual_sqft_quantity: string;
  annual_kwh_cents: string;
  annual_kwh_quantity: string;
  savings_count: number;
  savings_cents: string;
  bills_this_month: number;
  by_state: Array<[string, string, number]>;
  by_type: Array<[string, string, number]>;
}

export function ownerSumsOf(s: StoredSums): OwnerSums {
  const ratio = (cents: string, quantity: string): RatioSums => ({ cents: BigInt(cents), quantity: BigInt(quantity) });
  const groupsOf = (list: StoredSums['by_state']) => list.map(([key, cents, count]) => ({ key, cents: BigInt(cents), count }));
  return {
    propertyCount: s.property_count,
    portfolioCount: s.portfolio_count,
    totalSqft: BigInt(s.total_sqft),
    estimate: {
      annualCents: BigInt(s.est_cents),
      perSqft: ratio(s.est_sqft_cents, s.est_sqft_quantity),
      perKwh: ratio(s.est_kwh_cents, s.est_kwh_quantity),
    },
    annual: {
      annualCents: BigInt(s.annual_cents),
      annualMilli: BigInt(s.annual_milli),
      perSqft: ratio(s.annual_sqft_cents, s.annual_sqft_quantity),
      perKwh: ratio(s.annual_kwh_cents, s.annual_kwh_quantity),
    },
    byState: groupsOf(s.by_state),
    byType: groupsOf(s.by_type),
    savingsCount: s.savings_count,
    savingsCents: BigInt(s.savings_cents),
    billsThisMonth: s.bills_this_month,
  };
}

/** $ per sqft, 4 decimals: cents x 100 / sqft ten-thousandths. */
export function perSqft(r: RatioSums): number | null {
  return r.quantity > 0n ? roundDiv(r.cents * 100n, r.quantity) / 10_000 : null;
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

export function ownerAggregates(s: OwnerSums): OwnerAggregates {
  return {
    stats: {
      total_properties: s.propertyCount,
      total_portfolios: s.portfolioCount,
      total_sqft: Number(s.totalSqft),
      total_monthly_cost: roundDiv(s.estimate.annualCents, 12) / 100,
      total_annual_cost: dollars(s.estimate.annualCents),
      avg_cost_per_sqft: perSqft(s.estimate.perSqft),
      avg_cost_per_kwh: perKwh(s.estimate.perKwh),
      properties_with_savings: s.savingsCount,
      total_potential_savings: dollars(s.savingsCents),
      bills_this_month: s.billsThisMonth,
    },
    global: {
      total_properties: s.propertyCount,
      total_portfolios: s.portfolioCount,
      total_annual_cost: dollars(s.annual.annualCents),
      total_annual_kwh: Number(s.annual.annualMilli) / 1000,
      avg_cost_per_kwh: perKwh(s.annual.perKwh),
      avg_cost_per_sqft: perSqft(s.annual.perSqft),
      cost_by_state: groups(s.byState).map(({ key, ...g }) => ({ state: key, ...g })),
      cost_by_property_type: groups(s.byType).map(({ key, ...g }) => ({ type: key, ...g })),
      total_potential_savings: dollars(s.savingsCents),
      properties_with_savings: s.savingsCount,
    },
  };
}
