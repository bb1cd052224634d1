import { summerOrWinter } from '../pricing/engine/season';
import type { Schedule12x24 } from './tariff.model';
import { UrdbRecordError } from './urdb.record';

/** Checks a URDB 12x24 schedule: 12 rows of 24 integer period indices, each < periodCount. */
export function checkSchedule(value: unknown, periodCount: number, where: string): Schedule12x24 {
  if (!Array.isArray(value) || value.length !== 12) throw new UrdbRecordError(`${where} is not 12 months of 24 hours`);
  return value.map((row: unknown) => {
    if (!Array.isArray(row) || row.length !== 24) throw new UrdbRecordError(`${where} is not 12 months of 24 hours`);
    return row.map((v: unknown) => {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
        throw new UrdbRecordError(`${where} holds a value that is not a period index`);
      if (v >= periodCount) throw new UrdbRecordError(`${where} refers to period ${v + 1} but only ${periodCount} are defined`);
      return v;
    });
  });
}

/** True when some day (weekday or weekend row) uses more than one period: time-of-use. */
export function variesWithinDay(weekday: Schedule12x24, weekend: Schedule12x24): boolean {
  return [...weekday, ...weekend].some((row) => row.some((p) => p !== row[0]));
}

/** 0-based months in which a period occurs on weekdays or weekends. */
export function monthsOfPeriod(period: number, weekday: Schedule12x24, weekend: Schedule12x24): number[] {
  const months: number[] = [];
  for (let m = 0; m < 12; m++) if (weekday[m].includes(period) || weekend[m].includes(period)) months.push(m);
  return months;
}

const JANUARY = 0;

/** The season of a period's months (0-based): `all_year`, summer or winter (the engine's test), else `seasonal` (January and July) or `shoulder`. */
export function seasonOf(months: number[]): 'summer' | 'winter' | 'all_year' | 'seasonal' | 'shoulder' {
  if (months.length === 12) return 'all_year';
  return summerOrWinter(months) ?? (months.includes(JANUARY) ? 'seasonal' : 'shoulder');
}

type Role = 'on_peak' | 'mid_peak' | 'off_peak';

/**
 * Display names of the periods of a schedule, by this rule:
 * - Role: on the first day row (weekday rows January-December, then weekend
 *   rows) where a period shares the day with other periods, the periods of
 *   that day are ranked by price (ties: lower index first); the highest is
 *   `on_peak`, the lowest `off_peak`, any other `mid_peak`. A period that never
 *   shares a day has no role.
 * - Season, from the months the period occurs in: `all_year` for all 12;
 *   else `summer` if they include July but not January, `winter` if January
 *   but not July, `seasonal` if both, `shoulder` if neither.
 * - Name: `<season>_<role>` for summer/winter periods with a role, `<role>` for
 *   other periods with a role, and the season alone (`summer`, `winter`,
 *   `all_year`, `seasonal`, `shoulder`) for periods without one. A period that occurs in
 *   no month is `period_<n>` (1-based). Repeated names get `_2`, `_3`, ... in
 *   period order.
 */
export function namePeriods(prices: number[], weekday: Schedule12x24, weekend: Schedule12x24): string[] {
  const roles = new Map<number, Role>();
  for (const row of [...weekday, ...weekend]) {
    const present = [...new Set(row)];
    if (present.length < 2) continue;
    const ranked = present.sort((a, b) => prices[b] - prices[a] || a - b);
    ranked.forEach((p, i) => {
      if (roles.has(p)) return;
      roles.set(p, i === 0 ? 'on_peak' : i === ranked.length - 1 ? 'off_peak' : 'mid_peak');
    });
  }
  const base = prices.map((_, p) => {
    const months = monthsOfPeriod(p, weekday, weekend);
    if (months.length === 0) return `period_${p + 1}`;
    const season = seasonOf(months);
    const role = roles.get(p);
    if (!role) return season;
    return season === 'summer' || season === 'winter' ? `${season}_${role}` : role;
  });
  const seen = new Map<string, number>();
  return base.map((name) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : `${name}_${n}`;
  });
}
