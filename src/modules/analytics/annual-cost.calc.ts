import { roundDiv } from '../../platform/money';
import { firstDayOf, type MonthIndex } from './months';

/**
 * A property's annual cost (README "Annual cost and basis"): actual, when its bills cover at least 10
 * of the last 12 months, annualised; else the bill-engine estimate. Pure.
 *
 * "The last 12 months" are the 12 calendar months ending with the current UTC month; a month is
 * covered when at least one of its days is billed. Annualised actual cost = the calendarised
 * cost of the window x the window's days / its billed days, rounded half away from zero to the
 * cent (kWh likewise, to the Wh; null when the bills carry no kWh). Estimate: the stored
 * `annual_energy_cost`, and 12 x `monthly_usage_kwh` for kWh.
 */

export type CostBasis = 'actual' | 'estimate';

export const ANNUAL_WINDOW_MONTHS = 12;
export const MIN_ACTUAL_MONTHS = 10;

export interface MonthTotals {
  month: MonthIndex;
  cents: number;
  kwhMilli: number;
  billedDays: number;
}

export interface AnnualCost {
  cents: number;
  /** Annual kWh in Wh (milli-kWh); null when unknown. */
  kwhMilli: number | null;
  basis: CostBasis;
}

export interface AnnualCostInput {
  /** Calendarised months of the property (any range; only the window is read). */
  months: MonthTotals[];
  /** The current month: the window is the 12 months ending with it. */
  asOf: MonthIndex;
  /** annual_energy_cost in cents, null when not estimated. */
  estimateCents: number | null;
  /** monthly_usage_kwh in Wh, null when unset. */
  monthlyUsageMilli: number | null;
}

/** Billed months of the window ending with asOf. */
export function coveredMonths(months: MonthTotals[], asOf: MonthIndex, span = ANNUAL_WINDOW_MONTHS): number {
  return months.filter((m) => m.month > asOf - span && m.month <= asOf && m.billedDays > 0).length;
}

export function annualCost(input: AnnualCostInput): AnnualCost | null {
  const { asOf } = input;
  const window = input.months.filter((m) => m.month > asOf - ANNUAL_WINDOW_MONTHS && m.month <= asOf);
  if (coveredMonths(window, asOf) >= MIN_ACTUAL_MONTHS) {
    const windowDays = firstDayOf(asOf + 1) - firstDayOf(asOf - ANNUAL_WINDOW_MONTHS + 1);
    let cents = 0n;
    let milli = 0n;
    let days = 0n;
    for (const m of window) {
      cents += BigInt(m.cents);
      milli += BigInt(m.kwhMilli);
      days += BigInt(m.billedDays);
    }
    return {
      cents: roundDiv(cents * BigInt(windowDays), days),
      kwhMilli: milli === 0n ? null : roundDiv(milli * BigInt(windowDays), days),
      basis: 'actual',
    };
  }
  if (input.estimateCents === null) return null;
  return {
    cents: input.estimateCents,
    kwhMilli: input.monthlyUsageMilli === null ? null : 12 * input.monthlyUsageMilli,
    basis: 'estimate',
  };
}
