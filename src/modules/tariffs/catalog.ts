import type { Db } from '../../platform/db/client';
import { readSystemState } from '../../platform/db/system-state';
import { tariffs } from './tables';
import { utilityZipView } from '../utilities/public';
import { STATS_KEY, type TariffStats } from './stats';
import { plainSummaryColumns, type SummarySource } from './present';
import { RATE_TYPES, SECTORS, type RateType, type Sector, type TariffSource } from './tariff.model';
import type { Purpose, ServiceType, Voltage } from './tariff-class';
import { stateOfZip } from '../utilities/zip-states';
import { isExpired } from './tariff-notices';

export interface CatalogEntry extends SummarySource {
  expirationDate: string | null;
  /** Lower-cased utility name, for case-insensitive partial matching. */
  utilityNameLower: string;
}

export interface CatalogFilter {
  zip_code?: string;
  state?: string;
  utility_name?: string;
  sector?: Sector;
  rate_type?: RateType;
  has_tou?: boolean;
  has_demand?: boolean;
  has_net_metering?: boolean;
  service_type?: ServiceType;
  voltage?: Voltage;
  purpose?: Purpose;
  include_expired: boolean;
}

/** A row as read: the stored source and time (a Date from the driver); absent in hand-built rows (bundled). */
type CatalogRow = Omit<CatalogEntry, 'utilityNameLower' | 'source' | 'sourceUpdatedAt'> & {
  source?: string;
  sourceUpdatedAt?: Date | string | null;
};
type ZipPair = { zipCode: string; utilityId: string };

/** Code-point order, the same on PGlite and on PostgreSQL whatever the server's collation. */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * An immutable in-memory copy of every tariff's summary columns and of the ZIP
 * look-up, sorted once by (utility name, tariff name, id). Tariff search runs
 * over it instead of SQL: the catalog is reference data that changes only on
 * import, and partial-name matching over 13,000 rows is far cheaper in memory
 * than through ILIKE (especially on embedded PGlite).
 */
export class TariffCatalog {
  private constructor(
    readonly version: string,
    /** The statistics cached at import (null before the first import). */
    readonly stats: TariffStats | null,
    private readonly entries: readonly CatalogEntry[],
    private readonly utilitiesByZip: ReadonlyMap<string, ReadonlySet<string>>,
    /** Positions in `entries` of each utility's tariffs, ascending: a ZIP search reads only these. */
    private readonly positionsByUtility: ReadonlyMap<string, readonly number[]>,
  ) {}

  /** Statistics per (day, include_expired): a tariff expires at midnight UTC, so a day's answer holds all day. */
  private readonly statsByDay = new Map<string, TariffStats>();

  static build(version: string, stats: TariffStats | null, rows: CatalogRow[], zipPairs: ZipPair[]) {
    const entries: CatalogEntry[] = rows.map((r) => ({
      ...plainSummaryColumns(r),
      sector: r.sector,
      rateType: r.rateType,
      serviceType: r.serviceType,
      voltage: r.voltage,
      purpose: r.purpose,
      source: (r.source ?? 'bundled') as TariffSource,
      sourceUpdatedAt: r.sourceUpdatedAt instanceof Date ? r.sourceUpdatedAt.toISOString() : (r.sourceUpdatedAt ?? null),
      utilityNameLower: r.utilityName.toLowerCase(),
    }));
    entries.sort((a, b) => byCodePoint(a.utilityName, b.utilityName) || byCodePoint(a.name, b.name) || byCodePoint(a.id, b.id));
    const byZip = new Map<string, Set<string>>();
    for (const { zipCode, utilityId } of zipPairs) {
      let set = byZip.get(zipCode);
      if (!set) byZip.set(zipCode, (set = new Set()));
      set.add(utilityId);
    }
    const byUtility = new Map<string, number[]>();
    entries.forEach((e, i) => {
      const list = byUtility.get(e.utilityId);
      if (list) list.push(i);
      else byUtility.set(e.utilityId, [i]);
    });
    return new TariffCatalog(version, stats, entries, byZip, byUtility);
  }

