import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { PROJECT_ROOT } from '../../platform/paths';
import { loadEnergyStarZipPairs } from './energystar';
import { stateNamedInName } from './state-names';
import { currentUtilityId, loadSuccessors, type UtilitySuccessor } from './successors';
import { countyId, loadZipCounties, type ZipCounty } from './counties';
import { countyGapPairs } from './county-pairs';

/** The bundled reference data (see data/reference/README.md for sources and licenses). */
export const REFERENCE_DIR = path.join(PROJECT_ROOT, 'data', 'reference');

/**
 * A reader of bundled reference data that reads REFERENCE_DIR once per process (the data is never
 * written) and another `dir` (a test's) afresh on every call.
 */
export function readOncePerProcess<T>(read: (dir: string) => T): (dir?: string) => T {
  let cached: T | undefined;
  return (dir = REFERENCE_DIR) => (dir === REFERENCE_DIR ? (cached ??= read(dir)) : read(dir));
}

export interface UtilityRecord {
  id: string;
  name: string;
  state: string | null;
  type: string | null;
  customersServed: number | null;
  serviceTerritory: string | null;
  /** Every state EIA-861 lists the utility in (utility data, sales, short form, service territory). */
  statesServed: string[];
}

/** The OpenEI ZIP look-up tables the service ships, by the `source` value stored with each ZIP pair. */
export const ZIP_TABLES = {
  non_iou_2023: {
    file: 'non_iou_zipcodes_2023.csv.gz',
    table: 'OpenEI U.S. Electric Utility Companies and Rates: Look-up by Zipcode, non-investor-owned utilities',
    edition: 2023,
  },
  iou_2011: {
    file: 'iouzipcodes2011.csv.gz',
    table: 'OpenEI U.S. Electric Utility Companies and Rates: Look-up by Zipcode, investor-owned utilities',
    edition: 2011,
  },
  energystar_2025: {
    file: 'zip_to_utility_energystar.csv.gz',
    table: 'ENERGY STAR Portfolio Manager utility map (via Rewiring America), matched to EIA ids by energystar_utility_match.csv',
    edition: 2025,
  },
  eia861_county_2018: {
    file: 'eia861_2018_service_territory.csv.gz',
    table: 'EIA-861 service territory (counties), for counties the 2011 investor-owned ZIP table misses',
    edition: 2018,
  },
} as const;

export type ZipSource = keyof typeof ZIP_TABLES;

/** Where the utility records come from (EIA-861), for answers that state their data vintage. */
export const UTILITY_DATA_SOURCE = { table: 'EIA Form 861 (utility data, sales, service territory, short form)', edition: 2018 } as const;

export interface ZipPair {
  zipCode: string;
  utilityId: string;
  source: ZipSource;
}

/**
 * What the order of a ZIP code's utilities rests on (serving.ts, data/reference/README.md "Vintage,
 * and who serves a ZIP code"): EIA-861 2018 customers and counties, and each ZIP code's county.
 */
export interface AreaData {
  /**
   * Retail customers by utility and state: Sales to Ultimate Customers (every part), else the Short Form, else Reliability;
   * null where the state's rows withhold the count ('.'). A state without an entry: no retail customer reported there.
   */
  customers: Map<string, Map<string, number | null>>;
  /** Every utility id an EIA-861 2018 file reports. */
  eiaUtilities: Set<string>;
  /** County ids (counties.ts `countyId`) by utility and state, from EIA-861 Service Territory. */
  territory: Map<string, Map<string, Set<string>>>;
  /** Each ZIP code's state and county (GeoNames). */
  zipCounties: Map<string, ZipCounty>;
  /** `${zip}|${utility id}` of the ENERGY STAR rows that mark the utility predominant at the ZIP code; absent in hand-made data. */
  energyStarPredominant?: Set<string>;
}

export interface UtilityReference {
  utilities: Map<string, UtilityRecord>;
  zipPairs: ZipPair[];
  /** Merged utilities by predecessor id (successors.ts); absent in hand-made references. */
  successors?: ReadonlyMap<string, UtilitySuccessor>;
  area?: AreaData;
}

