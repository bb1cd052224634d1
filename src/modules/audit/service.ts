import type { Db } from '../../platform/db/client';
import { AppError, notFound, unprocessable } from '../../platform/http/errors';
import { offsetOf, toPage, type PageQuery } from '../../platform/http/pagination';
import { toCents } from '../../platform/money';
import { csvDocument, neutralise } from '../../platform/csv';
import type { CalculatorService } from '../pricing/service';
import type { NotificationService } from '../notifications/service';
import type { CalculateBody } from '../pricing/schemas';
import { auditMeterBills, type AuditBill, type BillAudit, type BillPricing, type PrintedLine, type SiblingBill } from './audit.calc';
import { createAuditRepository, type BillRow, type FindingFilter, type FindingRow, type MeterAuditInput } from './repository';

/** Rows of one export at most (an owner with more filters by property or date). */
export const MAX_EXPORT_ROWS = 100_000;
const FINDING_CSV_HEADER = [
  'finding_id', 'bill_id', 'property_id', 'meter_id', 'period_start', 'period_end', 'reason', 'severity', 'amount_at_issue',
  'message', 'status', 'resolution', 'note', 'created_at',
];

/** How far the explanation's search goes: usage (or demand) from 0 to 4 times the bill's. */
const MAX_FACTOR = 4;
const SEARCH_STEPS = 30;

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
    resolved_at: f.resolvedAt ? f.resolvedAt.toISOString() : null,
    created_at: f.createdAt.toISOString(),
    ...(f.periodStart !== undefined ? { period_start: f.periodStart, period_end: f.periodEnd } : {}),
  };
}

const toAuditBill = (b: BillRow): AuditBill => ({
  id: b.id, meterId: b.meterId, periodStart: b.periodStart, periodEnd: b.periodEnd, amountCents: toCents(b.amount),
  usage: b.usage, unit: b.unit, demandKw: b.demandKw, isEstimated: b.isEstimated, lineItems: (b.lineItems as PrintedLine[] | null) ?? null,
  createdAt: b.createdAt,
});

const toSibling = (b: BillRow): SiblingBill => ({
  id: b.id, meterId: b.meterId, periodStart: b.periodStart, periodEnd: b.periodEnd, amountCents: toCents(b.amount), createdAt: b.createdAt,
});