  /**
   * GET /tariffs/stats over the tariffs a search with the same defaults finds: current ones
   * (no expiration date before `today`), or all with includeExpired. `last_updated` is the import time.
   */
  statsFor(today: string, includeExpired: boolean): TariffStats {
    const key = `${today}|${includeExpired}`;
    const hit = this.statsByDay.get(key);
    if (hit) return hit;
    const sectors = Object.fromEntries(SECTORS.map((k) => [k, 0])) as Record<Sector, number>;
    const rateTypes = Object.fromEntries(RATE_TYPES.map((k) => [k, 0])) as Record<RateType, number>;
    const utilities = new Set<string>();
    const states = new Set<string>();
    let total = 0;
    for (const e of this.entries) {
      if (!includeExpired && isExpired(e, today)) continue;
      total++;
      utilities.add(e.utilityId);
      if (e.state !== null) states.add(e.state);
      sectors[e.sector as Sector]++;
      rateTypes[e.rateType as RateType]++;
    }
    const stats: TariffStats = {
      total_tariffs: total,
      total_utilities: utilities.size,
      states_covered: states.size,
      sectors,
      rate_types: rateTypes,
      last_updated: this.stats?.last_updated ?? new Date(0).toISOString(),
    };
    if (this.statsByDay.size > 8) this.statsByDay.clear();
    this.statsByDay.set(key, stats);
    return stats;
  }

  /** EIA ids of the utilities the ZIP tables list for a ZIP code (empty when none). */
  servingUtilities(zipCode: string): ReadonlySet<string> {
    return this.utilitiesByZip.get(zipCode) ?? new Set();
  }

  /**
   * Matching entries in catalog order, one page of them, and how many matched. A ZIP code's
   * tariffs are those of the utilities serving it, in the ZIP code's state only: a utility serving
   * several states has other states' tariffs too, which its customers there cannot take.
   */
  search(f: CatalogFilter, today: string, offset: number, limit: number): { items: CatalogEntry[]; total: number } {
    const serving = f.zip_code === undefined ? undefined : this.utilitiesByZip.get(f.zip_code);
    if (f.zip_code !== undefined && !serving) return { items: [], total: 0 };
    const zipState = f.zip_code === undefined ? null : stateOfZip(f.zip_code);
    const needle = f.utility_name?.toLowerCase();
    const items: CatalogEntry[] = [];
    let total = 0;
    const visit = (e: CatalogEntry) => {
      if (!matchesFilter(e, f, today, zipState, needle)) return;
      if (total >= offset && items.length < limit) items.push(e);
      total++;
    };
    if (serving) {
      // Only the serving utilities' tariffs, visited in catalog order.
      const positions: number[] = [];
      for (const id of serving) positions.push(...(this.positionsByUtility.get(id) ?? []));
      positions.sort((a, b) => a - b);
      for (const i of positions) visit(this.entries[i]);
    } else {
      for (const e of this.entries) visit(e);
    }
    return { items, total };
  }
}

/**
 * The search filters other than the ZIP code's utilities (the caller narrows to those): one rule
 * for catalog entries and for an account's own tariffs (include_custom).
 */
export function matchesFilter(
  e: CatalogEntry,
  f: CatalogFilter,
  today: string,
  zipState: string | null,
  needle: string | undefined,
): boolean {
  if (f.state !== undefined && e.state !== f.state) return false;
  if (zipState !== null && e.state !== zipState) return false;
  if (needle !== undefined && !e.utilityNameLower.includes(needle)) return false;
  if (f.sector !== undefined && e.sector !== f.sector) return false;
  if (f.rate_type !== undefined && e.rateType !== f.rate_type) return false;
  if (f.has_tou !== undefined && e.hasTou !== f.has_tou) return false;
  if (f.has_demand !== undefined && e.hasDemand !== f.has_demand) return false;
  if (f.has_net_metering !== undefined && e.hasNetMetering !== f.has_net_metering) return false;
  if (f.service_type !== undefined && e.serviceType !== f.service_type) return false;
  if (f.voltage !== undefined && e.voltage !== f.voltage) return false;
  if (f.purpose !== undefined && e.purpose !== f.purpose) return false;
  return f.include_expired || !isExpired(e, today);
}

