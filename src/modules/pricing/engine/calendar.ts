/**
 * The calendar every bill uses: the reference year 2017 of the bundled load
 * shapes (data/reference/LOAD-SHAPES.md), so day counts, daily charges,
 * daily tier bounds and load-shape splits agree. A month is priced as that
 * month of 2017 whatever the current year: February has 28 days, and the
 * weekend count includes the 8 weekday holidays the shapes treat as holidays
 * (URDB weekend schedules cover weekends and holidays).
 */
export const CALENDAR_YEAR = 2017;

export const DAYS_IN_MONTH: readonly number[] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
export const WEEKDAY_DAYS: readonly number[] = [21, 19, 23, 20, 22, 22, 20, 23, 20, 21, 21, 20];
export const WEEKEND_DAYS: readonly number[] = [10, 9, 8, 10, 9, 8, 11, 8, 10, 10, 9, 11];

import { MONTH_NAMES } from '../../../platform/dates';

export { MONTH_NAMES };

export const MONTH_ABBR: readonly string[] = MONTH_NAMES.map((m) => m.slice(0, 3));
