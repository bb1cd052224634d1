import { readCsv, REFERENCE_DIR } from '../utilities/reference';

/**
 * EIA Form 861 (2018), "Sales to Ultimate Customers": a utility's average annual residential
 * kWh per customer = its residential sales (MWh x 1000) / its residential customers, summed
 * over every part (bundled, energy only, delivery only) and state it reports. A utility without
 * residential customers in the file falls back to its state's average, then the national one.
 */

const SALES_FILE = 'eia861_2018_sales_ult_cust.csv.gz';

interface Sums {
  mwh: number;
  customers: number;
}

export interface ResidentialUsageTable {
  byUtility: Map<string, Sums>;
  byState: Map<string, Sums>;
  national: Sums;
}

export interface ResidentialUsage {
  kwhPerCustomer: number;
  /** Whose average it is. */
  basis: 'utility' | 'state' | 'national';
}

const num = (v: string | undefined) => {
  const n = Number((v ?? '').trim());
  return v === undefined || v.trim() === '' || v.trim() === '.' || !Number.isFinite(n) ? 0 : n;
};

function add(map: Map<string, Sums>, key: string, mwh: number, customers: number) {
  const s = map.get(key) ?? { mwh: 0, customers: 0 };
  s.mwh += mwh;
  s.customers += customers;
  map.set(key, s);
}

export function buildResidentialUsage(rows: Array<Record<string, string>>): ResidentialUsageTable {
  const byUtility = new Map<string, Sums>();
  const byState = new Map<string, Sums>();
  const national = { mwh: 0, customers: 0 };
  for (const r of rows) {
    const mwh = num(r.residential_sales_mwh);
    const customers = num(r.residential_customers);
    if (customers <= 0 || mwh <= 0) continue;
    add(byUtility, r.utility_number ?? '', mwh, customers);
    add(byState, r.state ?? '', mwh, customers);
    national.mwh += mwh;
    national.customers += customers;
  }
  return { byUtility, byState, national };
}

/** The average of the utility, else of the state, else national; kWh rounded to the Wh. */
export function residentialUsage(table: ResidentialUsageTable, utilityId: string, state: string): ResidentialUsage {
  const pick = (s: Sums | undefined) => (s && s.customers > 0 ? Math.round((s.mwh * 1_000_000) / s.customers) / 1000 : null);
  const utility = pick(table.byUtility.get(utilityId));
  if (utility !== null) return { kwhPerCustomer: utility, basis: 'utility' };
  const inState = pick(table.byState.get(state));
  if (inState !== null) return { kwhPerCustomer: inState, basis: 'state' };
  return { kwhPerCustomer: pick(table.national) ?? 0, basis: 'national' };
}

let cached: ResidentialUsageTable | undefined;

/** The bundled table, read once per process (about 3,000 rows). */
export function bundledResidentialUsage(): ResidentialUsageTable {
  cached ??= buildResidentialUsage(readCsv(REFERENCE_DIR, SALES_FILE));
  return cached;
}
