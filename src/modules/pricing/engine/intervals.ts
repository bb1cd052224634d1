/**
 * Interval data (a meter's kWh per 15, 30 or 60 minutes) read at its local clock time, and metered
 * by a tariff's schedules: kWh per energy period and the largest average kW over the demand window
 * per demand period (pricing README "Interval data"). Pure.
 */
import type { Schedule12x24 } from '../../tariffs/tariff.model';
import { MAX_USAGE_KWH } from './limits';
import { toMilli } from './money';
import { atOffset, isFederalHoliday, isTimeZone, parseOffsetDateTime, ZoneClock, type LocalTime } from './local-time';
import { BillingError, type IntervalData } from './types';
import type { TariffPlan } from './plan';

export const INTERVAL_MINUTES: readonly number[] = [15, 30, 60];
/** 93 days of 15-minute intervals: a billing period of at most 92 days, and a day to spare. */
export const MAX_INTERVALS = 93 * 96;

const MINUTE_MS = 60_000;

/** The intervals at their local clock time, tariff-independent (read once per request). */
export interface LocalIntervals {
  intervalMinutes: number;
  /** kWh of each interval, in Wh. */
  wh: number[];
  totalMilli: number;
  /** Per interval: month 0-11, clock hour of its start, weekend (Saturday, Sunday or a federal holiday). */
  month0: Uint8Array;
  hour: Uint8Array;
  weekend: Uint8Array;
  /** Distinct local months (year * 12 + month0), in order. */
  months: number[];
  /** Local date (YYYY-MM-DD) of the first interval's start and of the last interval's last minute. */
  firstDate: string;
  lastDate: string;
  /** "America/Denver", "UTC-07:00". */
  zone: string;
  /** "2018-07-16 15:00": the local start of interval i. */
  label(i: number): string;
}