export function createAuditService(deps: {
  db: Db;
  now: () => Date;
  calculator: Pick<CalculatorService, 'calculate' | 'calculatePeriod'>;
  /** Queues the audit of these meters (the bill-audit queue; never throws). */
  requestAudits(meterIds: readonly string[]): Promise<void>;
  /** An open high-severity finding is a notification (once per bill and reason). */
  notifications?: Pick<NotificationService, 'notifyMany'>;
  /** Queues the owner's analytics recompute (open high-severity findings are a health deduction; never throws). */
  dataChanged?(ownerId: string): Promise<void>;
}) {
  const repo = createAuditRepository(deps.db);

  /** The /calculate request that prices a bill on its meter's tariff, or why there is none. */
  function pricingRequest(bill: BillRow, input: MeterAuditInput): { body: CalculateBody } | { reason: string } {
    const { meter, property } = input;
    const electric = meter.utilityType === 'electric';
    const tariffId = meter.tariffId ?? (electric ? property.tariffId : null);
    if (!tariffId) return { reason: electric ? 'neither the meter nor its property has a tariff' : `the ${meter.utilityType} meter has no tariff` };
    if (bill.usage === null) return { reason: 'the bill has no usage' };
    const supplyTariffId = meter.supplyTariffId ?? (electric ? property.supplyTariffId : null);
    const body = electric
      ? {
        tariff_id: tariffId, usage_kwh: bill.usageKwh ?? bill.usage, demand_kw: bill.demandKw,
        supply_tariff_id: supplyTariffId, supply_rate_per_kwh: property.supplyRatePerKwh,
      }
      : { tariff_id: tariffId, usage: bill.usage, unit: bill.unit };
    return { body: body as CalculateBody };
  }

  /** A 4xx of the calculator is why a bill cannot be priced; anything else is a fault. */
  async function attempt<T>(work: () => Promise<T>): Promise<T | { reason: string }> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof AppError && err.status < 500) return { reason: err.detail };
      throw err;
    }
  }

  /**
   * Without printed lines, what the billed amount would mean: the usage (or, on a bill with demand,
   * the demand) at which the expected bill equals it, found by halving the interval (README
   * "Explanations"). Null when no such amount lies between 0 and 4 times the bill's.
   */
  async function explain(bill: BillRow, body: CalculateBody, ownerId: string, billedCents: number, expectedCents: number): Promise<string | null> {
    const byDemand = bill.demandKw !== null && bill.demandKw > 0;
    const base = byDemand ? bill.demandKw! : (bill.usageKwh ?? bill.usage ?? 0);
    if (base <= 0) return null;
    const field = byDemand ? 'demand_kw' : ('usage_kwh' in body && body.usage_kwh !== undefined ? 'usage_kwh' : 'usage');
    const costAt = async (factor: number) => {
      const r = await attempt(() => deps.calculator.calculatePeriod({ ...body, [field]: Math.round(base * factor * 1000) / 1000 }, ownerId));
      return 'reason' in r ? null : toCents(r.bill.total_cost);
    };
    let [lo, hi] = billedCents > expectedCents ? [1, MAX_FACTOR] : [0, 1];
    const atHi = await costAt(hi);
    const atLo = await costAt(lo);
    if (atHi === null || atLo === null || billedCents < atLo || billedCents > atHi) return null;
    for (let i = 0; i < SEARCH_STEPS; i++) {
      const mid = (lo + hi) / 2;
      const cents = await costAt(mid);
      if (cents === null) return null;
      if (cents < billedCents) lo = mid;
      else hi = mid;
    }
    const percent = Math.round((hi - 1) * 1000) / 10;
    if (percent === 0) return null;
    return `the billed amount matches the expected bill at ${Math.abs(percent)} % ${percent > 0 ? 'more' : 'less'} ${byDemand ? 'demand' : 'usage'}`;
  }

  /** The engine's view of one bill: its expected amount and lines, the tariff's limits and what it bills in any month. */
  async function priceBill(bill: BillRow, input: MeterAuditInput): Promise<BillPricing> {
    const request = pricingRequest(bill, input);
    if ('reason' in request) return { kind: 'unpriceable', reason: request.reason };
    const ownerId = input.property.ownerId;
    const body = { ...request.body, period_start: bill.periodStart, period_end: bill.periodEnd };
    const priced = await attempt(() => deps.calculator.calculatePeriod(body, ownerId));
    if ('reason' in priced) return { kind: 'unpriceable', reason: priced.reason };
    const { bill: expected, tariff } = priced;
    const expectedCents = toCents(expected.total_cost);
    const months: number[] = [];
    for (let month = 1; month <= 12; month++) {
      const r = await attempt(() => deps.calculator.calculate({ ...request.body, month, date: bill.periodEnd }, ownerId));
      if (!('reason' in r)) months.push(toCents(r.total_cost));
    }
    const billedCents = toCents(bill.amount);
    const needsExplaining = bill.lineItems === null && billedCents !== expectedCents;
    return {
      kind: 'priced',
      tariffId: tariff.id,
      tariffName: tariff.name,
      expectedCents,
      expectedLines: expected.line_items,
      demandKwMax: tariff.applicability.demandKwMax,
      expiredOn: tariff.expirationDate !== null && tariff.expirationDate < bill.periodEnd ? tariff.expirationDate : null,
      yearRangeCents: months.length === 12 ? { min: Math.min(...months), max: Math.max(...months) } : null,
      explanation: needsExplaining ? await explain(bill, body, ownerId, billedCents, expectedCents) : null,
    };
  }

  /** Audits every bill of a meter and stores the result; false when the meter is gone. */
  async function auditMeter(meterId: string): Promise<boolean> {
    const input = await repo.meterInput(meterId);
    if (!input) return false;
    const pricing = new Map<string, BillPricing>();
    for (const bill of input.bills) pricing.set(bill.id, await priceBill(bill, input));
    const audits: BillAudit[] = auditMeterBills({
      bills: input.bills.map(toAuditBill), pricing, siblings: input.siblings.map(toSibling),
      settings: { tolerancePercent: input.tolerancePercent },
    });
    const ownerId = input.property.ownerId;
    await repo.store({ ownerId, propertyId: input.property.id, meterId }, audits, deps.now());
    const periodOf = new Map(input.bills.map((b) => [b.id, `${b.periodStart} to ${b.periodEnd}`]));
    await deps.notifications?.notifyMany(audits.flatMap((a) => a.findings).filter((f) => f.severity === 'high').map((f) => ({
      userId: ownerId,
      type: 'bill_audit',
      propertyId: input.property.id,
      message: `Bill audit: ${input.property.name}, ${input.meter.name}, ${periodOf.get(f.billId)}: ${f.message}`,
      dedupeKey: `bill-audit:${f.billId}:${f.reason}`,
    })));
    await deps.dataChanged?.(ownerId);
    return true;
  }

  return {
    auditMeter,

    /** GET /pm/bills/{id}/audit: the bill's meter audited now (read-your-writes), then its audit and findings. */
    async billAudit(ownerId: string, billId: string) {
      const bill = await repo.billOfOwner(ownerId, billId);
      if (!bill) throw notFound('Bill not found');
      await auditMeter(bill.meterId);
      const audit = (await repo.auditOf(billId))!;
      const findings = await repo.findingsOfBill(billId);
      return {
        bill_id: billId,
        meter_id: bill.meterId,
        status: audit.status,
        reason: audit.reason,
        tariff_id: audit.tariffId,
        billed_amount: bill.amount,
        expected_amount: audit.expectedCents === null ? null : audit.expectedCents / 100,
        variance: audit.varianceCents === null ? null : audit.varianceCents / 100,
        variance_percent: audit.variancePercent,
        // In the documented key order (jsonb keeps its own).
        expected_line_items: audit.expectedLines?.map((l) => ({ category: l.category, name: l.name, amount: l.amount })) ?? null,
        findings: findings.map((f) => presentFinding(f)),
        audited_at: audit.auditedAt.toISOString(),
      };
    },

    /** GET /pm/audit/findings: the owner's findings, newest bill first. */
    async findings(ownerId: string, q: PageQuery & FindingFilter) {
      const { rows, total } = await repo.findings(ownerId, q, offsetOf(q), q.per_page);
      return toPage(rows.map((r) => presentFinding(r)), total, q);
    },

    /**
     * GET /pm/audit/findings/export.csv: every finding the filters select (no pages), newest bill
     * first, one row each, for a dispute file or a spreadsheet.
     */
    async exportCsv(ownerId: string, filter: FindingFilter): Promise<string> {
      const { rows } = await repo.findings(ownerId, filter, 0, MAX_EXPORT_ROWS);
      return csvDocument(FINDING_CSV_HEADER, rows.map((f) => [
        f.id, f.billId, f.propertyId, f.meterId, f.periodStart, f.periodEnd, f.reason, f.severity,
        f.amountCents === null ? '' : (f.amountCents / 100).toFixed(2), neutralise(f.message), f.status, f.resolution ?? '',
        neutralise(f.note ?? ''), f.createdAt.toISOString(),
      ]));
    },

    /** POST /pm/audit/findings/{id}/resolve. */
    async resolve(ownerId: string, id: string, body: { resolution: 'disputed' | 'accepted' | 'corrected'; note?: string | null }) {
      const finding = await repo.findingOfOwner(ownerId, id);
      if (!finding) throw notFound('Finding not found');
      if (finding.status === 'resolved') throw unprocessable(`the finding is already resolved (${finding.resolution})`, 'resolution');
      const resolved = presentFinding(await repo.resolve(id, body.resolution, body.note ?? null, deps.now()));
      await deps.dataChanged?.(ownerId);
      return resolved;
    },

    /** PATCH /pm/audit/settings: the tolerance; the owner's meters are queued to be audited again with it. */
    async updateSettings(ownerId: string, body: { tolerance_percent: number }) {
      await repo.setTolerance(ownerId, body.tolerance_percent, deps.now());
      await deps.requestAudits(await repo.metersWithBills(ownerId));
      return { tolerance_percent: await repo.tolerance(ownerId) };
    },

    /** Dashboard stats' audit figures. */
    openTotals: (ownerId: string) => repo.openTotals(ownerId),

    /** Queues the audit of every meter of the owner with bills (a version of one of their tariffs was added). */
    auditOwner: async (ownerId: string) => deps.requestAudits(await repo.metersWithBills(ownerId)),

    /** Queues the audit of a property's meters (its tariff or supply changed). */
    auditProperty: async (propertyId: string) => deps.requestAudits(await repo.metersOfProperty(propertyId)),
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
