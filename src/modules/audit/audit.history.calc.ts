/**
 * The rules that read a bill against other bills, no tariff needed (README "Rules"): the meter's
 * previous and next bills (a gap, the period's length, an estimated read), another meter's same bill
 * (a duplicate), and the meter's bill a year earlier (usage and cost per day).
 */
import { dayNumber } from '../../platform/dates';
import { daysOf, RULES } from './audit.thresholds';
import type { AuditBill, Finding, SiblingBill } from './audit.types';

/** Siblings by period and amount, each list in write order: the duplicate rule's look-up (one pass, not one per bill). */
export function indexSiblings(siblings: SiblingBill[]): Map<string, SiblingBill[]> {
  const byKey = new Map<string, SiblingBill[]>();
  for (const s of siblings) {
    const key = `${s.periodStart}|${s.periodEnd}|${s.amountCents}`;
    const list = byKey.get(key);
    if (list) list.push(s);
    else byKey.set(key, [s]);
  }
  return byKey;
}

/** A meter is read monthly when most of its bills last 25 to 35 days (one bill: when it does). */
export function isMonthly(bills: ReadonlyArray<{ periodStart: string; periodEnd: string }>): boolean {
  const monthlyCount = bills.filter((b) => daysOf(b) >= RULES.monthlyMinDays && daysOf(b) <= RULES.monthlyMaxDays).length;
  return monthlyCount * 2 > bills.length;
}

/** A gap before the bill, its length on a monthly meter, an estimated read and its true-up. */
export function sequenceRules(bills: AuditBill[], i: number, monthly: boolean): Finding[] {
  const bill = bills[i]!;
  const prev = i > 0 ? bills[i - 1]! : null;
  const next = i + 1 < bills.length ? bills[i + 1]! : null;
  const out: Finding[] = [];
  if (prev) {
    const gap = dayNumber(bill.periodStart) - dayNumber(prev.periodEnd) - 1;
    if (gap > 0) {
      out.push({
        billId: bill.id,
        reason: 'billing_gap',
        severity: 'medium',
        amountCents: null,
        message: `${gap} day${gap === 1 ? '' : 's'} between the previous bill (ending ${prev.periodEnd}) and this one (starting ${bill.periodStart}) ${gap === 1 ? 'was' : 'were'} not billed`,
        details: { gap_days: gap, previous_bill_id: prev.id },
      });
    }
  }
  const days = daysOf(bill);
  if (monthly && (days < RULES.monthlyMinDays || days > RULES.monthlyMaxDays)) {
    out.push({
      billId: bill.id,
      reason: 'period_length',
      severity: 'medium',
      amountCents: null,
      message: `a ${days}-day period on a meter read monthly (${RULES.monthlyMinDays} to ${RULES.monthlyMaxDays} days)`,
      details: { days },
    });
  }
  if (bill.isEstimated) {
    const trueUp = next && !next.isEstimated ? next : null;
    const run = consecutiveEstimates(bills, i);
    out.push({
      billId: bill.id,
      reason: 'estimated_read',
      severity: run >= 2 ? 'high' : 'low',
      amountCents: null,
      message: trueUp
        ? `an estimated read, trued up by the actual read of the next bill (${trueUp.periodStart} to ${trueUp.periodEnd}): check that bill's usage makes up the difference`
        : `an estimated read${run >= 2 ? `, ${run} in a row` : ''}, not yet trued up by an actual read`,
      details: { trued_up_by: trueUp?.id ?? null, estimates_in_a_row: run },
    });
  }
  return out;
}

/** How many estimated reads end at bill i (itself included). */
function consecutiveEstimates(bills: AuditBill[], i: number): number {
  let n = 0;
  for (let k = i; k >= 0 && bills[k]!.isEstimated; k--) n++;
  return n;
}

