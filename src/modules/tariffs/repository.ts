import { eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { NO_APPLICABILITY, type Tariff, type TariffApplicability } from './tariff.model';
import { tariffs } from './tables';
import { readStoredStructure } from './stored-structure';
import { plainSummaryColumns } from './present';

export type TariffRow = typeof tariffs.$inferSelect;

/** A stored applicability; null (a row stored before the column existed) or missing keys read as not published. */
function applicabilityOf(stored: Partial<TariffApplicability> | null): TariffApplicability {
  if (!stored) return { ...NO_APPLICABILITY };
  return {
    demandKwMin: stored.demandKwMin ?? null,
    demandKwMax: stored.demandKwMax ?? null,
    usageKwhMin: stored.usageKwhMin ?? null,
    usageKwhMax: stored.usageKwhMax ?? null,
    voltageCategory: stored.voltageCategory ?? null,
    phaseWiring: stored.phaseWiring ?? null,
  };
}

export function rowToTariff(r: TariffRow): Tariff {
  return {
    ...plainSummaryColumns(r),
    sector: r.sector as Tariff['sector'],
    rateType: r.rateType as Tariff['rateType'],
    eligibility: r.eligibility,
    applicability: applicabilityOf(r.applicability),
    serviceType: r.serviceType as Tariff['serviceType'],
    voltage: r.voltage as Tariff['voltage'],
    purpose: r.purpose as Tariff['purpose'],
    classNote: r.classNote,
    supersededBy: r.supersededBy,
    // A bundled row reads as the normaliser made it (no source: bundled); a refreshed one says so and when.
    ...(r.source !== 'bundled' ? { source: r.source as Tariff['source'], sourceUpdatedAt: r.sourceUpdatedAt?.toISOString() ?? null } : {}),
    sourceUrl: r.sourceUrl,
    lastUpdated: r.lastUpdated.toISOString(),
    structure: readStoredStructure(r.structure),
  };
}

/** The tariffs with these ids, in the order of `ids` (unknown ids are left out). One query. */
export async function findTariffsByIds(db: Executor, ids: string[]): Promise<Tariff[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(tariffs)
    .where(inArray(tariffs.id, [...new Set(ids)]));
  const byId = new Map(rows.map((r) => [r.id, rowToTariff(r)]));
  return ids.map((id) => byId.get(id)).filter((t): t is Tariff => t !== undefined);
}

export async function findTariffById(db: Executor, id: string): Promise<Tariff | null> {
  const [row] = await db.select().from(tariffs).where(eq(tariffs.id, id)).limit(1);
  return row ? rowToTariff(row) : null;
}

const INSERT_BATCH = 1000;

/**
 * The table's columns: the key each has on a row, which is also its property on a Tariff
 * (`t[key]` in columnsOf does not compile for a column Tariff lacks), and its column name.
 */
const COLUMNS = Object.entries(getTableColumns(tariffs)).map(([key, column]) => ({ key: key as keyof TariffRow, name: column.name }));

/** A tariff as a row object keyed by column name, for jsonb_populate_recordset; what a tariff leaves out is null. */
function columnsOf(t: Tariff): Record<string, unknown> {
  // A tariff that does not say where it came from is the bundled catalog's (the column's default).
  return Object.fromEntries(COLUMNS.map(({ key, name }) => [name, key === 'source' ? (t.source ?? 'bundled') : (t[key] ?? null)]));
}

/** On an id conflict every other column is replaced. */
const REPLACE_ALL = sql.raw(
  Object.values(getTableColumns(tariffs))
    .filter((c) => c.name !== 'id')
    .map((c) => `"${c.name}" = excluded."${c.name}"`)
    .join(', '),
);

/**
 * Inserts tariffs in batches of one jsonb parameter each (far cheaper than
 * thousands of bind parameters on PGlite); an existing id is replaced, so
 * re-seeding is harmless.
 */
export async function insertTariffs(db: Executor, list: Tariff[]): Promise<void> {
  for (let i = 0; i < list.length; i += INSERT_BATCH) {
    const batch = JSON.stringify(list.slice(i, i + INSERT_BATCH).map(columnsOf));
    await db.execute(sql`insert into ${tariffs} select * from jsonb_populate_recordset(null::${tariffs}, ${batch}::jsonb)
      on conflict (id) do update set ${REPLACE_ALL}`);
  }
}

/** Most revisions one schedule is followed through (URDB schedules have a handful). */
const MAX_REVISIONS = 50;

/**
 * The revisions of a catalog tariff's schedule, oldest first (revisions.ts): the tariff, the ones it
 * superseded (each the latest-effective tariff naming the next as `superseded_by`), and those that
 * superseded it. Null for an unknown id. A tariff no revision touches is alone.
 */
export async function findRevisionChain(db: Executor, id: string): Promise<Tariff[] | null> {
  const start = await findTariffById(db, id);
  if (!start) return null;
  const chain = [start];
  const seen = new Set([start.id]);
  for (let t = start; chain.length < MAX_REVISIONS;) {
    const [row] = await db
      .select()
      .from(tariffs)
      .where(eq(tariffs.supersededBy, t.id))
      .orderBy(sql`${tariffs.effectiveDate} desc nulls last`, tariffs.id)
      .limit(1);
    if (!row || seen.has(row.id)) break;
    t = rowToTariff(row);
    seen.add(t.id);
    chain.unshift(t);
  }
  for (let t = start; t.supersededBy && chain.length < MAX_REVISIONS;) {
    const next = await findTariffById(db, t.supersededBy);
    if (!next || seen.has(next.id)) break;
    t = next;
    seen.add(t.id);
    chain.push(t);
  }
  return chain;
}
