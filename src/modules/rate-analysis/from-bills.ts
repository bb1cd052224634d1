/**
 * Rate analysis from a property's actual bills (issue 45 item 5): each electric meter's bills of the
 * last 12 months, priced per billing period on the current tariff and re-priced on each alternative for
 * the same period, usage and demand. A meter's monthly cost on a tariff is its bills' total on it per
 * day of the periods they cover, times 30.4375 (365.25 / 12) days; the property's is the sum over its
 * meters. Pure: the periods come priced (PricedPeriod), nothing here reads or writes.
 */
import { roundDiv } from '../../platform/money';
import { dayNumber } from '../../platform/dates';
import type { PricedPeriod } from '../pricing';
import type { Tariff } from '../tariffs/tariff.model';
import type { EligibilityVerdict } from '../tariffs/eligibility';
import type { AnalysisBasis } from './rate-analysis.calc';
import type { AnalysedBill } from './repository';
import type { CoveredPeriod } from '../meters/public';

/** A bill priced on the current tariff, with the interval readings it was priced from (null: from its usage and demand). */
export interface PricedBill {
  bill: AnalysedBill;
  period: PricedPeriod;
  intervals: CoveredPeriod | null;
}

/** One meter's bills, priced: its monthly cost on the current tariff and on any other, and its size for eligibility. */
export interface BilledMeter {
  meterId: string;
  name: string;
  bills: number;
  /** Of them, the bills priced from the meter's interval readings (they cover the bill's whole period). */
  billsFromIntervals: number;
  /** Calendar months (YYYY-MM) its bills' periods touch. */
  months: string[];
  /** kWh a month over the bills' days (x 30.4375 / days): the readings' kWh for a bill priced from them. */
  monthlyKwh: number;
  /** The largest demand its bills show (a bill priced from readings: their largest interval's kW); null when none shows one. */
  peakKw: number | null;
  currentMonthlyCents: number;
  /** Null when some bill cannot be priced on the tariff. */
  monthlyCentsOn(t: Tariff): number | null;
}

/** Days in an average month, as a fraction: 30.4375 = 487 / 16. */
const MONTH_NUMERATOR = 487n;
const MONTH_DENOMINATOR = 16n;

/** Cents over `days` days as cents a month (30.4375 days), rounded half away from zero. */
export function perMonthCents(cents: number, days: number): number {
  return roundDiv(BigInt(cents) * MONTH_NUMERATOR, Number(MONTH_DENOMINATOR * BigInt(days)));
}

/** The calendar months (YYYY-MM) a period touches, first day to last. */
export function monthsOfPeriod(start: string, end: string): string[] {
  const out: string[] = [];
  for (let month = start.slice(0, 7); month <= end.slice(0, 7);) {
    out.push(month);
    const [y, m] = month.split('-').map(Number) as [number, number];
    month = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  }
  return out;
}

export function billedMeter(meterId: string, priced: PricedBill[]): BilledMeter {
  const days = priced.reduce((sum, { bill }) => sum + dayNumber(bill.periodEnd) - dayNumber(bill.periodStart) + 1, 0);
  const kwh = priced.reduce((sum, { bill, intervals }) => sum + (intervals ? intervals.kwh : bill.usageKwh), 0);
  const demands = priced
    .map(({ bill, intervals }) => (intervals ? intervals.peakKw : bill.demandKw))
    .filter((d): d is number => d !== null);
  const months = [...new Set(priced.flatMap(({ bill }) => monthsOfPeriod(bill.periodStart, bill.periodEnd)))].sort();
  const currentCents = priced.reduce((sum, { period }) => sum + period.bill.totalCostCents, 0);
  return {
    meterId,
    name: priced[0]!.bill.meterName,
    bills: priced.length,
    billsFromIntervals: priced.filter((p) => p.intervals !== null).length,
    months,
    monthlyKwh: Math.round(((kwh * 487) / (16 * days)) * 1000) / 1000,
    peakKw: demands.length ? Math.max(...demands) : null,
    currentMonthlyCents: perMonthCents(currentCents, days),
    monthlyCentsOn(t) {
      let cents = 0;
      for (const { period } of priced) {
        const on = period.totalCentsOn(t);
        if (on === null) return null;
        cents += on;
      }
      return perMonthCents(cents, days);
    },
  };
}

/** The sum, or null when any part is null. */
export function sumOrNull(parts: Array<number | null>): number | null {
  let sum = 0;
  for (const p of parts) {
    if (p === null) return null;
    sum += p;
  }
  return sum;
}

/**
 * A property with several meters may take a tariff when every meter may: one excluded meter excludes it,
 * one meter to review sends it to review; the reason names the meter when there are several.
 */
export function worstVerdict(verdicts: Array<{ meter: string | null; verdict: EligibilityVerdict }>): EligibilityVerdict {
  const named = (meter: string | null, reason: string) => (meter ? `meter ${meter}: ${reason}` : reason);
  const excluded = verdicts.find((v) => v.verdict.status === 'excluded');
  if (excluded && excluded.verdict.status === 'excluded')
    return { status: 'excluded', reason: named(excluded.meter, excluded.verdict.reason) };
  const review = verdicts.find((v) => v.verdict.status === 'needs_review');
  if (review && review.verdict.status === 'needs_review')
    return { status: 'needs_review', reason: named(review.meter, review.verdict.reason) };
  return { status: 'eligible' };
}

export function basisOf(billed: BilledMeter[]): AnalysisBasis {
  if (billed.length === 0) return { kind: 'typed_usage' };
  return {
    kind: 'bills',
    months: [...new Set(billed.flatMap((m) => m.months))].sort(),
    bills_from_intervals: billed.reduce((n, m) => n + m.billsFromIntervals, 0),
    meters: billed.map((m) => ({ meter_id: m.meterId, bills: m.bills, bills_from_intervals: m.billsFromIntervals, months: m.months })),
  };
}

/** What an analysis from bills rests on, in words. */
export function billNotes(billed: BilledMeter[]): string[] {
  if (billed.length === 0) return [];
  const bills = billed.reduce((n, m) => n + m.bills, 0);
  const months = basisOf(billed);
  const span = months.kind === 'bills' ? `${months.months[0]} to ${months.months.at(-1)}` : '';
  const fromIntervals = billed.reduce((n, m) => n + m.billsFromIntervals, 0);
  return [
    `Priced from ${bills} electric bill${bills === 1 ? '' : 's'} of ${billed.length} meter${billed.length === 1 ? '' : 's'} (${span}), ` +
      "each re-priced for its billing period, usage and demand on every tariff; monthly costs are per 30.4375 days of the bills' periods",
    ...(fromIntervals > 0
      ? [
          `${fromIntervals} of the ${bills} bills ${fromIntervals === 1 ? 'was' : 'were'} priced from the meter's interval readings covering the whole period: ` +
            'each interval in its time-of-use period and the demand measured, on every tariff',
        ]
      : []),
  ];
}
