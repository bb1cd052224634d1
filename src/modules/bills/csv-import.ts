import type { Readable } from 'node:stream';
import { parse, type Info } from 'csv-parse';
import { AppError, unprocessable } from '../../platform/http/errors';
import { requireMultipart, streamMultipartFile, type Upload } from '../../platform/http/multipart-file';
import type { MeterUtilityType } from '../meters/units';
import { billUsage, isBillProblem } from './bill-rules';
import type { BatchOutcome, NewBill } from './repository';
import type { ImportMeters } from './import-meters';
import { parseBillRow, readHeader, type ColumnIndex } from './csv-row';

/** The API's maximum upload size: 50 MB. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/** Rows per insert statement. */
const BATCH_ROWS = 2500;
/** Batches stored concurrently (PostgreSQL uses one pool connection each; PGlite runs them in turn). */
const INSERTS_IN_FLIGHT = 2;
/** Rejections listed in the response; all are counted. */
const MAX_LISTED_REJECTIONS = 10_000;

export interface ImportResult {
  imported: number;
  duplicates: number;
  rejected: Array<{ line: number; detail: string }>;
  rejected_count: number;
}

const tooLarge = () => new AppError(413, `File too large: the limit is ${MAX_UPLOAD_BYTES / (1024 * 1024)} MB`);

/**
 * Streams a CSV of bills from the upload's multipart field `file` through csv-parse:
 * rows are validated one by one and stored in batches as they arrive, so memory holds
 * one batch, never the file. Each batch is one INSERT statement (atomic); a row is
 * either stored whole or reported. Batches stored before an over-limit upload is cut
 * off stay stored (re-importing is idempotent); a declared Content-Length over the
 * limit is refused before anything is read into the database.
 */
/** A multipart upload as it arrives: its headers and its body, not yet read. */
export type { Upload } from '../../platform/http/multipart-file';

/** Where an import stores its rows and finds their meters. */
export interface ImportStore {
  /** Stores a batch in one statement; the outcome of each row, in order. */
  insertBatch(rows: NewBill[]): Promise<BatchOutcome[]>;
  meters: ImportMeters;
}

export interface ImportOptions {
  /** YYYY-MM-DD (UTC): bounds the bills' periods (bill-rules.ts). */
  today: string;
  maxBytes?: number;
}

/** How the 415 names the upload: "with the CSV in field file". */
const UPLOAD_NAME = 'the CSV';

export async function importBillsCsv(upload: Upload, store: ImportStore, options: ImportOptions): Promise<ImportResult> {
  const maxBytes = options.maxBytes ?? MAX_UPLOAD_BYTES;
  const { headers, body } = upload;
  requireMultipart(headers, UPLOAD_NAME);
  // Refused before reading when the body says it is too large (the stream's own limit still applies).
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + 64 * 1024) {
    await drain(body);
    throw tooLarge();
  }

  return streamMultipartFile(upload, { maxBytes, what: UPLOAD_NAME }, (file, truncated) =>
    importStream(file, truncated, store, options.today),
  );
}

/**
 * The delimiter of a CSV from the start of the file: `;` when its first line holds more semicolons
 * than commas outside quotes (spreadsheets in many locales export `;`), else `,`.
 */
