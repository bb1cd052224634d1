/**
 * Examples in the OpenAPI document: Harlingen Waterworks System's inside-city water rate for a 5/8"
 * meter ("Current rate schedule 2024", hwws.com; ordinance of April 17, 2024, on bills from May 2024).
 */
const SOURCE = 'https://www.hwws.com/customer-services/water-and-wastewater-rate-schedule/';
const allYear = { period: 'all_year', months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], hours: '00:00-24:00', days: 'all' };

/** The schedule's four tiers, kgal: to 3, 10 and 20, then above. The versions change their prices, not the tiers. */
const TIER_MAX: (number | null)[] = [3, 10, 20, null];
/** The four tiers at one version's prices, $/kgal. */
const tiersPriced = (prices: [number, number, number, number]) =>
  TIER_MAX.map((tier_max, i) => ({ ...allYear, tier: i + 1, tier_max, rate_per_unit: prices[i]! }));

export const createWaterTariff = {
  name: 'Residential water, inside city (5/8" meter)',
  utility_name: 'Harlingen Waterworks System',
  state: 'TX',
  sector: 'residential',
  utility_type: 'water',
  unit: 'kgal',
  effective_date: '2024-05-01',
  source_url: SOURCE,
  energy_rates: tiersPriced([1.3, 1.8, 2.55, 3.05]),
  fixed_charges: [{ name: 'Water flat fee (5/8" meter)', amount: 9.91, frequency: 'monthly' }],
};

export const createVersion = {
  effective_date: '2025-10-01',
  energy_rates: tiersPriced([1.38, 1.91, 2.7, 3.23]),
  fixed_charges: [{ name: 'Water flat fee (5/8" meter)', amount: 10.5, frequency: 'monthly' }],
};

const rates = createWaterTariff.energy_rates.map(({ rate_per_unit, tier_max, ...r }) => ({ ...r, unit: 'kgal', rate_per_unit, tier_max }));

/** The fields the list and the detail start with. */
const waterTariffSummary = {
  id: 'ct_3f9c2a51d7e84b0c9a6e12f4b8d07c55',
  name: createWaterTariff.name,
  utility_id: null,
  utility_name: 'Harlingen Waterworks System',
  state: 'TX',
  sector: 'residential',
  rate_type: 'tiered',
  has_tou: false,
  has_demand: false,
  has_net_metering: false,
  effective_date: '2024-05-01',
  description: '',
  service_type: 'bundled',
  voltage: null,
  purpose: 'general',
};

/** The prices of the tariff's one version, as the detail and its version list give them. */
const waterPrices = {
  energy_rates: rates,
  demand_rates: [],
  fixed_charges: createWaterTariff.fixed_charges,
  riders: [],
  minimum_charge: null,
};

export const waterTariffDetail = {
  ...waterTariffSummary,
  expiration_date: null,
  eligibility: '',
  applicability: {
    demand_kw_min: null,
    demand_kw_max: null,
    usage_kwh_min: null,
    usage_kwh_max: null,
    voltage_category: null,
    phase_wiring: null,
  },
  ...waterPrices,
  utility_type: 'water',
  unit: 'kgal',
  custom: true,
  source_url: SOURCE,
  last_updated: '2026-11-26T10:00:00.000Z',
  source: 'custom',
  source_updated_at: '2026-11-26T10:00:00.000Z',
  created_at: '2026-11-26T10:00:00.000Z',
  versions: [
    {
      effective_date: '2024-05-01',
      expiration_date: null,
      source: 'rates',
      assumptions: [],
      ...waterPrices,
      created_at: '2026-11-26T10:00:00.000Z',
    },
  ],
};

const allDay = Array.from({ length: 12 }, () => Array<number>(24).fill(0));

/** The URDB form: a record as the URDB API returns it (NIPSCO "Municipal Power", abridged to the fields it prices). */
export const createFromUrdb = {
  urdb: {
    label: '539f6adcec4f024411ec9565',
    eiaid: 13756,
    utility: 'Northern Indiana Pub Serv Co',
    name: 'Municipal Power',
    sector: 'Commercial',
    uri: 'https://apps.openei.org/IURDB/rate/view/539f6adcec4f024411ec9565',
    startdate: 1401606000,
    energyratestructure: [[{ rate: 0.094782, adj: 0.016079 }]],
    energyweekdayschedule: allDay,
    energyweekendschedule: allDay,
    mincharge: 6.99,
    minchargeunits: '$/month',
  },
  effective_date: '2026-01-01',
};

export const customTariffList = {
  items: [
    {
      ...waterTariffSummary,
      source: 'custom',
      source_updated_at: '2026-11-26T10:00:00.000Z',
      utility_type: 'water',
      unit: 'kgal',
      custom: true,
      versions: 1,
      created_at: '2026-11-26T10:00:00.000Z',
    },
  ],
  total: 1,
  page: 1,
  per_page: 20,
  pages: 1,
};

/** POST /calculate on the water tariff: 12,000 gallons in July. */
export const calculateWater = { tariff_id: waterTariffDetail.id, usage: 12000, unit: 'gallons', month: 7 };
