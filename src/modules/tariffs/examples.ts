/** OpenAPI examples of the catalog's tariff endpoints: San Francisco's C-1 small commercial tariff (URDB). */

/** What a search item and the detail of C-1 both say. */
const c1Common = {
  id: '5a382b5d5457a31d47d2dd7f',
  name: 'C-1 Small Commercial Service Polyphase',
  utility_id: '16612',
  utility_name: 'City & County of San Francisco',
  state: 'CA',
  sector: 'commercial',
  rate_type: 'flat',
  has_tou: false,
  has_demand: false,
  has_net_metering: true,
  effective_date: '2017-07-01',
  description:
    'This schedule is applicable to polyphase\ncommercial, industrial and other general non-residential uses\nwith demands of less than 200 kW served through a separate\nmeter or by a bank of meters.',
  service_type: 'bundled',
  voltage: null,
  purpose: 'general',
};

/** GET /tariffs/search?zip_code=94103&sector=commercial on a catalog of this one tariff. */
export const tariffSearchPage = {
  items: [{ ...c1Common, source: 'bundled', source_updated_at: null }],
  total: 1,
  page: 1,
  per_page: 20,
  pages: 1,
};

/** GET /tariffs/stats on that catalog. */
export const tariffStats = {
  total_tariffs: 1,
  total_utilities: 1,
  states_covered: 1,
  sectors: {
    residential: 0,
    commercial: 1,
    industrial: 0,
    agricultural: 0,
    lighting: 0,
  },
  rate_types: {
    flat: 1,
    tiered: 0,
    tou: 0,
    demand: 0,
    real_time: 0,
  },
  last_updated: '2026-11-02T09:30:00.000Z',
  data_currency: {
    imported_at: '2026-11-02T09:30:00.000Z',
    newest_effective_date: '2017-07-01',
    last_refresh: null,
  },
};

/** GET /tariffs/by-utility/16612. */
export const tariffsOfUtility = {
  items: [
    {
      id: '5a382b5d5457a31d47d2dd7f',
      name: 'C-1 Small Commercial Service Polyphase',
      sector: 'commercial',
      rate_type: 'flat',
      has_demand: false,
      effective_date: '2017-07-01',
    },
  ],
  total: 1,
  page: 1,
  per_page: 20,
  pages: 1,
};

/** GET /tariffs/5a382b5d5457a31d47d2dd7f. */
export const tariff = {
  ...c1Common,
  expiration_date: null,
  superseded_by: null,
  eligibility: 'Peak demand at most 200 kW. Service type: Bundled.',
  applicability: {
    demand_kw_min: null,
    demand_kw_max: 200,
    usage_kwh_min: null,
    usage_kwh_max: null,
    voltage_category: null,
    phase_wiring: null,
  },
  energy_rates: [
    {
      period: 'winter',
      months: [1, 2, 3, 4, 11, 12],
      hours: '00:00-24:00',
      days: 'all',
      rate_per_kwh: 0.17343,
      tier: 1,
      tier_max_kwh: null,
    },
    {
      period: 'summer',
      months: [5, 6, 7, 8, 9, 10],
      hours: '00:00-24:00',
      days: 'all',
      rate_per_kwh: 0.22257,
      tier: 1,
      tier_max_kwh: null,
    },
  ],
  demand_rates: [],
  fixed_charges: [
    {
      name: 'Fixed customer charge',
      amount: 17.99,
      frequency: 'monthly',
    },
  ],
  riders: [],
  utility_type: 'electric',
  unit: 'kWh',
  minimum_charge: null,
  source_url: 'https://apps.openei.org/IURDB/rate/view/5a382b5d5457a31d47d2dd7f',
  last_updated: '2017-12-18T13:56:26.000Z',
  source: 'bundled',
  source_updated_at: null,
};
