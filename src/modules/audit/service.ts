import type { Db } from '../../platform/db/client';
import { conflict, notFound, unprocessable } from '../../platform/http/errors';
import { offsetOf, toPage, type PageQuery } from '../../platform/http/pagination';
import { csvDocument, neutralise } from '../../platform/csv';
import type { NotificationService } from '../notifications/service';
import type { EventOutbox } from '../events/public';
import { createAuditRepository, type AuditRepository, type BillRow, type FindingFilter, type FindingRow } from './repository';
import { createAuditRequests, type AuditRequests } from './audit-requests';
import { createMeterAuditor, type MeterAuditorDeps } from './meter-auditor';
import { createIntervalReader } from '../meters/public';
import { createDisputeService } from './disputes/service';
import { createDisputeRepository } from './disputes/repository';
import { presentDispute } from './disputes/present';
import { transitionProblem, type FindingStatus } from './disputes/dispute.calc';
import type { PricingBasis, Resolution } from './audit.types';

/** Rows of one export at most (an owner with more filters by property or date). */
export const MAX_EXPORT_ROWS = 100_000;
const FINDING_CSV_HEADER = [
  'finding_id',
  'bill_id',
  'property_id',
  'meter_id',
  'period_start',
  'period_end',
  'reason',
  'severity',
  'amount_at_issue',
  'message',
  'status',
  'resolution',
  'note',
  'created_at',
];

export function presentFinding(f: FindingRow & { periodStart?: string; periodEnd?: string }) {
  return {
    id: f.id,
    bill_id: f.billId,
    property_id: f.propertyId,
    meter_id: f.meterId,
    reason: f.reason,
    severity: f.severity,
    amount_at_issue: f.amountCents === null ? null : f.amountCents / 100,
    message: f.message,
    details: f.details,
    status: f.status,
    resolution: f.resolution,
    note: f.note,
    dispute: presentDispute(f),
    resolved_at: f.resolvedAt ? f.resolvedAt.toISOString() : null,
    created_at: f.createdAt.toISOString(),
    ...(f.periodStart !== undefined ? { period_start: f.periodStart, period_end: f.periodEnd } : {}),
  };
}

/** One finding as a row of the export, in FINDING_CSV_HEADER's order. */
function findingCsvRow(f: FindingRow & { periodStart: string; periodEnd: string }): string[] {
  return [
    f.id,
    f.billId,
    f.propertyId,
    f.meterId,
    f.periodStart,
    f.periodEnd,
    f.reason,
    f.severity,
    f.amountCents === null ? '' : (f.amountCents / 100).toFixed(2),
    neutralise(f.message),
    f.status,
    f.resolution ?? '',
    neutralise(f.note ?? ''),
    f.createdAt.toISOString(),
  ];
}

/** A bill's stored audit and findings, and whether an audit asked for since is still to come. */
async function presentBillAudit(repo: AuditRepository, requests: AuditRequests, bill: BillRow) {
  const [audit, findings, stale] = await Promise.all([repo.auditOf(bill.id), repo.findingsOfBill(bill.id), requests.isStale(bill.meterId)]);
  return {
    bill_id: bill.id,
    meter_id: bill.meterId,
    status: audit!.status,
    reason: audit!.reason,
    tariff_id: audit!.tariffId,
    billed_amount: bill.amount,
    expected_amount: audit!.expectedCents === null ? null : audit!.expectedCents / 100,
    variance: audit!.varianceCents === null ? null : audit!.varianceCents / 100,
    variance_percent: audit!.variancePercent,
    // In the documented key order (jsonb keeps its own).
    expected_line_items: audit!.expectedLines?.map((l) => ({ category: l.category, name: l.name, amount: l.amount })) ?? null,
    basis: audit!.basis as PricingBasis | null,
    basis_note: audit!.basisNote,
    findings: findings.map((f) => presentFinding(f)),
    audited_at: audit!.auditedAt.toISOString(),
    stale,
  };
}

/** The owner's tolerance, and queueing the re-audit of their meters or a property's. */
function settingsAndReaudits(repo: AuditRepository, deps: Pick<AuditServiceDeps, 'now' | 'requestAudits'>) {
  return {
    /** PATCH /pm/audit/settings: the tolerance; the owner's meters are queued to be audited again with it. */
    async updateSettings(ownerId: string, body: { tolerance_percent: number }) {
      await repo.setTolerance(ownerId, body.tolerance_percent, deps.now());
      await deps.requestAudits(await repo.metersWithBills(ownerId));
      return this.settings(ownerId);
    },

    /** GET /pm/audit/settings: the owner's tolerance (the default until changed). */
    settings: async (ownerId: string) => ({ tolerance_percent: await repo.tolerance(ownerId) }),

    /**
     * Queues the audit of every meter of the owner with bills (a version of one of their tariffs was
     * added).
     */
    auditOwner: async (ownerId: string) => deps.requestAudits(await repo.metersWithBills(ownerId)),

    /** Queues the audit of a property's meters (its tariff or supply changed). */
    auditProperty: async (propertyId: string) => deps.requestAudits(await repo.metersOfProperty(propertyId)),
  };
}

