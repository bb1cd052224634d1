import { randomUUID } from 'node:crypto';
import type { Db } from '../../../platform/db/client';
import { intervalsImportedEvent, type EventOutbox } from '../../events/public';
import { unprocessable } from '../../../platform/http/errors';
import type { PropertyService } from '../../properties/service';
import { zoneOfProperty } from '../../properties/timezone';
import { utcDayOfSeconds } from '../../../platform/dates';
import type { MeterRow } from '../repository';
import { importIntervals, type Upload } from './import';
import { instantsOf, isoLocal } from '../../../platform/time-zones';
import { loadProfile, type IntervalPoint } from './load-profile';
import { createIntervalRepository } from './repository';
import { loadProfileSvg } from './svg';

/** The longest range read back at once: 400 days (a year of 15-minute data is 35,040 readings). */
export const MAX_RANGE_DAYS = 400;

export interface RangeQuery {
  start: string;
  end: string;
}

/** A range bound: a date (the zone's local midnight) or an ISO 8601 date-time with an offset; epoch seconds. */
export function rangeBound(value: string, zone: string, field: 'start' | 'end'): number {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (date) {
    const [y, mo, d] = [+date[1]!, +date[2]!, +date[3]!];
    const instants = instantsOf(zone, y, mo, d, 0, 0);
    if (instants.length > 0) return instants[0]!;
    // Midnight skipped by a clock change: the day starts an hour later.
    return instantsOf(zone, y, mo, d, 1, 0)[0] ?? Date.UTC(y, mo - 1, d) / 1000;
  }
  const ms = Date.parse(value);
  if (!/(Z|[+-]\d{2}:\d{2})$/.test(value) || Number.isNaN(ms)) {
    throw unprocessable(`${field} must be a date (YYYY-MM-DD) or a date-time with an offset (2019-07-01T00:00:00-07:00)`, field);
  }
  return Math.floor(ms / 1000);
}

export interface IntervalServiceDeps {
  db: Db;
  /** Where `meter.intervals.imported` is written once an import has stored readings. */
  events?: EventOutbox;
  properties: Pick<PropertyService, 'requireOwned'>;
  requireMeter(ownerId: string, meterId: string): Promise<MeterRow>;
  /** Queues the meter's bill audit: readings covering a bill's period price its expected amount (audit README "Interval data"). */
  auditMeters?(meterIds: readonly string[]): Promise<void>;
}

type IntervalRepository = ReturnType<typeof createIntervalRepository>;

/**
 * The import's event: the span it covered and the readings stored in it (the merge is batched, so
 * the event follows the last batch rather than sharing one transaction with every batch).
 */
async function emitImported(
  deps: IntervalServiceDeps,
  repo: IntervalRepository,
  ownerId: string,
  meter: MeterRow,
  start: string,
  end: string,
  minutes: number,
) {
  const from = Date.parse(start) / 1000;
  const to = Date.parse(end) / 1000;
  const kwh: number[] = [];
  for (const r of await repo.days(meter.id, utcDayOfSeconds(from), utcDayOfSeconds(to + 86_400))) {
    const base = Date.parse(`${r.day}T00:00:00Z`) / 1000;
    r.wh.forEach((wh, i) => {
      const t = base + i * r.intervalMinutes * 60;
      if (wh !== null && t >= from && t < to) kwh.push(wh / 1000);
    });
  }
  await deps.events!.emit([
    intervalsImportedEvent({
      ownerId,
      propertyId: meter.propertyId,
      meterId: meter.id,
      importId: randomUUID(),
      start,
      end,
      intervalMinutes: minutes,
      kwh,
    }),
  ]);
  await deps.events!.deliverSoon();
}

export function createIntervalService(deps: IntervalServiceDeps) {
  const repo = createIntervalRepository(deps.db);

  async function electricMeter(ownerId: string, meterId: string) {
    const meter = await deps.requireMeter(ownerId, meterId);
    if (meter.utilityType !== 'electric') {
      throw unprocessable(`interval data is for electric meters; this one is ${meter.utilityType}`, 'id');
    }
    const property = await deps.properties.requireOwned(ownerId, meter.propertyId);
    return { meter, zone: zoneOfProperty(property) };
  }

  async function points(ownerId: string, meterId: string, q: RangeQuery) {
    const { meter, zone } = await electricMeter(ownerId, meterId);
    const from = rangeBound(q.start, zone, 'start');
    const to = rangeBound(q.end, zone, 'end');
    if (to <= from) throw unprocessable('end must be after start', 'end');
    if (to - from > MAX_RANGE_DAYS * 86_400) throw unprocessable(`a range is at most ${MAX_RANGE_DAYS} days`, 'end');
    const rows = await repo.days(meter.id, utcDayOfSeconds(from), utcDayOfSeconds(to + 86_400));
    const out: IntervalPoint[] = [];
    let minutes: number | null = null;
    for (const r of rows) {
      const base = Date.parse(`${r.day}T00:00:00Z`) / 1000;
      const step = r.intervalMinutes * 60;
      r.wh.forEach((wh, i) => {
        const t = base + i * step;
        if (wh === null || t < from || t >= to) return;
        minutes ??= r.intervalMinutes;
        out.push({ start: t, kwh: wh / 1000 });
      });
    }
    return { meter, zone, from, to, minutes: minutes ?? 15, points: out };
  }

  return {
    async importFile(ownerId: string, meterId: string, upload: Upload) {
      const { meter, zone } = await electricMeter(ownerId, meterId);
      const report = await importIntervals(upload, zone, (days) => repo.merge(meter.id, days));
      if (deps.events && report.stored > 0 && report.first_start !== null && report.last_end !== null) {
        await emitImported(deps, repo, ownerId, meter, report.first_start, report.last_end, report.interval_minutes);
      }
      if (report.stored > 0 || report.replaced > 0) await deps.auditMeters?.([meter.id]);
      return { meter_id: meter.id, ...report };
    },

    async read(ownerId: string, meterId: string, q: RangeQuery) {
      const r = await points(ownerId, meterId, q);
      const step = r.minutes * 60;
      return {
        meter_id: r.meter.id,
        timezone: r.zone,
        start: isoLocal(r.zone, r.from),
        end: isoLocal(r.zone, r.to),
        interval_minutes: r.minutes,
        count: r.points.length,
        readings: r.points.map((p) => ({ start: isoLocal(r.zone, p.start), end: isoLocal(r.zone, p.start + step), kwh: p.kwh })),
      };
    },

    async loadProfile(ownerId: string, meterId: string, q: RangeQuery) {
      const r = await points(ownerId, meterId, q);
      return {
        meter_id: r.meter.id,
        meter_name: r.meter.name,
        timezone: r.zone,
        start: isoLocal(r.zone, r.from),
        end: isoLocal(r.zone, r.to),
        ...loadProfile(r.points, r.minutes, r.zone),
      };
    },
  };
}

export type IntervalService = ReturnType<typeof createIntervalService>;

/** The readings as CSV: start,end,kwh (local time with offset), CRLF lines. */
export function readingsCsv(readings: Array<{ start: string; end: string; kwh: number }>): string {
  return ['start,end,kwh', ...readings.map((r) => `${r.start},${r.end},${r.kwh}`)].join('\r\n') + '\r\n';
}

export { loadProfileSvg };
