import { METER_UTILITY_TYPES, UNIT_FAMILIES, utilityFigure, type MeterUtilityType } from '../meters/units';
import { fromScaled, metricValue, rankBenchmarks, type BenchmarkMetric } from './benchmarks.calc';
import { partialMetersOf, type PartialMeter } from './benchmark-coverage.calc';
import { monthEndDate, monthKey, monthStartDate, type MonthIndex } from './months';
import type { BenchmarkRow, HealthRow, MonthlyTotalsRow, PortfolioPropertyRow, PropertyMonthRow } from './repository';
import { perKwh, utilityAnnualSums, type DashboardStatsBase, type OwnerAggregates, type UtilitySums } from './snapshot.calc';
import type { StoredUtilityCost } from './tables';
import { costTrend } from './trend.calc';
import { roundDiv } from '../../platform/money';

/** The analytics answers as the API shapes them, from what the repository read. Pure. */

/** GET /pm/dashboard/stats: the stored stats in the documented order, with the live unread count. */
export function statsAnswer(base: DashboardStatsBase, unread: number) {
  return {
    total_properties: base.total_properties,
    total_portfolios: base.total_portfolios,
    total_sqft: base.total_sqft,
    total_monthly_cost: base.total_monthly_cost,
    total_annual_cost: base.total_annual_cost,
    avg_cost_per_sqft: base.avg_cost_per_sqft,
    avg_cost_per_kwh: base.avg_cost_per_kwh,
    properties_with_savings: base.properties_with_savings,
    total_potential_savings: base.total_potential_savings,
    alerts_unread: unread,
    bills_this_month: base.bills_this_month,
    cost_by_utility: base.cost_by_utility,
    emissions_year: base.emissions_year,
    emissions_tco2e: base.emissions_tco2e,
    emissions_kg_co2e_per_sqft: base.emissions_kg_co2e_per_sqft,
    properties_over_emissions_limit: base.properties_over_emissions_limit,
    projected_emissions_penalty: base.projected_emissions_penalty,
    audit_findings_open: base.audit_findings_open,
    audit_amount_at_issue: base.audit_amount_at_issue,
  };
}

/** Period figures of one utility type: cents and usage summed (usage in thousandths of the type's common unit). */
interface UtilityTotals {
  cents: number;
  usageMilli: number;
}

/** cost_by_utility of a period: one entry per utility type billed, in METER_UTILITY_TYPES order; usage null when none was billed. */
function utilityCosts(byType: Map<MeterUtilityType, UtilityTotals>) {
  return METER_UTILITY_TYPES.filter((t) => byType.has(t)).map((t) => {
    const u = byType.get(t)!;
    return utilityFigure(t, u.cents, u.usageMilli === 0 ? null : u.usageMilli);
  });
}

function addTo(byType: Map<MeterUtilityType, UtilityTotals>, type: MeterUtilityType, cents: number, usageMilli: number): void {
  const u = byType.get(type);
  if (u) {
    u.cents += cents;
    u.usageMilli += usageMilli;
  } else byType.set(type, { cents, usageMilli });
}

/** GET /pm/dashboard/cost-trend over the months of `window` (oldest first, ending with the current month). */
export function costTrendAnswer(window: MonthIndex[], rows: PropertyMonthRow[]) {
  const months = new Map(
    window.map((m) => [m, { cents: 0, properties: new Set<string>(), byType: new Map<MeterUtilityType, UtilityTotals>() }]),
  );
  for (const r of rows) {
    const t = months.get(r.month);
    if (!t) continue;
    t.cents += r.cents;
    t.properties.add(r.propertyId);
    addTo(t.byType, r.utilityType, r.cents, r.usageMilli);
  }
  const trend = costTrend(window, rows);
  return {
    months: window.map((m) => {
      const t = months.get(m)!;
      return {
        month: monthKey(m),
        total_cost: t.cents / 100,
        total_kwh: (t.byType.get('electric')?.usageMilli ?? 0) / 1000,
        property_count: t.properties.size,
        cost_by_utility: utilityCosts(t.byType),
      };
    }),
    trend_direction: trend.direction,
    avg_monthly_cost: trend.avgMonthlyCents / 100,
  };
}

