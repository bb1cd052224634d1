import type { Tariff } from '../tariffs/tariff.model';
import type { TariffCatalog } from '../properties/tariff-catalog';
import type { PropertySector } from '../properties/states';

/**
 * Tariff reads of one request or job. An owner's job reads each tariff, each ZIP code's serving
 * utilities and each (utilities, sectors) candidate list once, however many properties share them.
 */
export interface TariffReads {
  tariff(id: string): Promise<Tariff | null>;
  serving(zipCode: string): Promise<string[]>;
  /** The catalog's current tariffs of the utilities in the sectors, then the owner's own of the same utilities and sectors. */
  candidates(utilityIds: string[], sectors: PropertySector[]): Promise<Tariff[]>;
  /** The latest known revisions of the utilities' expired tariffs (for a utility with no current one). */
  latest(utilityIds: string[], sectors: PropertySector[], state: string | null): Promise<Tariff[]>;
}

function memo<T>(read: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const seen = new Map<string, Promise<T>>();
  return (key) => {
    let hit = seen.get(key);
    if (!hit) seen.set(key, (hit = read(key)));
    return hit;
  };
}

/** Reads for one owner's properties (a request's or a job's): their own tariffs are among the tariffs. */
export function tariffReads(tariffs: TariffCatalog, ownerId: string): TariffReads {
  const candidates = memo(async (key) => {
    const [utilities, sectors] = key.split('|').map((part) => part.split(',')) as [string[], PropertySector[]];
    const [catalog, own] = await Promise.all([
      tariffs.currentTariffsOf(utilities, sectors),
      tariffs.customAlternatives(ownerId, utilities, sectors),
    ]);
    return [...catalog, ...own];
  });
  const latest = memo(async (key) => {
    const [utilities, sectors, state] = key.split('|') as [string, string, string];
    return tariffs.latestRevisionsOf(utilities.split(','), sectors.split(',') as PropertySector[], state || null);
  });
  return {
    latest: (utilityIds, sectors, state) => latest(`${utilityIds.join(',')}|${sectors.join(',')}|${state ?? ''}`),
    tariff: memo((id) => tariffs.findTariffById(id, ownerId)),
    serving: memo((zip) => tariffs.servingUtilities(zip)),
    candidates: (utilityIds, sectors) => candidates(`${utilityIds.join(',')}|${sectors.join(',')}`),
  };
}
