import { getTableColumns, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { viewOfTariffs } from '../tariffs/public';
import { utilities, utilityZipCodes } from './tables';
import type { UtilityRecord, ZipPair } from './reference';
import type { CoveragePair } from './coverage';

const BATCH = 1000;
const ZIP_BATCH = 10_000;

const replaceAll = Object.fromEntries(
  Object.entries(getTableColumns(utilities))
    .filter(([key]) => key !== 'id' && key !== 'tariffCount' && key !== 'zipCodesServed')
    .map(([key, column]) => [key, sql.raw(`excluded."${column.name}"`)]),
);

/** Every stored ZIP code and utility pair (an import compares the new ones with them). */
export async function readZipPairs(db: Executor): Promise<CoveragePair[]> {
  return db.select().from(utilityZipCodes);
}

/** Deletes every utility and ZIP pair (a full import replaces them). */
export async function deleteUtilitiesAndZipPairs(db: Executor): Promise<void> {
  await db.delete(utilityZipCodes);
  await db.delete(utilities);
}

/** Inserts or replaces utilities (counts are left to refreshUtilityCounts). */
export async function upsertUtilities(db: Executor, list: UtilityRecord[]): Promise<void> {
  for (let i = 0; i < list.length; i += BATCH) {
    const rows = list.slice(i, i + BATCH).map((u) => ({
      id: u.id,
      name: u.name,
      state: u.state,
      type: u.type,
      customersServed: u.customersServed,
      serviceTerritory: u.serviceTerritory,
      abbreviation: null,
      website: null,
      phone: null,
    }));
    await db.insert(utilities).values(rows).onConflictDoUpdate({ target: utilities.id, set: replaceAll });
  }
}

/** Inserts ZIP pairs, 10,000 per statement as one jsonb parameter (fast on PGlite); known pairs are kept. */
export async function insertZipPairs(db: Executor, pairs: ZipPair[]): Promise<void> {
  for (let i = 0; i < pairs.length; i += ZIP_BATCH) {
    const batch = JSON.stringify(
      pairs.slice(i, i + ZIP_BATCH).map((p) => ({ zip_code: p.zipCode, utility_id: p.utilityId, source: p.source })),
    );
    await db.execute(sql`insert into ${utilityZipCodes} select * from jsonb_populate_recordset(null::${utilityZipCodes}, ${batch}::jsonb)
      on conflict do nothing`);
  }
}

/** Recomputes every utility's tariff_count and zip_codes_served from the tables. */
export async function refreshUtilityCounts(db: Executor): Promise<void> {
  await db.execute(sql`
    update ${utilities} u set
      tariff_count = coalesce((select count(*) from ${viewOfTariffs('t')} where t.utility_id = u.id), 0),
      zip_codes_served = coalesce((select count(*) from ${utilityZipCodes} z where z.utility_id = u.id), 0)`);
}

/** Fresh planner statistics of the utilities and ZIP pairs (after an import replaced them). */
export async function analyzeUtilities(db: Executor): Promise<void> {
  await db.execute(sql`analyze ${utilities}`);
  await db.execute(sql`analyze ${utilityZipCodes}`);
}
