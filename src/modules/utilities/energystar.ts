import { readCsv } from './reference';

/**
 * The ENERGY STAR ZIP-to-utility table (data/reference/README.md): every utility whose territory
 * touches a ZIP code, electric and gas, by slug. `energystar_utility_match.csv` (written by
 * scripts/match-energystar-utilities.ts) maps each slug to an EIA-861 utility id.
 */
export const ENERGYSTAR_TABLE = {
  file: 'zip_to_utility_energystar.csv.gz',
  table: 'ENERGY STAR Portfolio Manager utility map (via Rewiring America)',
  edition: 2025,
} as const;

export const ENERGYSTAR_MATCH_FILE = 'energystar_utility_match.csv';

export interface EnergyStarZipPair {
  zipCode: string;
  utilityId: string;
  /** The utility serves most of the ZIP code (true if any of the slugs merged into this pair says so). */
  predominant: boolean;
}

/**
 * Where a slug names a holding company of several EIA utilities in one state (NV Energy: Nevada
 * Power in the south, Sierra Pacific Power in the north), which of them serves a ZIP code: the one
 * whose EIA-861 Service Territory lists the ZIP code's county.
 */
export interface SlugCountyResolver {
  countyOf(zipCode: string): string | undefined;
  servesCounty(utilityId: string, countyId: string): boolean;
}

/**
 * ZIP-utility pairs from the ENERGY STAR table, by EIA id. Rows of gas utilities are
 * dropped; so are rows of slugs without an EIA id known to `utilities` (match `none`, or
 * absent from the match table), which `unmatchedSlugs` lists. Several slugs can map to
 * one EIA id (a company listed per state, a renamed utility): their rows for a ZIP code
 * become one pair. A slug matched to several ids (`eia_id` "13407 17166") is, at each ZIP
 * code, the first of them whose territory has the ZIP code's county (`resolver`), else the first.
 */
export function loadEnergyStarZipPairs(
  dir: string,
  utilities: { has(id: string): boolean },
  resolver?: SlugCountyResolver,
): { pairs: EnergyStarZipPair[]; unmatchedSlugs: string[] } {
  const gas = new Set<string>();
  const eiaBySlug = new Map<string, string[]>();
  for (const r of readCsv(dir, ENERGYSTAR_MATCH_FILE)) {
    const ids = (r.eia_id ?? '').split(' ').filter((id) => id && utilities.has(id));
    if (r.how === 'gas') gas.add(r.slug);
    else if (ids.length > 0) eiaBySlug.set(r.slug, ids);
  }
  const idAt = (zip: string, ids: string[]) => {
    if (ids.length === 1 || !resolver) return ids[0];
    const county = resolver.countyOf(zip);
    return (county && ids.find((id) => resolver.servesCounty(id, county))) || ids[0];
  };

  const pairs = new Map<string, EnergyStarZipPair>();
  const unmatched = new Set<string>();
  for (const r of readCsv(dir, ENERGYSTAR_TABLE.file)) {
    // Values below 00501 (the lowest USPS ZIP code) are the map's own area ids, not ZIP codes.
    if (gas.has(r.utility_id) || !/^\d{5}$/.test(r.zip) || r.zip < '00501') continue;
    const ids = eiaBySlug.get(r.utility_id);
    if (ids === undefined) {
      unmatched.add(r.utility_id);
      continue;
    }
    const utilityId = idAt(r.zip, ids);
    const predominant = r.predominant === '1';
    const key = `${r.zip}|${utilityId}`;
    const pair = pairs.get(key);
    if (pair) pair.predominant ||= predominant;
    else pairs.set(key, { zipCode: r.zip, utilityId, predominant });
  }
  return { pairs: [...pairs.values()], unmatchedSlugs: [...unmatched].sort() };
}
