import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { systemState } from '../../platform/db/tables';
import type { RateType, Sector } from './tariff.model';
import { tariffs } from './tables';

export const SECTORS: readonly Sector[] = ['residential', 'commercial', 'industrial', 'agricultural', 'lighting'];
export const RATE_TYPES: readonly RateType[] = ['flat', 'tiered', 'tou', 'demand', 'real_time'];

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
  const [t] = await db.select({
    total: sql<number>`count(*)::int`,
    utilities: sql<number>`count(distinct ${tariffs.utilityId})::int`,
    states: sql<number>`count(distinct ${tariffs.state})::int`,
  }).from(tariffs);
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
  await db.insert(systemState).values({ key: STATS_KEY, value: JSON.stringify(stats), updatedAt: now })
    .onConflictDoUpdate({ target: systemState.key, set: { value: JSON.stringify(stats), updatedAt: now } });
  return stats;
}

/** The cached statistics; null before the first import. */
export async function readTariffStats(db: Executor): Promise<TariffStats | null> {
  const [row] = await db.select().from(systemState).where(eq(systemState.key, STATS_KEY)).limit(1);
  return row ? (JSON.parse(row.value) as TariffStats) : null;
}
