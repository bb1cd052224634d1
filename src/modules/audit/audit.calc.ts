/**
 * The bill audit of one meter's bills (README "Rules"): each bill's expected amount against what
 * was billed, and the rule audits. Pure: the caller prices the bills (the bill engine on the
 * tariff version(s) in force over each period) and hands the results in; nothing here reads a
 * database or a clock.
 */
import { dayNumber } from '../../platform/dates';
import { roundDiv } from '../../platform/money';

export type Severity = 'low' | 'medium' | 'high';

export type ReasonCode =
  | 'price_variance' | 'duplicate_bill' | 'billing_gap' | 'period_length' | 'estimated_read' | 'usage_change'
  | 'cost_change' | 'demand_above_applicability' | 'expired_tariff' | 'unit_price_out_of_range';

export const REASON_CODES: readonly ReasonCode[] = [
  'price_variance', 'duplicate_bill', 'billing_gap', 'period_length', 'estimated_read', 'usage_change', 'cost_change',
  'demand_above_applicability', 'expired_tariff', 'unit_price_out_of_range',
];

/** A line item as the utility printed it on the bill. */
export interface PrintedLine {
  category: string;
  description: string;
  amount: number;
}

export interface AuditBill {
  id: string;
  meterId: string;
  periodStart: string;
  periodEnd: string;
  amountCents: number;
  /** In the bill's unit; null when the bill gave none. */
  usage: number | null;
  unit: string;
  demandKw: number | null;
  isEstimated: boolean;
  lineItems: PrintedLine[] | null;
  /** Write order: of two duplicates, the later one is flagged. */
  createdAt: Date;
}

/** A bill of the same property and utility type on another meter (the duplicate rule's candidates). */
export interface SiblingBill {
  id: string;
  meterId: string;
  periodStart: string;
  periodEnd: string;
  amountCents: number;
  createdAt: Date;
}

/** What the engine said about a bill. */
export type BillPricing =
  | {
    kind: 'priced';
    tariffId: string;
    tariffName: string;
    expectedCents: number;
    expectedLines: Array<{ category: string; name: string; amount: number }>;
    /** The tariff's demand limit (kW), null when it publishes none. */
    demandKwMax: number | null;
    /** The day the tariff (version) pricing the period's end expired, when that is before the period's end. */
    expiredOn: string | null;
    /** The least and most the tariff bills for this usage over the months of a year, cents (the unit-price rule). */
    yearRangeCents: { min: number; max: number } | null;
    /** What the variance would mean without line items ("matches at 18 % more usage"), worked out by the caller. */
    explanation: string | null;
  }
  | { kind: 'unpriceable'; reason: string };

export interface Finding {
  billId: string;
  reason: ReasonCode;
  severity: Severity;
  /** Dollars at issue, in cents (positive: billed more than it should be); null where a rule has no amount. */
  amountCents: number | null;
  message: string;
  details: Record<string, unknown>;
}

export interface BillAudit {
  billId: string;
  status: 'ok' | 'variance' | 'unpriceable';
  reason: string | null;
  expectedCents: number | null;
  varianceCents: number | null;
  /** (billed - expected) / expected x 100, one decimal; null when nothing was expected or priced. */
  variancePercent: number | null;
  tariffId: string | null;
  expectedLines: Array<{ category: string; name: string; amount: number }> | null;
  findings: Finding[];
}

export interface AuditSettings {
  /** A variance within this percent of the expected amount is ok (default 3). */
  tolerancePercent: number;
}

/** Thresholds of the rule audits (README "Rules"). */
export const RULES = {
  /** A price variance this far off (percent) or this many dollars is high severity. */
  highVariancePercent: 10,
  highVarianceCents: 50_000,
  /** A monthly meter's bills last 25 to 35 days. */
  monthlyMinDays: 25,
  monthlyMaxDays: 35,
  /** Usage or cost per day this far above or below the same days a year earlier. */
  yearOverYearPercent: 50,
  /** The unit-price rule allows this much beyond the tariff's range for the usage (rounding, riders it does not publish). */
  unitPriceSlackPercent: 5,
} as const;

