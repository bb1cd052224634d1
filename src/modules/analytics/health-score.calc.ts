import { fromCents, roundDiv, usd } from '../../platform/money';
import { coveredMonths, MIN_ACTUAL_MONTHS, type MonthTotals } from './annual-cost.calc';
import { daysInMonth, monthKey, type MonthIndex } from './months';
import { monthlyChangePercent, trendDirection, type TrendPoint } from './trend.calc';

/**
 * Property health score: 100 minus the deductions below, never below 0, each
 * deduction named in `issues` (in this order). Pure; README.md has the table and an example.
 */

export const HEALTH_STATUSES = ['green', 'yellow', 'red'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

export const DEDUCTIONS = {
  noTariff: 10,
  expiredTariff: 10,
  noUsage: 10,
  noSqft: 5,
  noBills: 20,
  fewBills: 10,
  anomalyHigh: 30,
  anomalyRaised: 15,
  anomalyLow: 10,
  risingCosts: 15,
  largeSavings: 20,
  savings: 10,
} as const;

/** Months the trend and the bill coverage look at: the 12 ending with the current month. */
export const HEALTH_WINDOW_MONTHS = 12;
/** The anomaly check compares the latest billed month with the 6 calendar months before it... */
export const ANOMALY_TRAILING_MONTHS = 6;
/** ...of which at least 3 must be billed. */
export const ANOMALY_MIN_TRAILING = 3;
/** Savings of at least 1/10 of the estimated annual cost are "large". */
const LARGE_SAVINGS_DIVISOR = 10;

export interface HealthInput {
  asOf: MonthIndex;
  hasTariff: boolean;
  /** The expiration date of the property's tariff when it expired before the as-of month, else null. */
  tariffExpiredOn: string | null;
  hasUsage: boolean;
  hasSqft: boolean;
  /** Calendarised months of the property (at least the 18 ending with asOf when billed). */
  months: MonthTotals[];
  /** Annual savings of the latest rate analysis's recommendation, in cents; null when none. */
  savingsCents: number | null;
  /** annual_energy_cost in cents, null when not estimated. */
  estimateCents: number | null;
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

function completeness(input: HealthInput): Deduction[] {
  const out: Deduction[] = [];
  if (!input.hasTariff) out.push([DEDUCTIONS.noTariff, 'No tariff set']);
  else if (input.tariffExpiredOn !== null) {
    out.push([DEDUCTIONS.expiredTariff, `Tariff expired on ${input.tariffExpiredOn}: its estimate and savings rest on rates the utility no longer bills`]);
  }
  if (!input.hasUsage) out.push([DEDUCTIONS.noUsage, 'No monthly usage set']);
  if (!input.hasSqft) out.push([DEDUCTIONS.noSqft, 'No square footage set']);
  const covered = coveredMonths(input.months, input.asOf, HEALTH_WINDOW_MONTHS);
  if (covered === 0) out.push([DEDUCTIONS.noBills, `No bills in the last ${HEALTH_WINDOW_MONTHS} months`]);
  else if (covered < MIN_ACTUAL_MONTHS) {
    out.push([DEDUCTIONS.fewBills, `Bills cover only ${covered} of the last ${HEALTH_WINDOW_MONTHS} months`]);
  }
  return out;
}

/**
 * The latest billed month of the window against the trailing mean, per billed day (so a month
 * a bill period only partly covers is not an anomaly): ratio = (cost_L / days_L) / (cost_T / days_T).
 */
function anomaly(input: HealthInput): Deduction[] {
  const billed = input.months.filter((m) => m.billedDays > 0 && m.month <= input.asOf);
  const latest = billed.filter((m) => m.month > input.asOf - HEALTH_WINDOW_MONTHS).reduce<MonthTotals | null>(
    (best, m) => (best === null || m.month > best.month ? m : best), null,
  );
  if (!latest) return [];
  const trailing = billed.filter((m) => m.month < latest.month && m.month >= latest.month - ANOMALY_TRAILING_MONTHS);
  if (trailing.length < ANOMALY_MIN_TRAILING) return [];
  const trailingCents = trailing.reduce((s, m) => s + BigInt(m.cents), 0n);
  const trailingDays = trailing.reduce((s, m) => s + BigInt(m.billedDays), 0n);
  if (trailingCents === 0n) return [];
  const a = BigInt(latest.cents) * trailingDays;
  const b = BigInt(latest.billedDays) * trailingCents;
  const percent = Math.abs(roundDiv((a - b) * 100n, b));
  const issue = (points: number, change: 'more' | 'less'): Deduction[] => [[points,
    `Bill anomaly: ${monthKey(latest.month)} cost ${percent}% ${change} per billed day than the ${ANOMALY_TRAILING_MONTHS} months before`]];
  if (2n * a >= 3n * b) return issue(DEDUCTIONS.anomalyHigh, 'more');
  if (4n * a >= 5n * b) return issue(DEDUCTIONS.anomalyRaised, 'more');
  if (2n * a <= b) return issue(DEDUCTIONS.anomalyLow, 'less');
  return [];
}

/** The trend rule of trend.calc.ts over the window's billed months, each scaled to a whole month (cost x days of the month / billed days). */
function trend(input: HealthInput): Deduction[] {
  const points: TrendPoint[] = input.months
    .filter((m) => m.billedDays > 0 && m.month <= input.asOf && m.month > input.asOf - HEALTH_WINDOW_MONTHS)
    .map((m) => ({ x: m.month, y: roundDiv(BigInt(m.cents) * BigInt(daysInMonth(m.month)), m.billedDays) }));
  if (trendDirection(points) !== 'increasing') return [];
  return [[DEDUCTIONS.risingCosts, `Costs rising ${monthlyChangePercent(points)}% a month over the last ${HEALTH_WINDOW_MONTHS} months`]];
}

function savings(input: HealthInput): Deduction[] {
  const s = input.savingsCents;
  if (s === null || s <= 0) return [];
  const large = input.estimateCents === null || input.estimateCents <= 0 || s * LARGE_SAVINGS_DIVISOR >= input.estimateCents;
  return [[large ? DEDUCTIONS.largeSavings : DEDUCTIONS.savings, `Rate savings available: ${formatDollars(s)} a year`]];
}

export function healthScore(input: HealthInput): HealthScore {
  const deductions = [...completeness(input), ...anomaly(input), ...trend(input), ...savings(input)];
  const score = Math.max(0, 100 - deductions.reduce((s, [points]) => s + points, 0));
  return { score, status: statusOf(score), issues: deductions.map(([, issue]) => issue) };
}
