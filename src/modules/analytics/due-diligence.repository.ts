import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { rowsOf } from '../../platform/db/errors';
import { viewOfProperties } from '../properties/public';
import { rowToTariff, viewOfTariffs } from '../tariffs/public';
import type { Tariff } from '../tariffs/tariff.model';
import { servingUtilitiesOf } from '../utilities/service';
import type { ServingModel } from '../utilities/serving';
import { dueDiligenceZipCodes } from './tables';

/** A utility serving a ZIP code, in the order of GET /utilities/by-zip (utilities/serving.ts). */
export interface ServingUtility {
  id: string;
  name: string | null;
  /** The utility's main state (the utilities table's state rule), null when unknown. */
  state: string | null;
  /** EIA-861 customers over every state and part, null when unknown. */
  customersServed: number | null;
  /** Estimated retail customers in the ZIP code's county (the order's figure), null when it cannot be estimated. */
  estimatedCustomersInCounty: number | null;
  /** First because the ENERGY STAR map marks it as serving most of the ZIP code, not by the estimate (utilities/serving.ts). */
  markedPrimary: boolean;
}

/** The utilities serving a ZIP code, primary first, and the county the order is for (GeoNames' name, null when unknown). */
export interface ServingArea {
  county: string | null;
  utilities: ServingUtility[];
}

const tariffs = viewOfTariffs('tariff_view');

/** The read queries of due diligence that no other use case shares. */
export function createDueDiligenceQueries(db: Executor, model?: () => ServingModel) {
  return {
    /** The utilities serving a ZIP code in `state` (the ZIP code's own when GeoNames lists it), primary first. */
    async servingUtilities(zipCode: string, state: string): Promise<ServingArea> {
      const { county, ranked } = await servingUtilitiesOf(db, zipCode, { state, model: model?.() });
      return {
        county,
        utilities: ranked.map((u) => ({
          id: u.id,
          name: u.name,
          state: u.state,
          customersServed: u.customersServed,
          estimatedCustomersInCounty: u.estimatedCustomersInCounty,
          markedPrimary: u.markedPrimary,
        })),
      };
    },

    /** Every catalog tariff of one utility in one sector and state, current and expired, by name and id. */
    async utilityTariffs(utilityId: string, sector: string, state: string): Promise<Tariff[]> {
      const rows = await db
        .select()
        .from(tariffs)
        .where(and(eq(tariffs.utilityId, utilityId), eq(tariffs.sector, sector), eq(tariffs.state, state)))
        .orderBy(asc(tariffs.name), asc(tariffs.id));
      return rows.map(rowToTariff);
    },

    /** Remembers that `ownerId` asked due diligence for `zipCode` at `at` (one row per account and ZIP code, the last time). */
    async rememberZip(ownerId: string, zipCode: string, at: Date): Promise<void> {
      await db
        .insert(dueDiligenceZipCodes)
        .values({ ownerId, zipCode, lastUsedAt: at })
        .onConflictDoUpdate({ target: [dueDiligenceZipCodes.ownerId, dueDiligenceZipCodes.zipCode], set: { lastUsedAt: at } });
    },

    /** Properties of any owner in the state and type with sqft in [lo, hi] (a count only). */
    async comparableCountBySqft(state: string, propertyType: string, lo: number, hi: number): Promise<number> {
      const result = await db.execute(sql`
        select count(*)::int as n from ${viewOfProperties('p')}
        where state = ${state} and property_type = ${propertyType} and sqft between ${lo} and ${hi}`);
      return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
    },
  };
}

export type DueDiligenceQueries = ReturnType<typeof createDueDiligenceQueries>;
