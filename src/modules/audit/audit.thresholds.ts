/** The rule audits' thresholds, and the arithmetic and wording the rules share. */
import { dayNumber } from '../../platform/dates';
import { roundDiv } from '../../platform/money';

/** Thresholds of the rule audits (README "Rules"). */
export const RULES = {
  /** A price variance this far off (percent) or this many dollars is high severity. */
  highVariancePercent: 10,
  highVarianceCents: 50_000,
  /** A monthly meter's bills last 25 to 35 days. */
  monthlyMinDays: 25,
  monthlyMaxDays: 35,
  /** Usage or cost per day this far above or below the same days a year earlier. */
  yearOverYearPercent: 50,
  /**
   * A year-earlier bill is a baseline only for a bill of like length: the shorter at least this percent of the
   * longer (an 18-day first bill is no baseline for a 31-day one; 28 and 31 days are compared).
   */
  baselineLengthPercent: 80,
  /** The unit-price rule allows this much beyond the tariff's range for the usage (rounding, riders it does not publish). */
  unitPriceSlackPercent: 5,
  /** A ratio is "near" a power of ten (10, 100, 1,000, ...) within this factor either way (likely_unit_error). */
  unitErrorNearFactor: 2,
  /** Usage per day this many times off the median of the meter's other bills is orders of magnitude off (10^1.5). */
  unitErrorHistoryRatio: 10 ** 1.5,
  /** The meter's other bills with usage that make a history to read a bill's usage against. */
  unitErrorMinHistory: 2,
} as const;

export const usd = (cents: number) => `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2)}`;
export const signedUsd = (cents: number) => `${cents >= 0 ? '+' : '-'}$${(Math.abs(cents) / 100).toFixed(2)}`;
export const daysOf = (b: { periodStart: string; periodEnd: string }) => dayNumber(b.periodEnd) - dayNumber(b.periodStart) + 1;
export const percentOf = (part: number, whole: number) => roundDiv(part * 1000, whole) / 10;

/**
 * Dollars at issue never exceed what was billed (CONTRACT, fourth round): a variance of -$4.6 M on a
 * $3,337.99 bill is -$3,337.99 at issue. Keeps the sign; a bill of $0.00 (or a credit) has at most its own size.
 */
export function atMostBilled(amountCents: number, billedCents: number): number {
  const cap = Math.abs(billedCents);
  if (Math.abs(amountCents) <= cap) return amountCents;
  return amountCents > 0 || cap === 0 ? cap : -cap;
}
