import { and, asc, count, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import { UTILITY_DATA_SOURCE, ZIP_TABLES, type ZipSource } from './reference';
import type { Db, Executor } from '../../platform/db/client';
import { pageAfterCount } from '../../platform/db/rows';
import { notFound } from '../../platform/http/errors';
import type { Page, PageQuery } from '../../platform/http/pagination';
import { utilities, utilityZipCodes } from './tables';
import { bundledServingModel, type RankedUtility, type ServingCandidate, type ServingModel } from './serving';
import { stateOfZip } from './zip-states';

export interface UtilityItem {
  id: string;
  name: string;
  abbreviation: string | null;
  state: string | null;
  type: string | null;
  tariff_count: number;
}

/** A by-zip item: the utility, its estimated customers in the ZIP code's county, and whether it is the primary one. */
export interface ByZipItem extends UtilityItem {
  primary: boolean;
  estimated_customers_in_county: number | null;
}

export interface UtilitySearchItem extends UtilityItem {
  website: string | null;
}

/** One reference table behind an answer, with its edition (the data's vintage). */
export interface DataSource {
  table: string;
  edition: number;
}

export interface UtilityDetail extends UtilitySearchItem {
  phone: string | null;
  service_territory: string | null;
  customers_served: number | null;
  zip_codes_served: number;
  /** Where the record and its ZIP codes come from, and how old each table is. */
  data_sources: {
    utility: DataSource;
    /** One entry per ZIP table that lists the utility, with how many of its ZIP codes it lists. */
    zip_codes: Array<DataSource & { zip_codes: number }>;
  };
}

const itemColumns = {
  id: utilities.id,
  name: utilities.name,
  abbreviation: utilities.abbreviation,
  state: utilities.state,
  type: utilities.type,
  tariff_count: utilities.tariffCount,
};

/** `%` and `_` in user text match themselves in LIKE patterns. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A utility serving a ZIP code, as the order of serving.ts needs it. */
export interface ZipUtilityRow extends ServingCandidate {
  name: string;
  abbreviation: string | null;
  state: string | null;
  tariff_count: number;
}

/**
 * The utilities serving a ZIP code, in order (serving.ts), the first primary: the utility rows of the
 * ZIP code's pairs (every ZIP table and the EIA-861 county rule). `state`: the ZIP code's state when
 * GeoNames does not list it (a due-diligence request's). Empty when none serves it.
 */
export async function servingUtilitiesOf(
  db: Executor,
  zipCode: string,
  opts: { state?: string | null; model?: ServingModel } = {},
): Promise<{ state: string | null; county: string | null; ranked: Array<RankedUtility<ZipUtilityRow>> }> {
  const serving = db.select({ id: utilityZipCodes.utilityId }).from(utilityZipCodes).where(eq(utilityZipCodes.zipCode, zipCode));
  const rows = await db
    .select({ ...itemColumns, type: utilities.type, customersServed: utilities.customersServed })
    .from(utilities)
    .where(inArray(utilities.id, serving))
    .orderBy(asc(utilities.id));
  if (rows.length === 0) return { state: stateOfZip(zipCode) ?? opts.state ?? null, county: null, ranked: [] };
  const { state, county, ranked } = (opts.model ?? bundledServingModel()).order(zipCode, stateOfZip(zipCode) ?? opts.state ?? null, rows);
  return { state, county, ranked };
}

export function createUtilityService(deps: { db: Db; serving?: () => ServingModel }) {
  const { db } = deps;
  return {
    async search(q: PageQuery & { q?: string; state?: string }): Promise<Page<UtilitySearchItem>> {
      const where: Array<SQL | undefined> = [];
      if (q.q !== undefined) where.push(ilike(utilities.name, likePattern(q.q)));
      if (q.state !== undefined) where.push(eq(utilities.state, q.state));
      const condition = and(...where);
      const [{ total }] = await db.select({ total: count() }).from(utilities).where(condition);
      const list = db
        .select({ ...itemColumns, website: utilities.website })
        .from(utilities)
        .where(condition)
        .orderBy(asc(utilities.name), asc(utilities.id));
      return pageAfterCount(list, total, q);
    },

    async detail(id: string): Promise<UtilityDetail> {
      const [row] = await db
        .select({
          ...itemColumns,
          website: utilities.website,
          phone: utilities.phone,
          service_territory: utilities.serviceTerritory,
          customers_served: utilities.customersServed,
          zip_codes_served: utilities.zipCodesServed,
        })
        .from(utilities)
        .where(eq(utilities.id, id))
        .limit(1);
      if (!row) throw notFound('Utility not found');
      const zipSources = await db
        .select({ source: utilityZipCodes.source, n: count() })
        .from(utilityZipCodes)
        .where(eq(utilityZipCodes.utilityId, id))
        .groupBy(utilityZipCodes.source);
      return {
        id: row.id,
        name: row.name,
        abbreviation: row.abbreviation,
        state: row.state,
        type: row.type,
        website: row.website,
        phone: row.phone,
        service_territory: row.service_territory,
        customers_served: row.customers_served,
        tariff_count: row.tariff_count,
        zip_codes_served: row.zip_codes_served,
        data_sources: {
          utility: { ...UTILITY_DATA_SOURCE },
          zip_codes: (Object.keys(ZIP_TABLES) as ZipSource[]).flatMap((source) => {
            const n = zipSources.find((z) => z.source === source)?.n ?? 0;
            return n > 0 ? [{ table: ZIP_TABLES[source].table, edition: ZIP_TABLES[source].edition, zip_codes: Number(n) }] : [];
          }),
        },
      };
    },

    /** The utilities serving a ZIP code by estimated customers in its county, the first primary (serving.ts). */
    async byZip(zipCode: string): Promise<ByZipItem[]> {
      const { ranked } = await servingUtilitiesOf(db, zipCode, { model: deps.serving?.() });
      if (ranked.length === 0) throw notFound('No utilities found for ZIP code');
      return ranked.map((u) => ({
        id: u.id,
        name: u.name,
        abbreviation: u.abbreviation,
        state: u.state,
        type: u.type,
        tariff_count: u.tariff_count,
        primary: u.primary,
        estimated_customers_in_county: u.estimatedCustomersInCounty,
      }));
    },
  };
}

export type UtilityService = ReturnType<typeof createUtilityService>;