export function detectDelimiter(start: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const ch of start) {
    if (ch === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (ch === '\n') break;
    else if (ch === ',') commas++;
    else if (ch === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/** Bytes read to find the first line (the delimiter's): a header longer than this is read as `,`. */
const HEADER_PEEK_BYTES = 64 * 1024;

/**
 * The start of a stream up to its first line break (or HEADER_PEEK_BYTES), and whether that was
 * all of it; otherwise the stream is left paused for a pipe of the rest.
 */
function firstLine(stream: Readable): Promise<{ head: Buffer; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (err?: unknown, ended = false) => {
      stream.off('data', onData).off('end', onEnd).off('error', onError);
      stream.pause();
      if (err) reject(err);
      else resolve({ head: Buffer.concat(chunks), ended });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (chunk.includes(0x0a) || size >= HEADER_PEEK_BYTES) done();
    };
    const onEnd = () => done(undefined, true);
    const onError = (err: unknown) => done(err);
    stream.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

interface BatchRow {
  line: number;
  bill: NewBill;
}

type Reject = (line: number, detail: string) => void;

/**
 * Stores rows in batches of BATCH_ROWS: up to INSERTS_IN_FLIGHT batches are being stored while the
 * parser reads the next one, so parsing and storing overlap (each insert is its own statement, so
 * order does not matter). Nothing more is stored once the upload is `truncated()`.
 */
function batchWriter(store: ImportStore, result: ImportResult, reject: Reject, truncated: () => boolean) {
  let batch: BatchRow[] = [];
  const inFlight: Array<Promise<void>> = [];
  const settle = async (keep: number) => {
    while (inFlight.length > keep) await inFlight.shift();
  };
  const flush = async () => {
    await settle(INSERTS_IN_FLIGHT - 1);
    if (truncated() || batch.length === 0) return;
    // Key order: concurrent batches that share a key (a duplicate row) then lock in the same order, never deadlock.
    const rows = batch.sort(byKey);
    batch = [];
    const insert = store.insertBatch(rows.map((r) => r.bill)).then((outcomes) => {
      outcomes.forEach((outcome, i) => {
        if (outcome === 'stored') result.imported++;
        else if (outcome === 'duplicate') result.duplicates++;
        else {
          const o = outcome.overlaps;
          reject(rows[i]!.line, `period: overlaps bill ${o.id} of this meter (${o.period_start} to ${o.period_end})`);
        }
      });
    });
    insert.catch(() => undefined); // awaited by settle(); never an unhandled rejection meanwhile
    inFlight.push(insert);
  };
  const add = async (row: BatchRow) => {
    batch.push(row);
    if (batch.length >= BATCH_ROWS) await flush();
  };
  return { add, flush, settle };
}

/** The bill of a CSV record, or why it is rejected. */
async function billOfRecord(record: string[], columns: ColumnIndex, store: ImportStore, today: string): Promise<NewBill | string> {
  const draft = parseBillRow(record, columns, today);
  if (typeof draft === 'string') return draft;
  const meter = await store.meters.resolve(draft.meter);
  if (typeof meter === 'string') return meter;
  const type = meter.utilityType as MeterUtilityType;
  const usage = billUsage(type, meter.unit, draft);
  if (isBillProblem(usage)) return `${usage.field}: ${usage.message}`;
  return {
    meter_id: meter.id,
    utility_type: type,
    period_start: draft.period_start,
    period_end: draft.period_end,
    amount: draft.amount,
    ...usage,
    demand_kw: draft.demand_kw,
    is_estimated: draft.is_estimated,
  };
}

/** A csv-parse parser of the file, its delimiter read from the first line; a record it skips is rejected. */
async function csvParserOf(file: Readable, reject: Reject) {
  const { head, ended } = await firstLine(file);
  const delimiter = detectDelimiter(head.toString('utf8'));
  const parser = parse({
    bom: true,
    delimiter,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    info: true,
  });
  parser.on('skip', (err: Error & { lines?: number }) => reject(err.lines ?? 0, `invalid CSV: ${err.message}`));
  if (ended) parser.end(head);
  else {
    parser.write(head);
    file.pipe(parser);
  }
  return parser;
}

async function importStream(file: Readable, truncated: () => boolean, store: ImportStore, today: string): Promise<ImportResult> {
  const result: ImportResult = { imported: 0, duplicates: 0, rejected: [], rejected_count: 0 };
  // Overlaps are known only once a batch is stored, after later lines were read: the list keeps
  // the lowest lines, trimmed now and then and sorted at the end.
  const reject: Reject = (line, detail) => {
    result.rejected_count++;
    result.rejected.push({ line, detail });
    if (result.rejected.length >= 2 * MAX_LISTED_REJECTIONS) keepFirstRejections(result);
  };
  const parser = await csvParserOf(file, reject);
  const batches = batchWriter(store, result, reject, truncated);
  let columns: ColumnIndex | undefined;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: Info }>) {
      if (truncated()) break;
      if (!columns) {
        try {
          columns = readHeader(record);
        } catch (err) {
          throw unprocessable((err as Error).message, 'file');
        }
        continue;
      }
      const bill = await billOfRecord(record, columns, store, today);
      if (typeof bill === 'string') reject(info.lines, bill);
      else await batches.add({ line: info.lines, bill });
    }
  } catch (err) {
    if (err instanceof AppError || !isCsvError(err)) throw err;
    throw unprocessable(`invalid CSV: ${err.message}`, 'file');
  } finally {
    file.unpipe(parser);
    file.resume();
  }
  await batches.settle(0);
  if (truncated()) throw tooLarge();
  if (!columns) throw unprocessable('CSV file is empty: a header row is required', 'file');
  await batches.flush();
  await batches.settle(0);
  keepFirstRejections(result);
  return result;
}

function keepFirstRejections(result: ImportResult): void {
  result.rejected.sort((a, b) => a.line - b.line);
  if (result.rejected.length > MAX_LISTED_REJECTIONS) result.rejected.length = MAX_LISTED_REJECTIONS;
}

function byKey({ bill: a }: BatchRow, { bill: b }: BatchRow): number {
  if (a.meter_id !== b.meter_id) return a.meter_id < b.meter_id ? -1 : 1;
  if (a.period_start !== b.period_start) return a.period_start < b.period_start ? -1 : 1;
  return a.period_end < b.period_end ? -1 : a.period_end > b.period_end ? 1 : 0;
}

function isCsvError(err: unknown): err is Error {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && typeof code === 'string' && code.startsWith('CSV_');
}

function drain(body: Readable): Promise<void> {
  return new Promise((resolve) => {
    body.on('end', resolve);
    body.on('error', () => resolve());
    body.on('close', resolve);
    body.resume();
  });
}
