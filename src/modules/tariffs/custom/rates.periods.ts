/**
 * The time side of a custom tariff's rate rows (rates.parse.ts): months, hours and days of each
 * period, tiers grouped by period, and the 12x24 schedules they fill. Pure; problems are thrown as
 * RatesProblem with the JSON path of the field.
 */
import type { Schedule12x24 } from '../tariff.model';

export type Days = 'all' | 'weekdays' | 'weekends';

export const WHOLE_DAY = '00:00-24:00';
import { MONTH_NAMES } from '../../../platform/dates';

export { MONTH_NAMES };

/** Thrown inside the parser; the caller gets the collected FieldErrors. */
export class RatesProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** "00:00-06:00, 22:00-24:00" as the set of hours 0-23, or null when it is not that form. */
export function parseHours(text: string): Set<number> | null {
  const hours = new Set<number>();
  if (text.trim() === '') return hours;
  for (const range of text.split(',')) {
    const m = /^\s*(\d{2}):00-(\d{2}):00\s*$/.exec(range);
    if (!m) return null;
    const from = Number(m[1]);
    const to = Number(m[2]);
    if (from > 23 || to > 24 || to <= from) return null;
    for (let h = from; h < to; h++) hours.add(h);
  }
  return hours;
}

/** Weekday and weekend hours of a rate row: `days` and `hours` as present.ts writes them ("weekdays a; weekends b" under `all`). */
function timingOf(row: { hours?: string | null; days?: Days | null }, at: string): { weekday: Set<number>; weekend: Set<number> } {
  const days = row.days ?? 'all';
  const text = row.hours ?? WHOLE_DAY;
  const split = /^weekdays (.*); weekends (.*)$/.exec(text);
  if (split && days === 'all') {
    const weekday = parseHours(split[1]);
    const weekend = parseHours(split[2]);
    if (weekday && weekend) return { weekday, weekend };
  }
  const hours = parseHours(text);
  if (!hours)
    throw new RatesProblem(
      `${at}.hours`,
      'hours must be ranges like "00:00-06:00, 22:00-24:00" (or "weekdays <ranges>; weekends <ranges>" with days all)',
    );
  if (hours.size === 0) throw new RatesProblem(`${at}.hours`, 'hours must name at least one hour');
  return { weekday: days === 'weekends' ? new Set() : hours, weekend: days === 'weekdays' ? new Set() : hours };
}

export function checkMonths(months: number[], at: string): void {
  if (months.length === 0) throw new RatesProblem(`${at}.months`, 'months must name at least one month (1-12)');
  if (new Set(months).size !== months.length) throw new RatesProblem(`${at}.months`, 'months must not repeat a month');
}

/** The time side of an energy or demand rate row: its period, the tier it is of that period, and when the period applies. */
export interface PeriodRow {
  period: string;
  months: number[];
  hours?: string | null;
  days?: Days | null;
  tier?: number | null;
}

export interface PeriodRows<R> {
  name: string;
  /** Index in the input of each tier row, by tier (0-based). */
  rows: Array<{ index: number; row: R }>;
}