/** EIA-861 2018 Reliability "Number of Customers" of the utilities that report no sales (data/reference/README.md). */
export const RELIABILITY_CUSTOMERS_FILE = 'eia861_2018_reliability_customers.csv';

type Row = Record<string, string>;

export function readCsv(dir: string, file: string): Row[] {
  const raw = fs.readFileSync(path.join(dir, file));
  const textData = file.endsWith('.gz') ? zlib.gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  return parse(textData, { columns: true, skip_empty_lines: true }) as Row[];
}

/** EIA ownership label to the API's utility `type` (`Investor Owned` -> `investor_owned`). */
export function utilityType(ownership: string | undefined): string | null {
  const o = (ownership ?? '').trim();
  if (!o) return null;
  if (o === 'Municipal Mktg Authority') return 'municipal_marketing_authority';
  return o
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

const num = (v: string | undefined) => (v === undefined || v.trim() === '' || v.trim() === '.' ? null : Number(v));
const ADJUSTMENT_ROWS = '99999';

/** The EIA-861 2018 files (frame, utility data, Short Form, sales, service territory, Reliability), read into their maps. */
function readEia861(dir: string) {
  const names = new Map<string, string>();
  const types = new Map<string, string | null>();
  const firstStates = new Map<string, string>();
  const customersByState = new Map<string, Map<string, number>>();
  const customers = new Map<string, number>();
  const shortFormCustomers = new Map<string, number>();
  const shortFormByState = new Map<string, Map<string, number>>();
  /** `${utility}|${state}` of every sales or Short Form row, whether it gives a customer count or withholds it ('.'). */
  const reported = new Set<string>();
  const territory = new Map<string, Map<string, string[]>>();
  const served = new Map<string, Set<string>>();
  const serves = (id: string, state: string | undefined) => {
    if (!state) return;
    const set = served.get(id) ?? new Set<string>();
    set.add(state);
    served.set(id, set);
  };

  const note = (id: string, name: string, ownership?: string) => {
    if (!id || id === ADJUSTMENT_ROWS) return false;
    if (!names.has(id) && name.trim()) names.set(id, name.trim());
    if (!types.get(id)) types.set(id, utilityType(ownership));
    return true;
  };

  for (const r of readCsv(dir, 'eia861_2018_frame.csv.gz')) note(r.utility_number, r.utility_name, r.ownership);
  for (const file of ['eia861_2018_utility_data.csv.gz', 'eia861_2018_short_form.csv.gz']) {
    for (const r of readCsv(dir, file)) {
      if (!note(r.utility_number, r.utility_name, r.ownership_type ?? r.ownership)) continue;
      if (r.state && !firstStates.has(r.utility_number)) firstStates.set(r.utility_number, r.state);
      serves(r.utility_number, r.state);
      if (file.includes('short_form')) {
        reported.add(`${r.utility_number}|${r.state}`);
        const c = num(r.total_customers);
        if (c !== null) shortFormCustomers.set(r.utility_number, (shortFormCustomers.get(r.utility_number) ?? 0) + c);
        if (c !== null && r.state) addTo(shortFormByState, r.utility_number, r.state, c);
      }
    }
  }
  for (const r of readCsv(dir, 'eia861_2018_sales_ult_cust.csv.gz')) {
    if (!note(r.utility_number, r.utility_name, r.ownership)) continue;
    serves(r.utility_number, r.state);
    reported.add(`${r.utility_number}|${r.state}`);
    const c = num(r.total_customers);
    if (c === null) continue;
    customers.set(r.utility_number, (customers.get(r.utility_number) ?? 0) + c);
    addTo(customersByState, r.utility_number, r.state, c);
  }
  for (const r of readCsv(dir, 'eia861_2018_service_territory.csv.gz')) {
    if (!note(r.utility_number, r.utility_name)) continue;
    serves(r.utility_number, r.state);
    const byState = territory.get(r.utility_number) ?? new Map<string, string[]>();
    byState.set(r.state, [...(byState.get(r.state) ?? []), r.county]);
    territory.set(r.utility_number, byState);
  }

  // Texas's competitive-area wires utilities report no sales: their customers are in the Reliability file.
  const reliabilityByState = new Map<string, Map<string, number>>();
  if (fs.existsSync(path.join(dir, RELIABILITY_CUSTOMERS_FILE))) {
    for (const r of readCsv(dir, RELIABILITY_CUSTOMERS_FILE)) {
      const c = num(r.number_of_customers);
      if (c !== null && note(r.utility_number, r.utility_name, r.ownership)) addTo(reliabilityByState, r.utility_number, r.state, c);
    }
  }
  return {
    names,
    types,
    firstStates,
    customersByState,
    customers,
    shortFormCustomers,
    shortFormByState,
    reported,
    territory,
    served,
    reliabilityByState,
    note,
  };
}

type Eia861 = ReturnType<typeof readEia861>;

/**
 * Customers by state for the order of a ZIP code's utilities: sales, else the Short Form, else Reliability (Texas wires
 * utilities); null where the rows of the state withhold the count ('.').
 */
function areaCustomersOf(eia: Eia861): Map<string, Map<string, number | null>> {
  const { customersByState, shortFormByState, reliabilityByState, reported } = eia;
  const areaCustomers = new Map<string, Map<string, number | null>>();
  const setCustomers = (id: string, st: string, c: number | null) => {
    const byState = areaCustomers.get(id) ?? new Map<string, number | null>();
    if (!byState.has(st) || byState.get(st) === null) byState.set(st, c);
    areaCustomers.set(id, byState);
  };
  for (const [id, byState] of customersByState) for (const [st, c] of byState) setCustomers(id, st, c);
  for (const [id, byState] of shortFormByState) for (const [st, c] of byState) setCustomers(id, st, c);
  for (const [id, byState] of reliabilityByState) for (const [st, c] of byState) setCustomers(id, st, c);
  for (const key of reported) {
    const [id, st] = key.split('|') as [string, string];
    if (!areaCustomers.get(id)?.has(st)) setCustomers(id, st, null);
  }
  return areaCustomers;
}

/** Each EIA utility's record: its state (customers, else the state it is named for, else its first listed), type, customers, territory. */
function utilityRecords(eia: Eia861, zipStates: Map<string, Map<string, number>>): Map<string, UtilityRecord> {
  const { names, served, customersByState, firstStates, territory, types, customers, shortFormCustomers } = eia;
  const utilities = new Map<string, UtilityRecord>();
  for (const [id, name] of names) {
    const namedState = stateNamedInName(name);
    const states = served.get(id);
    // Without customer counts, a utility named for one of the states it serves ("AEP Texas Central Company", which
    // reports no retail sales) is that state's: EIA-861 lists its utility data under Oklahoma, its parent's state.
    const state =
      largest(customersByState.get(id)) ??
      (namedState && states?.has(namedState) ? namedState : null) ??
      firstStates.get(id) ??
      largest(zipStates.get(id)) ??
      null;
    const terr = territory.get(id);
    utilities.set(id, {
      id,
      name,
      state,
      type: types.get(id) ?? null,
      customersServed: customers.get(id) ?? shortFormCustomers.get(id) ?? null,
      serviceTerritory: terr
        ? [...terr]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([st, counties]) => `${st}: ${counties.join(', ')}`)
            .join('; ')
        : null,
      statesServed: [...(served.get(id) ?? [])].sort(),
    });
  }
  return utilities;
}

