/**
 * The energy of each local day of a period on a property's whole-building electric meters, from
 * their interval readings: what tenant billing weighs a RUBS electric split's days by (issue 50;
 * tenant-billing README "Interval proration"). Read, never written.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../platform/db/client';
import { dayNumber, isoDateOfDay, utcDayOfSeconds } from '../../../platform/dates';
import { zoneOfProperty } from '../../properties/timezone';
import { meters } from '../tables';
import { createIntervalReader } from './period-intervals';
import { createIntervalRepository } from './repository';
import { MAX_RANGE_DAYS, rangeBound } from './service';

/** What locates a property's days: its id, and its time zone (set, else its ZIP code's). */
export interface PropertyClock {
  id: string;
  timezone: string | null;
  zipCode: string;
  state: string;
}

export interface MeterDailyEnergy {
  meterId: string;
  /**
   * Watt-hours of each local day of the period, in order (a day is its local midnight to the
   * next, 23 or 25 hours across a clock change; a reading belongs to the day its start falls in);
   * null for a day with an interval without a reading.
   */
  dailyWh: Array<number | null>;
}

export interface PeriodEnergy {
  zone: string;
  /** The property's active whole-building electric meters with at least one reading in the period, oldest first. */
  meters: MeterDailyEnergy[];
}

/**
 * The daily energy of the property's active whole-building electric meters over the period
 * (YYYY-MM-DD, both days included, the property's local days). A period longer than
 * MAX_RANGE_DAYS reads nothing (no meters).
 */
export async function wholeBuildingDailyEnergy(db: Db, property: PropertyClock, start: string, end: string): Promise<PeriodEnergy> {
  const zone = zoneOfProperty(property);
  const first = dayNumber(start);
  const days = dayNumber(end) - first + 1;
  if (days < 1 || days > MAX_RANGE_DAYS) return { zone, meters: [] };
  const bounds = Array.from({ length: days + 1 }, (_, k) => rangeBound(isoDateOfDay(first + k), zone, 'start'));
  const candidates = await db
    .select({ id: meters.id })
    .from(meters)
    .where(
      and(
        eq(meters.propertyId, property.id),
        eq(meters.utilityType, 'electric'),
        eq(meters.covers, 'whole_building'),
        eq(meters.isActive, true),
      ),
    )
    .orderBy(meters.createdAt, meters.id);
  if (candidates.length === 0) return { zone, meters: [] };
  const has = await createIntervalReader(db).metersWithReadings(candidates.map((c) => c.id));
  const repo = createIntervalRepository(db);
  const out: MeterDailyEnergy[] = [];
  for (const { id } of candidates.filter((c) => has.has(c.id))) {
    const rows = await repo.days(id, utcDayOfSeconds(bounds[0]!), utcDayOfSeconds(bounds[days]! + 86_400));
    const { dailyWh, readings } = dailyOf(rows, bounds);
    if (readings > 0) out.push({ meterId: id, dailyWh });
  }
  return { zone, meters: out };
}

/**
 * Each local day's Wh from stored UTC-day rows, and the readings found; bounds are the days' first
 * instants and the period's end (epoch seconds). A day with an interval starting in it without a
 * reading (or a UTC day without a row, read as 5-minute intervals, the shortest) is null.
 */
export function dailyOf(
  rows: ReadonlyArray<{ day: string; intervalMinutes: number; wh: ReadonlyArray<number | null> }>,
  bounds: readonly number[],
): { dailyWh: Array<number | null>; readings: number } {
  const days = bounds.length - 1;
  const sums = new Array<number>(days).fill(0);
  const complete = new Array<boolean>(days).fill(true);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  let readings = 0;
  let d = 0;
  // Every UTC day the period touches: its slots, in time order, each in the local day its start falls in.
  for (let u = Math.floor(bounds[0]! / 86_400); u * 86_400 < bounds[days]!; u++) {
    const row = byDay.get(isoDateOfDay(u));
    const minutes = row?.intervalMinutes ?? 5;
    const step = minutes * 60;
    for (let i = 0; i < 1440 / minutes; i++) {
      const t = u * 86_400 + i * step;
      if (t < bounds[0]! || t >= bounds[days]!) continue;
      while (t >= bounds[d + 1]!) d++;
      const wh = row ? row.wh[i] : null;
      if (wh === null || wh === undefined) complete[d] = false;
      else {
        sums[d] += wh;
        readings++;
      }
    }
  }
  return { dailyWh: sums.map((s, k) => (complete[k] ? s : null)), readings };
}
