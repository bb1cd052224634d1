import { TtlCache } from '../../../platform/ttl-cache';
import type { Tariff } from '../tariff.model';
import type { CustomTariffRepository, StoredCustomTariff } from './repository';
import { tariffOfVersion } from './versions';

/** How long a process keeps a priced custom tariff: another process sees a new version within this. */
export const CUSTOM_TARIFF_CACHE_MS = 5000;
const CACHE_ENTRIES = 2000;

/** A stored tariff and each version as the engine prices it (index = version). */
export interface PricedTariff {
  stored: StoredCustomTariff;
  tariffs: Tariff[];
}

const pricedOf = (stored: StoredCustomTariff): PricedTariff => ({ stored, tariffs: stored.versions.map((_, i) => tariffOfVersion(stored, i)) });

/**
 * Tariffs priced recently, with their versions' Tariff objects (which keep the engine's
 * precomputation): a calculation on one reads no row. Writes through this process drop the entry at
 * once; another process sees a change within CUSTOM_TARIFF_CACHE_MS, as with the catalog's import stamp.
 */
export function createPricedTariffCache(repo: Pick<CustomTariffRepository, 'findOwned' | 'allOfOwner'>) {
  const cache = new TtlCache<PricedTariff>(CUSTOM_TARIFF_CACHE_MS, CACHE_ENTRIES);
  const cacheKey = (ownerId: string, id: string) => `${ownerId}|${id}`;

  /** Every tariff of an owner (not retired), priced, kept as long: what rate analysis and the bill audit compare with. */
  const ownerTariffs = new TtlCache<PricedTariff[]>(CUSTOM_TARIFF_CACHE_MS, CACHE_ENTRIES);
  /**
   * Counts the drops: a read that began before a drop may have read the rates the drop was for, so
   * its answer is used once and not kept.
   */
  let drops = 0;

  return {
    /** The owner's tariff (not retired), from the cache or one read; null when it is not theirs. */
    async priced(ownerId: string, id: string): Promise<PricedTariff | null> {
      const key = cacheKey(ownerId, id);
      const hit = cache.get(key);
      if (hit) return hit;
      const readAfter = drops;
      const stored = await repo.findOwned(ownerId, id);
      if (!stored) return null;
      const entry = pricedOf(stored);
      if (drops === readAfter) cache.set(key, entry);
      return entry;
    },

    /** Every tariff of the owner (not retired), priced: from the cache or one read. */
    async ofOwner(ownerId: string): Promise<PricedTariff[]> {
      let all = ownerTariffs.get(ownerId);
      if (!all) {
        const readAfter = drops;
        all = (await repo.allOfOwner(ownerId)).map(pricedOf);
        if (drops === readAfter) ownerTariffs.set(ownerId, all);
      }
      return all;
    },

    /** A write through this process: its tariff and its owner's list are read again. */
    forget(ownerId: string, id: string): void {
      drops++;
      cache.delete(cacheKey(ownerId, id));
      ownerTariffs.delete(ownerId);
    },

    /** A tariff added through this process: its owner's list is read again. */
    forgetOwnerList(ownerId: string): void {
      ownerTariffs.delete(ownerId);
    },

    /** Drops every entry. */
    clear(): void {
      drops++;
      cache.clear();
      ownerTariffs.clear();
    },
  };
}
