import crypto from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { isUniqueViolation } from '../../platform/db/errors';
import { properties } from '../properties/tables';
import { billingConfigs, rubsCalculations, rubsHistoryState } from './tables';

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
  calculatedAt: Date;
}

const ONE_ACTIVE_INDEX = 'billing_configs_one_active_per_property';

/** True when err (or a cause drizzle wrapped it in) is the unique violation of the one-active-config index. */
export function violatesOneActiveConfig(err: unknown): boolean {
  return isUniqueViolation(err, ONE_ACTIVE_INDEX);
}

export function createTenantBillingRepository(db: Executor) {
  // GET /billing/history/{property_id}: the owner and the history's version from one row read by
  // its key (a cached page of that version answers), then, on a miss, the page.
  const historyState = db
    .select({ ownerId: rubsHistoryState.ownerId, calculations: rubsHistoryState.calculations })
    .from(rubsHistoryState)
    .where(eq(rubsHistoryState.propertyId, sql.placeholder('propertyId')))
    .prepare('rubs_history_state');
  const historyPage = db
    .select({
      id: rubsCalculations.id,
      propertyId: rubsCalculations.propertyId,
      billingPeriodStart: rubsCalculations.billingPeriodStart,
      billingPeriodEnd: rubsCalculations.billingPeriodEnd,
      utilityType: rubsCalculations.utilityType,
      totalAmount: rubsCalculations.totalAmount,
      unitsBilled: rubsCalculations.unitsBilled,
      unitsVacant: rubsCalculations.unitsVacant,
      method: rubsCalculations.method,
      calculatedAt: rubsCalculations.calculatedAt,
    })
    .from(rubsCalculations)
    .where(eq(rubsCalculations.propertyId, sql.placeholder('propertyId')))
    .orderBy(desc(rubsCalculations.calculatedAt), desc(rubsCalculations.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('rubs_history_page');

  return {
    /** Throws the database's unique violation when the property already has an active configuration. */
    async insertConfig(values: NewBillingConfig, now: Date): Promise<BillingConfigRow> {
      const [row] = await db.insert(billingConfigs).values({ ...values, id: crypto.randomUUID(), createdAt: now }).returning();
      return row!;
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
      const [row] = await db
        .select()
        .from(billingConfigs)
        .where(and(eq(billingConfigs.id, configId), eq(billingConfigs.propertyId, propertyId)));
      return row ?? null;
    },

    /** `result` is the answer's stored form as JSON text (presenters.ts StoredCalculation). */
    async insertCalculation(row: Omit<CalculationRow, 'result'>, result: string): Promise<void> {
      await db.insert(rubsCalculations).values({ ...row, result });
    },

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

    /** The stored text of a calculation and its property, or null when it is not the owner's. */
    async findCalculation(ownerId: string, id: string): Promise<{ result: string; property: StatementProperty } | null> {
      const [row] = await db
        .select({
          result: rubsCalculations.result,
          property: {
            id: properties.id, name: properties.name, address: properties.address, city: properties.city,
            state: properties.state, zipCode: properties.zipCode,
          },
        })
        .from(rubsCalculations)
        .innerJoin(properties, eq(properties.id, rubsCalculations.propertyId))
        .where(and(eq(rubsCalculations.id, id), eq(properties.ownerId, ownerId)));
      return row ?? null;
    },
  };
}

export type TenantBillingRepository = ReturnType<typeof createTenantBillingRepository>;
