import { and, asc, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../../platform/db/client';
import { viewOfBills } from '../../bills/public';
import { viewOfMeters } from '../../meters/public';
import { viewOfNotifications } from '../../notifications/public';
import { viewOfProperties } from '../../properties/public';
import { auditFindings } from '../tables';
import type { FindingRow } from '../repository';
import type { BillCredit } from './credits.calc';
import type { FindingStatus } from './dispute.calc';

/** A finding with what its transitions check of its bill. */
export type FindingWithBill = FindingRow & { billMeterId: string; billPeriodEnd: string; billAmount: number };

const properties = viewOfProperties('property_view');
const meters = viewOfMeters('meter_view');
const bills = viewOfBills('bill_view');

export interface DisputeFilter {
  propertyId?: string;
  portfolioId?: string;
  /** The year the claims were filed. */
  year?: number;
}

/** The owner's disputes as the filter selects them, and the disputes overdue for a reminder. */
function disputeReports(db: Executor) {
  return {
    /** The owner's disputes (open or closed) with their property's name, as the filter selects them. */
    async disputes(ownerId: string, f: DisputeFilter) {
      const rows = await db
        .select({
          propertyId: auditFindings.propertyId,
          propertyName: properties.name,
          disputedOn: auditFindings.disputedOn,
          status: auditFindings.status,
          amountClaimedCents: auditFindings.amountClaimedCents,
          creditCents: auditFindings.creditCents,
        })
        .from(auditFindings)
        .innerJoin(properties, eq(properties.id, auditFindings.propertyId))
        .where(
          and(
            eq(auditFindings.ownerId, ownerId),
            isNotNull(auditFindings.disputedOn),
            f.propertyId ? eq(auditFindings.propertyId, f.propertyId) : undefined,
            f.portfolioId ? eq(properties.portfolioId, f.portfolioId) : undefined,
            f.year ? sql`extract(year from ${auditFindings.disputedOn}) = ${f.year}` : undefined,
          ),
        );
      return rows.map((r) => ({
        ...r,
        disputedOn: r.disputedOn!,
        status: r.status as FindingStatus,
        amountClaimedCents: r.amountClaimedCents!,
      }));
    },

    /**
     * Disputes still open that were filed before `filedBefore`, of every owner, with what their
     * notification names; those already notified (a notification with key `dedupePrefix` + the
     * finding's id) are left out.
     */
    async overdueDisputes(filedBefore: string, dedupePrefix: string) {
      const rows = await db
        .select({
          id: auditFindings.id,
          ownerId: auditFindings.ownerId,
          propertyId: auditFindings.propertyId,
          propertyName: properties.name,
          meterName: meters.name,
          periodStart: bills.periodStart,
          periodEnd: bills.periodEnd,
          disputedOn: auditFindings.disputedOn,
          claimReference: auditFindings.claimReference,
          amountClaimedCents: auditFindings.amountClaimedCents,
        })
        .from(auditFindings)
        .innerJoin(properties, eq(properties.id, auditFindings.propertyId))
        .innerJoin(bills, eq(bills.id, auditFindings.billId))
        .innerJoin(meters, eq(meters.id, bills.meterId))
        .where(
          and(
            eq(auditFindings.status, 'disputed'),
            lt(auditFindings.disputedOn, filedBefore),
            sql`not exists (select 1 from ${viewOfNotifications('n')} where n.user_id = ${auditFindings.ownerId} and n.dedupe_key = ${dedupePrefix} || ${auditFindings.id})`,
          ),
        )
        .orderBy(asc(auditFindings.disputedOn), asc(auditFindings.id));
      return rows.map((r) => ({
        ...r,
        disputedOn: r.disputedOn!,
        claimReference: r.claimReference!,
        amountClaimedCents: r.amountClaimedCents!,
      }));
    },
  };
}

export function createDisputeRepository(db: Executor) {
  return {
    /** The owner's finding, its row locked until the transaction ends (transitions of one finding run in turn); null when none. */
    async lockFinding(ownerId: string, id: string): Promise<FindingWithBill | null> {
      const [row] = await db
        .select({ finding: auditFindings, meterId: bills.meterId, periodEnd: bills.periodEnd, amount: bills.amount })
        .from(auditFindings)
        .innerJoin(bills, eq(bills.id, auditFindings.billId))
        .where(and(eq(auditFindings.id, id), eq(auditFindings.ownerId, ownerId)))
        .for('update', { of: auditFindings });
      return row ? { ...row.finding, billMeterId: row.meterId, billPeriodEnd: row.periodEnd, billAmount: row.amount } : null;
    },

    /** A bill's meter and period end; null when there is no such bill. */
    async bill(billId: string): Promise<{ meterId: string; periodEnd: string } | null> {
      const [row] = await db.select({ meterId: bills.meterId, periodEnd: bills.periodEnd }).from(bills).where(eq(bills.id, billId));
      return row ?? null;
    },

    async update(id: string, set: Partial<typeof auditFindings.$inferInsert>): Promise<FindingRow> {
      const [row] = await db.update(auditFindings).set(set).where(eq(auditFindings.id, id)).returning();
      return row!;
    },

    /** The credits granted on disputes that these bills carry (the ids go as one JSON parameter: a batch audits thousands of bills). */
    async creditsOnBills(billIds: readonly string[]): Promise<BillCredit[]> {
      if (billIds.length === 0) return [];
      const rows = await db
        .select({ billId: auditFindings.creditBillId, cents: auditFindings.creditCents, claimReference: auditFindings.claimReference })
        .from(auditFindings)
        .where(
          and(
            eq(auditFindings.status, 'credited'),
            sql`${auditFindings.creditBillId} in (select jsonb_array_elements_text(${JSON.stringify(billIds)}::jsonb))`,
          ),
        )
        .orderBy(asc(auditFindings.disputedOn), asc(auditFindings.id));
      return rows.map((r) => ({ billId: r.billId!, cents: r.cents!, claimReference: r.claimReference! }));
    },

    ...disputeReports(db),
  };
}
