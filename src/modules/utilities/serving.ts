import type { ZipCounty } from './counties';
import { loadUtilityReference, REFERENCE_DIR, type AreaData, type UtilityReference } from './reference';

/**
 * The order of the utilities serving a ZIP code (data/reference/README.md, "Vintage, and who serves a ZIP
 * code"): by an estimate of their retail customers in the ZIP code's county, the first one primary.
 *
 * EIA-861 counts a utility's customers per state, not per county. The estimate spreads the
 * utility's EIA-861 2018 customers in the state over its counties there in proportion to their
 * size, the number of GeoNames ZIP codes of each county: the counties EIA-861 Service Territory
 * lists for it, and any other county where a ZIP table lists it, with the number of that county's
 * ZIP codes the tables list it at. So it assumes a utility serves the whole of each county it lists
 * alike; where two utilities share a county the larger one comes first in all of it.
 *
 * One ZIP-level statement corrects that: the ENERGY STAR map marks the utility that serves most of
 * a ZIP code. Where it marks exactly one of the candidates, and an NREL ZIP table also lists it at the
 * ZIP code, it comes first when it is investor-owned (Arizona Public Service in downtown Phoenix,
 * where Salt River Project has more customers in Maricopa County), or when it is the municipal
 * utility of the ZIP code's own place, the only candidate the NREL tables list there, and large
 * enough to serve most of a ZIP code: its customers per ZIP code the NREL tables list it at are at
 * least the first one's estimate per ZIP code of the county (Burlington Electric in Burlington, VT,
 * not San Francisco's own small utility in San Francisco). Other marks of public power are not used:
 * they name Nebraska Public Power District in Omaha and cooperatives across Baton Rouge; a city's
 * utility is marked in neighbouring cities too (Garland's in Rowlett). README, rule 5.
 */

export interface ServingCandidate {
  id: string;
  name: string | null;
  /** EIA ownership in snake case; a `retail_power_marketer` sells energy over another utility's wires. */
  type: string | null;
  /** EIA-861 customers over every state (the utility record's `customers_served`), the last tie-break. */
  customersServed: number | null;
}

export type RankedUtility<T extends ServingCandidate> = T & {
  /** Estimated retail customers in the ZIP code's county; null when it cannot be estimated (see README). */
  estimatedCustomersInCounty: number | null;
  primary: boolean;
  /** The ENERGY STAR map's mark put it first, ahead of a larger county estimate (rule 5 of the README). */
  markedPrimary: boolean;
};

export interface ServingOrder<T extends ServingCandidate> {
  /** The ZIP code's state the order is for (GeoNames, else the one given), and its county when known. */
  state: string | null;
  county: string | null;
  ranked: Array<RankedUtility<T>>;
  /** Left out: EIA-861 2018 reports the utility but no retail customer of it in the state (no sales, Short Form or Reliability row there). */
  dropped: T[];
}

export interface ServingModel {
  /**
   * The EIA-861 2018 retail customers of a utility in a state: 0 when EIA-861 reports the utility but no retail customer in
   * that state; null when it does not report the utility at all, or withholds the count ('.').
   */
  customersIn(utilityId: string, state: string): number | null;
  /** Estimated customers of the utility in a county (counties.ts id) of the state; null when it cannot be estimated. */
  estimate(utilityId: string, state: string, countyId: string): number | null;
  order<T extends ServingCandidate>(zipCode: string, state: string | null, candidates: readonly T[]): ServingOrder<T>;
}

/**
 * A utility's counties in a state, each weighted by its ZIP codes (its EIA-861 service territory's counties, else the
 * counties of the ZIP codes it is listed at), and their total; cached per utility and state.
 */
