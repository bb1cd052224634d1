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
  /** The unit-price rule allows this much beyond the tariff's range for the usage (rounding, riders it does not publish). */
  unitPriceSlackPercent: 5,
} as const;

export const usd = (cents: number) => `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2)}`;
export const signedUsd = (cents: number) => `${cents >= 0 ? '+' : '-'}$${(Math.abs(cents) / 100).toFixed(2)}`;
export const daysOf = (b: { periodStart: string; periodEnd: string }) => dayNumber(b.periodEnd) - dayNumber(b.periodStart) + 1;
export const percentOf = (part: number, whole: number) => roundDiv(part * 1000, whole) / 10;
