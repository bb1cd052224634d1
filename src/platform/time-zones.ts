/**
 * Local clock time in an IANA zone through Intl (no time zone library): whether a name is a zone,
 * the zone's UTC offset at an instant, an instant's local fields, and the instants of a local time
 * (none in a spring-forward gap, two in a fall-back repeat). Properties, interval data and the bill
 * engine's interval pricing all read local time here.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** A date (month 1-12) and clock time. */
export interface ClockFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 0 = Sunday ... 6 = Saturday. */
  weekday: number;
}

export interface LocalFields extends ClockFields {
  /** Seconds to add to UTC for the local clock. */
  offset: number;
}

/** The date and clock time a UTC clock reads at `ms` (an instant already moved by its local offset reads its local time). */
export function clockFieldsAt(ms: number): ClockFields {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    weekday: d.getUTCDay(),
  };
}

/** The zone's offset by Intl (one formatToParts: slow, about 10 µs). */
function offsetByIntl(zone: string, epochSeconds: number): number {
  const parts = formatter(zone).formatToParts(new Date(epochSeconds * 1000));
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) / 1000 - epochSeconds;
}

/**
 * Offsets by zone and UTC day: a day whose first and last quarter hour have the same offset has it
 * throughout (a zone changes its clock at most once a day); a day with a change is looked up by
 * quarter hour, and every change of the tz database since 1970 falls on a quarter hour of UTC.
 * A pure memo of the runtime's tz data, dropped past 100,000 days of a zone.
 */
const offsets = new Map<string, Map<number, number | Map<number, number>>>();
const DAY = 86_400;
const QUARTER = 900;

/** The zone's offset from UTC at an instant, in seconds (-21600 for America/Denver in summer). */
export function offsetAt(zone: string, epochSeconds: number): number {
  let memo = offsets.get(zone);
  if (!memo || memo.size > 100_000) offsets.set(zone, (memo = new Map()));
  const day = Math.floor(epochSeconds / DAY);
  let entry = memo.get(day);
  if (entry === undefined) {
    const first = offsetByIntl(zone, day * DAY);
    entry = first === offsetByIntl(zone, (day + 1) * DAY - QUARTER) ? first : new Map<number, number>();
    memo.set(day, entry);
  }
  if (typeof entry === 'number') return entry;
  const key = Math.floor(epochSeconds / QUARTER);
  let off = entry.get(key);
  if (off === undefined) entry.set(key, (off = offsetByIntl(zone, key * QUARTER)));
  return off;
}

/** The local fields of an instant (epoch seconds) in a zone. */
export function localFields(zone: string, epochSeconds: number): LocalFields {
  const offset = offsetAt(zone, epochSeconds);
  return { ...clockFieldsAt((epochSeconds + offset) * 1000), offset };
}

/**
 * The instants (epoch seconds, ascending) at which the zone's clock reads this local time: one;
 * none in a spring-forward gap (02:30 on a US spring-forward day); two in a fall-back repeat (01:30).
 */
export function instantsOf(zone: string, y: number, mo: number, d: number, h: number, mi: number): number[] {
  const wall = Date.UTC(y, mo - 1, d, h, mi) / 1000;
  const out = new Set<number>();
  for (const probe of [wall - 86_400, wall + 86_400]) {
    const t = wall - offsetAt(zone, probe);
    if (t + offsetAt(zone, t) === wall) out.add(t);
  }
  return [...out].sort((a, b) => a - b);
}

/** Whether the local clock time at this instant occurs twice (a fall-back hour). */
export function isRepeatedLocalTime(zone: string, epochSeconds: number): boolean {
  const wall = epochSeconds + offsetAt(zone, epochSeconds);
  return [epochSeconds - 3600, epochSeconds + 3600].some((t) => t + offsetAt(zone, t) === wall);
}

/** An instant as ISO 8601 with the zone's offset: 2019-07-01T00:00:00-07:00. */
export function isoLocal(zone: string, epochSeconds: number): string {
  const f = localFields(zone, epochSeconds);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const sign = f.offset < 0 ? '-' : '+';
  const abs = Math.abs(f.offset);
  return `${p(f.year, 4)}-${p(f.month)}-${p(f.day)}T${p(f.hour)}:${p(f.minute)}:00${sign}${p(Math.floor(abs / 3600))}:${p(Math.floor((abs % 3600) / 60))}`;
}

let knownZones: Set<string> | undefined;

/** Whether a name is an IANA time zone this runtime knows (canonical names and their aliases, e.g. US/Eastern). */
export function isTimeZone(name: string): boolean {
  knownZones ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (knownZones.has(name)) return true;
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name) || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
