import { roundDiv } from '../../platform/money';
import { dayNumber, daysInMonth, firstDayOf, monthIndexOfDate, type MonthIndex } from './months';

/**
 * Calendarisation (as ENERGY STAR Portfolio Manager does it): a bill's amount and
 * usage are spread over the calendar months of its period in proportion to the days of the period
 * in each month, `period_start` and `period_end` both included. Pure; the analytics recompute
 * (recompute.ts) stores calendariseMonths' months of each property as its monthly rollups.
 *
 * Exactness: the share of a month is taken from the running total, rounded half up to the
 * unit (cent, or thousandth of the usage's unit):  share(m) = R(T x E(m) / D) - R(T x S(m) / D), where D is the
 * period's days, S(m) the period's days before month m and E(m) = S(m) + its days in m. The
 * shares telescope to R(T) - R(0) = T, so they add back to the bill exactly, and each differs
 * from the exact proportion by less than one unit. Unlike a largest-remainder split, a month's
 * share needs no other month, so a long bill can be cut to a window of months exactly.
 */

export interface BillPeriod {
  /** YYYY-MM-DD, included. */
  periodStart: string;
  /** YYYY-MM-DD, included; not before periodStart. */
  periodEnd: string;
}

export interface BillAmounts extends BillPeriod {
  cents: number;
  /** Usage in thousandths of its utility type's common unit (Wh for electric; meters/units.ts). */
  usageMilli: number;
}

export interface MonthShare {
  month: MonthIndex;
  /** Days of the bill's period in this month. */
  days: number;
  cents: number;
  usageMilli: number;
}

/** Inclusive range of month indexes. */
export interface MonthWindow {
  from: MonthIndex;
  to: MonthIndex;
}

/** R(total x part / whole) for integers (whole > 0), rounded half away from zero (half up for a charge, down for a credit), exactly. */
export function runningShare(total: number, part: number, whole: number): number {
  return roundDiv(BigInt(total) * BigInt(part), whole);
}

/** The months of a bill (only those inside `window`, when given), with their shares. */
export function calendariseBill(bill: BillAmounts, window?: MonthWindow): MonthShare[] {
  const start = dayNumber(bill.periodStart);
  const end = dayNumber(bill.periodEnd);
  if (end < start) throw new RangeError('period_end is before period_start');
  const totalDays = end - start + 1;
  let first = monthIndexOfDate(bill.periodStart);
  let last = monthIndexOfDate(bill.periodEnd);
  if (window) {
    first = Math.max(first, window.from);
    last = Math.min(last, window.to);
  }
  const shares: MonthShare[] = [];
  for (let m = first; m <= last; m++) {
    const from = Math.max(start, firstDayOf(m));
    const to = Math.min(end, firstDayOf(m + 1) - 1);
    const before = from - start;
    const through = to - start + 1;
    shares.push({
      month: m,
      days: to - from + 1,
      cents: runningShare(bill.cents, through, totalDays) - runningShare(bill.cents, before, totalDays),
      usageMilli: runningShare(bill.usageMilli, through, totalDays) - runningShare(bill.usageMilli, before, totalDays),
    });
  }
  return shares;
}

/**
 * Days of each month covered by at least one of the periods (overlapping bills, e.g. electric
 * and gas for the same month, count a day once), for the months inside `window`.
 */
export function billedDaysByMonth(periods: BillPeriod[], window: MonthWindow): Map<MonthIndex, number> {
  const lo = firstDayOf(window.from);
  const hi = firstDayOf(window.to + 1) - 1;
  const clipped = periods
    .map((p) => [Math.max(dayNumber(p.periodStart), lo), Math.min(dayNumber(p.periodEnd), hi)] as const)
    .filter(([s, e]) => s <= e)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: Array<[number, number]> = [];
  for (const [s, e] of clipped) {
    const top = merged[merged.length - 1];
    if (top && s <= top[1] + 1) top[1] = Math.max(top[1], e);
    else merged.push([s, e]);
  }
  const days = new Map<MonthIndex, number>();
  for (let m = window.from; m <= window.to; m++) {
    const mFrom = firstDayOf(m);
    const mTo = mFrom + daysInMonth(m) - 1;
    let n = 0;
    for (const [s, e] of merged) n += Math.max(0, Math.min(e, mTo) - Math.max(s, mFrom) + 1);
    if (n > 0) days.set(m, n);
  }
  return days;
}

/** A calendar month of bills: cost, usage (thousandths of the type's common unit) and days billed. */
export interface MonthTotals {
  month: MonthIndex;
  cents: number;
  usageMilli: number;
  billedDays: number;
}

/** A month of one property's bills: their shares summed, the days billed (overlaps counted once) and how many bills it holds a share of. */
export interface CalendarMonth extends MonthTotals {
  billCount: number;
}

/** The months inside `window` that the bills (of one property) reach, ascending, with their sums. */
export function calendariseMonths(bills: BillAmounts[], window: MonthWindow): CalendarMonth[] {
  const months = new Map<MonthIndex, CalendarMonth>();
  for (const bill of bills) {
    for (const share of calendariseBill(bill, window)) {
      const m = months.get(share.month);
      if (m) {
        m.cents += share.cents;
        m.usageMilli += share.usageMilli;
        m.billCount += 1;
      } else {
        months.set(share.month, { month: share.month, cents: share.cents, usageMilli: share.usageMilli, billedDays: 0, billCount: 1 });
      }
    }
  }
  const days = billedDaysByMonth(bills, window);
  return [...months.values()].sort((a, b) => a.month - b.month).map((m) => ({ ...m, billedDays: days.get(m.month) ?? 0 }));
}