const usd = (cents: number) => `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2)}`;
const signedUsd = (cents: number) => `${cents >= 0 ? '+' : '-'}$${(Math.abs(cents) / 100).toFixed(2)}`;
const daysOf = (b: { periodStart: string; periodEnd: string }) => dayNumber(b.periodEnd) - dayNumber(b.periodStart) + 1;
const percentOf = (part: number, whole: number) => roundDiv(part * 1000, whole) / 10;

/** Expected and billed by category, where the bill carries its printed lines: the lines that differ and by how much. */
export function compareLines(expected: Array<{ category: string; amount: number }>, printed: PrintedLine[]): Array<{ category: string; expected: number; billed: number; difference: number }> {
  const sums = new Map<string, { expected: number; billed: number }>();
  const add = (category: string, key: 'expected' | 'billed', amount: number) => {
    const entry = sums.get(category) ?? { expected: 0, billed: 0 };
    entry[key] += Math.round(amount * 100);
    sums.set(category, entry);
  };
  for (const l of expected) add(l.category, 'expected', l.amount);
  for (const l of printed) add(l.category, 'billed', l.amount);
  return [...sums].map(([category, s]) => ({ category, expected: s.expected / 100, billed: s.billed / 100, difference: (s.billed - s.expected) / 100 }))
    .filter((d) => d.difference !== 0);
}

/** Whether a billed amount is a price variance against the expected one: off by more than the tolerance (any amount when nothing was expected). */
export function isPriceVariance(billedCents: number, expectedCents: number, tolerancePercent: number): boolean {
  const variance = billedCents - expectedCents;
  if (variance === 0) return false;
  return expectedCents <= 0 || Math.abs(percentOf(variance, expectedCents)) > tolerancePercent;
}

function priceFinding(bill: AuditBill, pricing: Extract<BillPricing, { kind: 'priced' }>, settings: AuditSettings): Finding | null {
  if (!isPriceVariance(bill.amountCents, pricing.expectedCents, settings.tolerancePercent)) return null;
  const variance = bill.amountCents - pricing.expectedCents;
  const percent = pricing.expectedCents > 0 ? percentOf(variance, pricing.expectedCents) : null;
  const high = percent === null || Math.abs(percent) >= RULES.highVariancePercent || Math.abs(variance) >= RULES.highVarianceCents;
  const lines = bill.lineItems ? compareLines(pricing.expectedLines, bill.lineItems) : null;
  const why = lines && lines.length > 0
    ? `lines that differ: ${lines.map((l) => `${l.category} billed ${usd(Math.round(l.billed * 100))}, expected ${usd(Math.round(l.expected * 100))} (${signedUsd(Math.round(l.difference * 100))})`).join('; ')}`
    : pricing.explanation;
  return {
    billId: bill.id,
    reason: 'price_variance',
    severity: high ? 'high' : 'medium',
    amountCents: variance,
    message: `billed ${usd(bill.amountCents)}, expected ${usd(pricing.expectedCents)} on ${pricing.tariffName}: ${signedUsd(variance)}`
      + `${percent === null ? '' : ` (${percent > 0 ? '+' : ''}${percent} %)`}${why ? `; ${why}` : ''}`,
    details: { expected: pricing.expectedCents / 100, billed: bill.amountCents / 100, variance_percent: percent, tariff_id: pricing.tariffId, lines },
  };
}

/**
 * Audits one meter's bills. `bills` in period order; `pricing` by bill id; `siblings` are the
 * property's bills of the same utility type on its other meters; `monthly` says whether the meter is
 * read monthly (the period-length rule applies).
 */
