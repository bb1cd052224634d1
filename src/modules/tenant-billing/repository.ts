import crypto from 'node:crypto';
import { and, count, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../platform/db/client';
import { rowWhere } from '../../platform/db/rows';
import { rowOfOwned } from '../../platform/db/owned-row';
import { isUniqueViolation } from '../../platform/db/errors';
import { propertyView } from '../properties/public';
import {
  billingConfigs,
  billingConfigVersions,
  rubsCalculations,
  rubsHistoryState,
  rubsInvoiceCounters,
  rubsPostings,
  type CalculationStatus,
} from './tables';

export type BillingConfigRow = typeof billingConfigs.$inferSelect;
export type NewBillingConfig = Omit<typeof billingConfigs.$inferInsert, 'id' | 'createdAt'>;
export type CalculationRow = typeof rubsCalculations.$inferSelect;

/** The property fields a tenant statement shows. */
export interface StatementProperty {
  id: string;
  name: string;
  address: string;
  city: string;
  state: string;
  zipCode: string;
}

/** What changes about a calculation after it is made. */
export interface CalculationState {
  status: CalculationStatus;
  supersedes: string[];
  supersededBy: string | null;
  voidReason: string | null;
  voidedAt: Date | null;
}

/** The earlier active calculation a new one overlaps, and whether charges of it are posted. */
export interface OverlappedCalculation {
  id: string;
  posted: boolean;
}

export interface HistoryRow {
  id: string;
  propertyId: string;
  billingPeriodStart: string;
  billingPeriodEnd: string;
  utilityType: string;
  totalAmount: number;
  unitsBilled: number;
  unitsVacant: number;
  method: string;
  billingConfigVersion: number;
  status: string;
  supersedes: string[];
  supersededBy: string | null;
  calculatedAt: Date;
}

/**
 * True for a calculation with a charge posted, being posted, or whose outcome is unknown (sent, the answer
 * ambiguous), and not reversed: it can be neither voided nor superseded until it is reversed.
 *
 * Read in its own statement *after* the row lock is taken, never in the locking statement: under READ
 * COMMITTED a statement reads the snapshot taken when it began, so a subquery of the `SELECT ... FOR UPDATE`
 * that waited for a post's lock would not see the lines that post committed (issue 46: a post racing a
 * re-bill charged the tenants twice).
 */
const chargesOnLedger = sql<boolean>`exists (select 1 from ${rubsPostings} p where p.calculation_id = ${rubsCalculations.id}
  and p.action = 'post' and p.status in ('posted', 'pending', 'unknown') and not exists (select 1 from ${rubsPostings} r
  where r.calculation_id = p.calculation_id and r.unit_id = p.unit_id and r.occupancy = p.occupancy
  and r.action = 'reverse' and r.status = 'posted'))`;

const ONE_ACTIVE_INDEX = 'billing_configs_one_active_per_property';

/** True when err (or a cause drizzle wrapped it in) is the unique violation of the one-active-config index. */
export function violatesOneActiveConfig(err: unknown): boolean {
  return isUniqueViolation(err, ONE_ACTIVE_INDEX);
}

export function createTenantBillingRepository(db: Executor) {
  return { ...configQueries(db), ...calculationQueries(db), ...historyQueries(db) };
}

/** The terms a configuration version is kept with, from its written row (the configuration as it is answered). */
type VersionTerms = (row: BillingConfigRow) => Record<string, unknown>;

/** Billing configurations and their versions. */
function configQueries(db: Executor) {
  /**
   * A configuration row written by `write` and, in the same transaction, the version it now is
   * kept as `snapshot` answers it (a new row is version 1, the column's default).
   */
  const writeVersion = (now: Date, snapshot: VersionTerms, write: (tx: Tx) => Promise<BillingConfigRow[]>): Promise<BillingConfigRow> =>
    db.transaction(async (tx) => {
      const [row] = await write(tx);
      await tx.insert(billingConfigVersions).values({ configId: row!.id, version: row!.version, terms: snapshot(row!), createdAt: now });
      return row!;
    });

  return {
    /** Throws the database's unique violation when the property already has an active configuration. */
    async insertConfig(values: NewBillingConfig, now: Date, snapshot: VersionTerms): Promise<BillingConfigRow> {
      return writeVersion(now, snapshot, (tx) =>
        tx
          .insert(billingConfigs)
          .values({ ...values, id: crypto.randomUUID(), createdAt: now })
          .returning(),
      );
    },

    /**
     * The next version of a configuration: its row updated and the version kept. Throws the
     * unique violation when it would make a second active configuration of the property.
     */
    async updateConfig(id: string, values: Partial<NewBillingConfig>, now: Date, snapshot: VersionTerms): Promise<BillingConfigRow> {
      return writeVersion(now, snapshot, (tx) =>
        tx
          .update(billingConfigs)
          .set({ ...values, version: sql`${billingConfigs.version} + 1`, updatedAt: now })
          .where(eq(billingConfigs.id, id))
          .returning(),
      );
    },

    /** Every version of a configuration as it was answered, newest first. */
    async configVersions(configId: string): Promise<Array<Record<string, unknown>>> {
      const rows = await db
        .select({ terms: billingConfigVersions.terms })
        .from(billingConfigVersions)
        .where(eq(billingConfigVersions.configId, configId))
        .orderBy(desc(billingConfigVersions.version));
      return rows.map((r) => r.terms);
    },

    /** Every configuration of the property, newest first. */
    async listConfigs(propertyId: string): Promise<BillingConfigRow[]> {
      return db
        .select()
        .from(billingConfigs)
        .where(eq(billingConfigs.propertyId, propertyId))
        .orderBy(desc(billingConfigs.createdAt), desc(billingConfigs.id));
    },

    async findConfig(propertyId: string, configId: string): Promise<BillingConfigRow | null> {
      return rowWhere(db, billingConfigs, and(eq(billingConfigs.id, configId), eq(billingConfigs.propertyId, propertyId)));
    },

    /** A configuration of one of the owner's properties, or null. */
    async findOwnedConfig(ownerId: string, configId: string): Promise<BillingConfigRow | null> {
      return rowOfOwned(db, billingConfigs, configId, { view: propertyView, on: billingConfigs.propertyId, ownerId });
    },
  };
}

/** Takes `lines` invoice numbers from the property's counter, whose row stays locked to the end of the transaction: the first of them. */
async function takeInvoiceNumbers(tx: Tx, propertyId: string, lines: number): Promise<number> {
  const [counter] = await tx
    .insert(rubsInvoiceCounters)
    .values({ propertyId, lastNumber: lines })
    .onConflictDoUpdate({
      target: rubsInvoiceCounters.propertyId,
      set: { lastNumber: sql`${rubsInvoiceCounters.lastNumber} + ${lines}` },
    })
    .returning({ lastNumber: rubsInvoiceCounters.lastNumber });
  return counter!.lastNumber - lines + 1;
}

/**
 * The active calculations of the property and utility type whose period overlaps `row`'s, locked to the
 * end of the transaction, with whether each has charges on the ledger.
 */
async function lockOverlapping(
  tx: Tx,
  row: Pick<CalculationRow, 'propertyId' | 'utilityType' | 'billingPeriodStart' | 'billingPeriodEnd'>,
) {
  const locked = await tx
    .select({ id: rubsCalculations.id })
    .from(rubsCalculations)
    .where(
      and(
        eq(rubsCalculations.propertyId, row.propertyId),
        eq(rubsCalculations.utilityType, row.utilityType),
        eq(rubsCalculations.status, 'active'),
        lte(rubsCalculations.billingPeriodStart, row.billingPeriodEnd),
        gte(rubsCalculations.billingPeriodEnd, row.billingPeriodStart),
      ),
    )
    .orderBy(rubsCalculations.calculatedAt, rubsCalculations.id)
    // Locked, as a post locks its calculation: a post that starts now waits and then finds it superseded.
    .for('update');
  if (locked.length === 0) return [];
  // Then, in a statement of its own (a fresh snapshot), whether a post that held the lock put charges on the ledger.
  return tx
    .select({ id: rubsCalculations.id, posted: chargesOnLedger })
    .from(rubsCalculations)
    .where(
      inArray(
        rubsCalculations.id,
        locked.map((l) => l.id),
      ),
    )
    .orderBy(rubsCalculations.calculatedAt, rubsCalculations.id);
}

/** Storing, voiding and reading one calculation. */
function calculationQueries(db: Executor) {
  return {
    /**
     * Stores a calculation in one transaction with what it does to the others: its `lines` billed
     * lines take invoice numbers from the property's counter, whose row stays locked to the end,
     * so the property's calculations are stored one at a time; the active ones of the same utility
     * type whose period overlaps are found, and unless `refuse` objects to them (it throws, and
     * nothing is stored), they become superseded by this one. `result` is the answer's stored form
     * as JSON text (stored.ts StoredCalculation).
     */
    async insertCalculation(
      row: Omit<CalculationRow, 'result' | 'status' | 'supersedes' | 'supersededBy' | 'voidReason' | 'voidedAt' | 'firstInvoiceNumber'>,
      result: string,
      lines: number,
      refuse: (overlapped: OverlappedCalculation[]) => void,
    ): Promise<{ supersedes: string[]; firstInvoiceNumber: number }> {
      return db.transaction(async (tx) => {
        const firstInvoiceNumber = await takeInvoiceNumbers(tx, row.propertyId, lines);
        const overlapped = await lockOverlapping(tx, row);
        refuse(overlapped);
        const supersedes = overlapped.map((o) => o.id);
        await tx.insert(rubsCalculations).values({ ...row, status: 'active', supersedes, firstInvoiceNumber, result });
        if (supersedes.length > 0) {
          await tx
            .update(rubsCalculations)
            .set({ status: 'superseded', supersededBy: row.id })
            .where(inArray(rubsCalculations.id, supersedes));
        }
        return { supersedes, firstInvoiceNumber };
      });
    },

    /**
     * Voids a calculation unless `refuse` objects to its state (it throws): the row is locked, so a
     * posting that starts at the same moment sees it void, or the void sees it posted.
     */
    async voidCalculation(
      id: string,
      reason: string,
      now: Date,
      refuse: (state: { status: string; posted: boolean }) => void,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        const [locked] = await tx
          .select({ status: rubsCalculations.status })
          .from(rubsCalculations)
          .where(eq(rubsCalculations.id, id))
          .for('update');
        // A statement of its own after the lock: it sees the lines a post committed while we waited (see chargesOnLedger).
        const [ledger] = await tx.select({ posted: chargesOnLedger }).from(rubsCalculations).where(eq(rubsCalculations.id, id));
        refuse({ status: locked!.status, posted: ledger!.posted });
        await tx.update(rubsCalculations).set({ status: 'void', voidReason: reason, voidedAt: now }).where(eq(rubsCalculations.id, id));
      });
    },

    /** The stored text of a calculation, its state and its property, or null when it is not the owner's. */
    async findCalculation(ownerId: string, id: string) {
      const [row] = await db
        .select({
          result: rubsCalculations.result,
          status: rubsCalculations.status,
          supersedes: rubsCalculations.supersedes,
          supersededBy: rubsCalculations.supersededBy,
          voidReason: rubsCalculations.voidReason,
          voidedAt: rubsCalculations.voidedAt,
          firstInvoiceNumber: rubsCalculations.firstInvoiceNumber,
          property: {
            id: propertyView.id,
            name: propertyView.name,
            address: propertyView.address,
            city: propertyView.city,
            state: propertyView.state,
            zipCode: propertyView.zipCode,
          },
        })
        .from(rubsCalculations)
        .innerJoin(propertyView, eq(propertyView.id, rubsCalculations.propertyId))
        .where(and(eq(rubsCalculations.id, id), eq(propertyView.ownerId, ownerId)));
      if (!row) return null;
      const { result, property, ...meta } = row;
      return { result, property: property as StatementProperty, meta: { ...meta, status: meta.status as CalculationStatus } };
    },
  };
}

