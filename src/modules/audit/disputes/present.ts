import type { FindingRow } from '../repository';
import { disputeMoney, type FindingStatus, type RecoveryRow } from './dispute.calc';

/** A finding's claim with the utility as the API shows it (`dispute`), null on a finding never disputed. */
export function presentDispute(f: FindingRow) {
  if (f.disputedOn === null || f.amountClaimedCents === null) return null;
  const money = disputeMoney({ status: f.status as FindingStatus, amountClaimedCents: f.amountClaimedCents, creditCents: f.creditCents });
  return {
    disputed_on: f.disputedOn,
    claim_reference: f.claimReference ?? '',
    amount_claimed: f.amountClaimedCents / 100,
    amount_credited: f.creditCents === null ? null : f.creditCents / 100,
    credit_bill_id: f.creditBillId,
    closed_on: f.disputeClosedOn,
    written_off: money.writtenOff / 100,
  };
}

/** The dashboard's recovered money: owner totals (dollars), and each property and year the claims were filed. */
export function presentRecovery(rows: readonly RecoveryRow[]) {
  const sum = (key: 'claimedCents' | 'recoveredCents' | 'writtenOffCents') => rows.reduce((s, r) => s + r[key], 0) / 100;
  return {
    audit_amount_claimed: sum('claimedCents'),
    audit_amount_recovered: sum('recoveredCents'),
    audit_amount_written_off: sum('writtenOffCents'),
    audit_recovery: rows.map((r) => ({
      property_id: r.propertyId,
      property_name: r.propertyName,
      year: r.year,
      disputes: r.disputes,
      claimed: r.claimedCents / 100,
      recovered: r.recoveredCents / 100,
      written_off: r.writtenOffCents / 100,
      pending: r.pendingCents / 100,
    })),
  };
}

export type RecoveryStats = ReturnType<typeof presentRecovery>;
