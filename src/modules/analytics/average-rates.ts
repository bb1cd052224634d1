import { TEXAS_DELIVERY_UTILITIES } from '../tariffs/tariff-class';
import { readCsv, REFERENCE_DIR, ZIP_TABLES } from '../utilities/reference';

/**
 * A utility's average price per kWh for a sector (revenue / sales), to price a building when no
 * usable tariff exists; the order of the rules and the sources are in the analytics README ("Due
 * diligence", basis). Pure apart from `bundledAverageRates()`, which reads the bundled files once.
 *
 * EIA-861 2018 "Sales to Ultimate Customers" has one row per utility, state, part and balancing
 * authority; thousand dollars / MWh is already $/kWh, and '.' is withheld or not applicable. Its
 * parts pair with service types as A = Bundled, B = Energy, C = Delivery, D = Bundled:
 * - part A alone is a utility's own full-service price: B (energy only) and C (delivery only) are
 *   fractions of it and would pull the average down (Commonwealth Edison residential: part A 13.04
 *   cents/kWh, part C 5.74);
 * - part D exists only in Texas (retail power marketers' full service): the price customers of an
 *   ERCOT wires utility pay, since those utilities report no sales at all;
 * - part B of a state is a retail supplier's average price of supply, to add to delivery-only tariffs.
 * The OpenEI ZIP tables' rates are used from their Bundled rows only (a Delivery row's rate is the
 * delivery part: ComEd 2011 residential Bundled 0.1262, Delivery 0.0462 $/kWh); of a pair listed
 * twice as Bundled, the first row in file order. A row counts only with both revenue and sales > 0.
 * Rates are $/kWh rounded to 6 decimals.
 */

export type RateSector = 'residential' | 'commercial' | 'industrial';

export interface AverageRate {
  /** $/kWh, 6 decimals. */
  ratePerKwh: number;
  /** The table, in words. */
  source: string;
  /** Data year (EIA-861) or edition (OpenEI ZIP table). */
  year: number;
}

export interface AverageRateQuery {
  utilityId: string | number;
  state: string;
  zipCode?: string | null;
  sector: RateSector;
}

type Row = Record<string, string>;

interface Sums {
  revenueThousandDollars: number;
  salesMwh: number;
}

type SectorSums = Record<RateSector, Sums>;
type SectorRates = Record<RateSector, number>;

export interface AverageRatesTable {
  /** Part-A sums by `${utility_number}|${state}`. */
  partAByUtilityState: Map<string, SectorSums>;
  /** Part-A sums by state, every part-A row (with EIA's adjustment rows). */
  partAByState: Map<string, SectorSums>;
  /** Part-B (energy only) sums by state. */
  partBByState: Map<string, SectorSums>;
  /** Part-D (retail power marketers' bundled sales) sums by state. */
  partDByState: Map<string, SectorSums>;
  /** Customers (total_customers, every part and row) by `${utility_number}|${state}`; a key for every utility and state with a row. */
  customersByUtilityState: Map<string, number>;
  /** Bundled-row rates by `${zip}|${eiaid}`, one map per edition. */
  zip2023: Map<string, SectorRates>;
  zip2011: Map<string, SectorRates>;
}

export const RATE_SECTORS: readonly RateSector[] = ['residential', 'commercial', 'industrial'];

export const EIA_SALES_SOURCE = { source: 'EIA Form 861, sales to ultimate customers (revenue / sales)', year: 2018 } as const;
export const ZIP_2023_SOURCE = {
  source: 'OpenEI utility rates by ZIP code (2023 edition)',
  year: ZIP_TABLES.non_iou_2023.edition,
} as const;
export const ZIP_2011_SOURCE = { source: 'OpenEI utility rates by ZIP code (2011 edition)', year: ZIP_TABLES.iou_2011.edition } as const;
export const EIA_PART_B_SOURCE = {
  source: 'EIA Form 861, sales to ultimate customers, energy-only sales by retail suppliers (part B, revenue / sales) in the state',
  year: 2018,
} as const;
export const EIA_PART_D_SOURCE = {
  source: 'EIA Form 861, sales to ultimate customers, full-service sales by retail providers (part D, revenue / sales) in the state',
  year: 2018,
} as const;

const SALES_FILE = 'eia861_2018_sales_ult_cust.csv.gz';
/** EIA's per-state adjustment rows: not a utility, but part of the state's sales. */
const ADJUSTMENT_ROWS = '99999';
const ZIP_RATE_COLUMN: Record<RateSector, string> = { residential: 'res_rate', commercial: 'comm_rate', industrial: 'ind_rate' };

