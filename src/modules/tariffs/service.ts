import { utcDay } from '../../platform/dates';
import { and, asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { notFound } from '../../platform/http/errors';
import { offsetOf, toPage, type Page, type PageQuery } from '../../platform/http/pagination';
import type { Sector } from './tariff.model';
import { tariffs } from './tables';
import { findTariffById } from './repository';
import { refreshTariffStats, type TariffStats } from './stats';
import { toDetail, toSummary, type TariffSummary } from './present';
import { utilities } from '../utilities/tables';
import { createCatalogCache, referenceDataChanged, type CatalogFilter } from './catalog';

export type TariffSearch = CatalogFilter & PageQuery;

export interface ByUtilityItem {
  id: string;
  name: string;
  sector: string;
  rate_type: string;
  has_demand: boolean;
  effective_date: string | null;
}

export function createTariffService(deps: { db: Db; now: () => Date }) {
  const { db } = deps;
  const today = () => utcDay(deps.now());
  const catalog = createCatalogCache(db);

  async function utilityExists(id: string): Promise<boolean> {
    const rows = await db.select({ id: utilities.id }).from(utilities).where(eq(utilities.id, id)).limit(1);
    return rows.length > 0;
  }

  return {
    /** Searched in the in-memory catalog (a re-import builds a new one), as of today: tariffs start and expire. */
    async search(q: TariffSearch): Promise<Page<TariffSummary>> {
      const { items, total } = (await catalog()).search(q, today(), offsetOf(q), q.per_page);
      return toPage(items.map(toSummary), total, q);
    },

    /** Builds the search catalog ahead of the first search (called once the web process listens). */
    async warm(): Promise<void> {
      await catalog();
    },

    async detail(id: string) {
      const t = await findTariffById(db, id);
      if (!t) throw notFound('Tariff not found');
      return toDetail(t);
    },

    /** Counts over what search finds with the same defaults (current tariffs; all with include_expired). */
    async stats(q: { include_expired: boolean }): Promise<TariffStats> {
      let current = await catalog();
      if (!current.stats) {
        // An older database without the import stamp: write it once (it versions the catalog).
        await refreshTariffStats(db, deps.now());
        referenceDataChanged();
        current = await catalog();
      }
      return current.statsFor(today(), q.include_expired);
    },

    async byUtility(utilityId: string, q: PageQuery & { sector?: Sector }): Promise<Page<ByUtilityItem>> {
      const condition = and(eq(tariffs.utilityId, utilityId), q.sector !== undefined ? eq(tariffs.sector, q.sector) : undefined);
      const [{ total }] = await db.select({ total: count() }).from(tariffs).where(condition);
      // Imports store every tariff's utility, so only an empty result needs the existence check.
      if (total === 0 && !(await utilityExists(utilityId))) throw notFound('Utility not found');
      const rows = total === 0 || offsetOf(q) >= total ? [] : await db.select({
        id: tariffs.id, name: tariffs.name, sector: tariffs.sector, rate_type: tariffs.rateType,
        has_demand: tariffs.hasDemand, effective_date: tariffs.effectiveDate,
      }).from(tariffs).where(condition).orderBy(asc(tariffs.name), asc(tariffs.id)).limit(q.per_page).offset(offsetOf(q));
      return toPage(rows, total, q);
    },
  };
}

export type TariffService = ReturnType<typeof createTariffService>;
