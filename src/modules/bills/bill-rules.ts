import { dayNumber, isoDateOfDay } from '../../platform/dates';

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

export interface BillProblem {
  field: 'period_start' | 'period_end';
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
