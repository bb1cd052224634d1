import { roundDiv } from '../../platform/money';

/**
 * Trend direction: the least-squares slope of monthly cost over the billed months,
 * relative to their mean. Pure and exact: the comparison with +-2 % a month is done in integers.
 *
 * With n points (x = the month's position in the window, y = its cost in cents):
 *   slope = (n Sxy - Sx Sy) / (n Sxx - Sx^2),   mean = Sy / n,
 *   slope / mean = n (n Sxy - Sx Sy) / (Sy (n Sxx - Sx^2)).
 * `increasing` when that is above 2/100, `decreasing` below -2/100, else `stable` (a mean of 0
 * is `stable`); fewer than 3 points is `insufficient_data`.
 */

export const TREND_DIRECTIONS = ['increasing', 'decreasing', 'stable', 'insufficient_data'] as const;
export type TrendDirection = (typeof TREND_DIRECTIONS)[number];

/** The threshold, as a fraction of the mean per month: 2 / 100. */
const THRESHOLD_NUM = 2n;
const THRESHOLD_DEN = 100n;
export const MIN_TREND_POINTS = 3;

export interface TrendPoint {
  /** Position of the month (any integer scale with one step per month). */
  x: number;
  /** Cost in cents (>= 0). */
  y: number;
}

interface Sums {
  /** n (n Sxy - Sx Sy): the numerator of slope / mean. */
  num: bigint;
  /** Sy (n Sxx - Sx^2): its denominator, >= 0. */
  den: bigint;
}

function sums(points: TrendPoint[]): Sums {
  const n = BigInt(points.length);
  let sx = 0n;
  let sy = 0n;
  let sxx = 0n;
  let sxy = 0n;
  for (const { x, y } of points) {
    const bx = BigInt(x);
    const by = BigInt(y);
    sx += bx;
    sy += by;
    sxx += bx * bx;
    sxy += bx * by;
  }
  return { num: n * (n * sxy - sx * sy), den: sy * (n * sxx - sx * sx) };
}

export function trendDirection(points: TrendPoint[]): TrendDirection {
  if (points.length < MIN_TREND_POINTS) return 'insufficient_data';
  const { num, den } = sums(points);
  if (den === 0n) return 'stable';
  // num / den > 2/100  <=>  100 num > 2 den (den > 0)
  if (THRESHOLD_DEN * num > THRESHOLD_NUM * den) return 'increasing';
  if (THRESHOLD_DEN * num < -THRESHOLD_NUM * den) return 'decreasing';
  return 'stable';
}

/** slope / mean x 100: the change per month in percent of the mean, 1 decimal; null with fewer than 3 points or a mean of 0. */
export function monthlyChangePercent(points: TrendPoint[]): number | null {
  if (points.length < MIN_TREND_POINTS) return null;
  const { num, den } = sums(points);
  if (den === 0n) return null;
  return roundDiv(num * 1000n, den) / 10;
}

/** Mean of the points' y, rounded half away from zero to the cent; 0 without points. */
export function meanCents(points: TrendPoint[]): number {
  if (points.length === 0) return 0;
  return roundDiv(
    points.reduce((s, p) => s + BigInt(p.y), 0n),
    points.length,
  );
}

/** A property's calendarised cost in one month it has billed days in. */
export interface PropertyMonthCost {
  propertyId: string;
  month: number;
  cents: number;
}

/** Complete months the window must hold, all billed, for a year-over-year comparison. */
export const YEAR_OVER_YEAR_MONTHS = 24;
/** Year over year: `increasing` above +5 %, `decreasing` below -5 % (5 / 100). */
const YOY_THRESHOLD_NUM = 5n;
const YOY_THRESHOLD_DEN = 100n;

export interface CostTrend {
  direction: TrendDirection;
  /** Mean cost of the complete billed months, all properties, in cents. */
  avgMonthlyCents: number;
}

