import { eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { NO_APPLICABILITY, type Tariff, type TariffApplicability } from './tariff.model';
import { tariffs } from './tables';
import { readStoredStructure } from './stored-structure';

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
    id: r.id,
    name: r.name,
    utilityId: r.utilityId,
    utilityName: r.utilityName,
    state: r.state,
    sector: r.sector as Tariff['sector'],
    rateType: r.rateType as Tariff['rateType'],
    hasTou: r.hasTou,
    hasDemand: r.hasDemand,
    hasNetMetering: r.hasNetMetering,
    effectiveDate: r.effectiveDate,
    expirationDate: r.expirationDate,
    description: r.description,
    eligibility: r.eligibility,
    applicability: applicabilityOf(r.applicability),
    serviceType: r.serviceType as Tariff['serviceType'],
    voltage: r.voltage as Tariff['voltage'],
    purpose: r.purpose as Tariff['purpose'],
    classNote: r.classNote,
    supersededBy: r.supersededBy,
    sourceUrl: r.sourceUrl,
    lastUpdated: r.lastUpdated.toISOString(),
    structure: readStoredStructure(r.structure),
  };
}

/** The tariffs with these ids, in the order of `ids` (unknown ids are left out). One query. */
export async function findTariffsByIds(db: Executor, ids: string[]): Promise<Tariff[]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(tariffs).where(inArray(tariffs.id, [...new Set(ids)]));
  const byId = new Map(rows.map((r) => [r.id, rowToTariff(r)]));
  return ids.map((id) => byId.get(id)).filter((t): t is Tariff => t !== undefined);
}

export async function findTariffById(db: Executor, id: string): Promise<Tariff | null> {
  const [row] = await db.select().from(tariffs).where(eq(tariffs.id, id)).limit(1);
  return row ? rowToTariff(row) : null;
}

const INSERT_BATCH = 1000;

/** A tariff as a row object keyed by column name, for jsonb_populate_recordset. */
function columnsOf(t: Tariff) {
  return {
    id: t.id,
    name: t.name,
    utility_id: t.utilityId,
    utility_name: t.utilityName,
    state: t.state,
    sector: t.sector,
    rate_type: t.rateType,
    has_tou: t.hasTou,
    has_demand: t.hasDemand,
    has_net_metering: t.hasNetMetering,
    effective_date: t.effectiveDate,
    expiration_date: t.expirationDate,
    description: t.description,
    eligibility: t.eligibility,
    source_url: t.sourceUrl,
    last_updated: t.lastUpdated,
    structure: t.structure,
    applicability: t.applicability,
    service_type: t.serviceType,
    voltage: t.voltage,
    purpose: t.purpose,
    class_note: t.classNote,
    superseded_by: t.supersededBy ?? null,
  };
}

/** On an id conflict every other column is replaced. */
const REPLACE_ALL = sql.raw(Object.values(getTableColumns(tariffs))
  .filter((c) => c.name !== 'id')
  .map((c) => `"${c.name}" = excluded."${c.name}"`)
  .join(', '));

/**
 * Inserts tariffs in batches of one jsonb parameter each (far cheaper than
 * thousands of bind parameters on PGlite); an existing id is replaced, so
 * re-seeding is harmless.
 */
export async function insertTariffs(db: Executor, list: Tariff[]): Promise<void> {
  for (let i = 0; i < list.length; i += INSERT_BATCH) {
    const batch = JSON.stringify(list.slice(i, i + INSERT_BATCH).map(columnsOf));
    await db.execute(sql`insert into tariffs select * from jsonb_populate_recordset(null::tariffs, ${batch}::jsonb)
      on conflict (id) do update set ${REPLACE_ALL}`);
  }
}
