import { and, asc, eq, gte, inArray, isNull, or } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import type { Tariff } from '../tariffs/tariff.model';
import { findTariffById, rowToTariff } from '../tariffs/repository';
import { tariffs } from '../tariffs/tables';
import { utilityZipCodes } from '../utilities/tables';

export interface AreaTariffSummary {
  id: string;
  name: string;
  utilityName: string;
  rateType: string;
  sector: string;
}

/** What properties and rate analysis need from the tariff database. */
export interface TariffCatalog {
  findTariffById(id: string): Promise<Tariff | null>;
  /** Current (not expired) tariffs of the utilities serving a ZIP code, in one sector, with their structure. */
  tariffsForArea(zipCode: string, sector: string): Promise<Tariff[]>;
  /** The same tariffs, summary columns only. */
  tariffSummariesForArea(zipCode: string, sector: string): Promise<AreaTariffSummary[]>;
}

/** Read-only queries over the tariff and utility-ZIP tables of the tariff database. */
export function createTariffCatalog(db: Executor, now: () => Date): TariffCatalog {
  const areaWhere = (zipCode: string, sector: string) => {
    const today = now().toISOString().slice(0, 10);
    const servingUtilities = db
      .select({ id: utilityZipCodes.utilityId })
      .from(utilityZipCodes)
      .where(eq(utilityZipCodes.zipCode, zipCode));
    return and(
      inArray(tariffs.utilityId, servingUtilities),
      eq(tariffs.sector, sector),
      or(isNull(tariffs.expirationDate), gte(tariffs.expirationDate, today)),
    );
  };
  const order = [asc(tariffs.utilityName), asc(tariffs.name), asc(tariffs.id)];
  return {
    findTariffById: (id) => findTariffById(db, id),
    async tariffsForArea(zipCode, sector) {
      const rows = await db.select().from(tariffs).where(areaWhere(zipCode, sector)).orderBy(...order);
      return rows.map(rowToTariff);
    },
    tariffSummariesForArea: (zipCode, sector) =>
      db
        .select({
          id: tariffs.id, name: tariffs.name, utilityName: tariffs.utilityName, rateType: tariffs.rateType, sector: tariffs.sector,
        })
        .from(tariffs)
        .where(areaWhere(zipCode, sector))
        .orderBy(...order),
  };
}
