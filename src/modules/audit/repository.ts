import { and, asc, count, desc, eq, gte, inArray, lte, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../platform/db/client';
import { properties } from '../properties/tables';
import { meters } from '../meters/tables';
import { utilityBills } from '../bills/tables';
import { auditFindings, auditSettings, billAudits } from './tables';
import type { BillAudit } from './audit.calc';

export type FindingRow = typeof auditFindings.$inferSelect;
export type BillAuditRow = typeof billAudits.$inferSelect;
export type BillRow = typeof utilityBills.$inferSelect;

/** What an audit of one meter reads: the meter, its property's pricing fields, its bills and the siblings. */
export interface MeterAuditInput {
  meter: typeof meters.$inferSelect;
  property: Pick<typeof properties.$inferSelect, 'id' | 'name' | 'ownerId' | 'tariffId' | 'supplyTariffId' | 'supplyRatePerKwh'>;
  bills: BillRow[];
  /** The property's bills of the same utility type on its other meters. */
  siblings: BillRow[];
  tolerancePercent: number;
}

export interface FindingFilter {
  propertyId?: string;
  portfolioId?: string;
  meterId?: string;
  reason?: string;
  status?: 'open' | 'resolved';
  /** Bills whose period ends on or after / on or before these days. */
  from?: string;
  to?: string;
}

export const DEFAULT_TOLERANCE_PERCENT = 3;
/** Bills stored per statement (12 parameters each; their findings, at most 10 per bill, 11 each). */
const STORE_CHUNK = 400;

/** One chunk of a meter's audit: the bills' audit rows, then their findings. */
async function storeChunk(tx: Executor, owner: { ownerId: string; propertyId: string; meterId: string }, audits: BillAudit[], at: Date): Promise<void> {
  const billIds = audits.map((a) => a.billId);
  if (billIds.length === 0) return;
  await tx.insert(billAudits).values(audits.map((a) => ({
    billId: a.billId, ownerId: owner.ownerId, propertyId: owner.propertyId, meterId: owner.meterId, status: a.status,
    reason: a.reason, expectedCents: a.expectedCents, varianceCents: a.varianceCents, variancePercent: a.variancePercent,
    tariffId: a.tariffId, expectedLines: a.expectedLines, auditedAt: at,
  }))).onConflictDoUpdate({
    target: billAudits.billId,
    set: {
      status: sql`excluded.status`, reason: sql`excluded.reason`, expectedCents: sql`excluded.expected_cents`,
      varianceCents: sql`excluded.variance_cents`, variancePercent: sql`excluded.variance_percent`, tariffId: sql`excluded.tariff_id`,
      expectedLines: sql`excluded.expected_lines`, auditedAt: sql`excluded.audited_at`,
    },
  });
  const findings = audits.flatMap((a) => a.findings);
  const keep = findings.map((f) => `${f.billId}|${f.reason}`);
  // Open findings the audit no longer makes go; resolved ones stay as their owner left them.
  await tx.delete(auditFindings).where(and(
    inArray(auditFindings.billId, billIds), eq(auditFindings.status, 'open'),
    keep.length > 0 ? notInArray(sql`${auditFindings.billId} || '|' || ${auditFindings.reason}`, keep) : undefined,
  ));
  if (findings.length === 0) return;
  await tx.insert(auditFindings).values(findings.map((f) => ({
    ownerId: owner.ownerId, propertyId: owner.propertyId, meterId: owner.meterId, billId: f.billId, reason: f.reason,
    severity: f.severity, amountCents: f.amountCents, message: f.message, details: f.details, createdAt: at, updatedAt: at,
  }))).onConflictDoUpdate({
    target: [auditFindings.billId, auditFindings.reason],
    set: {
      severity: sql`excluded.severity`, amountCents: sql`excluded.amount_cents`, message: sql`excluded.message`,
      details: sql`excluded.details`, updatedAt: sql`excluded.updated_at`,
    },
    // Only what changed is written: each write marks the property's health for a recompute.
    setWhere: and(eq(auditFindings.status, 'open'), sql`(${auditFindings.severity}, ${auditFindings.amountCents}, ${auditFindings.message}, ${auditFindings.details})
      is distinct from (excluded.severity, excluded.amount_cents, excluded.message, excluded.details)`),
  });
}

export function createAuditRepository(db: Db) {
  async function tolerance(ex: Executor, ownerId: string): Promise<number> {
    const [row] = await ex.select({ t: auditSettings.tolerancePercent }).from(auditSettings).where(eq(auditSettings.ownerId, ownerId));
    return row?.t ?? DEFAULT_TOLERANCE_PERCENT;
  }

  function findingConditions(ownerId: string, f: FindingFilter): SQL | undefined {
    return and(
      eq(auditFindings.ownerId, ownerId),
      f.propertyId ? eq(auditFindings.propertyId, f.propertyId) : undefined,
      f.portfolioId ? inArray(auditFindings.propertyId, db.select({ id: properties.id }).from(properties).where(eq(properties.portfolioId, f.portfolioId))) : undefined,
      f.meterId ? eq(auditFindings.meterId, f.meterId) : undefined,
      f.reason ? eq(auditFindings.reason, f.reason) : undefined,
      f.status ? eq(auditFindings.status, f.status) : undefined,
      f.from ? gte(utilityBills.periodEnd, f.from) : undefined,
      f.to ? lte(utilityBills.periodEnd, f.to) : undefined,
    );
  }

  return {
    /** Everything an audit of the meter reads; null when the meter is gone. */
    async meterInput(meterId: string): Promise<MeterAuditInput | null> {
      const [found] = await db.select({ meter: meters, property: {
        id: properties.id, name: properties.name, ownerId: properties.ownerId, tariffId: properties.tariffId, supplyTariffId: properties.supplyTariffId,
        supplyRatePerKwh: properties.supplyRatePerKwh,
      } }).from(meters).innerJoin(properties, eq(properties.id, meters.propertyId)).where(eq(meters.id, meterId));
      if (!found) return null;
      const bills = await db.select().from(utilityBills).where(eq(utilityBills.meterId, meterId))
        .orderBy(asc(utilityBills.periodStart), asc(utilityBills.periodEnd));
      const siblings = await db.select().from(utilityBills).where(and(
        eq(utilityBills.propertyId, found.property.id), eq(utilityBills.utilityType, found.meter.utilityType), ne(utilityBills.meterId, meterId),
      ));
      return { ...found, bills, siblings, tolerancePercent: await tolerance(db, found.property.ownerId) };
    },

    /** The meter a bill is on, when the bill is the owner's. */
    async billOfOwner(ownerId: string, billId: string): Promise<BillRow | null> {
      const [row] = await db.select({ bill: utilityBills }).from(utilityBills)
        .innerJoin(properties, eq(properties.id, utilityBills.propertyId))
        .where(and(eq(utilityBills.id, billId), eq(properties.ownerId, ownerId)));
      return row?.bill ?? null;
    },

    /**
     * Stores a meter's audit in one transaction: each bill's audit row, its findings (a finding already
     * resolved keeps its resolution; an open one the audit no longer finds goes).
     */
    async store(owner: { ownerId: string; propertyId: string; meterId: string }, audits: BillAudit[], at: Date): Promise<void> {
      await db.transaction(async (tx) => {
        // In chunks: a meter may have thousands of bills, and a statement takes at most 65,535 parameters.
        for (let i = 0; i < audits.length; i += STORE_CHUNK) await storeChunk(tx, owner, audits.slice(i, i + STORE_CHUNK), at);
      });
    },

    async auditOf(billId: string): Promise<BillAuditRow | null> {
      const [row] = await db.select().from(billAudits).where(eq(billAudits.billId, billId));
      return row ?? null;
    },

    async findingsOfBill(billId: string): Promise<FindingRow[]> {
      return db.select().from(auditFindings).where(eq(auditFindings.billId, billId)).orderBy(asc(auditFindings.reason));
    },

    /** One page of the owner's findings, newest bill first. */
    async findings(ownerId: string, f: FindingFilter, offset: number, limit: number): Promise<{ rows: Array<FindingRow & { periodStart: string; periodEnd: string }>; total: number }> {
      const where = findingConditions(ownerId, f);
      const [{ total }] = await db.select({ total: count() }).from(auditFindings)
        .innerJoin(utilityBills, eq(utilityBills.id, auditFindings.billId)).where(where);
      const rows = total === 0 ? [] : await db.select({ finding: auditFindings, periodStart: utilityBills.periodStart, periodEnd: utilityBills.periodEnd })
        .from(auditFindings).innerJoin(utilityBills, eq(utilityBills.id, auditFindings.billId)).where(where)
        .orderBy(desc(utilityBills.periodEnd), desc(auditFindings.createdAt), asc(auditFindings.id)).limit(limit).offset(offset);
      return { rows: rows.map((r) => ({ ...r.finding, periodStart: r.periodStart, periodEnd: r.periodEnd })), total };
    },

    async findingOfOwner(ownerId: string, id: string): Promise<FindingRow | null> {
      const [row] = await db.select().from(auditFindings).where(and(eq(auditFindings.id, id), eq(auditFindings.ownerId, ownerId)));
      return row ?? null;
    },

    async resolve(id: string, resolution: string, note: string | null, at: Date): Promise<FindingRow> {
      const [row] = await db.update(auditFindings).set({ status: 'resolved', resolution, note, resolvedAt: at, updatedAt: at })
        .where(eq(auditFindings.id, id)).returning();
      return row!;
    },

    tolerance: (ownerId: string) => tolerance(db, ownerId),

    /**
     * The owner's open findings, and the dollars at issue in them: per bill the largest of its open
     * findings' amounts by size (two rules finding the same overcharge count it once).
     */
    async openTotals(ownerId: string): Promise<{ open: number; amountCents: number }> {
      const open = and(eq(auditFindings.ownerId, ownerId), eq(auditFindings.status, 'open'));
      const perBill = db.select({ amount: sql<string>`max(abs(${auditFindings.amountCents}))`.as('amount') })
        .from(auditFindings).where(open).groupBy(auditFindings.billId).as('per_bill');
      const [{ n }] = await db.select({ n: count() }).from(auditFindings).where(open);
      const [row] = await db.select({ amount: sql<string>`coalesce(sum(${perBill.amount}), 0)::text` }).from(perBill);
      return { open: n, amountCents: Number(row?.amount ?? 0) };
    },

    async setTolerance(ownerId: string, tolerancePercent: number, at: Date): Promise<void> {
      await db.insert(auditSettings).values({ ownerId, tolerancePercent, updatedAt: at })
        .onConflictDoUpdate({ target: auditSettings.ownerId, set: { tolerancePercent, updatedAt: at } });
    },

    async metersOfProperty(propertyId: string): Promise<string[]> {
      const rows = await db.select({ id: meters.id }).from(meters).where(eq(meters.propertyId, propertyId));
      return rows.map((r) => r.id);
    },

    /** The owner's meters with bills (a tolerance change re-audits them). */
    async metersWithBills(ownerId: string): Promise<string[]> {
      const rows = await db.selectDistinct({ id: utilityBills.meterId }).from(utilityBills)
        .innerJoin(properties, eq(properties.id, utilityBills.propertyId)).where(eq(properties.ownerId, ownerId));
      return rows.map((r) => r.id);
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
