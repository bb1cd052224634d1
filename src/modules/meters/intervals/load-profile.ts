import { isoLocal, localFields } from '../../../platform/time-zones';

/**
 * A load profile of interval readings (README "Load profile"), a pure calculation:
 * - peak_kw: the largest interval's average kW (kWh x 60 / interval minutes), and when it starts;
 * - load_factor: average kW / peak kW over the readings ("the ratio of the average load to the peak
 *   load during a specified time period", EIA Glossary, https://www.eia.gov/tools/glossary/?id=electricity);
 * - base_load_kw: the 2.5th percentile of the intervals' kW, nearest rank: the "near-base load" of
 *   Price, P. (2010), "Methods for Analyzing Electric Load Shape and its Variability", LBNL-3713E
 *   (taken over the range instead of per day);
 * - after_hours_share: the share of kWh in intervals starting outside business hours, weekdays
 *   07:00 to 18:00 local time (weekends and holidays count as after hours only by weekday/weekend);
 * - weekday / weekend by hour: the mean kW of the intervals starting in each local hour (0 to 23)
 *   on weekdays (Monday to Friday) and on weekends; null for an hour without readings.
 */
export interface IntervalPoint {
  /** Start, epoch seconds. */
  start: number;
  kwh: number;
}

export const BUSINESS_HOURS = { from: 7, to: 18 } as const;
export const BASE_LOAD_PERCENTILE = 2.5;

export interface LoadProfile {
  readings: number;
  interval_minutes: number;
  energy_kwh: number;
  peak_kw: number | null;
  peak_at: string | null;
  average_kw: number | null;
  load_factor: number | null;
  base_load_kw: number | null;
  after_hours_share: number | null;
  weekday_by_hour: Array<number | null>;
  weekend_by_hour: Array<number | null>;
}

const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/** The p-th percentile of sorted values by nearest rank: the value at rank ceil(p/100 x n). */
export function nearestRank(sorted: number[], p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export function loadProfile(points: IntervalPoint[], intervalMinutes: number, zone: string): LoadProfile {
  const perHour = 60 / intervalMinutes;
  const sums = { weekday: new Array<number>(24).fill(0), weekend: new Array<number>(24).fill(0) };
  const counts = { weekday: new Array<number>(24).fill(0), weekend: new Array<number>(24).fill(0) };
  let energy = 0;
  let afterHours = 0;
  let peak: IntervalPoint | null = null;
  const kws: number[] = [];
  for (const p of points) {
    const kw = p.kwh * perHour;
    kws.push(kw);
    energy += p.kwh;
    if (!peak || p.kwh > peak.kwh) peak = p;
    const f = localFields(zone, p.start);
    const weekend = f.weekday === 0 || f.weekday === 6;
    const kind = weekend ? 'weekend' : 'weekday';
    sums[kind][f.hour]! += kw;
    counts[kind][f.hour]!++;
    if (weekend || f.hour < BUSINESS_HOURS.from || f.hour >= BUSINESS_HOURS.to) afterHours += p.kwh;
  }
  const n = points.length;
  const hours = (n * intervalMinutes) / 60;
  const average = n === 0 ? null : energy / hours;
  const peakKw = peak ? peak.kwh * perHour : null;
  kws.sort((a, b) => a - b);
  const byHour = (k: 'weekday' | 'weekend') => sums[k].map((s, h) => (counts[k][h] === 0 ? null : round(s / counts[k][h]!, 3)));
  return {
    readings: n,
    interval_minutes: intervalMinutes,
    energy_kwh: round(energy, 3),
    peak_kw: peakKw === null ? null : round(peakKw, 3),
    peak_at: peak ? isoLocal(zone, peak.start) : null,
    average_kw: average === null ? null : round(average, 3),
    load_factor: average === null || !peakKw ? null : round(average / peakKw, 4),
    base_load_kw: n === 0 ? null : round(nearestRank(kws, BASE_LOAD_PERCENTILE), 3),
    after_hours_share: energy === 0 ? null : round(afterHours / energy, 4),
    weekday_by_hour: byHour('weekday'),
    weekend_by_hour: byHour('weekend'),
  };
}