export function auditMeterBills(input: {
  bills: AuditBill[];
  pricing: ReadonlyMap<string, BillPricing>;
  siblings: SiblingBill[];
  settings: AuditSettings;
}): BillAudit[] {
  const { bills, pricing, siblings, settings } = input;
  const monthly = isMonthly(bills);
  const twins = indexSiblings(siblings);
  const days = bills.map((b) => ({ start: dayNumber(b.periodStart), end: dayNumber(b.periodEnd) }));
  return bills.map((bill, i) => {
    const findings: Finding[] = [];
    const priced = pricing.get(bill.id) ?? { kind: 'unpriceable' as const, reason: 'not priced' };
    let audit: Omit<BillAudit, 'findings'>;
    if (priced.kind === 'priced') {
      const varianceCents = bill.amountCents - priced.expectedCents;
      const variancePercent = priced.expectedCents > 0 ? percentOf(varianceCents, priced.expectedCents) : null;
      const finding = priceFinding(bill, priced, settings);
      if (finding) findings.push(finding);
      audit = {
        billId: bill.id, status: finding ? 'variance' : 'ok', reason: null, expectedCents: priced.expectedCents,
        varianceCents, variancePercent, tariffId: priced.tariffId, expectedLines: priced.expectedLines,
      };
      findings.push(...pricedRules(bill, priced));
    } else {
      audit = {
        billId: bill.id, status: 'unpriceable', reason: priced.reason, expectedCents: null, varianceCents: null,
        variancePercent: null, tariffId: null, expectedLines: null,
      };
    }
    findings.push(...sequenceRules(bills, i, monthly), ...duplicateRule(bill, twins), ...yearOverYear(bills, days, i));
    return { ...audit, findings };
  });
}

