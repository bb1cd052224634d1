import type { ZipCounty } from './counties';

export interface CountyPairsInput {
  /** The ZIP tables' pairs, successors already applied. */
  zipPairs: ReadonlyArray<{ zipCode: string; utilityId: string; source: string }>;
  zipCounties: ReadonlyMap<string, ZipCounty>;
  /** County ids by utility and state (EIA-861 Service Territory). */
  territory: ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>>;
  /** EIA ownership in snake case, by utility id. */
  types: ReadonlyMap<string, string | null>;
}

/**
 * The investor-owned utilities of the counties the 2011 investor-owned ZIP table misses.
 *
 * The newest investor-owned ZIP table we can ship (OpenEI, 2011) leaves whole counties out: not one
 * ZIP code of Franklin County, OH (Columbus) lists an investor-owned utility, although Ohio Power
 * serves most of it. So for a county where that table lists no utility at any ZIP code, every
 * investor-owned utility that EIA-861 2018 Service Territory lists in the county, and that a ZIP
 * table (any of them) lists at one of the county's ZIP codes at least, is paired with each ZIP code
 * of the county (GeoNames) that does not list it yet. The second condition keeps out a utility
 * EIA-861 names in the county but no table places there (Duke Energy Ohio in Franklin County).
 * Where the 2011 table covers a county, its absence at a ZIP code is information and nothing is
 * added (Southern California Edison is not added to downtown Los Angeles).
 */
export function countyGapPairs(input: CountyPairsInput): Array<{ zipCode: string; utilityId: string; source: 'eia861_county_2018' }> {
  const coveredBy2011 = new Set<string>();
  const listedInCounty = new Map<string, Set<string>>();
  const havePair = new Set<string>();
  for (const p of input.zipPairs) {
    havePair.add(`${p.zipCode}|${p.utilityId}`);
    const county = input.zipCounties.get(p.zipCode)?.id;
    if (!county) continue;
    if (p.source === 'iou_2011') coveredBy2011.add(county);
    let set = listedInCounty.get(county);
    if (!set) listedInCounty.set(county, (set = new Set()));
    set.add(p.utilityId);
  }
  const zipsOfCounty = new Map<string, string[]>();
  for (const [zip, c] of input.zipCounties) {
    const list = zipsOfCounty.get(c.id);
    if (list) list.push(zip);
    else zipsOfCounty.set(c.id, [zip]);
  }

  const out: Array<{ zipCode: string; utilityId: string; source: 'eia861_county_2018' }> = [];
  const utilityIds = [...input.territory.keys()].filter((id) => input.types.get(id) === 'investor_owned').sort(byNumber);
  for (const id of utilityIds) {
    for (const [, counties] of [...input.territory.get(id)!].sort(([a], [b]) => a.localeCompare(b))) {
      for (const county of [...counties].sort()) {
        if (coveredBy2011.has(county) || !listedInCounty.get(county)?.has(id)) continue;
        for (const zipCode of [...(zipsOfCounty.get(county) ?? [])].sort()) {
          if (!havePair.has(`${zipCode}|${id}`)) out.push({ zipCode, utilityId: id, source: 'eia861_county_2018' });
        }
      }
    }
  }
  return out;
}

const byNumber = (a: string, b: string) => Number(a) - Number(b) || a.localeCompare(b);