/** A number, or null for '', '.', or anything not finite. */
function num(v: string | undefined): number | null {
  const t = (v ?? '').trim();
  if (t === '' || t === '.') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

const round6 = (x: number) => Math.round(x * 1_000_000) / 1_000_000;

const emptySums = (): SectorSums => ({
  residential: { revenueThousandDollars: 0, salesMwh: 0 },
  commercial: { revenueThousandDollars: 0, salesMwh: 0 },
  industrial: { revenueThousandDollars: 0, salesMwh: 0 },
});

function addRow(map: Map<string, SectorSums>, key: string, r: Row) {
  for (const sector of RATE_SECTORS) {
    const revenue = num(r[`${sector}_revenues_thousand_dollars`]);
    const sales = num(r[`${sector}_sales_mwh`]);
    if (revenue === null || sales === null || sales <= 0) continue;
    const sums = map.get(key) ?? emptySums();
    sums[sector].revenueThousandDollars += revenue;
    sums[sector].salesMwh += sales;
    map.set(key, sums);
  }
}

function zipRates(rows: Row[]): Map<string, SectorRates> {
  const out = new Map<string, SectorRates>();
  for (const r of rows) {
    if ((r.service_type ?? '').trim() !== 'Bundled') continue;
    const zip = normaliseZip(r.zip);
    const id = (r.eiaid ?? '').trim();
    if (!zip || !id) continue;
    const key = `${zip}|${id}`;
    if (out.has(key)) continue; // first row in file order wins
    const rate = (s: RateSector) => num(r[ZIP_RATE_COLUMN[s]]) ?? 0;
    out.set(key, { residential: rate('residential'), commercial: rate('commercial'), industrial: rate('industrial') });
  }
  return out;
}

function normaliseZip(zip: string | null | undefined): string | null {
  const m = /^(\d{5})(-\d{4})?$/.exec((zip ?? '').trim());
  return m ? m[1] : null;
}

/**
 * The look-up table from the rows of EIA-861 "Sales to Ultimate Customers" and the two OpenEI
 * ZIP tables, as `readCsv` returns them.
 */
export function buildAverageRates(salesRows: Row[], zipRows2023: Row[], zipRows2011: Row[]): AverageRatesTable {
  const partAByUtilityState = new Map<string, SectorSums>();
  const partAByState = new Map<string, SectorSums>();
  const partBByState = new Map<string, SectorSums>();
  const partDByState = new Map<string, SectorSums>();
  const customersByUtilityState = new Map<string, number>();
  for (const r of salesRows) {
    const part = (r.part ?? '').trim();
    const state = (r.state ?? '').trim().toUpperCase();
    const id = (r.utility_number ?? '').trim();
    if (!state) continue;
    if (id && id !== ADJUSTMENT_ROWS) {
      const key = `${id}|${state}`;
      customersByUtilityState.set(key, (customersByUtilityState.get(key) ?? 0) + Math.max(0, num(r.total_customers) ?? 0));
    }
    if (part === 'B') addRow(partBByState, state, r);
    if (part === 'D') addRow(partDByState, state, r);
    if (part !== 'A') continue;
    addRow(partAByState, state, r);
    if (id && id !== ADJUSTMENT_ROWS) addRow(partAByUtilityState, `${id}|${state}`, r);
  }
  return {
    partAByUtilityState,
    partAByState,
    partBByState,
    partDByState,
    customersByUtilityState,
    zip2023: zipRates(zipRows2023),
    zip2011: zipRates(zipRows2011),
  };
}

function eiaRate(
  sums: SectorSums | undefined,
  sector: RateSector,
  src: { source: string; year: number } = EIA_SALES_SOURCE,
): AverageRate | null {
  const s = sums?.[sector];
  if (!s || s.salesMwh <= 0) return null;
  const rate = round6(s.revenueThousandDollars / s.salesMwh);
  return rate > 0 ? { ratePerKwh: rate, source: src.source, year: src.year } : null;
}

/**
 * The utility's average $/kWh for the sector: EIA-861 2018 part A in that state, else the
 * OpenEI ZIP table (2023, then 2011) for (ZIP, utility), else null. See the rule above.
 */
export function averageRate(table: AverageRatesTable, query: AverageRateQuery): AverageRate | null {
  const id = String(query.utilityId ?? '').trim();
  const state = (query.state ?? '').trim().toUpperCase();
  const { sector } = query;
  if (!RATE_SECTORS.includes(sector)) return null;

  if (id && state) {
    const eia = eiaRate(table.partAByUtilityState.get(`${id}|${state}`), sector);
    if (eia) return eia;
  }

  const zip = normaliseZip(query.zipCode);
  if (id && zip) {
    for (const [rates, src] of [
      [table.zip2023, ZIP_2023_SOURCE],
      [table.zip2011, ZIP_2011_SOURCE],
    ] as const) {
      const rate = rates.get(`${zip}|${id}`)?.[sector];
      if (rate !== undefined && rate > 0) {
        const rounded = round6(rate);
        if (rounded > 0) return { ratePerKwh: rounded, ...src };
      }
    }
  }
  return null;
}

/** Revenue / sales over every part-A row of the state (EIA-861 2018), or null when it has none. */
export function stateAverageRate(table: AverageRatesTable, state: string, sector: RateSector): AverageRate | null {
  return eiaRate(table.partAByState.get((state ?? '').trim().toUpperCase()), sector);
}

/** Revenue / sales over every part-A row of every state: the last resort for a state without a rate of its own. */
export function nationalAverageRate(table: AverageRatesTable, sector: RateSector): AverageRate | null {
  const all = emptySums();
  for (const sums of table.partAByState.values()) {
    all[sector].revenueThousandDollars += sums[sector].revenueThousandDollars;
    all[sector].salesMwh += sums[sector].salesMwh;
  }
  return eiaRate(all, sector);
}

/** Revenue / sales over every part-B (energy only) row of the state: a retail supplier's average price of supply. */
export function retailSupplyRate(table: AverageRatesTable, state: string, sector: RateSector): AverageRate | null {
  return eiaRate(table.partBByState.get((state ?? '').trim().toUpperCase()), sector, EIA_PART_B_SOURCE);
}

/** Revenue / sales over every part-D row of the state: retail providers' full-service price (Texas only, in 2018). */
export function retailFullServiceRate(table: AverageRatesTable, state: string, sector: RateSector): AverageRate | null {
  return eiaRate(table.partDByState.get((state ?? '').trim().toUpperCase()), sector, EIA_PART_D_SOURCE);
}

/** True for an ERCOT wires utility in Texas: it delivers only, and retail providers sell the energy. */
export function isTexasWiresUtility(utilityId: string | number, state: string): boolean {
  return (state ?? '').trim().toUpperCase() === 'TX' && TEXAS_DELIVERY_UTILITIES.has(String(utilityId).trim());
}

/**
 * The average price a customer of the utility serving a building pays: for an ERCOT wires utility
 * (which sells nothing: no part-A rows, no ZIP-table rows) the Texas retail providers' full-service
 * price (part D); for any other, `averageRate`. Null when neither has one.
 */
export function servingUtilityRate(table: AverageRatesTable, query: AverageRateQuery): AverageRate | null {
  if (isTexasWiresUtility(query.utilityId, query.state)) return retailFullServiceRate(table, query.state, query.sector);
  return averageRate(table, query);
}

/**
 * EIA-861 2018's customers of the utility in the state (total_customers over every part and row),
 * or null when the file has no row for the utility in that state.
 */
export function utilityCustomersInState(table: AverageRatesTable, utilityId: string | number, state: string): number | null {
  return table.customersByUtilityState.get(`${String(utilityId).trim()}|${(state ?? '').trim().toUpperCase()}`) ?? null;
}

/** True when an OpenEI ZIP table (either edition) has a Bundled row for the (ZIP, utility) pair: it sells at that ZIP code. */
export function listedWithRateForZip(table: AverageRatesTable, zipCode: string, utilityId: string | number): boolean {
  const zip = normaliseZip(zipCode);
  if (!zip) return false;
  const key = `${zip}|${String(utilityId).trim()}`;
  return table.zip2023.has(key) || table.zip2011.has(key);
}

let cached: AverageRatesTable | undefined;

/** The bundled table, read once per process (about 3,400 + 28,000 + 38,000 rows). */
export function bundledAverageRates(): AverageRatesTable {
  cached ??= buildAverageRates(
    readCsv(REFERENCE_DIR, SALES_FILE),
    readCsv(REFERENCE_DIR, ZIP_TABLES.non_iou_2023.file),
    readCsv(REFERENCE_DIR, ZIP_TABLES.iou_2011.file),
  );
  return cached;
}
