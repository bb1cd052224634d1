import type { Readable } from 'node:stream';
import type { IncomingHttpHeaders } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import busboy from 'busboy';
import { parse } from 'csv-parse';
import { AppError, unprocessable } from '../../../platform/http/errors';
import { INTERVAL_MINUTES } from '../tables';
import { createEspiReader, EspiError, type EspiBlock } from './espi';
import { layoutOfHeader, type CsvLayout, type CsvReading } from './csv-layouts';
import { instantsOf, isoLocal, isRepeatedLocalTime } from './local-time';
import type { DayRow, MergeOutcome } from './repository';

/** The largest upload: 50 MB, as bill imports. */
export const MAX_INTERVAL_UPLOAD_BYTES = 50 * 1024 * 1024;
/** Days held before they are merged into the table (one transaction each flush). */
const FLUSH_DAYS = 400;
/** Rows scanned for a CSV header before the file is refused. */
const HEADER_SCAN_ROWS = 50;
const MAX_LISTED = 100;

export interface Upload {
  headers: IncomingHttpHeaders;
  body: Readable;
}

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
interface Reading {
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

  constructor(private readonly zone: string, private readonly merge: (days: Map<string, DayRow>) => Promise<MergeOutcome>) {}

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
    const day = new Date(dayIndex * 86_400_000).toISOString().slice(0, 10);
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

/** Wh from a value in a ReadingType's unit: uom 72 (Wh) x 10^powerOfTenMultiplier, rounded to the Wh. */
export function espiWh(value: number, powerOfTenMultiplier: number): number {
  return Math.round(value * 10 ** powerOfTenMultiplier);
}

/** ESPI UnitSymbolKind 72: watt-hours (ESPI espi.xsd, UnitSymbolKind). */
const UOM_WH = 72;
/** ESPI FlowDirectionKind 1: forward, energy delivered to the customer. */
const FLOW_FORWARD = 1;

async function addEspiBlock(c: IntervalCollector, block: EspiBlock) {
  const rt = block.readingType;
  if (!rt) {
    c.skip('an IntervalBlock without a ReadingType (unit unknown)', block.readings.length);
    return;
  }
  if (rt.uom !== UOM_WH) {
    c.skip(`ReadingType uom ${rt.uom ?? 'missing'} is not energy in Wh (72)`, block.readings.length);
    return;
  }
  if (rt.flowDirection !== null && rt.flowDirection !== FLOW_FORWARD) {
    c.skip(`ReadingType flowDirection ${rt.flowDirection} is not forward (1): energy received from the customer`, block.readings.length);
    return;
  }
  for (const r of block.readings) {
    await c.add({ start: r.start, minutes: r.duration / 60, wh: espiWh(r.value, rt.powerOfTenMultiplier), line: 0 });
  }
}

/** The reading of a CSV row in the property's zone: a repeated local time is its first instant the first time it is met, its second after. */
function csvInstant(zone: string, r: CsvReading, repeats: Set<string>): number | string {
  if (r.instant !== undefined) return r.instant;
  const l = r.local!;
  const instants = instantsOf(zone, l.y, l.mo, l.d, l.h, l.mi);
  if (instants.length === 0) return `${l.y}-${l.mo}-${l.d} ${l.h}:${String(l.mi).padStart(2, '0')} does not exist in ${zone} (the spring-forward hour)`;
  if (instants.length === 1) return instants[0]!;
  const key = `${l.y}-${l.mo}-${l.d}-${l.h}-${l.mi}`;
  if (!repeats.has(key)) {
    repeats.add(key);
    return instants[0]!;
  }
  return instants[1]!;
}

/**
 * Reads an upload (multipart field `file`, streamed through busboy as bill imports) as ESPI XML when
 * its first character is `<`, else as a utility CSV; stores its readings through `merge`.
 */
export async function importIntervals(
  upload: Upload, zone: string, merge: (days: Map<string, DayRow>) => Promise<MergeOutcome>, maxBytes = MAX_INTERVAL_UPLOAD_BYTES,
): Promise<ImportReport> {
  const { headers, body } = upload;
  if (!String(headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')) {
    throw new AppError(415, 'Content-Type must be multipart/form-data with the file in field "file"');
  }
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers, limits: { fileSize: maxBytes, files: 1, fields: 20, parts: 30 } });
  } catch {
    throw new AppError(415, 'Content-Type must be multipart/form-data with the file in field "file"');
  }
  return new Promise<ImportReport>((resolve, reject) => {
    let work: Promise<ImportReport> | undefined;
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      body.unpipe(bb);
      body.resume();
      reject(err);
    };
    bb.on('file', (name, stream) => {
      if (name !== 'file' || work) {
        stream.resume();
        return;
      }
      work = readFile(stream, zone, merge);
      work.catch(fail);
    });
    bb.on('error', () => fail(new AppError(400, 'Malformed multipart body')));
    bb.on('close', () => {
      if (failed) return;
      if (!work) return fail(unprocessable('field required', 'file'));
      work.then(resolve, fail);
    });
    body.on('error', fail);
    body.pipe(bb);
  });
}

