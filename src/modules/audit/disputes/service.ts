/**
 * A finding disputed with the utility, and the dispute closed as credited or denied (README
 * "Disputes and recovered money"); the money claimed, recovered and written off; the reminder of a
 * dispute left unanswered for more than 60 days.
 */
import { conflict, notFound, unprocessable } from '../../../platform/http/errors';
import { csvDocument, neutralise } from '../../../platform/csv';
import { isoDateOfDay, dayNumber, utcDay } from '../../../platform/dates';
import { toCents } from '../../../platform/money';
import type { AuditServiceDeps } from '../service';
import { disputeEvent } from '../audit-events';
import type { FindingRow } from '../repository';
import { usd } from '../audit.thresholds';
import { presentRecovery } from './present';
import { createDisputeRepository, type DisputeFilter, type FindingWithBill } from './repository';
import {
  claimProblem,
  closingProblem,
  creditProblem,
  daysOpen,
  OVERDUE_AFTER_DAYS,
  recoveryRows,
  transitionProblem,
  type FieldProblem,
  type FindingStatus,
} from './dispute.calc';

/** The key of a dispute's overdue notification: one per dispute. */
const OVERDUE_KEY_PREFIX = 'audit-dispute-overdue:';
const RECOVERY_CSV_HEADER = ['year', 'property_id', 'property_name', 'disputes', 'claimed', 'recovered', 'written_off', 'pending'];

export interface DisputeInput {
  disputed_on: string;
  claim_reference: string;
  amount_claimed: number;
  note?: string | null;
}

export interface CreditInput {
  amount_credited: number;
  credit_bill_id: string;
  closed_on?: string;
  note?: string | null;
}

export interface DenialInput {
  closed_on?: string;
  note?: string | null;
}

const failWith = (p: FieldProblem | null) => {
  if (p) throw unprocessable(p.message, p.field);
};
const dollars = (cents: number) => (cents / 100).toFixed(2);

/** What the dispute service is built on: the audit service's deps (../service.ts), less what prices bills. */
export type DisputeServiceDeps = Omit<AuditServiceDeps, 'pricing' | 'loadShapes' | 'otherTariffs'>;

/**
 * One transition of the owner's finding, in one transaction: the finding's row locked, the move
 * checked (409), the request checked against the finding (422), then the status and amounts
 * written together.
 */
async function transition(
  deps: DisputeServiceDeps,
  ownerId: string,
  id: string,
  to: 'disputed' | 'credited' | 'denied',
  change: (finding: FindingWithBill, tx: ReturnType<typeof createDisputeRepository>) => Promise<Partial<FindingRow>>,
): Promise<FindingRow> {
  const updated = await deps.db.transaction(async (tx) => {
    const txRepo = createDisputeRepository(tx);
    const finding = await txRepo.lockFinding(ownerId, id);
    if (!finding) throw notFound('Finding not found');
    const illegal = transitionProblem(finding.status as FindingStatus, to);
    if (illegal) throw conflict(illegal);
    const set = await change(finding, txRepo);
    const row = await txRepo.update(id, { ...set, status: to, updatedAt: deps.now() });
    await deps.events?.emit([disputeEvent({ ...row, status: to })], tx);
    return row;
  });
  await deps.events?.deliverSoon();
  await deps.dataChanged?.(ownerId);
  return updated;
}

