import { roundDiv } from '../../platform/money';

/**
 * Benchmarks (README "Benchmarks"). Pure and exact: metric values are integers in ten-thousandths
 * (4 decimals), and every statistic is computed on those integers.
 *
 * - Metrics of a property's one annual cost (see annual-cost.calc.ts): cost_per_sqft = cost / sqft,
 *   cost_per_unit = cost / unit_count, cost_per_kwh = electric cost / electric kWh, kwh_per_sqft =
 *   electric kWh / sqft, site_eui = site energy (kBtu, ENERGY STAR factors of meters/units.ts) /
 *   sqft; kg_co2e_per_sqft = location-based kg CO2e of the latest complete calendar year (emissions
 *   module) / sqft; a property missing an input (or with 0 of it) is left out.
 * - percentile = round(100 x (values below + half the other equal values) / (n - 1)), half away
 *   from zero; 50 when n = 1.
 * - Quartiles by linear interpolation between closest ranks: Q(p) = x[floor(h)] + (h - floor(h))
 *   x (x[floor(h) + 1] - x[floor(h)]) with h = (n - 1) p on the ascending values (0-based).
 * - outlier_threshold = Q3 + 1.5 x (Q3 - Q1); outlier = value above it (strictly).
 * - portfolio_avg = mean, portfolio_median = Q(1/2), both rounded to 4 decimals.
 */

export const BENCHMARK_METRICS = [
  'cost_per_sqft',
  'cost_per_unit',
  'cost_per_kwh',
  'kwh_per_sqft',
  'site_eui',
  'kg_co2e_per_sqft',
] as const;
export type BenchmarkMetric = (typeof BENCHMARK_METRICS)[number];

/** Metric values are integers in units of 1 / VALUE_SCALE. */
export const VALUE_SCALE = 10_000;

export interface BenchmarkInputs {
  annualCents: number | null;
  /** The electric part of the annual cost, in cents. */
  electricCents: number | null;
  /** Annual electric kWh in Wh. */
  annualKwhMilli: number | null;
  /** Annual site energy of every energy type, in thousandths of a kBtu; null without usage. */
  siteKbtuMilli: number | null;
  sqft: number | null;
  unitCount: number | null;
  /** Location-based kg CO2e of the latest complete calendar year; null when not computed. */
  emissionsKg: number | null;
}

const positive = (v: number | null): v is number => v !== null && v > 0;

/** The metric in ten-thousandths, or null when the property lacks an input. */
export function metricValue(metric: BenchmarkMetric, p: BenchmarkInputs): number | null {
  const cents = p.annualCents;
  switch (metric) {
    case 'cost_per_sqft':
      // $ / sqft x 10^4 = cents x 100 / sqft
      return cents !== null && positive(p.sqft) ? roundDiv(BigInt(cents) * 100n, p.sqft) : null;
    case 'cost_per_unit':
      return cents !== null && positive(p.unitCount) ? roundDiv(BigInt(cents) * 100n, p.unitCount) : null;
    case 'cost_per_kwh':
      // $ / kWh x 10^4 = (cents / 100) / (Wh / 1000) x 10^4 = cents x 10^5 / Wh
      return p.electricCents !== null && positive(p.annualKwhMilli) ? roundDiv(BigInt(p.electricCents) * 100_000n, p.annualKwhMilli) : null;
    case 'kwh_per_sqft':
      // kWh / sqft x 10^4 = Wh x 10 / sqft
      return positive(p.annualKwhMilli) && positive(p.sqft) ? roundDiv(BigInt(p.annualKwhMilli) * 10n, p.sqft) : null;
    case 'site_eui':
      // kBtu / sqft x 10^4 = milli-kBtu x 10 / sqft
      return positive(p.siteKbtuMilli) && positive(p.sqft) ? roundDiv(BigInt(p.siteKbtuMilli) * 10n, p.sqft) : null;
    case 'kg_co2e_per_sqft':
      // kg / sqft x 10^4
      return positive(p.emissionsKg) && positive(p.sqft) ? roundDiv(BigInt(p.emissionsKg) * 10_000n, p.sqft) : null;
  }
}

export interface RankedItem<T> {
  item: T;
  value: number;
  percentile: number;
  outlier: boolean;
}

export interface BenchmarkSummary<T> {
  /** Ascending by value; equal values keep the input order. */
  rankings: Array<RankedItem<T>>;
  /** In ten-thousandths; null when there are no values. */
  average: number | null;
  median: number | null;
  outlierThreshold: number | null;
  outlierCount: number;
}

/** 4 x Q(q / 4) on ascending values: an integer, since h = (n - 1) q / 4 has a fraction in quarters. */
export function quartileTimes4(sorted: number[], q: 1 | 2 | 3): bigint {
  const pos4 = q * (sorted.length - 1);
  const lo = Math.floor(pos4 / 4);
  const rem = pos4 - 4 * lo;
  const base = BigInt(sorted[lo]!);
  return rem === 0 ? 4n * base : 4n * base + BigInt(rem) * (BigInt(sorted[lo + 1]!) - base);
}

export function rankBenchmarks<T>(items: Array<{ item: T; value: number }>): BenchmarkSummary<T> {
  const n = items.length;
  if (n === 0) return { rankings: [], average: null, median: null, outlierThreshold: null, outlierCount: 0 };
  const ordered = items.map((it, i) => ({ ...it, i })).sort((a, b) => a.value - b.value || a.i - b.i);
  const values = ordered.map((o) => o.value);
  const q1 = quartileTimes4(values, 1);
  const q3 = quartileTimes4(values, 3);
  // threshold T = Q3 + 1.5 (Q3 - Q1) = (5 (4 Q3) - 3 (4 Q1)) / 8
  const threshold8 = 5n * q3 - 3n * q1;
  const rankings: Array<RankedItem<T>> = [];
  let outlierCount = 0;
  for (let start = 0; start < n;) {
    let end = start;
    while (end < n && values[end] === values[start]) end++;
    const below = start;
    const equal = end - start;
    const percentile = n === 1 ? 50 : roundDiv(100 * (2 * below + equal - 1), 2 * (n - 1));
    for (let k = start; k < end; k++) {
      const outlier = 8n * BigInt(values[k]!) > threshold8;
      if (outlier) outlierCount++;
      rankings.push({ item: ordered[k]!.item, value: values[k]!, percentile, outlier });
    }
    start = end;
  }
  const sum = values.reduce((s, v) => s + BigInt(v), 0n);
  return {
    rankings,
    average: roundDiv(sum, n),
    median: roundDiv(quartileTimes4(values, 2), 4),
    outlierThreshold: roundDiv(threshold8, 8),
    outlierCount,
  };
}

/** A value in ten-thousandths as a JSON number with up to 4 decimals. */
export function fromScaled(v: number): number {
  return v / VALUE_SCALE;
}
