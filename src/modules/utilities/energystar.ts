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
 * ZIP-utility pairs from the ENERGY STAR table, by EIA id. Rows of gas utilities are
 * dropped; so are rows of slugs without an EIA id known to `utilities` (match `none`, or
 * absent from the match table), which `unmatchedSlugs` lists. Several slugs can map to
 * one EIA id (a company listed per state, a renamed utility): their rows for a ZIP code
 * become one pair.
 */
export function loadEnergyStarZipPairs(
  dir: string,
  utilities: { has(id: string): boolean },
): { pairs: EnergyStarZipPair[]; unmatchedSlugs: string[] } {
  const gas = new Set<string>();
  const eiaBySlug = new Map<string, string>();
  for (const r of readCsv(dir, ENERGYSTAR_MATCH_FILE)) {
    if (r.how === 'gas') gas.add(r.slug);
    else if (r.eia_id && utilities.has(r.eia_id)) eiaBySlug.set(r.slug, r.eia_id);
  }

  const pairs = new Map<string, EnergyStarZipPair>();
  const unmatched = new Set<string>();
  for (const r of readCsv(dir, ENERGYSTAR_TABLE.file)) {
    // Values below 00501 (the lowest USPS ZIP code) are the map's own area ids, not ZIP codes.
    if (gas.has(r.utility_id) || !/^\d{5}$/.test(r.zip) || r.zip < '00501') continue;
    const utilityId = eiaBySlug.get(r.utility_id);
    if (utilityId === undefined) {
      unmatched.add(r.utility_id);
      continue;
    }
    const predominant = r.predominant === '1';
    const key = `${r.zip}|${utilityId}`;
    const pair = pairs.get(key);
    if (pair) pair.predominant ||= predominant;
    else pairs.set(key, { zipCode: r.zip, utilityId, predominant });
  }
  return { pairs: [...pairs.values()], unmatchedSlugs: [...unmatched].sort() };
}
