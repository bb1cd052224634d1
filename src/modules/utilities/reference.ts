import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { PROJECT_ROOT } from '../../platform/paths';
import { loadEnergyStarZipPairs } from './energystar';
import { stateNamedInName } from './state-names';

/** The bundled reference data (see data/reference/README.md for sources and licenses). */
export const REFERENCE_DIR = path.join(PROJECT_ROOT, 'data', 'reference');

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
} as const;

export type ZipSource = keyof typeof ZIP_TABLES;

/** Where the utility records come from (EIA-861), for answers that state their data vintage. */
export const UTILITY_DATA_SOURCE = { table: 'EIA Form 861 (utility data, sales, service territory, short form)', edition: 2018 } as const;

export interface ZipPair {
  zipCode: string;
  utilityId: string;
  source: ZipSource;
}

export interface UtilityReference {
  utilities: Map<string, UtilityRecord>;
  zipPairs: ZipPair[];
}

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
  return o.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
}

const num = (v: string | undefined) => (v === undefined || v.trim() === '' || v.trim() === '.' ? null : Number(v));
const ADJUSTMENT_ROWS = '99999';

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
 */
export function loadUtilityReference(dir = REFERENCE_DIR): UtilityReference {
  const names = new Map<string, string>();
  const types = new Map<string, string | null>();
  const firstStates = new Map<string, string>();
  const customersByState = new Map<string, Map<string, number>>();
  const customers = new Map<string, number>();
  const shortFormCustomers = new Map<string, number>();
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
        const c = num(r.total_customers);
        if (c !== null) shortFormCustomers.set(r.utility_number, (shortFormCustomers.get(r.utility_number) ?? 0) + c);
      }
    }
  }
  for (const r of readCsv(dir, 'eia861_2018_sales_ult_cust.csv.gz')) {
    if (!note(r.utility_number, r.utility_name, r.ownership)) continue;
    serves(r.utility_number, r.state);
    const c = num(r.total_customers);
    if (c === null) continue;
    customers.set(r.utility_number, (customers.get(r.utility_number) ?? 0) + c);
    const byState = customersByState.get(r.utility_number) ?? new Map<string, number>();
    byState.set(r.state, (byState.get(r.state) ?? 0) + c);
    customersByState.set(r.utility_number, byState);
  }
  for (const r of readCsv(dir, 'eia861_2018_service_territory.csv.gz')) {
    if (!note(r.utility_number, r.utility_name)) continue;
    serves(r.utility_number, r.state);
    const byState = territory.get(r.utility_number) ?? new Map<string, string[]>();
    byState.set(r.state, [...(byState.get(r.state) ?? []), r.county]);
    territory.set(r.utility_number, byState);
  }

  const zipPairs: ZipPair[] = [];
  const seenPairs = new Set<string>();
  const zipStates = new Map<string, Map<string, number>>();
  for (const source of ['non_iou_2023', 'iou_2011'] as const) {
    for (const r of readCsv(dir, ZIP_TABLES[source].file)) {
      note(r.eiaid, r.utility_name, r.ownership);
      const key = `${r.zip}|${r.eiaid}`;
      if (!/^\d{5}$/.test(r.zip) || seenPairs.has(key)) continue;
      seenPairs.add(key);
      zipPairs.push({ zipCode: r.zip, utilityId: r.eiaid, source });
      const byState = zipStates.get(r.eiaid) ?? new Map<string, number>();
      byState.set(r.state, (byState.get(r.state) ?? 0) + 1);
      zipStates.set(r.eiaid, byState);
    }
  }

  // The ENERGY STAR table adds the utilities the NREL tables miss (Texas distribution utilities, PG&E in San Francisco).
  for (const p of loadEnergyStarZipPairs(dir, names).pairs) {
    const key = `${p.zipCode}|${p.utilityId}`;
    if (seenPairs.has(key)) continue;
    seenPairs.add(key);
    zipPairs.push({ zipCode: p.zipCode, utilityId: p.utilityId, source: 'energystar_2025' });
  }

  const utilities = new Map<string, UtilityRecord>();
  for (const [id, name] of names) {
    const namedState = stateNamedInName(name);
    const states = served.get(id);
    // Without customer counts, a utility named for one of the states it serves ("AEP Texas Central Company", which
    // reports no retail sales) is that state's: EIA-861 lists its utility data under Oklahoma, its parent's state.
    const state = largest(customersByState.get(id)) ?? (namedState && states?.has(namedState) ? namedState : null)
      ?? firstStates.get(id) ?? largest(zipStates.get(id)) ?? null;
    const terr = territory.get(id);
    utilities.set(id, {
      id,
      name,
      state,
      type: types.get(id) ?? null,
      customersServed: customers.get(id) ?? shortFormCustomers.get(id) ?? null,
      serviceTerritory: terr
        ? [...terr].sort(([a], [b]) => a.localeCompare(b)).map(([st, counties]) => `${st}: ${counties.join(', ')}`).join('; ')
        : null,
      statesServed: [...(served.get(id) ?? [])].sort(),
    });
  }
  return { utilities, zipPairs };
}

/** Key with the largest count; ties go to the key seen first. */
function largest(counts: Map<string, number> | undefined): string | null {
  let best: string | null = null;
  let bestCount = -1;
  for (const [k, c] of counts ?? []) if (c > bestCount) { best = k; bestCount = c; }
  return best;
}
