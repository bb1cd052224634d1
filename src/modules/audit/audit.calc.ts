/**
 * The bill audit of one meter's bills (README "Rules"): each bill's expected amount against what
 * was billed, and the rule audits. Pure: the caller prices the bills (the bill engine on the
 * tariff version(s) in force over each period) and hands the results in; nothing here reads a
 * database or a clock. The price variance is worked out here; the other rules are in
 * `audit.history.calc.ts` (against other bills) and `audit.tariff.calc.ts` (against the tariff).
 */
import { dayNumber } from '../../platform/dates';
import { atMostBilled, percentOf, RULES, signedUsd, usd } from './audit.thresholds';
import { duplicateRule, indexSiblings, isMonthly, sequenceRules, yearOverYear } from './audit.history.calc';
import { pricedRules } from './audit.tariff.calc';
import { likelyUnitErrors } from './audit.units.calc';
import { meterCauses } from './audit.meter.calc';
import { intervalUsageMismatch } from './audit.intervals.calc';
import type { AuditBill, AuditSettings, BillAudit, BillPricing, Finding, PrintedLine, SiblingBill } from './audit.types';

/** Expected and billed by category, where the bill carries its printed lines: the lines that differ and by how much. */
export function compareLines(
  expected: Array<{ category: string; amount: number }>,
  printed: PrintedLine[],
): Array<{ category: string; expected: number; billed: number; difference: number }> {
  const sums = new Map<string, { expected: number; billed: number }>();
  const add = (category: string, key: 'expected' | 'billed', amount: number) => {
    const entry = sums.get(category) ?? { expected: 0, billed: 0 };
    entry[key] += Math.round(amount * 100);
    sums.set(category, entry);
  };
  for (const l of expected) add(l.category, 'expected', l.amount);
  for (const l of printed) add(l.category, 'billed', l.amount);
  return [...sums]
    .map(([category, s]) => ({ category, expected: s.expected / 100, billed: s.billed / 100, difference: (s.billed - s.expected) / 100 }))
    .filter((d) => d.difference !== 0);
}

/** Whether a billed amount is a price variance against the expected one: off by more than the tolerance (any amount when nothing was expected). */
export function isPriceVariance(billedCents: number, expectedCents: number, tolerancePercent: number): boolean {
  const variance = billedCents - expectedCents;
  if (variance === 0) return false;
  return expectedCents <= 0 || Math.abs(percentOf(variance, expectedCents)) > tolerancePercent;
}

function priceFinding(bill: AuditBill, pricing: Extract<BillPricing, { kind: 'priced' }>, settings: AuditSettings): Finding | null {
  // A bill carrying credits granted on disputes is stated as issued: its amount against the tariff's less the credits
  // (the bill's charges against the tariff's are the same variance).
  const credits = bill.credits ?? [];
  const creditCents = credits.reduce((sum, c) => sum + c.cents, 0);
  const billed = bill.amountCents - creditCents;
  const expected = pricing.expectedCents - creditCents;
  if (!isPriceVariance(billed, expected, settings.tolerancePercent)) return null;
  const variance = billed - expected;
  const percent = expected > 0 ? percentOf(variance, expected) : null;
  const high = percent === null || Math.abs(percent) >= RULES.highVariancePercent || Math.abs(variance) >= RULES.highVarianceCents;
  const lines = bill.lineItems ? compareLines(pricing.expectedLines, bill.lineItems) : null;
  const plural = credits.length > 1 ? 's' : '';
  const withCredits =
    credits.length === 0
      ? ''
      : ` with the credit${plural} on dispute${plural} ${credits.map((c) => c.claimReference).join(', ')} (${usd(-creditCents)})`;
  const why =
    creditCents > 0 && variance === creditCents
      ? `the credit${plural} ${plural ? 'are' : 'is'} not on the bill`
      : lines && lines.length > 0
        ? `lines that differ: ${lines.map((l) => `${l.category} billed ${usd(Math.round(l.billed * 100))}, expected ${usd(Math.round(l.expected * 100))} (${signedUsd(Math.round(l.difference * 100))})`).join('; ')}`
        : pricing.explanation;
  return {
    billId: bill.id,
    reason: 'price_variance',
    severity: high ? 'high' : 'medium',
    amountCents: variance,
    message:
      `billed ${usd(billed)}, expected ${usd(expected)} on ${pricing.tariffName}${withCredits}: ${signedUsd(variance)}` +
      `${percent === null ? '' : ` (${percent > 0 ? '+' : ''}${percent} %)`}${why ? `; ${why}` : ''}`,
    details: {
      expected: expected / 100,
      billed: billed / 100,
      variance_percent: percent,
      tariff_id: pricing.tariffId,
      lines,
      basis: pricing.basis,
    },
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
  const unitErrors = likelyUnitErrors(bills, pricing);
  const causes = meterCauses(bills, pricing);
  return bills.map((bill, i) => {
    const findings: Finding[] = [];
    const priced = pricing.get(bill.id) ?? { kind: 'unpriceable' as const, reason: 'not priced' };
    const unitError = unitErrors.get(bill.id);
    let audit: Omit<BillAudit, 'findings'>;
    if (priced.kind === 'priced' && unitError) {
      // The usage as typed cannot be priced: the unit error replaces the price findings (price_variance, unit_price_out_of_range).
      audit = {
        billId: bill.id,
        status: 'unpriceable',
        reason: `the usage looks ${unitError.details.factor} times too ${unitError.details.direction === 'too_large' ? 'large' : 'small'} (likely_unit_error)`,
        expectedCents: null,
        varianceCents: null,
        variancePercent: null,
        tariffId: priced.tariffId,
        expectedLines: null,
        basis: null,
        basisNote: priced.basisNote,
      };
    } else if (priced.kind === 'priced') {
      const varianceCents = bill.amountCents - priced.expectedCents;
      const variancePercent = priced.expectedCents > 0 ? percentOf(varianceCents, priced.expectedCents) : null;
      const finding = priceFinding(bill, priced, settings);
      if (finding) findings.push(finding);
      audit = {
        billId: bill.id,
        status: finding ? 'variance' : 'ok',
        reason: null,
        expectedCents: priced.expectedCents,
        varianceCents,
        variancePercent,
        tariffId: priced.tariffId,
        expectedLines: priced.expectedLines,
        basis: priced.basis,
        basisNote: priced.basisNote,
      };
      // One finding per cause: a bill over (or under) its expected amount is its price variance; its unit price out of
      // the year's range says it again, so it stands only where the variance is within the owner's tolerance.
      if (!finding) findings.push(...pricedRules(bill, priced));
    } else {
      audit = {
        billId: bill.id,
        status: 'unpriceable',
        reason: priced.reason,
        expectedCents: null,
        varianceCents: null,
        variancePercent: null,
        tariffId: null,
        expectedLines: null,
        basis: null,
        basisNote: priced.basisNote ?? null,
      };
    }
    findings.push(...(causes.get(bill.id) ?? []));
    const mismatch = priced.kind === 'priced' ? intervalUsageMismatch(bill, priced) : null;
    if (mismatch) findings.push(mismatch);
    if (unitError) findings.push(unitError);
    findings.push(...sequenceRules(bills, i, monthly), ...duplicateRule(bill, twins), ...yearOverYear(bills, days, i, unitErrors));
    return {
      ...audit,
      findings: findings.map((f) => (f.amountCents === null ? f : { ...f, amountCents: atMostBilled(f.amountCents, bill.amountCents) })),
    };
  });
}
