/**
 * The "Download My Data" CSV layouts of US utilities (README "Interval data"): the header row is
 * found by its column names (utilities put the account and address in lines above it), and each
 * row gives a local date and start time, the interval's length and its kWh.
 *
 * - pge: `TYPE,DATE,START TIME,END TIME,USAGE,UNITS,COST,NOTES` (PG&E; END TIME is the last minute
 *   of the interval, 00:14 for 00:00 to 00:15; UNITS must be kWh);
 * - sce: `Energy consumption time period,Usage(Real energy in kilowatt-hours),...` with periods
 *   `2019-01-01 00:00:00 to 2019-01-01 00:15:00` (SCE);
 * - sdge: `Meter Number,Date,Start Time,Duration,Consumption,Generation,Net` (SDG&E; Duration in
 *   minutes, Consumption the kWh delivered);
 * - generic: `start,end,kwh` (ISO 8601; with an offset the instant is exact, without it the time
 *   is the property's local time).
 */

export type CsvLayoutName = 'pge' | 'sce' | 'sdge' | 'generic';

/** A row's reading in local time (or at an exact instant when `instant` is set). */
export interface CsvReading {
  local?: { y: number; mo: number; d: number; h: number; mi: number };
  /** Epoch seconds, when the row gave an offset. */
  instant?: number;
  minutes: number;
  kwh: number;
}

export interface CsvLayout {
  name: CsvLayoutName;
  /** The row's reading, or why it is not one. */
  read(row: string[]): CsvReading | string;
}

const norm = (s: string) =>
  s
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ');

/** The layout whose columns this row names, or null. */
export function layoutOfHeader(row: string[]): CsvLayout | null {
  const cells = row.map(norm);
  const at = (pred: (c: string) => boolean) => cells.findIndex(pred);
  const exact = (name: string) => at((c) => c === name);

  const sce = at((c) => c.includes('time period'));
  const sceValue = at((c) => c.includes('kilowatt-hours') || c === 'usage' || c.startsWith('usage('));
  if (sce >= 0 && sceValue >= 0) {
    return { name: 'sce', read: (r) => readSce(r[sce], r[sceValue]) };
  }
  const date = exact('date');
  const start = exact('start time');
  if (date >= 0 && start >= 0) {
    const duration = exact('duration');
    const consumption = exact('consumption') >= 0 ? exact('consumption') : exact('net');
    if (duration >= 0 && consumption >= 0) {
      return { name: 'sdge', read: (r) => readLocalRow(r[date], r[start], durationMinutes(r[duration]), r[consumption], undefined) };
    }
    const end = exact('end time');
    const usage = exact('usage');
    const units = exact('units');
    if (end >= 0 && usage >= 0) {
      return {
        name: 'pge',
        read: (r) => {
          if (units >= 0 && r[units] !== undefined && r[units].trim() !== '' && norm(r[units]) !== 'kwh')
            return `UNITS '${r[units].trim()}' is not kWh`;
          return readLocalRow(r[date], r[start], pgeMinutes(r[start], r[end]), r[usage], units >= 0 ? r[units] : undefined);
        },
      };
    }
  }
  const gStart = exact('start');
  const gEnd = exact('end');
  const gKwh = exact('kwh');
  if (gStart >= 0 && gEnd >= 0 && gKwh >= 0) return { name: 'generic', read: (r) => readGeneric(r[gStart], r[gEnd], r[gKwh]) };
  return null;
}

/** A date: YYYY-MM-DD or M/D/YYYY. */
export function parseDate(s: string | undefined): { y: number; mo: number; d: number } | null {
  const v = (s ?? '').trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(v);
  if (m) return valid(+m[1]!, +m[2]!, +m[3]!);
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v);
  if (m) return valid(+m[3]!, +m[1]!, +m[2]!);
  return null;
}

function valid(y: number, mo: number, d: number) {
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d ? { y, mo, d } : null;
}

/** A clock time: HH:MM, HH:MM:SS, or h:MM AM/PM; minutes after midnight. */
export function parseClock(s: string | undefined): number | null {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?$/.exec((s ?? '').trim());
  if (!m) return null;
  let h = +m[1]!;
  const mi = +m[2]!;
  if (m[4]) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (m[4].toLowerCase() === 'pm' ? 12 : 0);
  }
  if (h > 23 || mi > 59 || (m[3] !== undefined && +m[3] > 59)) return null;
  return h * 60 + mi;
}

