import { utcDay } from '../../platform/dates';
import { and, asc, desc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { usageOf, type Tariff } from '../tariffs/tariff.model';
import { isCustomTariffId, type CustomTariffService } from '../tariffs/custom/service';
import { findTariffById, rowToTariff, viewOfTariffs } from '../tariffs/public';
import { utilityZipView } from '../utilities/public';
import { sectorsOfProperty, type PropertySector } from './states';
import { stateOfZip } from '../utilities/zip-states';
import { servingUtilitiesOf } from '../utilities/service';

const tariffs = viewOfTariffs('tariff_view');

export interface AreaTariffSummary {
  id: string;
  name: string;
  utilityName: string;
  rateType: string;
  sector: string;
}

/** What decides the tariffs a property may see: where it is, what it is, and who serves it today. */
export interface PropertyTariffContext {
  zipCode: string;
  propertyType: string;
  unitCount: number | null;
  tariffId: string | null;
}

/** What properties and rate analysis need from the tariff database. */
export interface TariffCatalog {
  /** A catalog tariff, or the owner's own tariff (custom: as it prices today); null when neither. */
  findTariffById(id: string, ownerId: string): Promise<Tariff | null>;
  /**
   * The owner's own electric tariffs in force today that a customer of these utilities in these
   * sectors could take beside the catalog's (not supply contracts), in name order.
   */
  customAlternatives(ownerId: string, utilityIds: readonly string[], sectors: readonly PropertySector[]): Promise<Tariff[]>;
  /**
   * A property's `available_tariffs`: current tariffs of the utilities serving its
   * ZIP code and of the utility of its current tariff, in its sectors, by sector preference,
   * utility name, tariff name.
   */
  availableTariffs(p: PropertyTariffContext): Promise<AreaTariffSummary[]>;
  /**
   * The utility a property of a ZIP code is served by when nothing else says so: the ZIP code's
   * primary utility (GET /utilities/by-zip's first, utilities/serving.ts), as a list of one EIA id;
   * empty when no utility serves the ZIP code.
   */
  servingUtilities(zipCode: string): Promise<string[]>;
  /**
   * Current tariffs of the given utilities in the given sectors, with their structure, in the same
   * order; with `state`, only the utilities' tariffs in that state.
   */
  currentTariffsOf(utilityIds: readonly string[], sectors: readonly PropertySector[], state?: string | null): Promise<Tariff[]>;
  /** Current tariffs of the utilities serving a ZIP code, in the ZIP code's state only, in the given sectors. */
  tariffsForZip(zipCode: string, sectors: readonly PropertySector[]): Promise<Tariff[]>;
  /**
   * The other tariffs a bill on `tariff` could have been priced on (the bill audit's "or on tariff X"):
   * the utility's current catalog tariffs in these sectors and the owner's own tariffs of the same
   * utility in force today, of the same utility type and unit, no supply contracts, `tariff` left out.
   */
  sameUtilityTariffs(ownerId: string, tariff: Tariff, sectors: readonly PropertySector[]): Promise<Tariff[]>;
  /**
   * For a utility with no current tariff: its latest known revisions in these sectors (and state): the
   * expired catalog tariffs no later revision superseded, newest end date first.
   */
  latestRevisionsOf(utilityIds: readonly string[], sectors: readonly PropertySector[], state?: string | null): Promise<Tariff[]>;
}

/** Catalog tariffs in force on `today` (no expiration date, or not yet expired). */
function inForceOn(today: string): SQL | undefined {
  return or(isNull(tariffs.expirationDate), gte(tariffs.expirationDate, today));
}

/** Sector preference first (sectorsOfProperty's order), then utility, tariff name, id. */
function sectorOrder(sectors: readonly PropertySector[]): SQL[] {
  return [
    sql`array_position(${sql.raw(`array[${sectors.map((s) => `'${s}'`).join(',')}]::text[]`)}, ${tariffs.sector})`,
    asc(tariffs.utilityName),
    asc(tariffs.name),
    asc(tariffs.id),
  ];
}

/** The owner's tariffs that are electric, not supply contracts, of these utilities and sectors, in name order. */
function electricAlternatives(own: Tariff[], utilityIds: readonly string[], sectors: readonly PropertySector[]): Tariff[] {
  return own
    .filter(
      (t) =>
        usageOf(t).utilityType === 'electric' &&
        t.serviceType !== 'supply_only' &&
        utilityIds.includes(t.utilityId) &&
        sectors.includes(t.sector as PropertySector),
    )
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
}

/** TariffCatalog.availableTariffs on `today`. */
function queryAvailableTariffs(db: Executor, today: string, p: PropertyTariffContext): Promise<AreaTariffSummary[]> {
  const sectors = sectorsOfProperty(p.propertyType, p.unitCount);
  const zipState = stateOfZip(p.zipCode);
  const serving = db.select({ id: utilityZipView.utilityId }).from(utilityZipView).where(eq(utilityZipView.zipCode, p.zipCode));
  const utilityOfCurrent = p.tariffId ? db.select({ id: tariffs.utilityId }).from(tariffs).where(eq(tariffs.id, p.tariffId)) : null;
  return db
    .select({
      id: tariffs.id,
      name: tariffs.name,
      utilityName: tariffs.utilityName,
      rateType: tariffs.rateType,
      sector: tariffs.sector,
    })
    .from(tariffs)
    .where(
      and(
        utilityOfCurrent
          ? or(inArray(tariffs.utilityId, serving), inArray(tariffs.utilityId, utilityOfCurrent))
          : inArray(tariffs.utilityId, serving),
        inArray(tariffs.sector, sectors),
        eq(tariffs.purpose, 'general'),
        zipState ? eq(tariffs.state, zipState) : undefined,
        inForceOn(today),
      ),
    )
    .orderBy(...sectorOrder(sectors));
}

/** The utilities' tariffs of these sectors (and state, when given) that `when` admits, in `order`. */
async function queryUtilityTariffs(
  db: Executor,
  utilityIds: readonly string[],
  sectors: readonly PropertySector[],
  state: string | null | undefined,
  when: SQL | undefined,
  order: SQL[],
): Promise<Tariff[]> {
  if (utilityIds.length === 0 || sectors.length === 0) return [];
  const rows = await db
    .select()
    .from(tariffs)
    .where(
      and(
        inArray(tariffs.utilityId, [...utilityIds]),
        inArray(tariffs.sector, [...sectors]),
        when,
        state ? eq(tariffs.state, state) : undefined,
      ),
    )
    .orderBy(...order);
  return rows.map(rowToTariff);
}

/** TariffCatalog.currentTariffsOf on `today`. */
const queryCurrentTariffs = (
  db: Executor,
  today: string,
  utilityIds: readonly string[],
  sectors: readonly PropertySector[],
  state?: string | null,
) => queryUtilityTariffs(db, utilityIds, sectors, state, inForceOn(today), sectorOrder(sectors));

/** TariffCatalog.latestRevisionsOf on `today`: the newest end first. */
const queryLatestRevisions = (
  db: Executor,
  today: string,
  utilityIds: readonly string[],
  sectors: readonly PropertySector[],
  state?: string | null,
) =>
  queryUtilityTariffs(db, utilityIds, sectors, state, and(isNull(tariffs.supersededBy), lt(tariffs.expirationDate, today)), [
    desc(tariffs.expirationDate),
    ...sectorOrder(sectors),
  ]);

/** Of `candidates`, those a bill on `tariff` could have been priced on: same utility type and unit, no supply contracts, not `tariff`. */
function comparableTo(tariff: Tariff, candidates: Tariff[]): Tariff[] {
  const { utilityType, unit } = usageOf(tariff);
  return candidates.filter(
    (t) => t.id !== tariff.id && t.serviceType !== 'supply_only' && usageOf(t).utilityType === utilityType && usageOf(t).unit === unit,
  );
}

/** Read-only queries over the tariff and utility-ZIP tables of the tariff database. */
export function createTariffCatalog(
  db: Executor,
  now: () => Date,
  custom: Pick<CustomTariffService, 'current' | 'inForce'>,
): TariffCatalog {
  const today = () => utcDay(now());
  return {
    findTariffById: (id, ownerId) => (isCustomTariffId(id) ? custom.current(ownerId, id) : findTariffById(db, id)),

    async customAlternatives(ownerId, utilityIds, sectors) {
      return electricAlternatives(await custom.inForce(ownerId, today()), utilityIds, sectors);
    },

    availableTariffs: (p) => queryAvailableTariffs(db, today(), p),

    async servingUtilities(zipCode) {
      const primary = (await servingUtilitiesOf(db, zipCode)).ranked[0];
      return primary ? [primary.id] : [];
    },

    currentTariffsOf: (utilityIds, sectors, state) => queryCurrentTariffs(db, today(), utilityIds, sectors, state),

    async tariffsForZip(zipCode, sectors) {
      return this.currentTariffsOf(await this.servingUtilities(zipCode), sectors, stateOfZip(zipCode));
    },

    async sameUtilityTariffs(ownerId, tariff, sectors) {
      const { utilityType } = usageOf(tariff);
      const sameUtility = (t: Tariff) =>
        tariff.utilityId !== '' ? t.utilityId === tariff.utilityId : t.utilityName.toLowerCase() === tariff.utilityName.toLowerCase();
      const [catalog, own] = await Promise.all([
        tariff.utilityId !== '' && utilityType === 'electric'
          ? this.currentTariffsOf([tariff.utilityId], sectors, tariff.state)
          : Promise.resolve([]),
        custom.inForce(ownerId, today()),
      ]);
      return comparableTo(tariff, [...catalog, ...own.filter(sameUtility)]);
    },

    latestRevisionsOf: (utilityIds, sectors, state) => queryLatestRevisions(db, today(), utilityIds, sectors, state),
  };
}
