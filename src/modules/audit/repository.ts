import { and, asc, count, desc, eq, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../platform/db/client';
import { rowsOf } from '../../platform/db/errors';
import { viewOfBills, type BillRow } from '../bills/public';
import { viewOfMeters, type MeterRow } from '../meters/public';
import { viewOfProperties, type PropertyRow } from '../properties/public';
import { auditFindings, auditSettings, billAudits, meterAudits } from './tables';
import type { BillAudit } from './audit.types';

export type FindingRow = typeof auditFindings.$inferSelect;
export type BillAuditRow = typeof billAudits.$inferSelect;
export type { BillRow };

const properties = viewOfProperties('property_view');
const meters = viewOfMeters('meter_view');
const bills = viewOfBills('bill_view');

/** What an audit of one meter reads: the meter, its property's pricing fields, its bills and the siblings. */
export interface MeterAuditInput {
  meter: MeterRow;
  property: Pick<
    PropertyRow,
    'id' | 'name' | 'ownerId' | 'tariffId' | 'supplyTariffId' | 'supplyRatePerKwh' | 'propertyType' | 'unitCount' | 'zipCode'
  >;
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
  status?: 'open' | 'resolved' | 'disputed' | 'credited' | 'denied';
  /** Bills whose period ends on or after / on or before these days. */
  from?: string;
  to?: string;
}

export const DEFAULT_TOLERANCE_PERCENT = 3;

/** Writing meters' audits: their rows and findings, in one statement. */
function auditWrites(db: Db) {
  return {
    /**
     * Stores meters' audits read at `readAt`, in one statement (so atomically): each bill's audit row,
     * its findings (a finding already resolved keeps its resolution; an open one the audit no longer
     * finds goes; a finding that did not change is not rewritten, since each write marks the
     * property's health for a recompute). A meter whose stored audit read it later is left as it is.
     * Rows go as JSON parameters expanded by jsonb_to_recordset (as bill imports do): thousands of
     * bind parameters cost more to build than the statement costs to run. Returns the meters stored.
     * `after` runs in the same transaction with what was stored, and the findings written new (keys
     * `bill id|reason`, values their ids): the run's notification and events commit with the findings
     * they report, or none does.
     */
    async store(
      stored: Array<{ ownerId: string; propertyId: string; meterId: string; audits: BillAudit[] }>,
      readAt: string,
      at: Date,
      after?: (result: { meters: Set<string>; newFindings: Map<string, string> }, executor: Executor) => Promise<void>,
    ): Promise<Set<string>> {
      if (stored.length === 0) return new Set();
      const when = at.toISOString();
      const audits = stored.flatMap((m) =>
        m.audits.map((a) => ({
          bill_id: a.billId,
          owner_id: m.ownerId,
          property_id: m.propertyId,
          meter_id: m.meterId,
          status: a.status,
          reason: a.reason,
          expected_cents: a.expectedCents,
          variance_cents: a.varianceCents,
          variance_percent: a.variancePercent,
          tariff_id: a.tariffId,
          expected_lines: a.expectedLines,
        })),
      );
      const findings = stored.flatMap((m) =>
        m.audits.flatMap((a) =>
          a.findings.map((f) => ({
            owner_id: m.ownerId,
            property_id: m.propertyId,
            meter_id: m.meterId,
            bill_id: f.billId,
            reason: f.reason,
            severity: f.severity,
            amount_cents: f.amountCents,
            message: f.message,
            details: f.details,
          })),
        ),
      );
      // Meters in the order given (id order): concurrent statements lock their rows in the same order.
      return db.transaction(async (tx) => {
        const rows = rowsOf<{ meter_id: string | null; bill_id: string | null; reason: string | null; finding_id: string | null }>(
          await tx.execute(sql`
          with claimed as (
            insert into ${meterAudits} (meter_id, read_at)
            select m.id, ${readAt}::timestamptz from jsonb_array_elements_text(${JSON.stringify(stored.map((m) => m.meterId))}::jsonb) as m(id)
            on conflict (meter_id) do update set read_at = excluded.read_at where ${meterAudits}.read_at <= excluded.read_at
            returning meter_id
          ),
          audits as (
            select * from jsonb_to_recordset(${JSON.stringify(audits)}::jsonb) as r(bill_id text, owner_id text, property_id text, meter_id text,
              status text, reason text, expected_cents bigint, variance_cents bigint, variance_percent numeric, tariff_id text, expected_lines jsonb)
            where r.meter_id in (select meter_id from claimed)
          ),
          findings as (
            select * from jsonb_to_recordset(${JSON.stringify(findings)}::jsonb) as r(owner_id text, property_id text, meter_id text, bill_id text,
              reason text, severity text, amount_cents bigint, message text, details jsonb)
            where r.meter_id in (select meter_id from claimed)
          ),
          audits_stored as (
            insert into ${billAudits} (bill_id, owner_id, property_id, meter_id, status, reason, expected_cents, variance_cents, variance_percent,
              tariff_id, expected_lines, audited_at)
            select bill_id, owner_id, property_id, meter_id, status, reason, expected_cents, variance_cents, variance_percent,
              tariff_id, expected_lines, ${when}::timestamptz from audits
            on conflict (bill_id) do update set status = excluded.status, reason = excluded.reason, expected_cents = excluded.expected_cents,
              variance_cents = excluded.variance_cents, variance_percent = excluded.variance_percent, tariff_id = excluded.tariff_id,
              expected_lines = excluded.expected_lines, audited_at = excluded.audited_at
          ),
          findings_gone as (
            delete from ${auditFindings} f
            -- An array, not a join with the CTE: the planner then looks the bills up in the index (a join scanned the table).
            where f.bill_id = any(array(select bill_id from audits)) and f.status = 'open'
              and not exists (select 1 from findings k where k.bill_id = f.bill_id and k.reason = f.reason)
          ),
          findings_stored as (
            insert into ${auditFindings} as f (owner_id, property_id, meter_id, bill_id, reason, severity, amount_cents, message, details,
              created_at, updated_at)
            select owner_id, property_id, meter_id, bill_id, reason, severity, amount_cents, message, details, ${when}::timestamptz, ${when}::timestamptz
            from findings
            on conflict (bill_id, reason) do update set severity = excluded.severity, amount_cents = excluded.amount_cents,
              message = excluded.message, details = excluded.details, updated_at = excluded.updated_at
            where f.status = 'open'
              and (f.severity, f.amount_cents, f.message, f.details) is distinct from (excluded.severity, excluded.amount_cents, excluded.message, excluded.details)
            -- xmax is 0 on a row this statement inserted (an update of a conflicting row sets it).
            returning f.id, f.bill_id, f.reason, (f.xmax = 0) as inserted
          )
          select meter_id, null::text as bill_id, null::text as reason, null::text as finding_id from claimed
          union all select null, bill_id, reason, id from findings_stored where inserted`),
        );
        const meters = new Set(rows.flatMap((r) => (r.meter_id === null ? [] : [r.meter_id])));
        const newFindings = new Map(
          rows.flatMap((r) => (r.bill_id === null ? [] : [[`${r.bill_id}|${r.reason}`, r.finding_id!] as const])),
        );
        await after?.({ meters, newFindings }, tx);
        return meters;
      });
    },
  };
}

/** A bill's audit and findings, the owner's findings page by page, and a finding's resolution. */
function findingQueries(db: Db) {
  function findingConditions(ownerId: string, f: FindingFilter): SQL | undefined {
    return and(
      eq(auditFindings.ownerId, ownerId),
      f.propertyId ? eq(auditFindings.propertyId, f.propertyId) : undefined,
      f.portfolioId
        ? inArray(
            auditFindings.propertyId,
            db.select({ id: properties.id }).from(properties).where(eq(properties.portfolioId, f.portfolioId)),
          )
        : undefined,
      f.meterId ? eq(auditFindings.meterId, f.meterId) : undefined,
      f.reason ? eq(auditFindings.reason, f.reason) : undefined,
      f.status ? eq(auditFindings.status, f.status) : undefined,
      f.from ? gte(bills.periodEnd, f.from) : undefined,
      f.to ? lte(bills.periodEnd, f.to) : undefined,
    );
  }

  return {
    async auditOf(billId: string): Promise<BillAuditRow | null> {
      const [row] = await db.select().from(billAudits).where(eq(billAudits.billId, billId));
      return row ?? null;
    },

    /**
     * A bill's findings: its own, and its meter's causes that cover it though stated on an earlier
     * bill (`expired_tariff`, `demand_above_applicability`: `details.bills`, audit.meter.calc.ts).
     */
    async findingsOfBill(billId: string): Promise<FindingRow[]> {
      const covering = sql`${auditFindings.propertyId} = (select property_id from ${bills} where id = ${billId})
        and ${auditFindings.meterId} = (select meter_id from ${bills} where id = ${billId})
        and ${auditFindings.reason} in ('expired_tariff', 'demand_above_applicability')
        and ${auditFindings.details} @> jsonb_build_object('bills', jsonb_build_array(jsonb_build_object('bill_id', ${billId}::text)))`;
      return db
        .select()
        .from(auditFindings)
        .where(or(eq(auditFindings.billId, billId), covering))
        .orderBy(asc(auditFindings.reason));
    },

    /** One page of the owner's findings, newest bill first. */
    async findings(
      ownerId: string,
      f: FindingFilter,
      offset: number,
      limit: number,
    ): Promise<{ rows: Array<FindingRow & { periodStart: string; periodEnd: string }>; total: number }> {
      const where = findingConditions(ownerId, f);
      const [{ total }] = await db
        .select({ total: count() })
        .from(auditFindings)
        .innerJoin(bills, eq(bills.id, auditFindings.billId))
        .where(where);
      const rows =
        total === 0
          ? []
          : await db
              .select({ finding: auditFindings, periodStart: bills.periodStart, periodEnd: bills.periodEnd })
              .from(auditFindings)
              .innerJoin(bills, eq(bills.id, auditFindings.billId))
              .where(where)
              .orderBy(desc(bills.periodEnd), desc(auditFindings.createdAt), asc(auditFindings.id))
              .limit(limit)
              .offset(offset);
      return { rows: rows.map((r) => ({ ...r.finding, periodStart: r.periodStart, periodEnd: r.periodEnd })), total };
    },

    async findingOfOwner(ownerId: string, id: string): Promise<FindingRow | null> {
      const [row] = await db
        .select()
        .from(auditFindings)
        .where(and(eq(auditFindings.id, id), eq(auditFindings.ownerId, ownerId)));
      return row ?? null;
    },

    async resolve(id: string, resolution: string, note: string | null, at: Date): Promise<FindingRow> {
      const [row] = await db
        .update(auditFindings)
        .set({ status: 'resolved', resolution, note, resolvedAt: at, updatedAt: at })
        .where(eq(auditFindings.id, id))
        .returning();
      return row!;
    },
  };
}

export function createAuditRepository(db: Db) {
  return {
    /**
     * Everything the audits of these meters read, in few statements (a batch of an owner's re-audit
     * reads its 200 meters together): meters gone since are left out. `readAt` is when they were read.
     */
    async metersInput(meterIds: readonly string[]): Promise<{ readAt: string; inputs: MeterAuditInput[] }> {
      const found = await db
        .select({
          meter: meters._.selectedFields,
          property: {
            id: properties.id,
            name: properties.name,
            ownerId: properties.ownerId,
            tariffId: properties.tariffId,
            supplyTariffId: properties.supplyTariffId,
            supplyRatePerKwh: properties.supplyRatePerKwh,
            propertyType: properties.propertyType,
            unitCount: properties.unitCount,
            zipCode: properties.zipCode,
          },
          tolerance: auditSettings.tolerancePercent,
          readAt: sql<string>`now()::text`,
        })
        .from(meters)
        .innerJoin(properties, eq(properties.id, meters.propertyId))
        .leftJoin(auditSettings, eq(auditSettings.ownerId, properties.ownerId))
        .where(inArray(meters.id, [...meterIds]))
        // In id order: concurrent statements storing overlapping meters lock them in the same order (no deadlock).
        .orderBy(asc(meters.id));
      if (found.length === 0) return { readAt: '', inputs: [] };
      // The properties' bills: each meter's own, and the siblings of the same utility type on the property's other meters.
      const propertyIds = [...new Set(found.map((f) => f.property.id))];
      const propertyBills: BillRow[] = await db
        .select()
        .from(bills)
        .where(inArray(bills.propertyId, propertyIds))
        .orderBy(asc(bills.periodStart), asc(bills.periodEnd), asc(bills.id));
      const byProperty = new Map<string, BillRow[]>();
      for (const bill of propertyBills) {
        const list = byProperty.get(bill.propertyId);
        if (list) list.push(bill);
        else byProperty.set(bill.propertyId, [bill]);
      }
      return {
        readAt: found[0]!.readAt,
        inputs: found.map(({ meter, property, tolerance: t }) => {
          const ofProperty = byProperty.get(property.id) ?? [];
          return {
            meter,
            property,
            bills: ofProperty.filter((b) => b.meterId === meter.id),
            siblings: ofProperty.filter((b) => b.meterId !== meter.id && b.utilityType === meter.utilityType),
            tolerancePercent: t ?? DEFAULT_TOLERANCE_PERCENT,
          };
        }),
      };
    },

    /** The meter a bill is on, when the bill is the owner's. */
    async billOfOwner(ownerId: string, billId: string): Promise<BillRow | null> {
      const [row] = await db
        .select({ bill: bills._.selectedFields })
        .from(bills)
        .innerJoin(properties, eq(properties.id, bills.propertyId))
        .where(and(eq(bills.id, billId), eq(properties.ownerId, ownerId)));
      return row?.bill ?? null;
    },

    /** The owner's tolerance, the default until they set one. */
    async tolerance(ownerId: string): Promise<number> {
      const [row] = await db.select({ t: auditSettings.tolerancePercent }).from(auditSettings).where(eq(auditSettings.ownerId, ownerId));
      return row?.t ?? DEFAULT_TOLERANCE_PERCENT;
    },

    async setTolerance(ownerId: string, tolerancePercent: number, at: Date): Promise<void> {
      await db
        .insert(auditSettings)
        .values({ ownerId, tolerancePercent, updatedAt: at })
        .onConflictDoUpdate({ target: auditSettings.ownerId, set: { tolerancePercent, updatedAt: at } });
    },

    async metersOfProperty(propertyId: string): Promise<string[]> {
      const rows = await db.select({ id: meters.id }).from(meters).where(eq(meters.propertyId, propertyId));
      return rows.map((r) => r.id);
    },

    /** The owner's meters with bills (a tolerance change re-audits them). */
    async metersWithBills(ownerId: string): Promise<string[]> {
      // A property's meters side by side: the re-audit's jobs of 200 meters keep a property in one (one digest each) but at a boundary.
      const rows = await db
        .selectDistinct({ propertyId: bills.propertyId, id: bills.meterId })
        .from(bills)
        .innerJoin(properties, eq(properties.id, bills.propertyId))
        .where(eq(properties.ownerId, ownerId))
        .orderBy(asc(bills.propertyId), asc(bills.meterId));
      return rows.map((r) => r.id);
    },

    ...auditWrites(db),
    ...findingQueries(db),
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