const notOne = (detail: string) => unprocessable(`not a Green Button file: ${detail}`, 'file');

async function readFile(file: Readable, zone: string, merge: (days: Map<string, DayRow>) => Promise<MergeOutcome>): Promise<ImportReport> {
  let truncated = false;
  file.on('limit', () => {
    truncated = true;
  });
  const c = new IntervalCollector(zone, merge);
  const decoder = new StringDecoder('utf8');
  const chunks = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  // The first characters decide the format.
  let head = '';
  let done = false;
  while (!done && head.trimStart().length === 0) {
    const next = await chunks.next();
    if (next.done) done = true;
    else head += decoder.write(next.value);
  }
  head = head.replace(/^\uFEFF/, '');
  if (head.trim().length === 0) throw notOne('the file is empty');
  const rest = async function* () {
    yield head;
    while (true) {
      const next = await chunks.next();
      if (next.done) break;
      yield decoder.write(next.value);
    }
    yield decoder.end();
  };
  const tooLarge = () => new AppError(413, `File too large: the limit is ${MAX_INTERVAL_UPLOAD_BYTES / (1024 * 1024)} MB`);
  let format: IntervalFormat;
  if (head.trimStart().startsWith('<')) {
    format = 'espi_xml';
    const blocks: EspiBlock[] = [];
    const reader = createEspiReader((b) => blocks.push(b));
    try {
      for await (const text of rest()) {
        reader.write(text);
        while (blocks.length > 0) await addEspiBlock(c, blocks.shift()!);
      }
      if (truncated) throw tooLarge();
      reader.end();
      while (blocks.length > 0) await addEspiBlock(c, blocks.shift()!);
    } catch (err) {
      if (err instanceof EspiError) throw notOne(err.message.replace(/^not a Green Button file: /, ''));
      throw err;
    }
  } else {
    const parser = parse({ relax_column_count: true, relax_quotes: true, skip_empty_lines: true, info: true, bom: true });
    // Once the rows are no longer read (the end, or a file refused early), the rest of the upload is read and dropped.
    let stopped = false;
    const written = () => new Promise<void>((resolve) => {
      const done = () => {
        parser.off('drain', done).off('close', done);
        resolve();
      };
      parser.on('drain', done).on('close', done);
    });
    const feed = (async () => {
      for await (const text of rest()) {
        if (!stopped && !parser.write(text)) await written();
      }
      if (!stopped) parser.end();
    })();
    feed.catch((err) => parser.destroy(err as Error));
    let layout: CsvLayout | null = null;
    const repeats = new Set<string>();
    let rows = 0;
    let received = false;
    try {
      for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
        // A header row starts a section (SCE repeats it before its "Received" readings); titles and blank rows are not readings.
        const header = layoutOfHeader(record);
        if (header) {
          layout = header;
          received = record.some((cell) => /\breceived\b/i.test(cell));
          continue;
        }
        if (!layout) {
          if (++rows > HEADER_SCAN_ROWS) break;
          continue;
        }
        if (record.slice(1).every((cell) => cell.trim() === '')) continue;
        if (received) {
          c.skip('energy received from the customer (a "Received" section)');
          continue;
        }
        const r = layout.read(record);
        if (typeof r === 'string') {
          c.reject(info.lines, r);
          continue;
        }
        const start = csvInstant(zone, r, repeats);
        if (typeof start === 'string') {
          c.reject(info.lines, start);
          continue;
        }
        await c.add({ start, minutes: r.minutes, wh: Math.round(r.kwh * 1000), line: info.lines });
      }
    } catch (err) {
      if ((err as { code?: string }).code?.startsWith('CSV_')) throw notOne(`invalid CSV: ${(err as Error).message}`);
      throw err;
    } finally {
      stopped = true;
      if (!parser.destroyed) parser.destroy();
      await feed.catch(() => undefined);
    }
    if (truncated) throw tooLarge();
    if (!layout) {
      throw notOne('no header row of a known layout in its first 50 rows (PG&E: DATE, START TIME, END TIME, USAGE; SCE: Energy consumption '
        + 'time period, Usage; SDG&E: Date, Start Time, Duration, Consumption; or start, end, kwh)');
    }
    format = `csv_${layout.name}`;
  }
  await c.flush();
  if (c.readings === 0 && c.rejectedCount === 0) {
    const why = [...c.skipped.keys()].join('; ');
    throw notOne(`no electric interval readings${why ? ` (${why})` : ''}`);
  }
  return c.report(format);
}
