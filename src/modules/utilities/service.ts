import { and, asc, count, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import { UTILITY_DATA_SOURCE, ZIP_TABLES, type ZipSource } from './reference';
import type { Db } from '../../platform/db/client';
import { notFound } from '../../platform/http/errors';
import { offsetOf, toPage, type Page, type PageQuery } from '../../platform/http/pagination';
import { utilities, utilityZipCodes } from './tables';

export interface UtilityItem {
  id: string;
  name: string;
  abbreviation: string | null;
  state: string | null;
  type: string | null;
  tariff_count: number;
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
  id: utilities.id, name: utilities.name, abbreviation: utilities.abbreviation, state: utilities.state,
  type: utilities.type, tariff_count: utilities.tariffCount,
};

/** `%` and `_` in user text match themselves in LIKE patterns. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function createUtilityService(deps: { db: Db }) {
  const { db } = deps;
  return {
    async search(q: PageQuery & { q?: string; state?: string }): Promise<Page<UtilitySearchItem>> {
      const where: Array<SQL | undefined> = [];
      if (q.q !== undefined) where.push(ilike(utilities.name, likePattern(q.q)));
      if (q.state !== undefined) where.push(eq(utilities.state, q.state));
      const condition = and(...where);
      const [{ total }] = await db.select({ total: count() }).from(utilities).where(condition);
      const rows = total === 0 || offsetOf(q) >= total ? [] : await db.select({ ...itemColumns, website: utilities.website })
        .from(utilities).where(condition).orderBy(asc(utilities.name), asc(utilities.id)).limit(q.per_page).offset(offsetOf(q));
      return toPage(rows, total, q);
    },

    async detail(id: string): Promise<UtilityDetail> {
      const [row] = await db.select({
        ...itemColumns, website: utilities.website, phone: utilities.phone, service_territory: utilities.serviceTerritory,
        customers_served: utilities.customersServed, zip_codes_served: utilities.zipCodesServed,
      }).from(utilities).where(eq(utilities.id, id)).limit(1);
      if (!row) throw notFound('Utility not found');
      const zipSources = await db.select({ source: utilityZipCodes.source, n: count() }).from(utilityZipCodes)
        .where(eq(utilityZipCodes.utilityId, id)).groupBy(utilityZipCodes.source);
      return {
        id: row.id, name: row.name, abbreviation: row.abbreviation, state: row.state, type: row.type, website: row.website,
        phone: row.phone, service_territory: row.service_territory, customers_served: row.customers_served,
        tariff_count: row.tariff_count, zip_codes_served: row.zip_codes_served,
        data_sources: {
          utility: { ...UTILITY_DATA_SOURCE },
          zip_codes: (Object.keys(ZIP_TABLES) as ZipSource[]).flatMap((source) => {
            const n = zipSources.find((z) => z.source === source)?.n ?? 0;
            return n > 0 ? [{ table: ZIP_TABLES[source].table, edition: ZIP_TABLES[source].edition, zip_codes: Number(n) }] : [];
          }),
        },
      };
    },

    /** Utilities the OpenEI tables list for a ZIP code, by name. */
    async byZip(zipCode: string): Promise<UtilityItem[]> {
      const serving = db.select({ id: utilityZipCodes.utilityId }).from(utilityZipCodes).where(eq(utilityZipCodes.zipCode, zipCode));
      const rows = await db.select(itemColumns).from(utilities).where(inArray(utilities.id, serving)).orderBy(asc(utilities.name), asc(utilities.id));
      if (rows.length === 0) throw notFound('No utilities found for ZIP code');
      return rows;
    },
  };
}

export type UtilityService = ReturnType<typeof createUtilityService>;
