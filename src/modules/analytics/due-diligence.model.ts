import type { LoadShapeSet } from '../pricing/engine';
import type { MonthlyBillTotal } from '../properties/energy-cost';
import type { Tariff } from '../tariffs/tariff.model';
import type { AverageRatesTable } from './average-rates';
import type { ServingArea } from './due-diligence.repository';
import type { Consumption, MonthUsage } from './due-diligence.calc';
import type { choiceReason, UtilityChoice } from './due-diligence.notes';
import type { ResidentialUsage, ResidentialUsageTable } from './residential-usage';
import type { DueDiligenceInput } from './schemas';

export interface DueDiligenceDeps {
  /** Residential comparables (unit_count). */
  repo: { comparableCount(state: string, propertyType: string, lo: number, hi: number): Promise<number> };
  /** Commercial, industrial and mixed-use comparables (sqft). */
  comparableCountBySqft(state: string, propertyType: string, lo: number, hi: number): Promise<number>;
  now: () => Date;
  /** The utilities serving a ZIP code in a state, primary first (GET /utilities/by-zip's order). */
  servingUtilities(zipCode: string, state: string): Promise<ServingArea>;
  /**
   * One utility's tariffs in a state and sector, current and expired: the catalog's, then the
   * caller's own tariffs of that utility in force today.
   */
  utilityTariffs(utilityId: string, sector: DueDiligenceSector, state: string, ownerId: string | null): Promise<Tariff[]>;
  /** One month's bill in cents; the supply price goes to the engine's supply line on delivery-only tariffs. */
  monthlyBill: MonthlyBillTotal;
  loadShapes: () => LoadShapeSet;
  residentialUsage: () => ResidentialUsageTable;
  averageRates: () => AverageRatesTable;
  /** Remembers the account's ZIP code and when (the catalog refresh keeps its utilities current). */
  rememberZip?(ownerId: string, zipCode: string, at: Date): Promise<void>;
}

export type DueDiligenceSector = 'residential' | 'commercial';

/** Residential buildings are priced on residential rates per unit; every other type on commercial rates. */
export const sectorOf = (propertyType: string): DueDiligenceSector => (propertyType === 'residential' ? 'residential' : 'commercial');

export const NO_UTILITY = 'No utilities found for ZIP code';

/** Where URDB tariffs come from, as the tariff search documents it. */
export const URDB_SOURCE = 'U.S. Utility Rate Database (URDB, OpenEI/NREL)';

/** What the estimate rests on (the response's `basis`). */
export interface DueDiligenceBasis {
  kind: 'tariffs' | 'average_rate';
  source: string;
  year: number | null;
  service_type: 'bundled' | 'delivery_only' | null;
  rate_per_kwh: number | null;
  supply: { rate_per_kwh: number; source: string; year: number } | null;
}

/** The building as billed by the serving utility: residential consumption depends on the utility's average customer. */
export interface Model {
  consumption: Consumption;
  usage: ResidentialUsage | null;
  months: MonthUsage[];
  load: { monthlyKwh: number; peakKw: number };
}

/** A request being estimated: where the building is, who serves it, the building as billed, and the notes so far. */
export interface Estimate {
  input: DueDiligenceInput;
  sqft: number | null;
  /** YYYY-MM-DD (UTC). */
  today: string;
  sector: DueDiligenceSector;
  /** The ZIP code's state (the request's when the ZIP code is unknown). */
  state: string;
  rates: AverageRatesTable;
  primary: ServingArea['utilities'][number];
  utilityName: string;
  model: Model;
  choice: UtilityChoice;
  /** The response's `assumptions`, in order: each step appends its own. */
  assumptions: string[];
}

/** The serving utility's tariffs that may price the building. */
export interface Candidates {
  /** Every tariff of the utility in the state, current and expired. */
  all: Tariff[];
  /** Whether current tariffs are priced (else the latest known revisions). */
  catalogCurrent: boolean;
  latestEndDate: string | null;
  /** Which tariffs are priced, in words. */
  which: string;
  eligible: { bundled: Tariff[]; deliveryOnly: Tariff[] };
}

/** The figures of an answer, by tariffs or by an average rate. */
export interface AnswerFields {
  reason: ReturnType<typeof choiceReason>;
  annualCents: number;
  availableTariffs: number;
  bestTariff: { name: string; estimated_annual_cost: number };
  basis: DueDiligenceBasis;
}
