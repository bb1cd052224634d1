import { dayNumber, isoDateOfDay } from '../../platform/dates';
import { unitProblem, type MeterUtilityType } from '../meters/units';

/**
 * What a bill may say (README "Bills that can be true"), one rule for POST .../bills and the CSV
 * import: a period from 2000-01-01 on, ending at most 31 days after today (a bill issued ahead of
 * its period's end), lasting 1 to 100 days (a monthly or a quarterly read, never a year); an amount
 * from -1,000,000 (a credit) to 100,000,000 dollars; usage and demand not negative.
 */
export const FIRST_BILL_DAY = '2000-01-01';
export const MAX_DAYS_AFTER_TODAY = 31;
export const MAX_PERIOD_DAYS = 100;
export const MIN_BILL_AMOUNT = -1_000_000;
export const MAX_BILL_AMOUNT = 100_000_000;
/** Upper bound of the numeric(14, x) columns (usage, demand; a RUBS bill's total). */
export const NUMERIC_14_MAX = 99_999_999_999;
/**
 * A gas bill's heat content (therms per ccf, its "therm factor"), README "Gas heat content": EIA's
 * "Heat Content of Natural Gas Consumed" averages 1.036-1.037 (1,036-1,037 Btu per cubic foot) for
 * the US, and 0.917 (Hawaii) to 1.077 (Colorado) by state; a bill's factor also corrects for delivery
 * pressure and altitude (about 0.82 of sea-level volume at a mile high). 0.8 to 1.2 admits those and
 * refuses the usual typing errors: Btu per cubic foot (1037), therms per mcf (10.37).
 */
export const MIN_HEAT_CONTENT = 0.8;
export const MAX_HEAT_CONTENT = 1.2;
export const HEAT_CONTENT_PLACES = 4;

export interface BillProblem {
  field: 'period_start' | 'period_end' | 'unit' | 'usage_kwh' | 'heat_content';
  message: string;
}

/** The last period_end a bill may have on `today` (YYYY-MM-DD, UTC). */
export function latestPeriodEnd(today: string): string {
  return isoDateOfDay(dayNumber(today) + MAX_DAYS_AFTER_TODAY);
}

/** The first rule a bill's period (valid YYYY-MM-DD dates) breaks on `today`, or null. */
export function periodProblem(start: string, end: string, today: string): BillProblem | null {
  if (start < FIRST_BILL_DAY) return { field: 'period_start', message: `period_start must be on or after ${FIRST_BILL_DAY}` };
  if (end < start) return { field: 'period_end', message: 'period_end must not be before period_start' };
  const latest = latestPeriodEnd(today);
  if (end > latest) {
    return { field: 'period_end', message: `period_end must be no later than ${latest} (${MAX_DAYS_AFTER_TODAY} days after today)` };
  }
  const days = dayNumber(end) - dayNumber(start) + 1;
  if (days > MAX_PERIOD_DAYS) {
    return { field: 'period_end', message: `a bill's period lasts at most ${MAX_PERIOD_DAYS} days (this one lasts ${days})` };
  }
  return null;
}

/** What a bill says about usage, as sent. */
export interface BillUsageInput {
  usage?: number | null;
  unit?: string;
  usage_kwh?: number | null;
  /** Therms per ccf, gas bills only (its range is the schema's, or the import's, check). */
  heat_content?: number | null;
}

/** Usage as stored: in `unit`; `usage_kwh` is the same figure on an electric bill and null on others. */
export interface BillUsage {
  usage: number | null;
  unit: string;
  usage_kwh: number | null;
  /** Therms per ccf, gas bills only. */
  heat_content: number | null;
}

/**
 * A bill's usage on a meter of `type` reading in `meterUnit` (README "Usage and units"): in the
 * bill's `unit` when it gives one (a unit of the type), else the meter's. An electric bill's usage
 * is kWh and may come as `usage`, `usage_kwh` or both (then equal); other bills have no usage_kwh.
 */
export function billUsage(type: MeterUtilityType, meterUnit: string, input: BillUsageInput): BillUsage | BillProblem {
  const unit = input.unit ?? meterUnit;
  const problem = unitProblem(type, unit);
  if (problem) return { field: 'unit', message: problem };
  const usage = input.usage ?? null;
  const usageKwh = input.usage_kwh ?? null;
  const heatContent = input.heat_content ?? null;
  if (heatContent !== null && type !== 'gas') {
    return { field: 'heat_content', message: `heat_content (therms per ccf) is for gas bills, not ${type}` };
  }
  if (type === 'electric') {
    if (usage !== null && usageKwh !== null && usage !== usageKwh) {
      return { field: 'usage_kwh', message: 'usage_kwh must equal usage on an electric bill' };
    }
    const kwh = usage ?? usageKwh;
    return { usage: kwh, unit, usage_kwh: kwh, heat_content: null };
  }
  if (usageKwh !== null) {
    return { field: 'usage_kwh', message: `usage_kwh is for electric bills: give a ${type} bill's usage in usage and unit` };
  }
  return { usage, unit, usage_kwh: null, heat_content: heatContent };
}

export const HEAT_CONTENT_RANGE = `heat_content is therms per ccf as the gas bill prints it, from ${MIN_HEAT_CONTENT} to ${MAX_HEAT_CONTENT} (US average 1.037)`;

/** The problem of a heat content outside what gas bills print (MIN_HEAT_CONTENT..MAX_HEAT_CONTENT), or null. */
export function heatContentProblem(value: number): string | null {
  return value < MIN_HEAT_CONTENT || value > MAX_HEAT_CONTENT ? HEAT_CONTENT_RANGE : null;
}

export function isBillProblem(v: BillUsage | BillProblem): v is BillProblem {
  return 'field' in v;
}
