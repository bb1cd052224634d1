import { utcDay } from '../../platform/dates';
import { and, asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { pageAfterCount } from '../../platform/db/rows';
import { notFound, unauthorized } from '../../platform/http/errors';
import { offsetOf, toPage, type Page, type PageQuery } from '../../platform/http/pagination';
import type { Sector } from './tariff.model';
import { tariffs } from './tables';
import { findTariffById } from './repository';
import { refreshTariffStats, type TariffStats } from './stats';
import { toDetail, toSummary, type TariffSummary } from './present';
import { viewOfUtilities } from '../utilities/public';
import { createCatalogCache, matchesFilter, type CatalogEntry, type CatalogFilter, type TariffCatalog } from './catalog';
import { isCustomTariffId, type CustomTariffService } from './custom/service';
import { stateOfZip } from '../utilities/zip-states';
import { dataCurrency, type DataCurrency } from './currency';

type CustomTariffSummary = Awaited<ReturnType<CustomTariffService['summaries']>>[number];

const utilityView = viewOfUtilities('utility_view');

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A custom tariff's summary as a catalog entry, for the search filters. */
function entryOf(s: CustomTariffSummary): CatalogEntry {
  return {
    id: s.id,
    name: s.name,
    utilityId: s.utility_id ?? '',
    utilityName: s.utility_name,
    state: s.state,
    sector: s.sector,
    rateType: s.rate_type,
    hasTou: s.has_tou,
    hasDemand: s.has_demand,
    hasNetMetering: s.has_net_metering,
    effectiveDate: s.effective_date,
    expirationDate: null,
    description: s.description,
    serviceType: s.service_type,
    voltage: s.voltage,
    purpose: s.purpose,
    utilityNameLower: s.utility_name.toLowerCase(),
  };
}

export type TariffSearch = CatalogFilter & PageQuery & { include_custom?: boolean };

export interface ByUtilityItem {
  id: string;
  name: string;
  sector: string;
  rate_type: string;
  has_demand: boolean;
  effective_date: string | null;
}

export function createTariffService(deps: { db: Db; now: () => Date; custom: CustomTariffService }) {
  const { db } = deps;
  const today = () => utcDay(deps.now());
  const catalog = createCatalogCache(db);

  async function utilityExists(id: string): Promise<boolean> {
    const rows = await db.select({ id: utilityView.id }).from(utilityView).where(eq(utilityView.id, id)).limit(1);
    return rows.length > 0;
  }

  /** The caller's own tariffs that match the search, in name order (a ZIP code matches the utilities serving it). */
  async function ownMatches(current: TariffCatalog, q: TariffSearch, callerId: string | null, day: string): Promise<CustomTariffSummary[]> {
    if (callerId === null) throw unauthorized('include_custom=true lists your own tariffs: authenticate (bearer token or X-API-Key)');
    const serving = q.zip_code === undefined ? null : current.servingUtilities(q.zip_code);
    const zipState = q.zip_code === undefined ? null : stateOfZip(q.zip_code);
    const needle = q.utility_name?.toLowerCase();
    const summaries = await deps.custom.summaries(callerId);
    return summaries
      .filter(
        (s) =>
          (serving === null || (s.utility_id !== null && serving.has(s.utility_id))) && matchesFilter(entryOf(s), q, day, zipState, needle),
      )
      .sort((a, b) => byCodePoint(a.name, b.name) || byCodePoint(a.id, b.id));
  }

  return {
    /**
     * Searched in the in-memory catalog (a re-import builds a new one), as of today: tariffs start and
     * expire. With include_custom, the caller's own tariffs that match come first.
     */
    async search(q: TariffSearch, callerId: string | null): Promise<Page<TariffSummary | CustomTariffSummary>> {
      const current = await catalog();
      const day = today();
      const own = q.include_custom ? await ownMatches(current, q, callerId, day) : [];
      const offset = offsetOf(q);
      const ownPage = own.slice(offset, offset + q.per_page);
      const { items, total } = current.search(q, day, Math.max(0, offset - own.length), q.per_page - ownPage.length);
      return toPage([...ownPage, ...items.map(toSummary)], own.length + total, q);
    },

    /** Builds the search catalog ahead of the first search (called once the web process listens). */
    async warm(): Promise<void> {
      await catalog();
    },

    /** A catalog tariff for anyone; a custom tariff for its owner only (404 for everyone else). */
    async detail(id: string, callerId: string | null) {
      if (isCustomTariffId(id)) return deps.custom.detail(callerId, id);
      const t = await findTariffById(db, id);
      if (!t) throw notFound('Tariff not found');
      return toDetail(t);
    },

    /** Counts over what search finds with the same defaults (current tariffs; all with include_expired). */
    async stats(q: { include_expired: boolean; by_utility?: boolean }): Promise<TariffStats & { data_currency: DataCurrency }> {
      let current = await catalog();
      if (!current.stats) {
        // An older database without the import stamp: write it once (it versions the catalog).
        await refreshTariffStats(db, deps.now());
        current = await catalog();
      }
      return { ...current.statsFor(today(), q.include_expired), data_currency: await dataCurrency(db, today(), q.by_utility ?? false) };
    },

    /** How current the catalog is, for /health: imported, newest effective date in force, last refresh. */
    currency: () => dataCurrency(db, today(), false),

    async byUtility(utilityId: string, q: PageQuery & { sector?: Sector }): Promise<Page<ByUtilityItem>> {
      const condition = and(eq(tariffs.utilityId, utilityId), q.sector !== undefined ? eq(tariffs.sector, q.sector) : undefined);
      const [{ total }] = await db.select({ total: count() }).from(tariffs).where(condition);
      // Imports store every tariff's utility, so only an empty result needs the existence check.
      if (total === 0 && !(await utilityExists(utilityId))) throw notFound('Utility not found');
      const list = db
        .select({
          id: tariffs.id,
          name: tariffs.name,
          sector: tariffs.sector,
          rate_type: tariffs.rateType,
          has_demand: tariffs.hasDemand,
          effective_date: tariffs.effectiveDate,
        })
        .from(tariffs)
        .where(condition)
        .orderBy(asc(tariffs.name), asc(tariffs.id));
      return pageAfterCount(list, total, q);
    },
  };
}

export type TariffService = ReturnType<typeof createTariffService>;
