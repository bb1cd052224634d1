import { and, asc, count, desc, eq, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { rowWhere } from '../../platform/db/rows';
import { viewOfBills, type BillRow } from '../bills/public';
import { viewOfMeters, type MeterRow } from '../meters/public';
import { viewOfProperties, type PropertyRow } from '../properties/public';
import { auditFindings, auditSettings, billAudits } from './tables';
import { auditWrites } from './audit-writes';

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
    | 'id'
    | 'name'
    | 'ownerId'
    | 'tariffId'
    | 'supplyTariffId'
    | 'supplyRatePerKwh'
    | 'propertyType'
    | 'unitCount'
    | 'zipCode'
    | 'state'
    | 'timezone'
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
      return rowWhere(db, auditFindings, and(eq(auditFindings.id, id), eq(auditFindings.ownerId, ownerId)));
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

/**
 * Everything the audits of these meters read, in few statements (a batch of an owner's re-audit
 * reads its 200 meters together): meters gone since are left out. `readAt` is when they were read.
 */
async function readMetersInput(db: Db, meterIds: readonly string[]): Promise<{ readAt: string; inputs: MeterAuditInput[] }> {
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
        state: properties.state,
        timezone: properties.timezone,
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
}

export function createAuditRepository(db: Db) {
  return {
    /**
     * Everything the audits of these meters read, in few statements (a batch of an owner's re-audit
     * reads its 200 meters together): meters gone since are left out. `readAt` is when they were read.
     */
    metersInput: (meterIds: readonly string[]) => readMetersInput(db, meterIds),

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
