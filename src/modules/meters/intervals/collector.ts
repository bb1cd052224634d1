import { INTERVAL_MINUTES } from '../tables';
import { isoLocal, isRepeatedLocalTime } from '../../../platform/time-zones';
import { isoDateOfDay } from '../../../platform/dates';
import type { DayRow, MergeOutcome } from './repository';

/** Days held before they are merged into the table (one transaction each flush). */
const FLUSH_DAYS = 400;
/** Rejections and gap spans a report lists (it counts them all). */
const MAX_LISTED = 100;

export type IntervalFormat = 'espi_xml' | 'csv_pge' | 'csv_sce' | 'csv_sdge' | 'csv_generic';

export interface ImportReport {
  format: IntervalFormat;
  interval_minutes: number;
  timezone: string;
  readings: number;
  stored: number;
  duplicates: number;
  replaced: number;
  first_start: string | null;
  last_end: string | null;
  gaps: { missing_intervals: number; spans: Array<{ start: string; end: string; intervals: number }> };
  dst_repeats: number;
  skipped: Array<{ reason: string; readings: number }>;
  rejected: Array<{ line: number; detail: string }>;
  rejected_count: number;
}

/** One reading at its UTC start (epoch seconds), ready to store. */
export interface Reading {
  start: number;
  minutes: number;
  wh: number;
  /** The file line (CSV) for a rejection. */
  line: number;
}

/**
 * Collects readings into UTC days, counts what the report needs, and merges full batches of days
 * into the store as they accumulate (memory holds FLUSH_DAYS days and a bit per slot of the file).
 */
export class IntervalCollector {
  minutes: number | null = null;
  private pending = new Map<string, DayRow>();
  private seen = new Map<number, Uint8Array>();
  private merges: MergeOutcome[] = [];
  readonly skipped = new Map<string, number>();
  readonly rejected: Array<{ line: number; detail: string }> = [];
  rejectedCount = 0;
  readings = 0;
  dstRepeats = 0;
  /** Readings of an interval an earlier reading of the file filled in a batch not yet merged (the later one is kept). */
  private batchDuplicates = 0;
  private batchReplaced = 0;
  first: number | null = null;
  last: number | null = null;

  constructor(
    private readonly zone: string,
    private readonly merge: (days: Map<string, DayRow>) => Promise<MergeOutcome>,
  ) {}

  skip(reason: string, n = 1) {
    this.skipped.set(reason, (this.skipped.get(reason) ?? 0) + n);
  }

  reject(line: number, detail: string) {
    this.rejectedCount++;
    if (this.rejected.length < MAX_LISTED) this.rejected.push({ line, detail });
  }

  /** Adds a reading; resolves when a full batch was merged. */
  async add(r: Reading): Promise<void> {
    if (!(INTERVAL_MINUTES as readonly number[]).includes(r.minutes)) {
      this.skip(`interval of ${r.minutes} minutes (only ${INTERVAL_MINUTES.join(', ')} are interval data)`);
      return;
    }
    this.minutes ??= r.minutes;
    if (r.minutes !== this.minutes) {
      this.skip(`interval of ${r.minutes} minutes in a file of ${this.minutes}-minute readings`);
      return;
    }
    const step = r.minutes * 60;
    if (r.start % step !== 0) {
      this.reject(r.line, `start ${new Date(r.start * 1000).toISOString()} is not on a ${r.minutes}-minute boundary`);
      return;
    }
    if (!Number.isFinite(r.wh) || Math.abs(r.wh) > 2_000_000_000) {
      this.reject(r.line, 'the reading is out of range');
      return;
    }
    this.readings++;
    const dayIndex = Math.floor(r.start / 86_400);
    const slot = (r.start - dayIndex * 86_400) / step;
    const perDay = 1440 / r.minutes;
    let bits = this.seen.get(dayIndex);
    if (!bits) this.seen.set(dayIndex, (bits = new Uint8Array(perDay)));
    bits[slot] = 1;
    if (isRepeatedLocalTime(this.zone, r.start)) this.dstRepeats++;
    this.first = this.first === null ? r.start : Math.min(this.first, r.start);
    this.last = this.last === null ? r.start + step : Math.max(this.last, r.start + step);
    const day = isoDateOfDay(dayIndex);
    let row = this.pending.get(day);
    if (!row) this.pending.set(day, (row = { day, intervalMinutes: r.minutes, wh: new Array<number | null>(perDay).fill(null) }));
    const before = row.wh[slot];
    if (before !== null && before !== undefined) {
      this.batchDuplicates++;
      if (before !== r.wh) this.batchReplaced++;
    }
    row.wh[slot] = r.wh;
    if (this.pending.size >= FLUSH_DAYS) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const days = this.pending;
    this.pending = new Map();
    this.merges.push(await this.merge(days));
  }

  /** The report, after the last flush. */
  report(format: IntervalFormat): ImportReport {
    const sum = (k: 'stored' | 'duplicates' | 'replaced') => this.merges.reduce((a, m) => a + m[k], 0);
    for (const m of this.merges) {
      for (const c of m.conflicts) {
        this.skip(`day ${c.day} is stored as ${c.stored_minutes}-minute readings`, c.readings);
      }
    }
    const gaps = this.gaps();
    return {
      format,
      interval_minutes: this.minutes ?? 0,
      timezone: this.zone,
      readings: this.readings,
      stored: sum('stored'),
      duplicates: sum('duplicates') + this.batchDuplicates,
      replaced: sum('replaced') + this.batchReplaced,
      first_start: this.first === null ? null : isoLocal(this.zone, this.first),
      last_end: this.last === null ? null : isoLocal(this.zone, this.last),
      gaps,
      dst_repeats: this.dstRepeats,
      skipped: [...this.skipped].map(([reason, readings]) => ({ reason, readings })),
      rejected: this.rejected.sort((a, b) => a.line - b.line),
      rejected_count: this.rejectedCount,
    };
  }

  /** Spans between the file's first and last reading with no reading in the file. */
  private gaps(): ImportReport['gaps'] {
    const out: ImportReport['gaps'] = { missing_intervals: 0, spans: [] };
    if (this.first === null || this.last === null || this.minutes === null) return out;
    const step = this.minutes * 60;
    let gapStart: number | null = null;
    for (let t = this.first; t <= this.last; t += step) {
      const dayIndex = Math.floor(t / 86_400);
      const present = t < this.last && this.seen.get(dayIndex)?.[(t - dayIndex * 86_400) / step] === 1;
      if (!present && t < this.last) {
        out.missing_intervals++;
        gapStart ??= t;
      } else if (gapStart !== null) {
        if (out.spans.length < MAX_LISTED) {
          out.spans.push({ start: isoLocal(this.zone, gapStart), end: isoLocal(this.zone, t), intervals: (t - gapStart) / step });
        }
        gapStart = null;
      }
    }
    return out;
  }
}
