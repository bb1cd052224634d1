/**
 * Calendar arithmetic in UTC, pure. A month is an integer index `year * 12 + (month - 1)`
 * (monthIndexOfDate; in SQL, analytics_month_index of db-functions.sql) so windows are ranges of
 * integers; a day is the number of days since 1970-01-01.
 */

import { daysFromCivil, isoDateOfDay } from '../../platform/dates';

/** Days since 1970-01-01 of a `YYYY-MM-DD` string (platform/dates.ts). */
export { dayNumber } from '../../platform/dates';

export type MonthIndex = number;

/** `YYYY-MM` of a month index. */
export function monthKey(m: MonthIndex): string {
  const year = Math.floor(m / 12);
  return `${String(year).padStart(4, '0')}-${String((m % 12) + 1).padStart(2, '0')}`;
}

/** `YYYY-MM-01`, the form months are stored in. */
export function monthStartDate(m: MonthIndex): string {
  return `${monthKey(m)}-01`;
}

/** The month index of a `YYYY-MM-DD` (or `YYYY-MM`) string; of an instant: monthIndexOfDate(utcDay(date)). */
export function monthIndexOfDate(isoDate: string): MonthIndex {
  return Number(isoDate.slice(0, 4)) * 12 + Number(isoDate.slice(5, 7)) - 1;
}

/** Day number of the first day of a month. */
export function firstDayOf(m: MonthIndex): number {
  return daysFromCivil(Math.floor(m / 12), (m % 12) + 1, 1);
}

export function daysInMonth(m: MonthIndex): number {
  return firstDayOf(m + 1) - firstDayOf(m);
}

/** `YYYY-MM-DD` of the last day of a month. */
export function monthEndDate(m: MonthIndex): string {
  return isoDateOfDay(firstDayOf(m + 1) - 1);
}

/** The `count` months ending with `last`, oldest first. */
export function monthsEndingWith(last: MonthIndex, count: number): MonthIndex[] {
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}