function countyWeights(ref: Pick<UtilityReference, 'zipPairs'> & { area: AreaData }, countyZips: Map<string, number>) {
  const { area } = ref;
  const listed = new Map<string, Map<string, number>>();
  for (const p of ref.zipPairs) {
    const county = area.zipCounties.get(p.zipCode)?.id;
    if (!county) continue;
    let byCounty = listed.get(p.utilityId);
    if (!byCounty) listed.set(p.utilityId, (byCounty = new Map()));
    byCounty.set(county, (byCounty.get(county) ?? 0) + 1);
  }
  const weightCache = new Map<string, { of: Map<string, number>; total: number }>();
  const weights = (utilityId: string, state: string) => {
    const key = `${utilityId}|${state}`;
    let w = weightCache.get(key);
    if (!w) {
      const of = new Map<string, number>();
      for (const county of area.territory.get(utilityId)?.get(state) ?? []) of.set(county, countyZips.get(county) ?? 0);
      for (const [county, n] of listed.get(utilityId) ?? []) if (county.startsWith(`${state}|`) && !of.has(county)) of.set(county, n);
      w = { of, total: [...of.values()].reduce((s, n) => s + n, 0) };
      weightCache.set(key, w);
    }
    return w;
  };
  return weights;
}

/**
 * Retail power marketers last, then the candidates with an estimate, most estimated customers first, then
 * customers served, name and id.
 */
function byEstimate(a: { u: ServingCandidate; estimate: number | null }, b: { u: ServingCandidate; estimate: number | null }): number {
  return (
    Number(a.u.type === 'retail_power_marketer') - Number(b.u.type === 'retail_power_marketer') ||
    Number(a.estimate === null) - Number(b.estimate === null) ||
    (b.estimate ?? 0) - (a.estimate ?? 0) ||
    (b.u.customersServed ?? -1) - (a.u.customersServed ?? -1) ||
    (a.u.name ?? '').localeCompare(b.u.name ?? '') ||
    Number(a.u.id) - Number(b.u.id) ||
    a.u.id.localeCompare(b.u.id)
  );
}

/** The NREL tables' ZIP code-utility pairs (`${zip}|${utility id}`) and their ZIP codes per utility and state. */
function nrelListings(ref: Pick<UtilityReference, 'zipPairs'> & { area: AreaData }) {
  const nrelPairs = ref.zipPairs.filter((p) => p.source === 'iou_2011' || p.source === 'non_iou_2023');
  const nrelListed = new Set(nrelPairs.map((p) => `${p.zipCode}|${p.utilityId}`));
  /** The number of ZIP codes the NREL tables list a utility at in a state (`${utility id}|${state}`). */
  const nrelZipCount = new Map<string, number>();
  for (const p of nrelPairs) {
    const state = ref.area.zipCounties.get(p.zipCode)?.state;
    if (state) nrelZipCount.set(`${p.utilityId}|${state}`, (nrelZipCount.get(`${p.utilityId}|${state}`) ?? 0) + 1);
  }
  return { nrelListed, nrelZipCount };
}