export function createDisputeService(deps: DisputeServiceDeps) {
  const repo = createDisputeRepository(deps.db);

  const today = () => utcDay(deps.now());
  const noteOf = (note: string | null | undefined, finding: FindingRow) => (note === undefined ? finding.note : note);

  return {
    /** POST /pm/audit/findings/{id}/dispute: an open finding claimed with the utility. */
    dispute: (ownerId: string, id: string, body: DisputeInput) =>
      transition(deps, ownerId, id, 'disputed', async (finding) => {
        const amountClaimedCents = toCents(body.amount_claimed);
        failWith(
          claimProblem(
            { disputedOn: body.disputed_on, amountClaimedCents },
            { amountAtIssueCents: finding.amountCents, billCents: toCents(finding.billAmount), billPeriodEnd: finding.billPeriodEnd },
            today(),
          ),
        );
        return { disputedOn: body.disputed_on, claimReference: body.claim_reference, amountClaimedCents, note: noteOf(body.note, finding) };
      }),

    /** POST /pm/audit/findings/{id}/credit: the utility credited the claim on a later bill of the meter; that bill's audit expects it. */
    async credit(ownerId: string, id: string, body: CreditInput) {
      const closedOn = body.closed_on ?? today();
      const credited = await transition(deps, ownerId, id, 'credited', async (finding, txRepo) => {
        const dispute = { amountClaimedCents: finding.amountClaimedCents!, disputedOn: finding.disputedOn!, meterId: finding.billMeterId };
        const creditCents = toCents(body.amount_credited);
        failWith(creditProblem({ creditCents, creditBill: await txRepo.bill(body.credit_bill_id) }, dispute));
        failWith(closingProblem(dispute.disputedOn, closedOn, today()));
        return { creditCents, creditBillId: body.credit_bill_id, disputeClosedOn: closedOn, note: noteOf(body.note, finding) };
      });
      await deps.requestAudits([credited.meterId]);
      return credited;
    },

    /** POST /pm/audit/findings/{id}/deny: the utility refused the claim; its money is written off. */
    deny: (ownerId: string, id: string, body: DenialInput) =>
      transition(deps, ownerId, id, 'denied', async (finding) => {
        const closedOn = body.closed_on ?? today();
        failWith(closingProblem(finding.disputedOn!, closedOn, today()));
        return { disputeClosedOn: closedOn, note: noteOf(body.note, finding) };
      }),

    /** GET /pm/dashboard/stats: money claimed, recovered and written off, in all and per property and year the claims were filed. */
    recoveryStats: async (ownerId: string) => presentRecovery(recoveryRows(await repo.disputes(ownerId, {}))),

    /** GET /pm/audit/recovery/export.csv: the recovery rows, dollars with 2 decimals. */
    async recoveryCsv(ownerId: string, filter: DisputeFilter): Promise<string> {
      const rows = recoveryRows(await repo.disputes(ownerId, filter));
      return csvDocument(
        RECOVERY_CSV_HEADER,
        rows.map((r) => [
          String(r.year),
          r.propertyId,
          neutralise(r.propertyName),
          String(r.disputes),
          dollars(r.claimedCents),
          dollars(r.recoveredCents),
          dollars(r.writtenOffCents),
          dollars(r.pendingCents),
        ]),
      );
    },

    /**
     * The dispute-reminder job for `day`: each dispute still open more than 60 days after it was
     * filed is a notification, once per dispute (its dedupe key). Returns how many were new.
     */
    async remindOverdue(day: string): Promise<number> {
      if (!deps.notifications) throw new Error('dispute reminders need the notification service');
      const filedBefore = isoDateOfDay(dayNumber(day) - OVERDUE_AFTER_DAYS);
      const overdue = await repo.overdueDisputes(filedBefore, OVERDUE_KEY_PREFIX);
      await deps.notifications.notifyMany(
        overdue.map((d) => ({
          userId: d.ownerId,
          type: 'audit_dispute_overdue',
          propertyId: d.propertyId,
          message:
            `Dispute unanswered: ${d.propertyName}, ${d.meterName}, ${d.periodStart} to ${d.periodEnd}: claim ${d.claimReference} ` +
            `for ${usd(d.amountClaimedCents)} filed ${d.disputedOn}, open for ${daysOpen(d.disputedOn, day)} days`,
          dedupeKey: `${OVERDUE_KEY_PREFIX}${d.id}`,
        })),
      );
      return overdue.length;
    },
  };
}

export type DisputeService = ReturnType<typeof createDisputeService>;
