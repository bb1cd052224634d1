/** Calendar days of a billing period and of a unit's occupancy within it (dates are YYYY-MM-DD, both ends included). */
import { daysFromCivil } from '../../platform/dates';

/**
 * Days since 1970-01-01 of a valid YYYY-MM-DD date, as Date.UTC counted them: years 0000-0099
 * (which the date validation lets through) are read as 1900-1999, so 0000-02-29 is 1900-03-01.
 */
export function dayNumber(date: string): number {
  const year = Number(date.slice(0, 4));
  return daysFromCivil(year < 100 ? year + 1900 : year, Number(date.slice(5, 7)), Number(date.slice(8, 10)));
}

/** Days from start to end, both included (a one-day period has 1). */
export function periodDays(start: string, end: string): number {
  const days = dayNumber(end) - dayNumber(start) + 1;
  if (!(days >= 1)) throw new RangeError('the period must end on or after its start');
  return days;
}

/**
 * Days of the period (given as day numbers) the unit was occupied: from move_in (or the period start) to move_out (or
 * the period end), both included, clamped to the period; 0 when they do not overlap it.
 */
export function unitOccupiedDays(unit: { move_in?: string | null; move_out?: string | null }, startDay: number, endDay: number): number {
  const [from, to] = occupiedRange(unit, startDay, endDay);
  return Math.max(0, to - from + 1);
}

/** The first and last day numbers of the unit's occupancy within the period (from > to: none). */
export function occupiedRange(
  unit: { move_in?: string | null; move_out?: string | null },
  startDay: number,
  endDay: number,
): [from: number, to: number] {
  const from = unit.move_in ? Math.max(startDay, dayNumber(unit.move_in)) : startDay;
  const to = unit.move_out ? Math.min(endDay, dayNumber(unit.move_out)) : endDay;
  return [from, to];
}

/**
 * When a calculation's charges are due: the first `billingDay` of a month strictly after both the
 * period's last day and the day it was calculated (YYYY-MM-DD, UTC), so a statement is never due
 * before it exists. billingDay is 1 to 28, so every month has it.
 */
export function dueDate(periodEnd: string, calculatedAt: Date, billingDay: number): string {
  const calculated = calculatedAt.toISOString().slice(0, 10);
  const from = periodEnd > calculated ? periodEnd : calculated;
  let year = Number(from.slice(0, 4));
  let month = Number(from.slice(5, 7));
  if (Number(from.slice(8, 10)) >= billingDay) {
    month += 1;
    if (month === 13) {
      month = 1;
      year += 1;
    }
  }
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(billingDay).padStart(2, '0')}`;
}
