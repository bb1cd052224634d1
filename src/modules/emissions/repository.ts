import { and, asc, desc, eq, gte, inArray, lte } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { viewOfBills } from '../bills/public';
import { viewOfMeters } from '../meters/public';
import { viewOfProperties } from '../properties/public';
import type { MeterUtilityType } from '../meters/units';

const billsView = viewOfBills('emissions_bills');
const metersView = viewOfMeters('emissions_meters');
const propertiesView = viewOfProperties('emissions_properties');

export interface OwnedPropertyRow {
  id: string;
  name: string;
  zipCode: string;
  sqft: number | null;
  /** What locates its months: its own time zone (null: its ZIP code's) and state. */
  timezone: string | null;
  state: string;
}

export interface EmissionsMeterRow {
  propertyId: string;
  id: string;
  name: string;
  utilityType: MeterUtilityType;
}

export interface EmissionsBillRow {
  propertyId: string;
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
    /** The meters of these properties, by name. */
    async meters(propertyIds: string[]): Promise<EmissionsMeterRow[]> {
      if (!propertyIds.length) return [];
      const rows = await db
        .select({ propertyId: metersView.propertyId, id: metersView.id, name: metersView.name, utilityType: metersView.utilityType })
        .from(metersView)
        .where(inArray(metersView.propertyId, propertyIds))
        .orderBy(asc(metersView.name), asc(metersView.id));
      return rows.map((r) => ({ ...r, utilityType: r.utilityType as MeterUtilityType }));
    },

    /** These properties' bills whose period reaches into `from`..`to` (YYYY-MM-DD, both included). */
    async bills(propertyIds: string[], from: string, to: string): Promise<EmissionsBillRow[]> {
      if (!propertyIds.length) return [];
      const rows = await db
        .select({
          propertyId: billsView.propertyId,
          meterId: billsView.meterId,
          periodStart: billsView.periodStart,
          periodEnd: billsView.periodEnd,
          utilityType: billsView.utilityType,
          usage: billsView.usage,
          unit: billsView.unit,
        })
        .from(billsView)
        .where(and(inArray(billsView.propertyId, propertyIds), lte(billsView.periodStart, to), gte(billsView.periodEnd, from)))
        .orderBy(asc(billsView.periodStart));
      return rows.map((r) => ({ ...r, utilityType: r.utilityType as MeterUtilityType, usage: r.usage === null ? null : Number(r.usage) }));
    },

    /** The end of these properties' latest bill period (YYYY-MM-DD), or null without bills. */
    async latestPeriodEnd(propertyIds: string[]): Promise<string | null> {
      if (!propertyIds.length) return null;
      const [row] = await db
        .select({ end: billsView.periodEnd })
        .from(billsView)
        .where(inArray(billsView.propertyId, propertyIds))
        .orderBy(desc(billsView.periodEnd))
        .limit(1);
      return row?.end ?? null;
    },

    /** The owner's properties (of one portfolio when given), by name. */
    async ownedProperties(ownerId: string, portfolioId: string | undefined): Promise<OwnedPropertyRow[]> {
      return db
        .select({
          id: propertiesView.id,
          name: propertiesView.name,
          zipCode: propertiesView.zipCode,
          sqft: propertiesView.sqft,
          timezone: propertiesView.timezone,
          state: propertiesView.state,
        })
        .from(propertiesView)
        .where(
          and(eq(propertiesView.ownerId, ownerId), portfolioId === undefined ? undefined : eq(propertiesView.portfolioId, portfolioId)),
        )
        .orderBy(asc(propertiesView.name), asc(propertiesView.id));
    },
  };
}

export type EmissionsRepository = ReturnType<typeof createEmissionsRepository>;