/** Where a catalog is read from: the two tables, whole, and the import stamp. */
export interface CatalogSource {
  tariffs(): Promise<CatalogRow[]>;
  zipPairs(): Promise<ZipPair[]>;
  stamp(): Promise<{ version: string; stats: TariffStats | null }>;
}

export function databaseCatalogSource(db: Db): CatalogSource {
  return {
    tariffs: () =>
      db
        .select({
          id: tariffs.id,
          name: tariffs.name,
          utilityId: tariffs.utilityId,
          utilityName: tariffs.utilityName,
          state: tariffs.state,
          sector: tariffs.sector,
          rateType: tariffs.rateType,
          hasTou: tariffs.hasTou,
          hasDemand: tariffs.hasDemand,
          hasNetMetering: tariffs.hasNetMetering,
          effectiveDate: tariffs.effectiveDate,
          expirationDate: tariffs.expirationDate,
          description: tariffs.description,
          serviceType: tariffs.serviceType,
          voltage: tariffs.voltage,
          purpose: tariffs.purpose,
          source: tariffs.source,
          sourceUpdatedAt: tariffs.sourceUpdatedAt,
        })
        .from(tariffs),
    zipPairs: () => db.select({ zipCode: utilityZipView.zipCode, utilityId: utilityZipView.utilityId }).from(utilityZipView),
    stamp: async () => {
      const row = await readSystemState(db, STATS_KEY);
      return row
        ? { version: row.updatedAt.toISOString(), stats: JSON.parse(row.value) as TariffStats }
        : { version: 'empty', stats: null };
    },
  };
}

/**
 * Reads a whole catalog (the build sorts it, so the reads need no order). `stamp` is the import
 * stamp read just before; an import that commits between the reads moves it, and the read starts
 * over, so a catalog never mixes old and new data.
 */
async function readCatalog(source: CatalogSource, stamp: { version: string; stats: TariffStats | null }): Promise<TariffCatalog> {
  let { version, stats } = stamp;
  for (let attempt = 1; ; attempt++) {
    const rows = await source.tariffs();
    const zipPairs = await source.zipPairs();
    const now = await source.stamp();
    if (now.version === version) return TariffCatalog.build(version, stats, rows, zipPairs);
    if (attempt === 3) throw new Error('the tariff data kept changing while the search catalog was read');
    ({ version, stats } = now);
  }
}

/**
 * Keeps the current catalog (and the statistics stored with it) for one process, keyed by the
 * import stamp: every call reads the stamp (one row), and a stamp other than the catalog's builds a
 * new one. An import through any process is searched on the next call; nothing has to drop it
 * (decision record 0015).
 */
export function createCatalogCache(db: Db, source: CatalogSource = databaseCatalogSource(db)) {
  let current: TariffCatalog | undefined;
  let building: { version: string; promise: Promise<TariffCatalog> } | undefined;

  return async function catalog(): Promise<TariffCatalog> {
    const stamp = await source.stamp();
    const { version } = stamp;
    if (current?.version === version) return current;
    // Concurrent requests for the same stamp share one build.
    if (building?.version !== version) {
      const promise = readCatalog(source, stamp);
      building = { version, promise };
      promise.then(
        (built) => {
          if (building?.promise === promise) building = undefined;
          current = built;
        },
        () => {
          if (building?.promise === promise) building = undefined;
        },
      );
    }
    return building.promise;
  };
}
