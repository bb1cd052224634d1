/**
 * The rules of a finding's dispute with the utility (README "Disputes and recovered money"): which
 * transitions are allowed, what a claim and a credit may be, what money a dispute stands for and
 * when an open one is overdue. Pure: the caller reads the finding, the bills and today's date.
 */
import { dayNumber } from '../../../platform/dates';
import { usd } from '../audit.thresholds';

export type FindingStatus = 'open' | 'resolved' | 'disputed' | 'credited' | 'denied';
export const FINDING_STATUSES: readonly FindingStatus[] = ['open', 'resolved', 'disputed', 'credited', 'denied'];
/** The statuses of a finding in dispute with the utility (open claim, credit granted, claim refused). */
export const DISPUTE_STATUSES = ['disputed', 'credited', 'denied'] as const;

/** A dispute still open this many days after it was filed raises a notification. */
export const OVERDUE_AFTER_DAYS = 60;

/** A problem with one field of a request: a 422 naming the field. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** Why `from` cannot move to `to` (a 409), or null when the transition is allowed. */
export function transitionProblem(from: FindingStatus, to: 'disputed' | 'credited' | 'denied' | 'resolved'): string | null {
  if (to === 'disputed') return from === 'open' ? null : `the finding is ${from}: only an open finding can be disputed`;
  if (to === 'resolved') {
    return from === 'disputed' || from === 'credited' || from === 'denied'
      ? `the finding is ${from}: a dispute closes as credited or denied`
      : null;
  }
  return from === 'disputed' ? null : `the finding is ${from}: only a disputed finding can be ${to}`;
}

/**
 * The most a claim may ask, in cents: the finding's dollars at issue where it has them and they are
 * an overcharge, else the bill's amount (a gap or an estimated read put the whole bill in question).
 */
export function claimCeilingCents(amountAtIssueCents: number | null, billCents: number): number {
  return amountAtIssueCents !== null && amountAtIssueCents > 0 ? amountAtIssueCents : billCents;
}

/** What is wrong with a claim filed on `disputedOn` for `amountClaimedCents`, or null. */
export function claimProblem(
  claim: { disputedOn: string; amountClaimedCents: number },
  finding: { amountAtIssueCents: number | null; billCents: number; billPeriodEnd: string },
  today: string,
): FieldProblem | null {
  if (claim.disputedOn > today) return { field: 'disputed_on', message: `disputed_on must not be after today (${today})` };
  if (claim.disputedOn < finding.billPeriodEnd) {
    return { field: 'disputed_on', message: `disputed_on must not be before the end of the bill's period (${finding.billPeriodEnd})` };
  }
  const ceiling = claimCeilingCents(finding.amountAtIssueCents, finding.billCents);
  const what = finding.amountAtIssueCents !== null && finding.amountAtIssueCents > 0 ? 'the amount at issue' : "the bill's amount";
  if (ceiling <= 0) return { field: 'amount_claimed', message: `nothing to claim: ${what} is ${usd(ceiling)}` };
  if (claim.amountClaimedCents > ceiling) {
    return { field: 'amount_claimed', message: `amount_claimed must not exceed ${what} (${usd(ceiling)})` };
  }
  return null;
}

/** What is wrong with closing a dispute filed on `disputedOn` on `closedOn`, or null. */
export function closingProblem(disputedOn: string, closedOn: string, today: string): FieldProblem | null {
  if (closedOn > today) return { field: 'closed_on', message: `closed_on must not be after today (${today})` };
  if (closedOn < disputedOn) return { field: 'closed_on', message: `closed_on must not be before the dispute (${disputedOn})` };
  return null;
}

/**
 * What is wrong with a credit of `creditCents` on `creditBill` for a claim, or null: at most the
 * amount claimed, on a bill of the disputed bill's meter whose period ends after the claim was filed
 * (the bill the utility issued after it).
 */
export function creditProblem(
  credit: { creditCents: number; creditBill: { meterId: string; periodEnd: string } | null },
  dispute: { amountClaimedCents: number; disputedOn: string; meterId: string },
): FieldProblem | null {
  if (credit.creditCents > dispute.amountClaimedCents) {
    return { field: 'amount_credited', message: `amount_credited must not exceed the amount claimed (${usd(dispute.amountClaimedCents)})` };
  }
  if (!credit.creditBill || credit.creditBill.meterId !== dispute.meterId) {
    return { field: 'credit_bill_id', message: "credit_bill_id must be a bill of the disputed bill's meter" };
  }
  if (credit.creditBill.periodEnd <= dispute.disputedOn) {
    return { field: 'credit_bill_id', message: `the credit's bill must end after the dispute was filed (${dispute.disputedOn})` };
  }
  return null;
}

/** One dispute's money, in cents: every claim is claimed; a credit recovers, the rest of a closed claim is written off. */
export function disputeMoney(d: { status: FindingStatus; amountClaimedCents: number; creditCents: number | null }) {
  const recovered = d.status === 'credited' ? (d.creditCents ?? 0) : 0;
  return {
    claimed: d.amountClaimedCents,
    recovered,
    writtenOff: d.status === 'credited' || d.status === 'denied' ? d.amountClaimedCents - recovered : 0,
    pending: d.status === 'disputed' ? d.amountClaimedCents : 0,
  };
}

export interface RecoveryRow {
  year: number;
  propertyId: string;
  propertyName: string;
  disputes: number;
  claimedCents: number;
  recoveredCents: number;
  writtenOffCents: number;
  pendingCents: number;
}

/**
 * Money claimed, recovered, written off and still pending, per property and year the claim was
 * filed (so each row adds up: claimed = recovered + written off + pending); newest year first, then
 * by property name.
 */
export function recoveryRows(
  disputes: ReadonlyArray<{
    propertyId: string;
    propertyName: string;
    disputedOn: string;
    status: FindingStatus;
    amountClaimedCents: number;
    creditCents: number | null;
  }>,
): RecoveryRow[] {
  const rows = new Map<string, RecoveryRow>();
  for (const d of disputes) {
    const year = Number(d.disputedOn.slice(0, 4));
    const key = `${year}|${d.propertyId}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        year,
        propertyId: d.propertyId,
        propertyName: d.propertyName,
        disputes: 0,
        claimedCents: 0,
        recoveredCents: 0,
        writtenOffCents: 0,
        pendingCents: 0,
      };
      rows.set(key, row);
    }
    const money = disputeMoney(d);
    row.disputes++;
    row.claimedCents += money.claimed;
    row.recoveredCents += money.recovered;
    row.writtenOffCents += money.writtenOff;
    row.pendingCents += money.pending;
  }
  return [...rows.values()].sort(
    (a, b) => b.year - a.year || a.propertyName.localeCompare(b.propertyName) || (a.propertyId < b.propertyId ? -1 : 1),
  );
}

/** Days a dispute filed on `disputedOn` has been open on `today`. */
export const daysOpen = (disputedOn: string, today: string) => dayNumber(today) - dayNumber(disputedOn);

/** Whether a dispute filed on `disputedOn` is still unanswered more than 60 days later. */
export const isOverdue = (disputedOn: string, today: string) => daysOpen(disputedOn, today) > OVERDUE_AFTER_DAYS;
