import { roundDiv } from '../../platform/money';
import { METER_UTILITY_TYPES, type MeterUtilityType } from '../meters/units';
import type { MonthTotals } from './calendarise.calc';
import type { MonthIndex } from './months';

/**
 * A property's annual cost, one figure per utility type (README "One annual cost"). Pure.
 *
 * Per utility type: **actual** when at least 10 of the last 12 complete calendar months (the 12
 * before the current UTC month) are billed for that type: the calendarised cost of those months x
 * 12 / the billed months, rounded half away from zero to the cent (usage likewise). Otherwise, for
 * electric, the bill-engine **estimate** (`annual_energy_cost`, 12 x `monthly_usage_kwh`); for the
 * other types, no figure. The property's annual cost is the sum of its figures; its basis is
 * `actual` when every figure is, else `estimate`.
 */

export type CostBasis = 'actual' | 'estimate';

export const ANNUAL_WINDOW_MONTHS = 12;
export const MIN_ACTUAL_MONTHS = 10;

/** A calendar month of one utility type's bills. */
export interface UtilityMonth extends MonthTotals {
  utilityType: MeterUtilityType;
}

export interface UtilityAnnualCost {
  utilityType: MeterUtilityType;
  cents: number;
  /** Annual usage in thousandths of the type's common unit; null when unknown. */
  usageMilli: number | null;
  basis: CostBasis;
}

export interface AnnualCosts {
  /** One figure per utility type that has one, in METER_UTILITY_TYPES order. */
  byUtility: UtilityAnnualCost[];
  /** The sum of the figures; null without any. */
  cents: number | null;
  /** Electric kWh (Wh) of the electric figure; null when unknown. */
  kwhMilli: number | null;
  /** `actual` when every figure is, `estimate` when one is not; null without any. */
  basis: CostBasis | null;
}

export interface AnnualCostInput {
  /** Calendarised months of the property's bills by utility type (any range; only the window is read). */
  months: UtilityMonth[];
  /** The current month: the window is the 12 complete months before it. */
  asOf: MonthIndex;
  /** annual_energy_cost in cents, null when not estimated. */
  estimateCents: number | null;
  /** monthly_usage_kwh in Wh, null when unset. */
  monthlyUsageMilli: number | null;
}

/** Whether a month is one of the 12 complete months before asOf. */
export const inAnnualWindow = (month: MonthIndex, asOf: MonthIndex) => month >= asOf - ANNUAL_WINDOW_MONTHS && month < asOf;

export function annualCosts(input: AnnualCostInput): AnnualCosts {
  const byUtility: UtilityAnnualCost[] = [];
  for (const type of METER_UTILITY_TYPES) {
    const billed = input.months.filter((m) => m.utilityType === type && m.billedDays > 0 && inAnnualWindow(m.month, input.asOf));
    if (billed.length >= MIN_ACTUAL_MONTHS) {
      const cents = billed.reduce((s, m) => s + BigInt(m.cents), 0n);
      const usage = billed.reduce((s, m) => s + BigInt(m.usageMilli), 0n);
      byUtility.push({
        utilityType: type,
        cents: roundDiv(cents * 12n, billed.length),
        usageMilli: usage === 0n ? null : roundDiv(usage * 12n, billed.length),
        basis: 'actual',
      });
    } else if (type === 'electric' && input.estimateCents !== null) {
      byUtility.push({
        utilityType: type,
        cents: input.estimateCents,
        usageMilli: input.monthlyUsageMilli === null ? null : 12 * input.monthlyUsageMilli,
        basis: 'estimate',
      });
    }
  }
  if (byUtility.length === 0) return { byUtility, cents: null, kwhMilli: null, basis: null };
  return {
    byUtility,
    cents: byUtility.reduce((s, u) => s + u.cents, 0),
    kwhMilli: byUtility.find((u) => u.utilityType === 'electric')?.usageMilli ?? null,
    basis: byUtility.every((u) => u.basis === 'actual') ? 'actual' : 'estimate',
  };
}
