import { dayNumber, isoDateOfDay, yearsBefore } from '../../platform/dates';
import { fromCents, usd } from '../../platform/money';
import { MIN_ACTUAL_MONTHS } from './annual-cost.calc';
import type { MonthTotals } from './calendarise.calc';
import { firstDayOf, monthIndexOfDate, monthStartDate, type MonthIndex } from './months';
import { yearOverYearChange } from './trend.calc';

/**
 * Property health score: 100 minus the deductions below, never below 0, each
 * deduction named in `issues` (in this order). Pure; README.md has the table and examples.
 */

export const HEALTH_STATUSES = ['green', 'yellow', 'red'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

export const DEDUCTIONS = {
  noTariff: 10,
  expiredTariff: 10,
  staleTariff: 5,
  noUsage: 10,
  noSqft: 5,
  noBills: 20,
  fewBills: 10,
  estimatedReads: 5,
  billGaps: 5,
  anomalyHigh: 30,
  anomalyRaised: 15,
  anomalyLow: 10,
  risingCosts: 15,
  largeSavings: 20,
  savings: 10,
  auditFindings: 15,
} as const;

/** Months the bill coverage looks at: the 12 ending with the current month. */
export const HEALTH_WINDOW_MONTHS = 12;
/** Without a year-earlier period, a meter's latest period is compared with its bills of the 6 calendar months before it... */
export const ANOMALY_TRAILING_MONTHS = 6;
/** ...when they cover at least this many days. */
export const ANOMALY_MIN_TRAILING_DAYS = 60;
/** Months of history the score reads: 24 complete months and the current one (the year-over-year rise). */
export const HEALTH_HISTORY_MONTHS = 25;
/** Savings of at least 1/10 of the estimated annual cost are "large". */
const LARGE_SAVINGS_DIVISOR = 10;

/** A bill of a meter, as the score reads it: usage in thousandths of the type's common unit (null when not given). */
export interface MeterBill {
  periodStart: string;
  periodEnd: string;
  cents: number;
  usageMilli: number | null;
  isEstimated: boolean;
}

/** A tariff as the score judges it: expired before today, or stale (rates over 5 years old or undated). */
export interface TariffAge {
  id: string;
  expiredOn: string | null;
  stale: boolean;
}

export interface MeterHistory {
  /** The meter's name, which each of its deductions carries. */
  name: string;
  isActive: boolean;
  /** The meter's own tariff, null when it is priced on the property's. */
  tariff: TariffAge | null;
  /** Its bills, any order (the score sorts them). */
  bills: MeterBill[];
}

export interface HealthInput {
  asOf: MonthIndex;
  /** Today, YYYY-MM-DD (UTC): a period ended before it is complete. */
  today: string;
  /** The property's tariff (null: none set; an active meter's tariff then counts as set). */
  tariff: TariffAge | null;
  hasUsage: boolean;
  hasSqft: boolean;
  /** Calendarised months of the property, every utility type summed (at least the 25 ending with asOf when billed). */
  months: MonthTotals[];
  meters: MeterHistory[];
  /** Annual savings of the latest rate analysis's recommendation, in cents; null when none. */
  savingsCents: number | null;
  /** annual_energy_cost in cents, null when not estimated. */
  estimateCents: number | null;
  /** The property's open high-severity bill-audit findings, and the dollars at issue in them (cents, per bill the largest). */
  auditHigh?: { open: number; amountCents: number };
}

export interface HealthScore {
  score: number;
  status: HealthStatus;
  issues: string[];
}

export function statusOf(score: number): HealthStatus {
  if (score >= 80) return 'green';
  if (score >= 50) return 'yellow';
  return 'red';
}

/** `$1,234.56` from integer cents (>= 0; exact below 2^51, far above numeric(14, 2)'s largest). */
export function formatDollars(cents: number): string {
  return usd(fromCents(cents));
}

type Deduction = [points: number, issue: string];

/** Billed months of the `span` months ending with asOf. */
export function coveredMonths(months: MonthTotals[], asOf: MonthIndex, span: number): number {
  return months.filter((m) => m.month > asOf - span && m.month <= asOf && m.billedDays > 0).length;
}

const days = (b: Pick<MeterBill, 'periodStart' | 'periodEnd'>) => dayNumber(b.periodEnd) - dayNumber(b.periodStart) + 1;

function tariffDeductions(t: TariffAge, whose: string): Deduction[] {
  if (t.expiredOn !== null) {
    return [
      [DEDUCTIONS.expiredTariff, `${whose} expired on ${t.expiredOn}: its estimate and savings rest on rates the utility no longer bills`],
    ];
  }
  if (t.stale) return [[DEDUCTIONS.staleTariff, `${whose} ${t.id} has rates over 5 years old or of unknown date: they may be out of date`]];
  return [];
}

function completeness(input: HealthInput): Deduction[] {
  const out: Deduction[] = [];
  // A meter's own tariff prices its bills (and the estimate): a property priced on its meters has a tariff set.
  const meterPriced = input.meters.some((m) => m.isActive && m.tariff !== null);
  if (input.tariff !== null) out.push(...tariffDeductions(input.tariff, 'Tariff'));
  else if (!meterPriced) out.push([DEDUCTIONS.noTariff, 'No tariff set']);
  for (const meter of input.meters) if (meter.tariff) out.push(...tariffDeductions(meter.tariff, `${meter.name}: tariff`));
  if (!input.hasUsage) out.push([DEDUCTIONS.noUsage, 'No monthly usage set']);
  if (!input.hasSqft) out.push([DEDUCTIONS.noSqft, 'No square footage set']);
  const covered = coveredMonths(input.months, input.asOf, HEALTH_WINDOW_MONTHS);
  if (covered === 0) out.push([DEDUCTIONS.noBills, `No bills in the last ${HEALTH_WINDOW_MONTHS} months`]);
  else if (covered < MIN_ACTUAL_MONTHS) {
    out.push([DEDUCTIONS.fewBills, `Bills cover only ${covered} of the last ${HEALTH_WINDOW_MONTHS} months`]);
  }
  const windowStart = monthStartDate(input.asOf - HEALTH_WINDOW_MONTHS + 1);
  for (const meter of input.meters.filter((m) => m.isActive)) {
    const recent = meter.bills.filter((b) => b.periodEnd >= windowStart).sort((a, b) => (a.periodStart < b.periodStart ? -1 : 1));
    const estimated = recent.filter((b) => b.isEstimated).length;
    if (estimated > 0) {
      out.push([
        DEDUCTIONS.estimatedReads,
        `${meter.name}: ${estimated} estimated read${estimated === 1 ? '' : 's'} in the last ${HEALTH_WINDOW_MONTHS} months`,
      ]);
    }
    let gap = 0;
    for (let i = 1; i < recent.length; i++) {
      const from = Math.max(dayNumber(recent[i - 1]!.periodEnd) + 1, dayNumber(windowStart));
      gap += Math.max(0, dayNumber(recent[i]!.periodStart) - from);
    }
    if (gap > 0) {
      out.push([
        DEDUCTIONS.billGaps,
        `${meter.name}: ${gap} day${gap === 1 ? '' : 's'} between bills not billed in the last ${HEALTH_WINDOW_MONTHS} months`,
      ]);
    }
  }
  return out;
}

/** Cost and usage over some days, the baseline a latest period is compared with. */
interface Baseline {
  cents: number;
  usageMilli: number | null;
  days: number;
  what: string;
}

/** The meter's bills over the days start..end (day numbers), prorated by days: null unless every day is billed. */
function yearEarlier(bills: MeterBill[], latest: MeterBill): Baseline | null {
  const start = dayNumber(yearsBefore(latest.periodStart, 1));
  const end = dayNumber(yearsBefore(latest.periodEnd, 1));
  let cents = 0;
  let usage: number | null = 0;
  let covered = 0;
  for (const b of bills) {
    const overlap = Math.min(end, dayNumber(b.periodEnd)) - Math.max(start, dayNumber(b.periodStart)) + 1;
    if (overlap <= 0) continue;
    covered += overlap;
    cents += (b.cents * overlap) / days(b);
    usage = usage === null || b.usageMilli === null ? null : usage + (b.usageMilli * overlap) / days(b);
  }
  // Bills of one meter never overlap, so the days counted are distinct.
  if (covered < end - start + 1) return null;
  return { cents, usageMilli: usage, days: end - start + 1, what: 'the same period a year earlier' };
}

/** The meter's bills of the ANOMALY_TRAILING_MONTHS calendar months before the latest period's month. */
function trailing(bills: MeterBill[], latest: MeterBill): Baseline | null {
  const from = dayNumber(monthStartDate(monthIndexOfDate(latest.periodStart) - ANOMALY_TRAILING_MONTHS));
  const before = bills.filter((b) => dayNumber(b.periodStart) >= from && b.periodEnd < latest.periodStart);
  const total = before.reduce((s, b) => s + days(b), 0);
  if (total < ANOMALY_MIN_TRAILING_DAYS) return null;
  const usage = before.every((b) => b.usageMilli !== null) ? before.reduce((s, b) => s + b.usageMilli!, 0) : null;
  return {
    cents: before.reduce((s, b) => s + b.cents, 0),
    usageMilli: usage,
    days: total,
    what: `the ${ANOMALY_TRAILING_MONTHS} months before`,
  };
}

/**
 * Per active meter: its latest complete period (ended before today, within the last 12 months),
 * cost and usage per day, against the same period a year earlier when the meter's bills cover it,
 * else against its bills of the 6 months before. The larger deviation (cost or usage) decides.
 */
function anomalies(input: HealthInput): Deduction[] {
  const out: Deduction[] = [];
  const windowStart = monthStartDate(input.asOf - HEALTH_WINDOW_MONTHS + 1);
  for (const meter of input.meters.filter((m) => m.isActive)) {
    const complete = meter.bills.filter((b) => b.periodEnd < input.today && b.periodEnd >= windowStart);
    const latest = complete.reduce<MeterBill | null>((best, b) => (best === null || b.periodEnd > best.periodEnd ? b : best), null);
    if (!latest) continue;
    const base = yearEarlier(meter.bills, latest) ?? trailing(meter.bills, latest);
    if (!base) continue;
    const ratios: Array<[ratio: number, noun: string]> = [];
    if (base.cents > 0 && latest.cents >= 0) ratios.push([latest.cents / days(latest) / (base.cents / base.days), 'cost']);
    if (base.usageMilli !== null && base.usageMilli > 0 && latest.usageMilli !== null) {
      ratios.push([latest.usageMilli / days(latest) / (base.usageMilli / base.days), 'usage']);
    }
    let worst: Deduction | null = null;
    for (const [ratio, noun] of ratios) {
      const percent = Math.round(Math.abs(ratio - 1) * 100);
      const change = ratio >= 1 ? 'more' : 'less';
      const points =
        ratio >= 1.5 ? DEDUCTIONS.anomalyHigh : ratio >= 1.25 ? DEDUCTIONS.anomalyRaised : ratio <= 0.5 ? DEDUCTIONS.anomalyLow : 0;
      if (points > 0 && (worst === null || points > worst[0])) {
        worst = [
          points,
          `Bill anomaly: ${meter.name}, ${latest.periodStart} to ${latest.periodEnd}, ${noun} ${percent}% ${change} per day than ${base.what}`,
        ];
      }
    }
    if (worst) out.push(worst);
  }
  return out;
}

/** The last 12 complete months against the same months a year earlier (each month billed in both), above +5 %. */
function rising(input: HealthInput): Deduction[] {
  const window = Array.from({ length: HEALTH_HISTORY_MONTHS }, (_, i) => input.asOf - HEALTH_HISTORY_MONTHS + 1 + i);
  const costs = input.months.filter((m) => m.billedDays > 0).map((m) => ({ propertyId: '', month: m.month, cents: m.cents }));
  const change = yearOverYearChange(window, costs);
  if (change === null || change.direction !== 'increasing') return [];
  return [[DEDUCTIONS.risingCosts, `Costs up ${change.percent}% on the same months a year earlier`]];
}

function savings(input: HealthInput): Deduction[] {
  const s = input.savingsCents;
  if (s === null || s <= 0) return [];
  const large = input.estimateCents === null || input.estimateCents <= 0 || s * LARGE_SAVINGS_DIVISOR >= input.estimateCents;
  return [[large ? DEDUCTIONS.largeSavings : DEDUCTIONS.savings, `Rate savings available: ${formatDollars(s)} a year`]];
}

/** Open high-severity bill-audit findings: bills the utility may have got wrong, not yet disputed or accepted. */
function auditFindings(input: HealthInput): Deduction[] {
  const a = input.auditHigh;
  if (!a || a.open === 0) return [];
  return [
    [
      DEDUCTIONS.auditFindings,
      `${a.open} open high-severity bill audit finding${a.open === 1 ? '' : 's'}: ${formatDollars(a.amountCents)} at issue`,
    ],
  ];
}

export function healthScore(input: HealthInput): HealthScore {
  const deductions = [...completeness(input), ...anomalies(input), ...rising(input), ...savings(input), ...auditFindings(input)];
  const score = Math.max(0, 100 - deductions.reduce((s, [points]) => s + points, 0));
  return { score, status: statusOf(score), issues: deductions.map(([, issue]) => issue) };
}

/** The first day of the history the score reads (bills ending on or after it), YYYY-MM-DD. */
export function historyStart(asOf: MonthIndex): string {
  return isoDateOfDay(firstDayOf(asOf - HEALTH_HISTORY_MONTHS + 1));
}