/** The same bill sent twice: another meter's bill of the property's same utility type, same period and amount, written earlier. */
export function duplicateRule(bill: AuditBill, twins: ReadonlyMap<string, SiblingBill[]>): Finding[] {
  const twin = (twins.get(`${bill.periodStart}|${bill.periodEnd}|${bill.amountCents}`) ?? []).find(
    (s) => s.createdAt < bill.createdAt || (s.createdAt.getTime() === bill.createdAt.getTime() && s.id < bill.id),
  );
  if (!twin) return [];
  return [
    {
      billId: bill.id,
      reason: 'duplicate_bill',
      severity: 'high',
      amountCents: bill.amountCents,
      message: `the same period and amount as bill ${twin.id} of another meter of this property: charged twice?`,
      details: { duplicate_of: twin.id, meter_id: twin.meterId },
    },
  ];
}

/**
 * Usage and cost per day against the same days a year earlier: of the meter's bills of like length
 * (the shorter at least 80 % of the longer), the one that overlaps the period shifted back 365 days
 * the most. More than 50 % above or below is a finding. `usageInDoubt`:
 * bills whose usage is a likely unit error, compared by cost only.
 */
export function yearOverYear(
  bills: AuditBill[],
  days: ReadonlyArray<{ start: number; end: number }>,
  i: number,
  usageInDoubt: ReadonlyMap<string, unknown> = new Map(),
): Finding[] {
  const bill = bills[i]!;
  const from = days[i]!.start - 365;
  const to = days[i]!.end - 365;
  // A meter's bills do not overlap, so in period order their ends rise too: the first that ends on or
  // after `from` is found by halving, and only the few after it that start by `to` can overlap.
  let lo = 0;
  let hi = i;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (days[mid]!.end < from) lo = mid + 1;
    else hi = mid;
  }
  let best: AuditBill | null = null;
  let bestOverlap = 0;
  const length = days[i]!.end - days[i]!.start + 1;
  for (let k = lo; k < i && days[k]!.start <= to; k++) {
    // Like with like: a partial period (a first bill of 18 days) is no baseline for a full one, nor the other way.
    const other = days[k]!.end - days[k]!.start + 1;
    if (Math.min(length, other) * 100 < RULES.baselineLengthPercent * Math.max(length, other)) continue;
    const overlap = Math.min(to, days[k]!.end) - Math.max(from, days[k]!.start) + 1;
    if (overlap > bestOverlap) {
      best = bills[k]!;
      bestOverlap = overlap;
    }
  }
  // At least half the period must line up, or the comparison is of different seasons.
  if (!best || bestOverlap * 2 < daysOf(bill)) return [];
  const out: Finding[] = [];
  const compare = (reason: 'usage_change' | 'cost_change', now: number, before: number, what: string, unit: string) => {
    if (before <= 0) return;
    // One decimal, half away from zero (as every percent of the audit).
    const tenths = ((now - before) / before) * 1000;
    const change = (Math.sign(tenths) * Math.round(Math.abs(tenths))) / 10;
    if (Math.abs(change) <= RULES.yearOverYearPercent) return;
    out.push({
      billId: bill.id,
      reason,
      severity: 'medium',
      amountCents: null,
      message:
        `${what} per day ${change > 0 ? 'rose' : 'fell'} ${Math.abs(change)} % from the same period a year earlier ` +
        `(${now.toFixed(reason === 'cost_change' ? 2 : 3)} vs ${before.toFixed(reason === 'cost_change' ? 2 : 3)} ${unit} a day)`,
      details: { change_percent: change, year_earlier_bill_id: best!.id },
    });
  };
  // A usage typed in the wrong unit (likely_unit_error) is no usage to compare, on either side.
  if (bill.usage !== null && best.usage !== null && bill.unit === best.unit && !usageInDoubt.has(bill.id) && !usageInDoubt.has(best.id)) {
    compare('usage_change', bill.usage / daysOf(bill), best.usage / daysOf(best), 'usage', bill.unit);
  }
  compare('cost_change', bill.amountCents / 100 / daysOf(bill), best.amountCents / 100 / daysOf(best), 'cost', '$');
  return out;
}