const pad = (n: number) => String(n).padStart(2, '0');
const dateText = (t: LocalTime) => `${t.year}-${pad(t.month)}-${pad(t.day)}`;
const offsetText = (minutes: number) =>
  `UTC${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;

function invalid(field: string, message: string): never {
  throw new BillingError('invalid_request', message, `intervals.${field}`);
}

function checkShape(data: IntervalData): void {
  if (!INTERVAL_MINUTES.includes(data.intervalMinutes)) invalid('interval_minutes', 'interval_minutes must be 15, 30 or 60');
  if (!Array.isArray(data.kwh) || data.kwh.length < 1 || data.kwh.length > MAX_INTERVALS) {
    invalid('kwh', `kwh must hold 1 to ${MAX_INTERVALS} intervals (93 days of 15-minute data)`);
  }
  data.kwh.forEach((v, i) => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > MAX_USAGE_KWH)
      invalid(`kwh.${i}`, `kwh[${i}] must be a number between 0 and ${MAX_USAGE_KWH}`);
  });
  if (data.timezone !== undefined && data.timezone !== null && !isTimeZone(data.timezone)) {
    invalid('timezone', `timezone must be an IANA time zone such as America/Denver: ${data.timezone} is not one`);
  }
}

function readLocal(data: IntervalData): LocalIntervals {
  checkShape(data);
  const start = parseOffsetDateTime(data.start);
  if (!start) invalid('start', 'start must be an ISO 8601 date and time with its UTC offset, such as 2018-07-01T00:00:00-07:00');
  const n = data.kwh.length;
  const stepMs = data.intervalMinutes * MINUTE_MS;
  const zone = data.timezone ? new ZoneClock(data.timezone) : null;
  const offsets = new Int16Array(n);
  const out = { month0: new Uint8Array(n), hour: new Uint8Array(n), weekend: new Uint8Array(n) };
  const wh = new Array<number>(n);
  const months: number[] = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    const ms = start.ms + i * stepMs;
    offsets[i] = zone ? zone.offsetAt(ms) : start.offsetMinutes;
    const t = atOffset(ms, offsets[i]);
    out.month0[i] = t.month - 1;
    out.hour[i] = t.hour;
    out.weekend[i] = t.weekday === 0 || t.weekday === 6 || isFederalHoliday(t) ? 1 : 0;
    const key = t.year * 12 + t.month - 1;
    if (months.at(-1) !== key) months.push(key);
    wh[i] = toMilli(data.kwh[i]);
    total += wh[i];
  }
  if (total > toMilli(MAX_USAGE_KWH)) invalid('kwh', `the intervals add up to more than ${MAX_USAGE_KWH} kWh`);
  const localAt = (i: number) => atOffset(start.ms + i * stepMs, offsets[i]);
  const lastEnd = start.ms + n * stepMs - MINUTE_MS;
  return {
    intervalMinutes: data.intervalMinutes,
    wh,
    totalMilli: total,
    ...out,
    months,
    firstDate: dateText(localAt(0)),
    lastDate: dateText(atOffset(lastEnd, zone ? zone.offsetAt(lastEnd) : start.offsetMinutes)),
    zone: data.timezone ?? offsetText(start.offsetMinutes),
    label: (i) => {
      const t = localAt(i);
      return `${dateText(t)} ${pad(t.hour)}:${pad(t.minute)}`;
    },
  };
}

const locals = new WeakMap<IntervalData, LocalIntervals>();

/** The request's intervals at their local clock time (read once per intervals object), or a BillingError naming the field. */
export function localIntervals(data: IntervalData): LocalIntervals {
  let local = locals.get(data);
  if (!local) {
    local = readLocal(data);
    locals.set(data, local);
  }
  return local;
}

/** The largest average demand over a window: W (kW to 0.001), and the window's first interval. */
export interface Peak {
  milli: number;
  at: number;
}

/** What the intervals measure on one tariff. */
export interface IntervalMeter {
  /** Wh per energy period. */
  energy: Map<number, number>;
  /** Largest window average per TOU demand period, per coincident-peak period, and over every interval. */
  touPeaks: Map<number, Peak>;
  coincidentPeaks: Map<number, Peak>;
  flatPeak: Peak;
  /** The demand window the peaks average over, minutes: the tariff's, or the interval length when that is longer. */
  windowMinutes: number;
}

/** Period of each interval under a weekday / weekend schedule pair (or one schedule for every day). */
function periodsOf(local: LocalIntervals, weekday: Schedule12x24, weekend: Schedule12x24): Int32Array {
  const out = new Int32Array(local.wh.length);
  for (let i = 0; i < out.length; i++) out[i] = (local.weekend[i] ? weekend : weekday)[local.month0[i]][local.hour[i]];
  return out;
}

/**
 * Peaks per period: the largest average kW over `w` consecutive intervals lying wholly in the
 * period (a meter's demand interval ends at a period's boundary); a period whose stretches are all
 * shorter than the window takes its largest single interval. Ties keep the earliest.
 */
function peaksByPeriod(local: LocalIntervals, periods: Int32Array | null, w: number, windowMinutes: number): Map<number, Peak> {
  const { wh, intervalMinutes } = local;
  const peaks = new Map<number, Peak>();
  const fallback = new Map<number, Peak>();
  const keep = (map: Map<number, Peak>, p: number, milli: number, at: number) => {
    const best = map.get(p);
    if (!best || milli > best.milli) map.set(p, { milli, at });
  };
  let sum = 0;
  let runStart = 0;
  for (let i = 0; i < wh.length; i++) {
    const p = periods ? periods[i] : 0;
    if (i > 0 && periods && periods[i - 1] !== p) runStart = i;
    sum += wh[i];
    if (i >= w) sum -= wh[i - w];
    keep(fallback, p, (wh[i] * 60) / intervalMinutes, i);
    if (i - w + 1 >= runStart) keep(peaks, p, (sum * 60) / windowMinutes, i - w + 1);
  }
  for (const [p, peak] of fallback) if (!peaks.has(p)) peaks.set(p, peak);
  return peaks;
}

function meter(plan: TariffPlan, local: LocalIntervals): IntervalMeter {
  const windowMinutes = Math.max(plan.demandWindowMinutes, local.intervalMinutes);
  const w = windowMinutes / local.intervalMinutes;
  const energy = new Map<number, number>();
  if (plan.energyWeekday && plan.energyWeekend) {
    const periods = periodsOf(local, plan.energyWeekday, plan.energyWeekend);
    periods.forEach((p, i) => energy.set(p, (energy.get(p) ?? 0) + local.wh[i]));
  }
  const tou = plan.touDemandSchedules;
  const coincident = plan.coincidentSchedule;
  return {
    energy,
    touPeaks: tou ? peaksByPeriod(local, periodsOf(local, tou.weekday, tou.weekend), w, windowMinutes) : new Map(),
    coincidentPeaks: coincident ? peaksByPeriod(local, periodsOf(local, coincident, coincident), w, windowMinutes) : new Map(),
    flatPeak: peaksByPeriod(local, null, w, windowMinutes).get(0) as Peak,
    windowMinutes,
  };
}

const meters = new WeakMap<LocalIntervals, WeakMap<TariffPlan, IntervalMeter>>();

/** The intervals metered on a tariff's plan, once per (intervals, plan). */
export function meterIntervals(plan: TariffPlan, local: LocalIntervals): IntervalMeter {
  let byPlan = meters.get(local);
  if (!byPlan) {
    byPlan = new WeakMap();
    meters.set(local, byPlan);
  }
  let m = byPlan.get(plan);
  if (!m) {
    m = meter(plan, local);
    byPlan.set(plan, m);
  }
  return m;
}