/** GET /pm/dashboard/global-analytics: stored as jsonb (which orders keys its own way), presented in the documented order. */
export function globalAnswer(g: OwnerAggregates['global']) {
  return {
    total_properties: g.total_properties,
    total_portfolios: g.total_portfolios,
    total_annual_cost: g.total_annual_cost,
    total_annual_kwh: g.total_annual_kwh,
    avg_cost_per_kwh: g.avg_cost_per_kwh,
    avg_cost_per_sqft: g.avg_cost_per_sqft,
    cost_by_state: g.cost_by_state.map((c) => ({ state: c.state, annual_cost: c.annual_cost, property_count: c.property_count })),
    cost_by_property_type: g.cost_by_property_type.map((c) => ({
      type: c.type,
      annual_cost: c.annual_cost,
      property_count: c.property_count,
    })),
    total_potential_savings: g.total_potential_savings,
    properties_with_savings: g.properties_with_savings,
    cost_by_utility: g.cost_by_utility,
  };
}

/**
 * The one annual cost of a portfolio's properties, summed (the owner's sums are the snapshot's, in
 * SQL): by utility type with the basis of what it sums, and per kWh electric dollars over electric
 * kWh of the properties whose electric figure has kWh. Portfolio analytics and portfolio detail.
 */
export function portfolioAnnualSums(props: PortfolioPropertyRow[]) {
  const byType = new Map<MeterUtilityType, UtilitySums>();
  const perKwhSums = { cents: 0n, quantity: 0n };
  for (const p of props) {
    for (const [type, cents, usageMilli, basis] of p.annual_by_utility) {
      const utilityType = type as MeterUtilityType;
      const u = byType.get(utilityType) ?? { utilityType, cents: 0n, usageMilli: null, actual: 0, count: 0 };
      u.cents += BigInt(cents);
      if (usageMilli !== null) u.usageMilli = (u.usageMilli ?? 0n) + BigInt(usageMilli);
      if (basis === 'actual') u.actual++;
      u.count++;
      byType.set(utilityType, u);
      if (utilityType === 'electric' && usageMilli !== null && usageMilli > 0) {
        perKwhSums.cents += BigInt(cents);
        perKwhSums.quantity += BigInt(usageMilli);
      }
    }
  }
  const list = METER_UTILITY_TYPES.filter((t) => byType.has(t)).map((t) => byType.get(t)!);
  return {
    cents: list.reduce((s, u) => s + u.cents, 0n),
    kwhMilli: byType.get('electric')?.usageMilli ?? 0n,
    perKwh: perKwh(perKwhSums),
    byUtility: utilityAnnualSums(list),
  };
}

/**
 * GET /pm/portfolios/{id}/analytics: the properties' one annual cost (README "One annual cost"), in
 * total and by utility type; each month's actual cost of `window`; and the savings on offer.
 */
export function portfolioAnswer(portfolioId: string, window: MonthIndex[], totals: MonthlyTotalsRow[], props: PortfolioPropertyRow[]) {
  const byMonth = new Map(window.map((m) => [m, new Map<MeterUtilityType, UtilityTotals>()]));
  for (const r of totals) {
    const month = byMonth.get(r.month);
    if (month) addTo(month, r.utilityType, r.cents, r.usageMilli);
  }
  const annual = portfolioAnnualSums(props);
  const withSavings = props.filter((p) => (p.savings_cents ?? 0) > 0);
  const top = withSavings.reduce<PortfolioPropertyRow | null>(
    (best, p) => (best === null || p.savings_cents! > best.savings_cents! ? p : best),
    null,
  );
  return {
    portfolio_id: portfolioId,
    period: `${monthStartDate(window[0]!)}/${monthEndDate(window[window.length - 1]!)}`,
    total_cost: Number(annual.cents) / 100,
    total_usage_kwh: Number(annual.kwhMilli) / 1000,
    avg_rate_per_kwh: annual.perKwh ?? 0,
    cost_by_utility: annual.byUtility,
    cost_by_month: window.map((m) => {
      const month = byMonth.get(m)!;
      return {
        month: monthKey(m),
        cost: [...month.values()].reduce((s, u) => s + u.cents, 0) / 100,
        usage_kwh: (month.get('electric')?.usageMilli ?? 0) / 1000,
      };
    }),
    total_annual_cost: Number(annual.cents) / 100,
    cost_by_property: [...props]
      .sort((a, b) => (b.annual_cost_cents ?? -1) - (a.annual_cost_cents ?? -1))
      .map((p) => ({
        property_id: p.property_id,
        name: p.name,
        annual_cost: p.annual_cost_cents === null ? null : p.annual_cost_cents / 100,
        basis: p.basis,
      })),
    potential_savings: {
      total_annual: withSavings.reduce((s, p) => s + p.savings_cents!, 0) / 100,
      properties_with_savings: withSavings.length,
      top_opportunity:
        top === null
          ? null
          : {
              property_id: top.property_id,
              current_tariff: top.current_tariff_id,
              recommended_tariff: top.recommended_tariff_id!,
              annual_savings: top.savings_cents! / 100,
            },
    },
  };
}