/**
 * Utilities and ZIP pairs from EIA-861 (2018) and the OpenEI ZIP tables.
 *
 * State rule (for utilities serving several states, and so for their
 * tariffs): the state where EIA-861 "Sales to Ultimate Customers" counts the
 * most customers for the utility (all parts summed per state); when it has no
 * customer counts, the first state listed for it in EIA-861 Utility Data, then
 * the Short Form; else the state with the most of its ZIP codes in the OpenEI
 * tables; else null.
 *
 * customers_served sums total_customers over every part (A bundled, B energy
 * only, C delivery only, D) and state of the utility: each part counts
 * different customers of that utility; for a Short Form respondent without
 * such rows, its total_customers.
 *
 * Merged utilities (utility_successors.csv): a ZIP table row of a predecessor is
 * the successor's, and the predecessor gets no record of its own from the ZIP
 * tables. Counties the 2011 investor-owned table misses get their investor-owned
 * utilities from EIA-861 Service Territory (county-pairs.ts).
 */
export function loadUtilityReference(dir = REFERENCE_DIR): UtilityReference {
  const successors = loadSuccessors(dir);
  const eia = readEia861(dir);
  const { names, types, territory, note } = eia;
  const eiaUtilities = new Set(names.keys());

  const zipPairs: ZipPair[] = [];
  const seenPairs = new Set<string>();
  const zipStates = new Map<string, Map<string, number>>();
  const addPair = (zipCode: string, listedId: string, source: ZipSource) => {
    const utilityId = currentUtilityId(successors, listedId);
    const key = `${zipCode}|${utilityId}`;
    if (seenPairs.has(key)) return false;
    seenPairs.add(key);
    zipPairs.push({ zipCode, utilityId, source });
    return true;
  };
  for (const source of ['non_iou_2023', 'iou_2011'] as const) {
    for (const r of readCsv(dir, ZIP_TABLES[source].file)) {
      // A merged utility's rows are its successor's: the predecessor's name makes no utility record.
      if (!successors.has(r.eiaid)) note(r.eiaid, r.utility_name, r.ownership);
      if (!/^\d{5}$/.test(r.zip) || !addPair(r.zip, r.eiaid, source)) continue;
      addTo(zipStates, currentUtilityId(successors, r.eiaid), r.state, 1);
    }
  }

  const zipCounties = loadZipCounties(dir);
  const territoryIds = new Map<string, Map<string, Set<string>>>();
  for (const [id, byState] of territory) {
    territoryIds.set(id, new Map([...byState].map(([st, counties]) => [st, new Set(counties.map((c) => countyId(st, c)))])));
  }

  // The ENERGY STAR table adds the utilities the NREL tables miss (Texas distribution utilities, PG&E in San Francisco),
  // and says which utility serves most of a ZIP code (serving.ts reads that).
  const energyStarPredominant = new Set<string>();
  const energyStar = loadEnergyStarZipPairs(dir, names, {
    countyOf: (zip) => zipCounties.get(zip)?.id,
    servesCounty: (id, county) => territoryIds.get(id)?.get(county.slice(0, 2))?.has(county) ?? false,
  });
  for (const p of energyStar.pairs) {
    addPair(p.zipCode, p.utilityId, 'energystar_2025');
    if (p.predominant) energyStarPredominant.add(`${p.zipCode}|${currentUtilityId(successors, p.utilityId)}`);
  }

  // Counties the 2011 investor-owned table misses (all of Franklin County, OH): their investor-owned utilities.
  for (const p of countyGapPairs({ zipPairs, zipCounties, territory: territoryIds, types })) addPair(p.zipCode, p.utilityId, p.source);

  const areaCustomers = areaCustomersOf(eia);
  const utilities = utilityRecords(eia, zipStates);
  return {
    utilities,
    zipPairs,
    successors,
    area: { customers: areaCustomers, eiaUtilities, territory: territoryIds, zipCounties, energyStarPredominant },
  };
}

/** Adds n to map[id][key]. */
function addTo(map: Map<string, Map<string, number>>, id: string, key: string, n: number): void {
  const inner = map.get(id) ?? new Map<string, number>();
  inner.set(key, (inner.get(key) ?? 0) + n);
  map.set(id, inner);
}

/** Key with the largest count; ties go to the key seen first. */
function largest(counts: Map<string, number> | undefined): string | null {
  let best: string | null = null;
  let bestCount = -1;
  for (const [k, c] of counts ?? [])
    if (c > bestCount) {
      best = k;
      bestCount = c;
    }
  return best;
}
