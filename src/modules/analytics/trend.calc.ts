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
  return roundDiv(points.reduce((s, p) => s + BigInt(p.y), 0n), points.length);
}
