import { asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { rowsOf } from '../../platform/db/errors';
import { utilities, utilityZipCodes } from '../utilities/tables';

/** A utility the ZIP tables list for a ZIP code, with what the utilities table knows of it. */
export interface ServingUtility {
  id: string;
  /** Null only for a ZIP pair whose utility has no row (the import stores one for every pair). */
  name: string | null;
  /** The utility's main state (the utilities table's state rule), null when unknown. */
  state: string | null;
  /** EIA-861 customers over every state and part, null when unknown. */
  customersServed: number | null;
}

/** The read queries of due diligence that no other use case shares. */
export function createDueDiligenceQueries(db: Executor) {
  return {
    /** The utilities listed for a ZIP code, by EIA id (as text). */
    async servingUtilities(zipCode: string): Promise<ServingUtility[]> {
      return db
        .select({ id: utilityZipCodes.utilityId, name: utilities.name, state: utilities.state, customersServed: utilities.customersServed })
        .from(utilityZipCodes)
        .leftJoin(utilities, eq(utilities.id, utilityZipCodes.utilityId))
        .where(eq(utilityZipCodes.zipCode, zipCode))
        .orderBy(asc(utilityZipCodes.utilityId));
    },

    /** Properties of any owner in the state and type with sqft in [lo, hi] (a count only). */
    async comparableCountBySqft(state: string, propertyType: string, lo: number, hi: number): Promise<number> {
      const result = await db.execute(sql`
        select count(*)::int as n from properties
        where state = ${state} and property_type = ${propertyType} and sqft between ${lo} and ${hi}`);
      return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
    },
  };
}

export type DueDiligenceQueries = ReturnType<typeof createDueDiligenceQueries>;