/** A property's history of calculations. */
function historyQueries(db: Executor) {
  // GET /billing/history/{property_id}: the owner and the calculation count from one row read by
  // its key, then the page.
  const historyState = db
    .select({ ownerId: rubsHistoryState.ownerId, calculations: rubsHistoryState.calculations })
    .from(rubsHistoryState)
    .where(eq(rubsHistoryState.propertyId, sql.placeholder('propertyId')))
    .prepare('rubs_history_state');
  const historyColumns = {
    id: rubsCalculations.id,
    propertyId: rubsCalculations.propertyId,
    billingPeriodStart: rubsCalculations.billingPeriodStart,
    billingPeriodEnd: rubsCalculations.billingPeriodEnd,
    utilityType: rubsCalculations.utilityType,
    totalAmount: rubsCalculations.totalAmount,
    unitsBilled: rubsCalculations.unitsBilled,
    unitsVacant: rubsCalculations.unitsVacant,
    method: rubsCalculations.method,
    billingConfigVersion: rubsCalculations.billingConfigVersion,
    status: rubsCalculations.status,
    supersedes: rubsCalculations.supersedes,
    supersededBy: rubsCalculations.supersededBy,
    calculatedAt: rubsCalculations.calculatedAt,
  };
  const historyPage = db
    .select(historyColumns)
    .from(rubsCalculations)
    .where(eq(rubsCalculations.propertyId, sql.placeholder('propertyId')))
    .orderBy(desc(rubsCalculations.calculatedAt), desc(rubsCalculations.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('rubs_history_page');

  return {
    /**
     * The owner and calculation count of a property with calculations; null for a
     * property without any (or no property).
     */
    async historyState(propertyId: string): Promise<{ ownerId: string; total: number } | null> {
      const [row] = await historyState.execute({ propertyId });
      return row ? { ownerId: row.ownerId, total: row.calculations } : null;
    },

    /** A page of the property's calculations, newest first. */
    async historyPage(propertyId: string, limit: number, offset: number): Promise<HistoryRow[]> {
      return historyPage.execute({ propertyId, limit, offset });
    },

    /** A page of the property's calculations with one status, newest first, and how many it has. */
    async historyPageWithStatus(propertyId: string, status: CalculationStatus, limit: number, offset: number) {
      const where = and(eq(rubsCalculations.propertyId, propertyId), eq(rubsCalculations.status, status));
      const [[total], rows] = await Promise.all([
        db.select({ n: count() }).from(rubsCalculations).where(where),
        db
          .select(historyColumns)
          .from(rubsCalculations)
          .where(where)
          .orderBy(desc(rubsCalculations.calculatedAt), desc(rubsCalculations.id))
          .limit(limit)
          .offset(offset),
      ]);
      return { total: total!.n, rows: rows as HistoryRow[] };
    },
  };
}

export type TenantBillingRepository = ReturnType<typeof createTenantBillingRepository>;
