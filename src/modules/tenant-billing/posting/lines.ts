import { toCents } from '../../../platform/money';
import type { PostingRow } from './repository';
import type { PostingAction, PostingLine, PostingState, PostingSummaryStatus } from './schemas';

/*
 * Pure rules of posting (README "Posting to the PMS ledger"): which unit bills are charges, what
 * each charge says, its idempotency key, and the posting's status as a whole. No I/O.
 */

/** The unit-bill fields posting reads (the API's unit bill; `occupancy` and `invoice_number` when the calculation has them). */
export interface PostableBill {
  unit_id: string;
  tenant_name: string;
  total_charge: number;
  is_vacant: boolean;
  /** The occupancy number of a unit that turned over in the period; absent: 0. */
  occupancy?: number | null;
  invoice_number?: string | number | null;
}

/** The calculation fields posting reads. */
export interface PostableCalculation {
  id: string;
  property_id: string;
  utility_type: string;
  billing_period_start: string;
  billing_period_end: string;
  /** The tenants' due date, when the calculation has one: the charge date. */
  due_date?: string | null;
  unit_bills: readonly PostableBill[];
}

/** One charge of a calculation: an occupied unit bill (or occupancy) with a charge other than 0. */
export interface ChargeLine {
  unitId: string;
  occupancy: number;
  cents: number;
  bill: PostableBill;
}

export const lineId = (l: { unitId: string; occupancy: number }) => `${l.occupancy}\u0000${l.unitId}`;

/** The calculation's charges, in unit-bill order; vacant units and charges of 0 are not posted. */
export function chargeLines(c: PostableCalculation): ChargeLine[] {
  const lines: ChargeLine[] = [];
  const seen = new Set<string>();
  for (const bill of c.unit_bills) {
    if (bill.is_vacant) continue;
    const cents = toCents(bill.total_charge);
    if (cents === 0) continue;
    const line = { unitId: bill.unit_id, occupancy: bill.occupancy ?? 0, cents, bill };
    if (seen.has(lineId(line))) continue;
    seen.add(lineId(line));
    lines.push(line);
  }
  return lines;
}

/** `<calculation id>:<unit id>:<occupancy>:<post|reverse>`: the provider creates one charge per key. */
export const idempotencyKey = (calculationId: string, l: { unitId: string; occupancy: number; action: PostingAction }) =>
  `${calculationId}:${l.unitId}:${l.occupancy}:${l.action}`;

const utilityName = (type: string) => type.charAt(0).toUpperCase() + type.slice(1);

/**
 * What the tenant's ledger shows: `Water (RUBS) 2026-01-01 to 2026-01-31`, ` invoice <n>` when
 * the unit bill has an invoice number; a reversal is `Reversal of ` the same.
 */
export function chargeDescription(c: PostableCalculation, bill: PostableBill, action: PostingAction): string {
  const invoice =
    bill.invoice_number === undefined || bill.invoice_number === null || bill.invoice_number === ''
      ? ''
      : ` invoice ${bill.invoice_number}`;
  const text = `${utilityName(c.utility_type)} (RUBS) ${c.billing_period_start} to ${c.billing_period_end}${invoice}`;
  return action === 'reverse' ? `Reversal of ${text}` : text;
}

/** The charge date: the calculation's due date when it has one, else the last day of its period (a reversal: the same day). */
export const chargeDate = (c: PostableCalculation) => c.due_date ?? c.billing_period_end;

export function presentLine(r: PostingRow): PostingLine {
  return {
    unit_id: r.unitId,
    occupancy: r.occupancy,
    action: r.action as PostingAction,
    amount: r.amount,
    status: r.status as PostingLine['status'],
    provider_charge_id: r.providerChargeId,
    error: r.status === 'posted' ? null : r.error,
    attempts: r.attempts,
    updated_at: r.updatedAt.toISOString(),
  };
}

/** The posting as a whole, from its lines (the order of the checks is the order of precedence). */
export function summaryStatus(n: {
  charges: number;
  posted: number;
  postPending: number;
  reverses: number;
  reversed: number;
  reversePending: number;
  unknown: number;
}): PostingSummaryStatus {
  if (n.charges === 0) return 'not_posted';
  if (n.postPending > 0) return 'pending';
  if (n.reversePending > 0) return 'reversing';
  if (n.unknown > 0) return 'unknown';
  if (n.reverses > 0) return n.reversed === n.posted ? 'reversed' : 'partially_reversed';
  if (n.posted === n.charges) return 'posted';
  return n.posted > 0 ? 'partially_posted' : 'failed';
}

export function postingStateOf(rows: readonly PostingRow[]): PostingState {
  const n = { charges: 0, posted: 0, postPending: 0, reverses: 0, reversed: 0, reversePending: 0, pending: 0, failed: 0, unknown: 0 };
  for (const r of rows) {
    if (r.status === 'pending') n.pending += 1;
    if (r.status === 'failed') n.failed += 1;
    if (r.status === 'unknown') n.unknown += 1;
    if (r.action === 'post') {
      n.charges += 1;
      if (r.status === 'posted') n.posted += 1;
      if (r.status === 'pending') n.postPending += 1;
    } else {
      n.reverses += 1;
      if (r.status === 'posted') n.reversed += 1;
      if (r.status === 'pending') n.reversePending += 1;
    }
  }
  return {
    status: summaryStatus(n),
    charges: n.charges,
    posted: n.posted,
    pending: n.pending,
    failed: n.failed,
    unknown: n.unknown,
    reversed: n.reversed,
    lines: rows.map(presentLine),
  };
}
