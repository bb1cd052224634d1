/**
 * A meter's interval readings over a billing period (meters README "Intervals over a bill's period"):
 * every interval of every local day from the period's first day to its last, in the property's time
 * zone, or why they do not cover it. What the bill audit and rate analysis price a bill from in place
 * of its typed usage and demand (issue 50 item 3). `periodIntervals` is pure; the reader reads the days.
 */
import { inArray } from 'drizzle-orm';
import type { Db } from '../../../platform/db/client';
import { dayNumber, isoDateOfDay, utcDayOfSeconds } from '../../../platform/dates';
import { isoLocal } from '../../../platform/time-zones';
import { meterIntervalDays } from '../tables';
import { createIntervalRepository, type DayRow } from './repository';
import { rangeBound } from './service';

/** A billing period: its first and last day (YYYY-MM-DD), both included. */
export interface IntervalPeriod {
  start: string;
  end: string;
}

/** The period's readings as pricing takes them (pricing's IntervalData), with their total and largest interval. */
export interface CoveredPeriod {
  ok: true;
  data: { start: string; intervalMinutes: number; kwh: number[]; timezone: string };
  /** The readings' sum, kWh (to the Wh). */
  kwh: number;
  /** The largest interval's average, kW. */
  peakKw: number;
}

export type PeriodIntervals = CoveredPeriod | { ok: false; reason: string };

const dayAfter = (day: string) => isoDateOfDay(dayNumber(day) + 1);
const count = (n: number) => n.toLocaleString('en-US');

/**
 * The readings of `rows` (the meter's stored UTC days) from the local midnight starting `period.start`
 * to the one ending `period.end`: covered when every interval has a reading, all of one length.
 */
export function periodIntervals(rows: readonly DayRow[], zone: string, period: IntervalPeriod): PeriodIntervals {
  const from = rangeBound(period.start, zone, 'start');
  const to = rangeBound(dayAfter(period.end), zone, 'end');
  const where = `from ${period.start} to ${period.end} (${zone})`;
  const inRange = rows.filter((r) => r.day >= utcDayOfSeconds(from) && r.day <= utcDayOfSeconds(to - 1));
  if (inRange.length === 0) return { ok: false, reason: `the meter has no interval readings ${where}` };
  const minutes = inRange[0]!.intervalMinutes;
  if (inRange.some((r) => r.intervalMinutes !== minutes)) {
    return { ok: false, reason: `the meter's interval readings ${where} are not all of one length` };
  }
  const step = minutes * 60;
  const expected = Math.floor((to - from) / step);
  const byDay = new Map(inRange.map((r) => [r.day, r]));
  const kwh: number[] = [];
  let totalWh = 0;
  let peakWh = 0;
  let firstMissing: number | null = null;
  for (let t = from; t < to; t += step) {
    const row = byDay.get(utcDayOfSeconds(t));
    // Seconds since the UTC midnight the interval's day starts at.
    const offset = t - Math.floor(t / 86_400) * 86_400;
    const wh = row && offset % step === 0 ? (row.wh[offset / step] ?? null) : null;
    if (wh === null) {
      firstMissing ??= t;
      continue;
    }
    kwh.push(wh / 1000);
    totalWh += wh;
    peakWh = Math.max(peakWh, wh);
  }
  if (firstMissing !== null) {
    return {
      ok: false,
      reason:
        `the meter's interval readings cover ${count(kwh.length)} of the ${count(expected)} ${minutes}-minute intervals ${where}; ` +
        `the first missing starts ${isoLocal(zone, firstMissing)}`,
    };
  }
  return {
    ok: true,
    data: { start: isoLocal(zone, from), intervalMinutes: minutes, kwh, timezone: zone },
    kwh: totalWh / 1000,
    peakKw: Math.round((peakWh * 60) / minutes) / 1000,
  };
}

/** The key of a period in the reader's answer. */
export const periodKey = (p: IntervalPeriod) => `${p.start}|${p.end}`;

/** Reads meters' interval readings over billing periods (the bill audit's and rate analysis's view of them). */
export function createIntervalReader(db: Db) {
  const repo = createIntervalRepository(db);
  return {
    /** Which of these meters have any interval reading (one statement). */
    async metersWithReadings(meterIds: readonly string[]): Promise<Set<string>> {
      if (meterIds.length === 0) return new Set();
      const rows = await db
        .selectDistinct({ meterId: meterIntervalDays.meterId })
        .from(meterIntervalDays)
        .where(inArray(meterIntervalDays.meterId, [...meterIds]));
      return new Set(rows.map((r) => r.meterId));
    },

    /** Each period's readings (by periodKey), or why they do not cover it; one statement for the meter. */
    async overPeriods(meterId: string, zone: string, periods: readonly IntervalPeriod[]): Promise<Map<string, PeriodIntervals>> {
      const out = new Map<string, PeriodIntervals>();
      if (periods.length === 0) return out;
      const first = periods.reduce((min, p) => (p.start < min ? p.start : min), periods[0]!.start);
      const last = periods.reduce((max, p) => (p.end > max ? p.end : max), periods[0]!.end);
      // A local day reaches into the UTC days either side of it.
      const rows = await repo.days(meterId, isoDateOfDay(dayNumber(first) - 1), isoDateOfDay(dayNumber(last) + 2));
      for (const p of periods) out.set(periodKey(p), periodIntervals(rows, zone, p));
      return out;
    },
  };
}

export type IntervalReader = ReturnType<typeof createIntervalReader>;
