/**
 * A credit the utility granted on a dispute, carried by a later bill of the meter (README "Disputes
 * and recovered money"): the audit expects it there. The rules judge that bill's charges, its amount
 * with the credits added back, so a credit is never a price variance, an out-of-range unit price or a
 * drop in cost; the stored audit expects the bill less the credits, one line each. Pure.
 */
import { percentOf } from '../audit.thresholds';
import type { AuditBill, BillAudit } from '../audit.types';

export interface BillCredit {
  /** The bill that carries the credit. */
  billId: string;
  cents: number;
  claimReference: string;
}

/** The credits by the bill that carries them. */
export function creditsByBill(credits: readonly BillCredit[]): Map<string, BillCredit[]> {
  const byBill = new Map<string, BillCredit[]>();
  for (const c of credits) {
    const list = byBill.get(c.billId);
    if (list) list.push(c);
    else byBill.set(c.billId, [c]);
  }
  return byBill;
}

const totalCents = (credits: readonly BillCredit[]) => credits.reduce((s, c) => s + c.cents, 0);

/**
 * The bill as the rules judge it: its charges before the credits it carries. Printed lines (which
 * add up to the amount, the credit among them) get a line adding the credits back, in `other`.
 */
export function chargesBeforeCredits(bill: AuditBill, credits: readonly BillCredit[] | undefined): AuditBill {
  if (!credits || credits.length === 0) return bill;
  const cents = totalCents(credits);
  return {
    ...bill,
    amountCents: bill.amountCents + cents,
    credits,
    lineItems: bill.lineItems && [
      ...bill.lineItems,
      { category: 'other', description: 'credits granted on disputes, added back', amount: cents / 100 },
    ],
  };
}

/**
 * The stored audit of a bill that carries credits: what the tariff bills less each credit (a line of
 * its own), so expected and billed compare as the bill was issued; the variance (billed - expected)
 * is the charges' and stays as it is, its percent is of the expected amount as issued. An unpriceable
 * bill expects nothing and stays as it is.
 */
export function expectingCredits(audit: BillAudit, credits: readonly BillCredit[] | undefined): BillAudit {
  if (!credits || credits.length === 0 || audit.expectedCents === null) return audit;
  const expectedCents = audit.expectedCents - totalCents(credits);
  return {
    ...audit,
    expectedCents,
    variancePercent: audit.varianceCents !== null && expectedCents > 0 ? percentOf(audit.varianceCents, expectedCents) : null,
    expectedLines: [
      ...(audit.expectedLines ?? []),
      ...credits.map((c) => ({ category: 'other', name: `Credit on dispute ${c.claimReference}`, amount: -c.cents / 100 })),
    ],
  };
}