/**
 * The cost trend's direction and average over `window` (oldest first; its last month is the
 * current one, still incomplete, and left out of both). README "Cost trend":
 * - with 24 complete months in the window, all billed: year over year, the last 12 complete months
 *   against the same months a year earlier, each month over the properties billed in both;
 * - else the least-squares rule (trendDirection) over the complete billed months, counting only
 *   the properties billed in every one of them.
 */
export function costTrend(window: readonly number[], costs: readonly PropertyMonthCost[]): CostTrend {
  const complete = window.slice(0, -1);
  const byMonth = costsByMonth(complete, costs);
  const billed = complete.filter((m) => byMonth.has(m));
  const total = (m: number) => [...byMonth.get(m)!.values()].reduce((s, v) => s + v, 0);
  const avgMonthlyCents = meanCents(billed.map((m) => ({ x: m, y: total(m) })));

  const yoy = yearOverYearChange(window, costs);
  if (yoy !== null) return { direction: yoy.direction, avgMonthlyCents };

  const everyMonth = [...(byMonth.get(billed[0]!)?.keys() ?? [])].filter((p) => billed.every((m) => byMonth.get(m)!.has(p)));
  if (everyMonth.length === 0) return { direction: 'insufficient_data', avgMonthlyCents };
  const points = billed.map((m) => ({ x: window.indexOf(m), y: everyMonth.reduce((s, p) => s + byMonth.get(m)!.get(p)!, 0) }));
  return { direction: trendDirection(points), avgMonthlyCents };
}

/** Costs of the given months, per month and property. */
function costsByMonth(months: readonly number[], costs: readonly PropertyMonthCost[]): Map<number, Map<string, number>> {
  const inWindow = new Set(months);
  const byMonth = new Map<number, Map<string, number>>();
  for (const c of costs) {
    if (!inWindow.has(c.month)) continue;
    let month = byMonth.get(c.month);
    if (!month) byMonth.set(c.month, (month = new Map()));
    month.set(c.propertyId, (month.get(c.propertyId) ?? 0) + c.cents);
  }
  return byMonth;
}

/**
 * Year over year (README "Cost trend"): when the 24 complete months ending before the window's last
 * (current) month are all billed, the last 12 against the same months a year earlier, each month over
 * the properties billed in both; its direction (+-5 %) and the change in whole percent (half away from
 * zero). Null without 24 billed complete months; `insufficient_data` when no property is billed in both.
 */
export function yearOverYearChange(
  window: readonly number[],
  costs: readonly PropertyMonthCost[],
): { direction: TrendDirection; percent: number | null } | null {
  const lastTwoYears = window.slice(0, -1).slice(-YEAR_OVER_YEAR_MONTHS);
  const byMonth = costsByMonth(lastTwoYears, costs);
  if (lastTwoYears.length !== YEAR_OVER_YEAR_MONTHS || !lastTwoYears.every((m) => byMonth.has(m))) return null;
  let now = 0n;
  let before = 0n;
  let pairs = 0;
  for (const m of lastTwoYears.slice(12)) {
    const earlier = byMonth.get(m - 12)!;
    for (const [property, cents] of byMonth.get(m)!) {
      const was = earlier.get(property);
      if (was === undefined) continue;
      now += BigInt(cents);
      before += BigInt(was);
      pairs++;
    }
  }
  if (pairs === 0) return { direction: 'insufficient_data', percent: null };
  const base = before < 0n ? -before : before;
  return { direction: yearOverYear(now, before), percent: base === 0n ? null : roundDiv((now - before) * 100n, base) };
}

/** The direction of `now` against `before` (cents summed over the same property-months a year apart). */
function yearOverYear(now: bigint, before: bigint): TrendDirection {
  const change = now - before;
  const base = before < 0n ? -before : before;
  if (YOY_THRESHOLD_DEN * change > YOY_THRESHOLD_NUM * base) return 'increasing';
  if (YOY_THRESHOLD_DEN * change < -YOY_THRESHOLD_NUM * base) return 'decreasing';
  return 'stable';
}
