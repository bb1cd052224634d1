import { and, isNotNull, lte, max } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { readSystemState } from '../../platform/db/system-state';
import { tariffs } from './tables';
import { REFERENCE_IMPORT_KEY } from './importer';
import { LAST_REFRESH_KEY, type LastRefresh } from './refresh/service';

export interface DataCurrency {
  imported_at: string | null;
  newest_effective_date: string | null;
  last_refresh: LastRefresh | null;
  utilities?: Array<{ utility_id: string; newest_effective_date: string | null; refreshed_at: string | null }>;
}

/** The last refresh that finished, or null (never ran). */
export async function lastRefresh(db: Executor): Promise<LastRefresh | null> {
  const row = await readSystemState(db, LAST_REFRESH_KEY);
  return row ? (JSON.parse(row.value) as LastRefresh) : null;
}

/**
 * How current the catalog is (GET /tariffs/stats, /health): when it was imported and last refreshed,
 * and the newest effective date that has come by `today` (a record published ahead of its date is not
 * yet in force); with `byUtility`, the same per utility and when a refresh last stored its tariffs.
 */
export async function dataCurrency(db: Executor, today: string, byUtility: boolean): Promise<DataCurrency> {
  const imported = await readSystemState(db, REFERENCE_IMPORT_KEY);
  const inForce = and(isNotNull(tariffs.effectiveDate), lte(tariffs.effectiveDate, today));
  const [newest] = await db
    .select({ d: max(tariffs.effectiveDate) })
    .from(tariffs)
    .where(inForce);
  const out: DataCurrency = {
    imported_at: imported?.updatedAt.toISOString() ?? null,
    newest_effective_date: newest?.d ?? null,
    last_refresh: await lastRefresh(db),
  };
  if (byUtility) {
    const rows = await db
      .select({ utilityId: tariffs.utilityId, refreshed: max(tariffs.sourceUpdatedAt) })
      .from(tariffs)
      .groupBy(tariffs.utilityId)
      .orderBy(tariffs.utilityId);
    const inForceRows = await db
      .select({ utilityId: tariffs.utilityId, newest: max(tariffs.effectiveDate) })
      .from(tariffs)
      .where(inForce)
      .groupBy(tariffs.utilityId);
    const inForceBy = new Map(inForceRows.map((r) => [r.utilityId, r.newest]));
    out.utilities = rows.map((r) => ({
      utility_id: r.utilityId,
      newest_effective_date: inForceBy.get(r.utilityId) ?? null,
      refreshed_at: r.refreshed ? new Date(r.refreshed as unknown as string | Date).toISOString() : null,
    }));
  }
  return out;
}
