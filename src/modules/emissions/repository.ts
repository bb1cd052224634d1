import { and, asc, desc, eq, gte, lte } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { viewOfBills } from '../bills/public';
import { viewOfMeters } from '../meters/public';
import type { MeterUtilityType } from '../meters/units';

const billsView = viewOfBills('emissions_bills');
const metersView = viewOfMeters('emissions_meters');

export interface EmissionsMeterRow {
  id: string;
  name: string;
  utilityType: MeterUtilityType;
}

export interface EmissionsBillRow {
  meterId: string;
  periodStart: string;
  periodEnd: string;
  utilityType: MeterUtilityType;
  usage: number | null;
  unit: string;
}

/** Reads of other modules' tables through the views they publish: a property's meters and bills. */
export function createEmissionsRepository(db: Db) {
  return {
    async meters(propertyId: string): Promise<EmissionsMeterRow[]> {
      const rows = await db.select({ id: metersView.id, name: metersView.name, utilityType: metersView.utilityType })
        .from(metersView).where(eq(metersView.propertyId, propertyId)).orderBy(asc(metersView.name), asc(metersView.id));
      return rows.map((r) => ({ ...r, utilityType: r.utilityType as MeterUtilityType }));
    },

    /** The property's bills whose period reaches into `from`..`to` (YYYY-MM-DD, both included). */
    async bills(propertyId: string, from: string, to: string): Promise<EmissionsBillRow[]> {
      const rows = await db.select({
        meterId: billsView.meterId, periodStart: billsView.periodStart, periodEnd: billsView.periodEnd,
        utilityType: billsView.utilityType, usage: billsView.usage, unit: billsView.unit,
      }).from(billsView)
        .where(and(eq(billsView.propertyId, propertyId), lte(billsView.periodStart, to), gte(billsView.periodEnd, from)))
        .orderBy(asc(billsView.periodStart));
      return rows.map((r) => ({ ...r, utilityType: r.utilityType as MeterUtilityType, usage: r.usage === null ? null : Number(r.usage) }));
    },

    /** The end of the property's latest bill period (YYYY-MM-DD), or null without bills. */
    async latestPeriodEnd(propertyId: string): Promise<string | null> {
      const [row] = await db.select({ end: billsView.periodEnd }).from(billsView)
        .where(eq(billsView.propertyId, propertyId)).orderBy(desc(billsView.periodEnd)).limit(1);
      return row?.end ?? null;
    },
  };
}

export type EmissionsRepository = ReturnType<typeof createEmissionsRepository>;
