/**
 * Local clock time of an instant, for interval data (pricing README "Interval data"). Pure: an IANA
 * zone is read through Intl (platform/time-zones.ts), a fixed offset by arithmetic.
 */
import { clockFieldsAt, offsetAt, type ClockFields } from '../../../platform/time-zones';

export { isTimeZone } from '../../../platform/time-zones';

/** A local date (month 1-12) and clock time (`weekday` 0 = Sunday). */
export type LocalTime = ClockFields;

const MINUTE_MS = 60_000;

/** "2018-07-01T00:00:00-07:00", "2018-07-01T07:00Z": a date and time with its UTC offset (seconds optional, no fraction beyond ms). */
const WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})$/;

/** The instant (ms since the epoch) and offset (minutes east of UTC) of an ISO 8601 date-time with an offset; null when it is not one. */
export function parseOffsetDateTime(text: string): { ms: number; offsetMinutes: number } | null {
  const m = WITH_OFFSET.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0));
  const millis = Number((m[7] ?? '0').padEnd(3, '0'));
  const wall = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const check = new Date(wall);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59 || check.getUTCDate() !== day || check.getUTCMonth() !== month - 1)
    return null;
  let offsetMinutes = 0;
  if (m[8] !== 'Z') {
    const sign = m[8][0] === '-' ? -1 : 1;
    const [oh, om] = m[8].slice(1).split(':').map(Number);
    if (oh > 23 || om > 59) return null;
    offsetMinutes = sign * (oh * 60 + om);
  }
  return { ms: wall - offsetMinutes * MINUTE_MS, offsetMinutes };
}

/** The local time `offsetMinutes` east of UTC at instant `ms`. */
export function atOffset(ms: number, offsetMinutes: number): LocalTime {
  return clockFieldsAt(ms + offsetMinutes * MINUTE_MS);
}

/**
 * Local times in an IANA zone: the zone's offset at each instant (platform/time-zones.ts, from
 * Intl, transitions included), in minutes.
 */
export class ZoneClock {
  constructor(private readonly zone: string) {}

  /** Minutes east of UTC the zone keeps at instant `ms`. */
  offsetAt(ms: number): number {
    return Math.round(offsetAt(this.zone, Math.floor(ms / 1000)) / 60);
  }

  at(ms: number): LocalTime {
    return atOffset(ms, this.offsetAt(ms));
  }
}

/**
 * US federal holidays on their dates (5 U.S.C. 6103): New Year's Day, Martin Luther King Jr. Day,
 * Washington's Birthday, Memorial Day, Independence Day, Labor Day, Columbus Day, Veterans Day,
 * Thanksgiving and Christmas; in 2017 the 8 that fell on weekdays are the reference calendar's
 * holidays (calendar.ts). Juneteenth (from 2021) is not among the reference schedules' holidays.
 */
export function isFederalHoliday(t: Pick<LocalTime, 'month' | 'day' | 'weekday'>): boolean {
  const { month, day, weekday } = t;
  const nth = Math.ceil(day / 7);
  if ((month === 1 && day === 1) || (month === 7 && day === 4) || (month === 11 && day === 11) || (month === 12 && day === 25)) return true;
  if (
    weekday === 1 &&
    ((month === 1 && nth === 3) || (month === 2 && nth === 3) || (month === 9 && nth === 1) || (month === 10 && nth === 2))
  )
    return true;
  if (weekday === 1 && month === 5 && day > 24) return true;
  return weekday === 4 && month === 11 && nth === 4;
}