/** kWh: a number, thousands separators allowed. */
function parseKwh(s: string | undefined): number | null {
  const v = (s ?? '').trim().replace(/,/g, '');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(v)) return null;
  return Number(v);
}

/** PG&E's END TIME is the interval's last minute (00:14): the length is end - start + 1 minute; 00:15 style ends are taken as they are. */
export function pgeMinutes(start: string | undefined, end: string | undefined): number | null {
  const s = parseClock(start);
  const e = parseClock(end);
  if (s === null || e === null) return null;
  let diff = (e - s + 1440) % 1440;
  if (diff % 5 === 4) diff += 1;
  return diff === 0 ? 1440 : diff;
}

function durationMinutes(s: string | undefined): number | null {
  const v = (s ?? '').trim();
  return /^\d+$/.test(v) ? Number(v) : null;
}

function readLocalRow(
  dateText: string | undefined,
  startText: string | undefined,
  minutes: number | null,
  kwhText: string | undefined,
  _units: string | undefined,
): CsvReading | string {
  const date = parseDate(dateText);
  if (!date) return `date '${(dateText ?? '').trim()}' is not YYYY-MM-DD or M/D/YYYY`;
  const clock = parseClock(startText);
  if (clock === null) return `start time '${(startText ?? '').trim()}' is not a clock time`;
  if (minutes === null) return 'the interval length cannot be read';
  const kwh = parseKwh(kwhText);
  if (kwh === null) return `usage '${(kwhText ?? '').trim()}' is not a number`;
  return { local: { ...date, h: Math.floor(clock / 60), mi: clock % 60 }, minutes, kwh };
}

const SCE_PERIOD = /^(\S+)\s+(\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp][Mm])?)\s+to\s+(\S+)\s+(\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp][Mm])?)$/;

function readSce(period: string | undefined, value: string | undefined): CsvReading | string {
  const m = SCE_PERIOD.exec((period ?? '').replace(/\u00a0/g, ' ').trim());
  if (!m) return `time period '${(period ?? '').trim().slice(0, 60)}' is not 'YYYY-MM-DD HH:MM:SS to YYYY-MM-DD HH:MM:SS'`;
  const d1 = parseDate(m[1]);
  const d2 = parseDate(m[3]);
  const c1 = parseClock(m[2]);
  const c2 = parseClock(m[4]);
  if (!d1 || !d2 || c1 === null || c2 === null) return `time period '${(period ?? '').trim().slice(0, 60)}' has no valid date and time`;
  const minutes = (Date.UTC(d2.y, d2.mo - 1, d2.d) - Date.UTC(d1.y, d1.mo - 1, d1.d)) / 60_000 + c2 - c1;
  const kwh = parseKwh(value);
  if (kwh === null) return `usage '${(value ?? '').trim()}' is not a number`;
  return { local: { ...d1, h: Math.floor(c1 / 60), mi: c1 % 60 }, minutes, kwh };
}

const ISO = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::\d{2})?(Z|[+-]\d{2}:?\d{2})?$/;

function readGeneric(startText: string | undefined, endText: string | undefined, kwhText: string | undefined): CsvReading | string {
  const s = ISO.exec((startText ?? '').trim());
  const e = ISO.exec((endText ?? '').trim());
  if (!s || !e) return 'start and end must be ISO 8601 date-times (2019-07-01T00:00:00-07:00)';
  const kwh = parseKwh(kwhText);
  if (kwh === null) return `kwh '${(kwhText ?? '').trim()}' is not a number`;
  const date = parseDate(s[1]);
  const clock = parseClock(s[2]);
  if (!date || clock === null) return `start '${startText}' is not a valid date-time`;
  const startMs = Date.parse(`${s[1]}T${s[2]}:00${s[3] ? normOffset(s[3]) : 'Z'}`);
  const endMs = Date.parse(`${e[1]}T${e[2]}:00${e[3] ? normOffset(e[3]) : s[3] ? normOffset(s[3]) : 'Z'}`);
  const minutes = (endMs - startMs) / 60_000;
  if (s[3]) return { instant: startMs / 1000, minutes, kwh };
  return { local: { ...date, h: Math.floor(clock / 60), mi: clock % 60 }, minutes, kwh };
}

const normOffset = (o: string) => (o === 'Z' ? 'Z' : o.includes(':') ? o : `${o.slice(0, 3)}:${o.slice(3)}`);