export function buildServingModel(ref: Pick<UtilityReference, 'zipPairs'> & { area: AreaData }): ServingModel {
  const { area } = ref;
  const { nrelListed, nrelZipCount } = nrelListings(ref);
  const countyZips = new Map<string, number>();
  for (const c of area.zipCounties.values()) countyZips.set(c.id, (countyZips.get(c.id) ?? 0) + 1);

  /**
   * The candidate the ENERGY STAR map makes primary at the ZIP code (see above), if any. `kept` is in the order of the
   * estimate; `county` is the ZIP code's county in `state`, when known.
   */
  const markedPrimary = <T extends ServingCandidate>(
    zipCode: string,
    state: string | null,
    county: ZipCounty | null,
    kept: ReadonlyArray<{ u: T; estimate: number | null }>,
  ): T | undefined => {
    const marked = kept.filter(({ u }) => area.energyStarPredominant?.has(`${zipCode}|${u.id}`));
    if (marked.length !== 1 || !nrelListed.has(`${zipCode}|${marked[0]!.u.id}`)) return undefined;
    const { u } = marked[0]!;
    if (u.type === 'investor_owned') return u;
    const first = kept[0]!;
    if (u.type !== 'municipal' || first.u === u || state === null || !county || first.estimate === null) return undefined;
    if (!namesPlace(u.name ?? '', county.place)) return undefined;
    if (kept.some(({ u: other }) => other !== u && nrelListed.has(`${zipCode}|${other.id}`))) return undefined;
    const customers = model.customersIn(u.id, state);
    const listedZips = nrelZipCount.get(`${u.id}|${state}`) ?? 0;
    if (!customers || listedZips === 0) return undefined;
    return customers / listedZips >= first.estimate / countyZips.get(county.id)! ? u : undefined;
  };
  const weights = countyWeights(ref, countyZips);

  const model: ServingModel = {
    customersIn(utilityId, state) {
      const byState = area.customers.get(utilityId);
      if (byState?.has(state)) return byState.get(state)!;
      return area.eiaUtilities.has(utilityId) ? 0 : null;
    },
    estimate(utilityId, state, countyId) {
      const customers = model.customersIn(utilityId, state);
      if (!customers) return customers;
      const w = weights(utilityId, state);
      const share = w.of.get(countyId) ?? 0;
      if (w.total === 0 || share === 0) return null;
      // A utility with customers in the county never shows 0 of them.
      return Math.max(1, Math.round((customers * share) / w.total));
    },
    order(zipCode, givenState, candidates) {
      const zc = area.zipCounties.get(zipCode);
      const state = zc?.state ?? givenState;
      const county = zc && zc.state === state ? zc : null;
      const dropped: (typeof candidates)[number][] = [];
      const kept: Array<{ u: (typeof candidates)[number]; estimate: number | null }> = [];
      for (const u of candidates) {
        if (state !== null && model.customersIn(u.id, state) === 0) {
          dropped.push(u);
          continue;
        }
        kept.push({ u, estimate: state !== null && county ? model.estimate(u.id, state, county.id) : null });
      }
      kept.sort(byEstimate);
      const marked = markedPrimary(zipCode, state, county, kept);
      if (marked)
        kept.unshift(
          ...kept.splice(
            kept.findIndex((k) => k.u === marked),
            1,
          ),
        );
      return {
        state,
        county: county?.county ?? null,
        ranked: kept.map(({ u, estimate }, i) => ({
          ...u,
          estimatedCustomersInCounty: estimate,
          primary: i === 0,
          markedPrimary: u === marked,
        })),
        dropped,
      };
    },
  };
  return model;
}

/** Letters and digits only, lower case, "Saint" as "St": "St. Marys" and "Saint Marys" are one place. */
function placeKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\bsaint\b/g, 'st')
    .replace(/[.'\u2019]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/**
 * Whether a municipal utility's EIA name begins with the place's name, once "City of" and the like are dropped: "City of
 * Burlington Electric - (VT)" and Burlington, "Utility Board of the City of Key West, F" and Key West, "Los Angeles
 * Department of Water & Power" and Los Angeles (not Pacoima, a neighbourhood GeoNames names instead).
 */
export function namesPlace(utilityName: string, place: string): boolean {
  const stem = placeKey(
    utilityName
      .replace(/\s*-\s*\([A-Z]{2}\)\s*$/, '')
      .replace(/^(utility board of the )?(city and county|city & county|city|town|village|borough) of /i, ''),
  );
  const key = placeKey(place);
  return key.length > 0 && (stem === key || stem.startsWith(`${key} `));
}

let bundled: ServingModel | undefined;

/** The model on the bundled reference data, built once per process (it reads every EIA and ZIP table). */
export function bundledServingModel(): ServingModel {
  if (!bundled) {
    const ref = loadUtilityReference(REFERENCE_DIR);
    bundled = buildServingModel({ zipPairs: ref.zipPairs, area: ref.area! });
  }
  return bundled;
}
