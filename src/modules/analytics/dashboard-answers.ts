import { roundDiv } from '../../platform/money';
import { fromScaled, metricValue, rankBenchmarks, type BenchmarkMetric } from './benchmarks.calc';
import { monthEndDate, monthKey, monthStartDate, type MonthIndex } from './months';
import type { BenchmarkRow, HealthRow, MonthlyTotalsRow, PortfolioPropertyRow, PropertyMonthRow } from './repository';
import type { DashboardStatsBase, OwnerAggregates } from './snapshot.calc';
import { costTrend } from './trend.calc';

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
  };
}

/** GET /pm/dashboard/cost-trend over the months of `window` (oldest first, ending with the current month). */
export function costTrendAnswer(window: MonthIndex[], rows: PropertyMonthRow[]) {
  const totals = new Map(window.map((m) => [m, { cents: 0, kwhMilli: 0, properties: 0 }]));
  for (const r of rows) {
    const t = totals.get(r.month);
    if (!t) continue;
    t.cents += r.cents;
    t.kwhMilli += r.kwhMilli;
    t.properties += 1;
  }
  const trend = costTrend(window, rows);
  return {
    months: window.map((m) => ({
      month: monthKey(m),
      total_cost: totals.get(m)!.cents / 100,
      total_kwh: totals.get(m)!.kwhMilli / 1000,
      property_count: totals.get(m)!.properties,
    })),
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
    cost_by_property_type: g.cost_by_property_type.map((c) => ({ type: c.type, annual_cost: c.annual_cost, property_count: c.property_count })),
    total_potential_savings: g.total_potential_savings,
    properties_with_savings: g.properties_with_savings,
  };
}

/** GET /pm/portfolios/{id}/analytics: actual cost over `window`, and the savings on offer. */
export function portfolioAnswer(portfolioId: string, window: MonthIndex[], totals: MonthlyTotalsRow[], props: PortfolioPropertyRow[]) {
  const byMonth = new Map(totals.map((r) => [r.month, r]));
  const cents = totals.reduce((s, r) => s + r.cents, 0);
  const milli = totals.reduce((s, r) => s + r.kwhMilli, 0);
  const withSavings = props.filter((p) => (p.savings_cents ?? 0) > 0);
  const top = withSavings.reduce<PortfolioPropertyRow | null>(
    (best, p) => (best === null || p.savings_cents! > best.savings_cents! ? p : best), null,
  );
  return {
    portfolio_id: portfolioId,
    period: `${monthStartDate(window[0]!)}/${monthEndDate(window[window.length - 1]!)}`,
    total_cost: cents / 100,
    total_usage_kwh: milli / 1000,
    // $/kWh to 4 decimals: cents x 10^5 / Wh ten-thousandths; 0 without kWh (as portfolio detail)
    avg_rate_per_kwh: milli === 0 ? 0 : roundDiv(BigInt(cents) * 100_000n, milli) / 10_000,
    cost_by_month: window.map((m) => ({
      month: monthKey(m), cost: (byMonth.get(m)?.cents ?? 0) / 100, usage_kwh: (byMonth.get(m)?.kwhMilli ?? 0) / 1000,
    })),
    cost_by_property: [...props]
      .sort((a, b) => b.cents - a.cents)
      .map((p) => ({ property_id: p.property_id, name: p.name, annual_cost: p.cents / 100 })),
    potential_savings: {
      total_annual: withSavings.reduce((s, p) => s + p.savings_cents!, 0) / 100,
      properties_with_savings: withSavings.length,
      top_opportunity: top === null ? null : {
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

/** GET /pm/analytics/benchmarks: the properties with a value and a cost basis, ranked. */
export function benchmarksAnswer(metric: BenchmarkMetric, rows: BenchmarkRow[]) {
  const items = rows.flatMap((r) => {
    const value = metricValue(metric, {
      annualCents: r.annual_cost_cents, annualKwhMilli: r.annual_kwh_milli, sqft: r.sqft, unitCount: r.unit_count,
    });
    return value === null || r.basis === null ? [] : [{ item: r, value }];
  });
  const ranked = rankBenchmarks(items);
  const scaled = (v: number | null) => (v === null ? null : fromScaled(v));
  return {
    metric,
    portfolio_avg: scaled(ranked.average),
    portfolio_median: scaled(ranked.median),
    rankings: ranked.rankings.map((r) => ({
      property_id: r.item.property_id,
      name: r.item.name,
      value: fromScaled(r.value),
      percentile: r.percentile,
      outlier: r.outlier,
      basis: r.item.basis!,
    })),
    outlier_threshold: scaled(ranked.outlierThreshold),
    outlier_count: ranked.outlierCount,
  };
}
