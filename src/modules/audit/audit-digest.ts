/**
 * The notification of one audit run (README "Notifications"): per property, one digest of the
 * high-severity findings the run found new, not one notification per finding. Pure: the caller says
 * which findings the run stored new, and sends the digests with the audits (one transaction).
 */
import { usd } from './audit.thresholds';
import type { BillAudit, Finding } from './audit.types';

/** Findings a digest lists one by one; the rest are counted. */
export const DIGEST_LISTED = 10;

export interface AuditedMeter {
  property: { id: string; name: string; ownerId: string };
  meter: { name: string };
  bills: ReadonlyArray<{ id: string; periodStart: string; periodEnd: string }>;
  audits: BillAudit[];
}

export interface AuditDigest {
  userId: string;
  type: 'bill_audit';
  propertyId: string;
  message: string;
}

/** The days a finding speaks of: its bill's period, or from the first to the last bill a meter-level cause covers. */
function periodOf(f: Finding, periods: ReadonlyMap<string, string>): string {
  const covered = f.details.bills as Array<{ period_start: string; period_end: string }> | undefined;
  if (Array.isArray(covered) && covered.length > 0) return `${covered[0]!.period_start} to ${covered.at(-1)!.period_end}`;
  return periods.get(f.billId) ?? '';
}

/**
 * The digests of an audit run: `isNew(billId, reason)` says whether the run stored the finding new
 * (a finding found again, or resolved earlier, is not news). Dollars at issue as dashboard stats
 * count them: per bill the largest, a likely unit error never.
 */
export function auditDigests(meters: readonly AuditedMeter[], isNew: (billId: string, reason: string) => boolean): AuditDigest[] {
  const byProperty = new Map<string, { meter: AuditedMeter; lines: string[]; atIssue: Map<string, number> }>();
  for (const m of meters) {
    const periods = new Map(m.bills.map((b) => [b.id, `${b.periodStart} to ${b.periodEnd}`]));
    for (const f of m.audits.flatMap((a) => a.findings)) {
      if (f.severity !== 'high' || !isNew(f.billId, f.reason)) continue;
      let digest = byProperty.get(m.property.id);
      if (!digest) byProperty.set(m.property.id, (digest = { meter: m, lines: [], atIssue: new Map() }));
      digest.lines.push(`${m.meter.name}, ${periodOf(f, periods)}: ${f.message}`);
      if (f.amountCents !== null && f.reason !== 'likely_unit_error') {
        digest.atIssue.set(f.billId, Math.max(digest.atIssue.get(f.billId) ?? 0, Math.abs(f.amountCents)));
      }
    }
  }
  return [...byProperty.values()].map(({ meter: { property }, lines, atIssue }) => {
    const cents = [...atIssue.values()].reduce((sum, c) => sum + c, 0);
    const more = lines.length - DIGEST_LISTED;
    const head =
      `Bill audit: ${property.name}: ${lines.length} new high-severity finding${lines.length === 1 ? '' : 's'}` +
      `${atIssue.size > 0 ? `, ${usd(cents)} at issue` : ''}`;
    return {
      userId: property.ownerId,
      type: 'bill_audit' as const,
      propertyId: property.id,
      message: [head, ...lines.slice(0, DIGEST_LISTED).map((l) => `- ${l}`), ...(more > 0 ? [`- and ${more} more`] : [])].join('\n'),
    };
  });
}

/**
 * A run's meters in the groups stored one statement (and one digest per property) each: a property's
 * meters together, as many properties as fit in `maxBills` bills (a property with more is split by
 * meter, a meter with more is a group alone). Each group in meter id order: concurrent statements
 * lock their meters in the same order.
 */
export function storeGroups<T extends { property: { id: string }; meter: { id: string }; bills: readonly unknown[] }>(
  inputs: readonly T[],
  maxBills: number,
): T[][] {
  const byProperty = new Map<string, T[]>();
  for (const input of inputs) {
    const list = byProperty.get(input.property.id);
    if (list) list.push(input);
    else byProperty.set(input.property.id, [input]);
  }
  const groups: T[][] = [];
  let group: T[] = [];
  let bills = 0;
  const close = () => {
    if (group.length > 0) groups.push(group.sort((a, b) => (a.meter.id < b.meter.id ? -1 : a.meter.id > b.meter.id ? 1 : 0)));
    group = [];
    bills = 0;
  };
  for (const meters of byProperty.values()) {
    const size = meters.reduce((sum, m) => sum + m.bills.length, 0);
    if (group.length > 0 && bills + size > maxBills) close();
    for (const m of meters) {
      // Only a property too large for one group is split, a meter at a time.
      if (group.length > 0 && size > maxBills && bills + m.bills.length > maxBills) close();
      group.push(m);
      bills += m.bills.length;
    }
  }
  close();
  return groups;
}