/**
 * What the audit service and its dispute service (disputes/service.ts) are built on, with what the meter
 * auditor prices bills (meter-auditor.ts).
 */
export interface AuditServiceDeps extends Pick<MeterAuditorDeps, 'pricing' | 'loadShapes' | 'otherTariffs'> {
  db: Db;
  now: () => Date;
  /** Queues the audit of these meters (the bill-audit queue; never throws): a property's tariff changed, a credit granted. */
  requestAudits(meterIds: readonly string[]): Promise<void>;
  /** An open high-severity finding is a notification (once per bill and reason), and so is a dispute left open too long. */
  notifications?: Pick<NotificationService, 'notifyMany'>;
  /** Queues the owner's analytics recompute (open high-severity findings, money claimed and recovered; never throws). */
  dataChanged?(ownerId: string): Promise<void>;
  /** New findings and dispute transitions are events (audit-events.ts), written in the transaction that stores them. */
  events?: EventOutbox;
}

export function createAuditService(deps: AuditServiceDeps) {
  const repo = createAuditRepository(deps.db);

  const { auditMeters } = createMeterAuditor({
    repo,
    now: deps.now,
    pricing: deps.pricing,
    loadShapes: deps.loadShapes,
    notifications: deps.notifications,
    otherTariffs: deps.otherTariffs,
    dataChanged: deps.dataChanged,
    events: deps.events,
    creditsOnBills: createDisputeRepository(deps.db).creditsOnBills,
    intervals: createIntervalReader(deps.db),
  });

  const requests = createAuditRequests(deps.db);

  return {
    auditMeters,

    /** Findings disputed with the utility, credited or denied, and the money recovered (README "Disputes and recovered money"). */
    disputes: createDisputeService(deps),

    /**
     * GET /pm/bills/{id}/audit: the stored audit, `stale` while an audit asked for after a change is
     * not yet stored (README "Endpoints"); a bill never audited is audited now, once.
     */
    async billAudit(ownerId: string, billId: string) {
      const bill = await repo.billOfOwner(ownerId, billId);
      if (!bill) throw notFound('Bill not found');
      if (!(await repo.auditOf(billId))) await auditMeters([bill.meterId]);
      return presentBillAudit(repo, requests, bill);
    },

    /** POST /pm/bills/{id}/audit: the bill's meter audited now, then the bill's audit. */
    async reaudit(ownerId: string, billId: string) {
      const bill = await repo.billOfOwner(ownerId, billId);
      if (!bill) throw notFound('Bill not found');
      await auditMeters([bill.meterId]);
      return presentBillAudit(repo, requests, bill);
    },

    /** GET /pm/audit/findings: the owner's findings, newest bill first. */
    async findings(ownerId: string, q: PageQuery & FindingFilter) {
      const { rows, total } = await repo.findings(ownerId, q, offsetOf(q), q.per_page);
      return toPage(
        rows.map((r) => presentFinding(r)),
        total,
        q,
      );
    },

    /**
     * GET /pm/audit/findings/export.csv: every finding the filters select (no pages), newest bill
     * first, one row each, for a dispute file or a spreadsheet.
     */
    async exportCsv(ownerId: string, filter: FindingFilter): Promise<string> {
      const { rows } = await repo.findings(ownerId, filter, 0, MAX_EXPORT_ROWS);
      return csvDocument(
        FINDING_CSV_HEADER,
        rows.map((f) => findingCsvRow(f)),
      );
    },

    /** POST /pm/audit/findings/{id}/resolve. */
    async resolve(ownerId: string, id: string, body: { resolution: Resolution; note?: string | null }) {
      const finding = await repo.findingOfOwner(ownerId, id);
      if (!finding) throw notFound('Finding not found');
      const inDispute = transitionProblem(finding.status as FindingStatus, 'resolved');
      if (inDispute) throw conflict(inDispute);
      if (finding.status === 'resolved') throw unprocessable(`the finding is already resolved (${finding.resolution})`, 'resolution');
      const resolved = presentFinding(await repo.resolve(id, body.resolution, body.note ?? null, deps.now()));
      await deps.dataChanged?.(ownerId);
      return resolved;
    },

    ...settingsAndReaudits(repo, deps),
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
