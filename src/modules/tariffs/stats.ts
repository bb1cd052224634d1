import { sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { readSystemState, writeSystemState } from '../../platform/db/system-state';
import { RATE_TYPES, SECTORS, type RateType, type Sector } from './tariff.model';
import { tariffs } from './tables';

export interface TariffStats {
  total_tariffs: number;
  total_utilities: number;
  states_covered: number;
  sectors: Record<Sector, number>;
  rate_types: Record<RateType, number>;
  last_updated: string;
}

/** system_state key of the cached statistics; its updated_at stamps every import and seed. */
export const STATS_KEY = 'tariff_stats';

/**
 * Computes the statistics over every stored tariff (expired ones included) and
 * keeps them in system_state, so GET /tariffs/stats reads one row. Called at
 * the end of every import or seed, inside its transaction.
 */
export async function refreshTariffStats(db: Executor, now: Date): Promise<TariffStats> {
  const [t] = await db
    .select({
      total: sql<number>`count(*)::int`,
      utilities: sql<number>`count(distinct ${tariffs.utilityId})::int`,
      states: sql<number>`count(distinct ${tariffs.state})::int`,
    })
    .from(tariffs);
  const n = sql<number>`count(*)::int`;
  const bySector = await db.select({ k: tariffs.sector, n }).from(tariffs).groupBy(tariffs.sector);
  const byType = await db.select({ k: tariffs.rateType, n }).from(tariffs).groupBy(tariffs.rateType);
  const count = <K extends string>(keys: readonly K[], rows: Array<{ k: string; n: number }>) =>
    Object.fromEntries(keys.map((k) => [k, Number(rows.find((r) => r.k === k)?.n ?? 0)])) as Record<K, number>;
  const stats: TariffStats = {
    total_tariffs: Number(t.total),
    total_utilities: Number(t.utilities),
    states_covered: Number(t.states),
    sectors: count(SECTORS, bySector),
    rate_types: count(RATE_TYPES, byType),
    last_updated: now.toISOString(),
  };
  await writeSystemState(db, STATS_KEY, JSON.stringify(stats), now);
  return stats;
}

/** The cached statistics; null before the first import. */
export async function readTariffStats(db: Executor): Promise<TariffStats | null> {
  const row = await readSystemState(db, STATS_KEY);
  return row ? (JSON.parse(row.value) as TariffStats) : null;
}