/** Siblings by period and amount, each list in write order: the duplicate rule's look-up (one pass, not one per bill). */
function indexSiblings(siblings: SiblingBill[]): Map<string, SiblingBill[]> {
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

/** Rules that need the tariff: demand above its limit, an expired tariff, a unit price it cannot produce. */
function pricedRules(bill: AuditBill, p: Extract<BillPricing, { kind: 'priced' }>): Finding[] {
  const out: Finding[] = [];
  if (bill.demandKw !== null && p.demandKwMax !== null && bill.demandKw > p.demandKwMax) {
    out.push({
      billId: bill.id, reason: 'demand_above_applicability', severity: 'high', amountCents: null,
      message: `demand ${bill.demandKw} kW is above ${p.tariffName}'s limit of ${p.demandKwMax} kW: the meter may belong on another rate class`,
      details: { demand_kw: bill.demandKw, demand_kw_max: p.demandKwMax, tariff_id: p.tariffId },
    });
  }
  if (p.expiredOn !== null) {
    out.push({
      billId: bill.id, reason: 'expired_tariff', severity: 'medium', amountCents: null,
      message: `${p.tariffName} expired on ${p.expiredOn}, before this period ended: the utility bills other rates now`,
      details: { expired_on: p.expiredOn, tariff_id: p.tariffId },
    });
  }
  if (p.yearRangeCents && bill.usage !== null && bill.usage > 0) {
    const slack = (cents: number, sign: 1 | -1) => cents + sign * roundDiv(Math.abs(cents) * RULES.unitPriceSlackPercent, 100);
    const low = slack(p.yearRangeCents.min, -1);
    const high = slack(p.yearRangeCents.max, 1);
    if (bill.amountCents < low || bill.amountCents > high) {
      const perUnit = (cents: number) => (cents / 100 / (bill.usage as number)).toFixed(4);
      out.push({
        billId: bill.id, reason: 'unit_price_out_of_range', severity: 'high',
        amountCents: bill.amountCents > high ? bill.amountCents - p.yearRangeCents.max : bill.amountCents - p.yearRangeCents.min,
        message: `$${perUnit(bill.amountCents)} per ${bill.unit} is outside what ${p.tariffName} bills for ${bill.usage} ${bill.unit} in any month `
          + `($${perUnit(p.yearRangeCents.min)} to $${perUnit(p.yearRangeCents.max)})`,
        details: { billed_per_unit: Number(perUnit(bill.amountCents)), min_per_unit: Number(perUnit(p.yearRangeCents.min)), max_per_unit: Number(perUnit(p.yearRangeCents.max)) },
      });
    }
  }
  return out;
}

/** A gap before the bill, its length on a monthly meter, an estimated read and its true-up. */
function sequenceRules(bills: AuditBill[], i: number, monthly: boolean): Finding[] {
  const bill = bills[i]!;
  const prev = i > 0 ? bills[i - 1]! : null;
  const next = i + 1 < bills.length ? bills[i + 1]! : null;
  const out: Finding[] = [];
  if (prev) {
    const gap = dayNumber(bill.periodStart) - dayNumber(prev.periodEnd) - 1;
    if (gap > 0) {
      out.push({
        billId: bill.id, reason: 'billing_gap', severity: 'medium', amountCents: null,
        message: `${gap} day${gap === 1 ? '' : 's'} between the previous bill (ending ${prev.periodEnd}) and this one (starting ${bill.periodStart}) ${gap === 1 ? 'was' : 'were'} not billed`,
        details: { gap_days: gap, previous_bill_id: prev.id },
      });
    }
  }
  const days = daysOf(bill);
  if (monthly && (days < RULES.monthlyMinDays || days > RULES.monthlyMaxDays)) {
    out.push({
      billId: bill.id, reason: 'period_length', severity: 'medium', amountCents: null,
      message: `a ${days}-day period on a meter read monthly (${RULES.monthlyMinDays} to ${RULES.monthlyMaxDays} days)`,
      details: { days },
    });
  }
  if (bill.isEstimated) {
    const trueUp = next && !next.isEstimated ? next : null;
    const run = consecutiveEstimates(bills, i);
    out.push({
      billId: bill.id, reason: 'estimated_read', severity: run >= 2 ? 'high' : 'low', amountCents: null,
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
function duplicateRule(bill: AuditBill, twins: ReadonlyMap<string, SiblingBill[]>): Finding[] {
  const twin = (twins.get(`${bill.periodStart}|${bill.periodEnd}|${bill.amountCents}`) ?? [])
    .find((s) => s.createdAt < bill.createdAt || (s.createdAt.getTime() === bill.createdAt.getTime() && s.id < bill.id));
  if (!twin) return [];
  return [{
    billId: bill.id, reason: 'duplicate_bill', severity: 'high', amountCents: bill.amountCents,
    message: `the same period and amount as bill ${twin.id} of another meter of this property: charged twice?`,
    details: { duplicate_of: twin.id, meter_id: twin.meterId },
  }];
}

/**
 * Usage and cost per day against the same days a year earlier: the meter's bill that overlaps the
 * period shifted back 365 days the most. More than 50 % above or below is a finding.
 */
function yearOverYear(bills: AuditBill[], days: ReadonlyArray<{ start: number; end: number }>, i: number): Finding[] {
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
  for (let k = lo; k < i && days[k]!.start <= to; k++) {
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
      billId: bill.id, reason, severity: 'medium', amountCents: null,
      message: `${what} per day ${change > 0 ? 'rose' : 'fell'} ${Math.abs(change)} % from the same period a year earlier `
        + `(${now.toFixed(reason === 'cost_change' ? 2 : 3)} vs ${before.toFixed(reason === 'cost_change' ? 2 : 3)} ${unit} a day)`,
      details: { change_percent: change, year_earlier_bill_id: best!.id },
    });
  };
  if (bill.usage !== null && best.usage !== null && bill.unit === best.unit) {
    compare('usage_change', bill.usage / daysOf(bill), best.usage / daysOf(best), 'usage', bill.unit);
  }
  compare('cost_change', bill.amountCents / 100 / daysOf(bill), best.amountCents / 100 / daysOf(best), 'cost', '$');
  return out;
}