/** Rows grouped by period name in the order periods first appear; tiers numbered 1..n without gaps. */
export function groupPeriods<R extends PeriodRow>(rows: Array<{ index: number; row: R }>, list: string): PeriodRows<R>[] {
  const periods = new Map<string, Array<{ index: number; row: R }>>();
  rows.forEach(({ row, index }) => {
    const at = `${list}.${index}`;
    if (row.period.trim() === '') throw new RatesProblem(`${at}.period`, 'period must not be empty');
    checkMonths(row.months, at);
    const list2 = periods.get(row.period) ?? [];
    list2.push({ index, row });
    periods.set(row.period, list2);
  });
  return [...periods].map(([name, tierRows]) => {
    const first = tierRows[0];
    tierRows.forEach(({ index, row }, k) => {
      const at = `${list}.${index}`;
      const tier = row.tier ?? (tierRows.length === 1 ? 1 : null);
      if (tier === null) throw new RatesProblem(`${at}.tier`, `tier is required: period '${name}' has ${tierRows.length} rows`);
      if (tier !== k + 1)
        throw new RatesProblem(
          `${at}.tier`,
          `tiers out of order: period '${name}' row ${k + 1} is tier ${tier} (tiers are listed 1, 2, 3, ... in order)`,
        );
      const same =
        [...row.months].sort((a, b) => a - b).join() === [...first.row.months].sort((a, b) => a - b).join() &&
        (row.hours ?? WHOLE_DAY) === (first.row.hours ?? WHOLE_DAY) &&
        (row.days ?? 'all') === (first.row.days ?? 'all');
      if (!same)
        throw new RatesProblem(
          at,
          `tier ${tier} of period '${name}' must have the months, hours and days of its tier 1 (${list}.${first.index})`,
        );
    });
    return { name, rows: tierRows };
  });
}

/** Tier bounds strictly increasing, the last tier unbounded. */
export function checkBounds(bounds: Array<number | null>, at: (k: number) => string, unit: string): void {
  bounds.forEach((max, k) => {
    const last = k === bounds.length - 1;
    if (last && max !== null)
      throw new RatesProblem(at(k), `the last tier must be unbounded (null): usage above ${max} ${unit} has no rate`);
    if (!last && max === null) throw new RatesProblem(at(k), 'only the last tier may be unbounded (null)');
    if (!last && max !== null && k > 0 && max <= (bounds[k - 1] as number)) {
      throw new RatesProblem(at(k), `tiers out of order: tier ${k + 1} ends at ${max}, not above tier ${k}'s ${bounds[k - 1]}`);
    }
  });
}

/** Fills a 12x24 schedule (weekday and weekend) with each period's hours; every hour of every month must have exactly one. */
export function schedulesOf<R extends Pick<PeriodRow, 'months' | 'hours' | 'days'>>(
  periods: PeriodRows<R>[],
  list: string,
  sharedDays: boolean,
): { weekday: Schedule12x24; weekend: Schedule12x24 } {
  const empty = () => Array.from({ length: 12 }, () => Array<number>(24).fill(-1));
  const weekday = empty();
  const weekend = empty();
  periods.forEach((p, index) => {
    const { row, index: rowIndex } = p.rows[0];
    const at = `${list}.${rowIndex}`;
    const timing = timingOf(row, at);
    if (sharedDays && (timing.weekday.size !== 24 || timing.weekend.size !== 24)) {
      throw new RatesProblem(
        `${at}.hours`,
        `${list === 'demand_rates' ? 'coincident demand' : 'usage'} periods apply to whole days: hours must be ${WHOLE_DAY} and days all`,
      );
    }
    for (const month of row.months) {
      for (const [schedule, hours, kind] of [
        [weekday, timing.weekday, 'weekdays'],
        [weekend, timing.weekend, 'weekends'],
      ] as const) {
        for (const h of hours) {
          const taken = schedule[month - 1][h];
          if (taken !== -1) {
            throw new RatesProblem(
              at,
              `period '${p.name}' and period '${periods[taken].name}' both cover ${kind} ${String(h).padStart(2, '0')}:00 in ${MONTH_NAMES[month - 1]}`,
            );
          }
          schedule[month - 1][h] = index;
        }
      }
    }
  });
  for (let m = 0; m < 12; m++) {
    for (const [schedule, kind] of [
      [weekday, 'weekdays'],
      [weekend, 'weekends'],
    ] as const) {
      const h = schedule[m].indexOf(-1);
      if (h !== -1) {
        throw new RatesProblem(
          list,
          `no period covers ${kind} ${String(h).padStart(2, '0')}:00 in ${MONTH_NAMES[m]}: every hour of every month needs a rate (give a 0 rate where nothing is charged)`,
        );
      }
    }
  }
  return { weekday, weekend };
}
