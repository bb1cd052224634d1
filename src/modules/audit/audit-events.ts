/**
 * The events of an audit run and of a dispute (events README "Events"): each finding the run stored
 * new is an `audit.finding.created`, each dispute transition an `audit.dispute.updated`. Pure: the
 * caller writes them in the transaction that stores what they report.
 */
import type { NewEvent } from '../events/public';
import type { BillAudit } from './audit.types';
import type { FindingRow } from './repository';

interface AuditedMeter {
  input: { property: { id: string; ownerId: string }; meter: { id: string } };
  audits: readonly BillAudit[];
}

/** One event per finding stored new; `newFindings` maps `bill id|reason` to the new finding's id. Its id is the dedupe key. */
export function findingEvents(meters: readonly AuditedMeter[], newFindings: ReadonlyMap<string, string>): NewEvent[] {
  const out: NewEvent[] = [];
  for (const { input, audits } of meters) {
    for (const f of audits.flatMap((a) => a.findings)) {
      const id = newFindings.get(`${f.billId}|${f.reason}`);
      if (id === undefined) continue;
      out.push({
        ownerId: input.property.ownerId,
        type: 'audit.finding.created',
        dedupeKey: `audit.finding.created:${id}`,
        data: {
          finding_id: id,
          property_id: input.property.id,
          meter_id: input.meter.id,
          bill_id: f.billId,
          reason: f.reason,
          severity: f.severity,
          amount_at_issue: f.amountCents === null ? null : f.amountCents / 100,
          message: f.message,
        },
      });
    }
  }
  return out;
}

/** A dispute's transition (disputed, credited, denied) as the finding now stands; one per transition (its time). */
export function disputeEvent(f: FindingRow & { status: 'disputed' | 'credited' | 'denied' }): NewEvent {
  return {
    ownerId: f.ownerId,
    type: 'audit.dispute.updated',
    dedupeKey: `audit.dispute.updated:${f.id}:${f.status}:${f.updatedAt.toISOString()}`,
    data: {
      finding_id: f.id,
      property_id: f.propertyId,
      bill_id: f.billId,
      status: f.status,
      disputed_on: f.disputedOn,
      claim_reference: f.claimReference,
      amount_claimed: f.amountClaimedCents === null ? null : f.amountClaimedCents / 100,
      amount_credited: f.creditCents === null ? null : f.creditCents / 100,
      credit_bill_id: f.creditBillId,
      closed_on: f.disputeClosedOn,
    },
  };
}
