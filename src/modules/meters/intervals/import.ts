import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { parse } from 'csv-parse';
import { AppError, unprocessable } from '../../../platform/http/errors';
import { streamMultipartFile, type Upload } from '../../../platform/http/multipart-file';
import { createEspiReader, EspiError, type EspiBlock } from './espi';
import { layoutOfHeader, type CsvLayout, type CsvReading } from './csv-layouts';
import { instantsOf } from '../../../platform/time-zones';
import { IntervalCollector, type ImportReport, type IntervalFormat } from './collector';
import type { DayRow, MergeOutcome } from './repository';

/** The largest upload: 50 MB, as bill imports. */
export const MAX_INTERVAL_UPLOAD_BYTES = 50 * 1024 * 1024;
/** Rows scanned for a CSV header before the file is refused. */
const HEADER_SCAN_ROWS = 50;

export type { Upload } from '../../../platform/http/multipart-file';

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
  if (instants.length === 0)
    return `${l.y}-${l.mo}-${l.d} ${l.h}:${String(l.mi).padStart(2, '0')} does not exist in ${zone} (the spring-forward hour)`;
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
  upload: Upload,
  zone: string,
  merge: (days: Map<string, DayRow>) => Promise<MergeOutcome>,
  maxBytes = MAX_INTERVAL_UPLOAD_BYTES,
): Promise<ImportReport> {
  return streamMultipartFile(upload, { maxBytes, what: 'the file' }, (file, truncated) => readFile(file, truncated, zone, merge));
}

const notOne = (detail: string) => unprocessable(`not a Green Button file: ${detail}`, 'file');

type Merge = (days: Map<string, DayRow>) => Promise<MergeOutcome>;

const tooLarge = () => new AppError(413, `File too large: the limit is ${MAX_INTERVAL_UPLOAD_BYTES / (1024 * 1024)} MB`);

/** The file's text as it arrives, decoded: `head`, its first characters (BOM dropped), decide the format; `rest()` yields it all. */
async function openText(file: Readable): Promise<{ head: string; rest: () => AsyncGenerator<string> }> {
  const decoder = new StringDecoder('utf8');
  const chunks = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let head = '';
  let done = false;
  while (!done && head.trimStart().length === 0) {
    const next = await chunks.next();
    if (next.done) done = true;
    else head += decoder.write(next.value);
  }
  head = head.replace(/^\uFEFF/, '');
  if (head.trim().length === 0) throw notOne('the file is empty');
  const first = head;
  const rest = async function* () {
    yield first;
    while (true) {
      const next = await chunks.next();
      if (next.done) break;
      yield decoder.write(next.value);
    }
    yield decoder.end();
  };
  return { head, rest };
}

async function readEspi(c: IntervalCollector, rest: () => AsyncGenerator<string>, truncated: () => boolean): Promise<void> {
  const blocks: EspiBlock[] = [];
  const reader = createEspiReader((b) => blocks.push(b));
  try {
    for await (const text of rest()) {
      reader.write(text);
      while (blocks.length > 0) await addEspiBlock(c, blocks.shift()!);
    }
    if (truncated()) throw tooLarge();
    reader.end();
    while (blocks.length > 0) await addEspiBlock(c, blocks.shift()!);
  } catch (err) {
    if (err instanceof EspiError) throw notOne(err.message.replace(/^not a Green Button file: /, ''));
    throw err;
  }
}

/** Writes the text into the CSV parser as it reads; once `stop()` is called (the end, or a file refused early), the rest is read and dropped. */
function feedCsv(parser: ReturnType<typeof parse>, rest: () => AsyncGenerator<string>) {
  let stopped = false;
  const written = () =>
    new Promise<void>((resolve) => {
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
  return {
    feed,
    stop: () => {
      stopped = true;
    },
  };
}

/** Where a CSV read stands: the section's layout, whether it is a "Received" section, rows scanned for a header, repeated local times met. */
interface CsvState {
  layout: CsvLayout | null;
  received: boolean;
  rows: number;
  repeats: Set<string>;
}

/** One CSV row; false when the file is refused early (no header in its first rows). */
async function csvRow(c: IntervalCollector, zone: string, s: CsvState, record: string[], line: number): Promise<boolean> {
  // A header row starts a section (SCE repeats it before its "Received" readings); titles and blank rows are not readings.
  const header = layoutOfHeader(record);
  if (header) {
    s.layout = header;
    s.received = record.some((cell) => /\breceived\b/i.test(cell));
    return true;
  }
  if (!s.layout) return ++s.rows <= HEADER_SCAN_ROWS;
  if (record.slice(1).every((cell) => cell.trim() === '')) return true;
  if (s.received) {
    c.skip('energy received from the customer (a "Received" section)');
    return true;
  }
  const r = s.layout.read(record);
  if (typeof r === 'string') {
    c.reject(line, r);
    return true;
  }
  const start = csvInstant(zone, r, s.repeats);
  if (typeof start === 'string') {
    c.reject(line, start);
    return true;
  }
  await c.add({ start, minutes: r.minutes, wh: Math.round(r.kwh * 1000), line });
  return true;
}

/** Reads a utility CSV; returns its format. */
async function readCsv(
  c: IntervalCollector,
  zone: string,
  rest: () => AsyncGenerator<string>,
  truncated: () => boolean,
): Promise<IntervalFormat> {
  const parser = parse({ relax_column_count: true, relax_quotes: true, skip_empty_lines: true, info: true, bom: true });
  const { feed, stop } = feedCsv(parser, rest);
  const s: CsvState = { layout: null, received: false, rows: 0, repeats: new Set<string>() };
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (!(await csvRow(c, zone, s, record, info.lines))) break;
    }
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith('CSV_')) throw notOne(`invalid CSV: ${(err as Error).message}`);
    throw err;
  } finally {
    stop();
    if (!parser.destroyed) parser.destroy();
    await feed.catch(() => undefined);
  }
  if (truncated()) throw tooLarge();
  if (!s.layout) {
    throw notOne(
      'no header row of a known layout in its first 50 rows (PG&E: DATE, START TIME, END TIME, USAGE; SCE: Energy consumption ' +
        'time period, Usage; SDG&E: Date, Start Time, Duration, Consumption; or start, end, kwh)',
    );
  }
  return `csv_${s.layout.name}`;
}

async function readFile(file: Readable, truncated: () => boolean, zone: string, merge: Merge): Promise<ImportReport> {
  const c = new IntervalCollector(zone, merge);
  const { head, rest } = await openText(file);
  let format: IntervalFormat;
  if (head.trimStart().startsWith('<')) {
    format = 'espi_xml';
    await readEspi(c, rest, truncated);
  } else {
    format = await readCsv(c, zone, rest, truncated);
  }
  await c.flush();
  if (c.readings === 0 && c.rejectedCount === 0) {
    const why = [...c.skipped.keys()].join('; ');
    throw notOne(`no electric interval readings${why ? ` (${why})` : ''}`);
  }
  return c.report(format);
}
