/**
 * How many months of a monthly tariff a billing period bills (pricing README "Billing periods":
 * "Monthly charges and usage blocks over a period's length"). Pure.
 *
 * A read n months after the last one (one, two or three) is rarely exactly n months apart: meter
 * readers follow a route, weekends and holidays. A period within 5 days of n average months (30,
 * 61 or 91 days) bills n months, as a utility billing monthly, bi-monthly or quarterly does: one
 * month is 25 to 35 days (City of Lafayette, LA, Code of Ordinances § 94-86: charges of a billing
 * period "of less than 25 days or more than 35 days shall be prorated"; Oracle Customer Care and
 * Billing prorates outside a rate's normal days plus or minus an offset), two are 56 to 66 and
 * three 86 to 96. Any other period bills its days over an average month, 365.25 / 12 = 30.4375 days
 * (an 18-day first bill, a 45-day read): the "normal period" proration of Oracle's rate engine.
 */
import { formatScaled, mulDivRound } from './money';

/** Months a period bills, as the exact fraction num / den. */
export interface MonthCount {
  num: number;
  den: number;
}

/** What a billing period's length does to a bill: per-day charges count its days, per-month ones its months. */
export interface BillingPeriodLength {
  days: number;
  months: MonthCount;
}

/** 365.25 / 12 days, in sixteenths of a day (30.4375 = 487 / 16): the average month of the Julian year. */
const AVERAGE_MONTH_SIXTEENTHS = 487;
export const AVERAGE_MONTH_DAYS = AVERAGE_MONTH_SIXTEENTHS / 16;
/** A read within this many days of n average months is an n-month read. */
export const READ_TOLERANCE_DAYS = 5;
/** Whole months a read can bill (utilities read monthly, bi-monthly or quarterly; a period is at most 92 days). */
const MAX_READ_MONTHS = 3;

/** The months a period of `days` days bills. */
export function periodLength(days: number): BillingPeriodLength {
  const n = Math.round(days / AVERAGE_MONTH_DAYS);
  if (n >= 1 && n <= MAX_READ_MONTHS && Math.abs(days - Math.round(n * AVERAGE_MONTH_DAYS)) <= READ_TOLERANCE_DAYS) {
    return { days, months: { num: n, den: 1 } };
  }
  return { days, months: { num: days * 16, den: AVERAGE_MONTH_SIXTEENTHS } };
}

/** One month: what a bill of a calendar month (no billing period) bills. */
export const isOneMonth = (m: MonthCount | undefined): boolean => m === undefined || (m.num === 1 && m.den === 1);

/** An integer quantity (thousandths, cents) times the months, rounded half away from zero. */
export function timesMonths(q: number, m: MonthCount | undefined): number {
  if (m === undefined || m.den === 1) return m === undefined ? q : q * m.num;
  return mulDivRound(q, m.num, m.den);
}

/** "3 months", "18/30.4375 months": the months as a line item states them. */
export function monthsText(m: MonthCount): string {
  if (m.den === 1) return `${m.num} month${m.num === 1 ? '' : 's'}`;
  return `${m.num / 16}/${AVERAGE_MONTH_DAYS} months`;
}

/** The months to 4 decimals ("0.5914"), for the assumption that explains them. */
export function monthsDecimal(m: MonthCount): string {
  return formatScaled(mulDivRound(m.num, 10000, m.den), 4);
}
