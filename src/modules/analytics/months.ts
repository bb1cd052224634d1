/**
 * Calendar arithmetic in UTC, pure. A month is an integer index `year * 12 + (month - 1)`
 * so windows are ranges of integers; a day is the number of days since 1970-01-01.
 */

import { daysFromCivil } from '../../platform/dates';

/** Days since 1970-01-01 of a `YYYY-MM-DD` string (platform/dates.ts). */
export { dayNumber } from '../../platform/dates';

export type MonthIndex = number;

/** `YYYY-MM-DD` of a day number (the inverse of daysFromCivil, platform/dates.ts). */
function civilFromDays(z: number): string {
  const shifted = z + 719468;
  const era = Math.floor(shifted / 146097);
  const doe = shifted - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function monthIndexOf(date: Date): MonthIndex {
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

/** `YYYY-MM` of a month index. */
export function monthKey(m: MonthIndex): string {
  const year = Math.floor(m / 12);
  return `${String(year).padStart(4, '0')}-${String((m % 12) + 1).padStart(2, '0')}`;
}

/** `YYYY-MM-01`, the form months are stored in. */
export function monthStartDate(m: MonthIndex): string {
  return `${monthKey(m)}-01`;
}

/** The month index of a `YYYY-MM-DD` (or `YYYY-MM`) string. */
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
  return civilFromDays(firstDayOf(m + 1) - 1);
}

/** The `count` months ending with `last`, oldest first. */
export function monthsEndingWith(last: MonthIndex, count: number): MonthIndex[] {
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}