/** GET /pm/properties/health: the summary over every row, the properties filtered by `status`. */
export function healthAnswer(rows: HealthRow[], status: HealthRow['status'] | undefined) {
  const summary = { green: 0, yellow: 0, red: 0, total: rows.length };
  for (const r of rows) summary[r.status]++;
  const listed = status ? rows.filter((r) => r.status === status) : rows;
  return {
    summary,
    properties: listed.map((r) => ({ property_id: r.property_id, name: r.name, status: r.status, score: r.score, issues: r.issues })),
  };
}

/**
 * A property's annual site energy in thousandths of a kBtu: each energy type's annual usage (in its
 * common unit) x its ENERGY STAR factor (meters/units.ts); null when no energy type has usage.
 */
export function siteEnergyKbtuMilli(byUtility: StoredUtilityCost[]): number | null {
  let total = 0;
  let any = false;
  for (const [type, , usageMilli] of byUtility) {
    const factor = UNIT_FAMILIES[type as MeterUtilityType]?.kbtuPerCommon ?? null;
    if (factor === null || usageMilli === null) continue;
    total += usageMilli * factor;
    any = true;
  }
  return any ? Math.round(total) : null;
}

/** A property's emissions beside its benchmark value: t CO2e, and kg per sqft to 3 decimals (null without sqft). */
function emissionsOf(r: BenchmarkRow) {
  return {
    tco2e: r.emissions_kg / 1000,
    kg_co2e_per_sqft: r.sqft !== null && r.sqft > 0 ? roundDiv(BigInt(r.emissions_kg) * 1000n, r.sqft) / 1000 : null,
  };
}

/** GET /pm/analytics/benchmarks: the properties with a value and a cost basis, ranked; `emissionsYear` the year of their emissions. */
export function benchmarksAnswer(metric: BenchmarkMetric, rows: BenchmarkRow[], emissionsYear: number) {
  const partial: Array<{ row: BenchmarkRow; value: number; meters: PartialMeter[] }> = [];
  const items = rows.flatMap((r) => {
    const electric = r.annual_by_utility.find(([type]) => type === 'electric');
    const value = metricValue(metric, {
      annualCents: r.annual_cost_cents,
      electricCents: electric?.[1] ?? null,
      annualKwhMilli: r.annual_kwh_milli,
      siteKbtuMilli: siteEnergyKbtuMilli(r.annual_by_utility),
      sqft: r.sqft,
      unitCount: r.unit_count,
      emissionsKg: r.emissions_kg,
    });
    if (value === null || r.basis === null) return [];
    // A figure of part of the building is listed apart, never ranked against whole buildings (README "Benchmarks").
    const meters = partialMetersOf(metric, r.partial_meters);
    if (meters.length > 0) {
      partial.push({ row: r, value, meters });
      return [];
    }
    return [{ item: r, value }];
  });
  const ranked = rankBenchmarks(items);
  const scaled = (v: number | null) => (v === null ? null : fromScaled(v));
  return {
    metric,
    emissions_year: emissionsYear,
    portfolio_avg: scaled(ranked.average),
    portfolio_median: scaled(ranked.median),
    rankings: ranked.rankings.map((r) => ({
      property_id: r.item.property_id,
      name: r.item.name,
      value: fromScaled(r.value),
      percentile: r.percentile,
      outlier: r.outlier,
      basis: r.item.basis!,
      ...emissionsOf(r.item),
    })),
    outlier_threshold: scaled(ranked.outlierThreshold),
    outlier_count: ranked.outlierCount,
    partial_coverage: partial.map((p) => ({
      property_id: p.row.property_id,
      name: p.row.name,
      value: fromScaled(p.value),
      basis: p.row.basis!,
      ...emissionsOf(p.row),
      meters: p.meters,
    })),
  };
}
