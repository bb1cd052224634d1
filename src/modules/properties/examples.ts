/** OpenAPI examples of the property endpoints (the README's Palm Court, Harlingen TX). */

const PORTFOLIO_ID = 'e42dd93e-88bc-49bd-84e7-fb9c49431b9f';

/** Where Palm Court is and what it is, as the request and the answers spell it. */
const palmCourt = {
  name: 'Palm Court',
  address: '1 Palm Ct',
  city: 'Harlingen',
  state: 'TX',
  zip_code: '78550',
  property_type: 'residential',
};

export const createPropertyRequest = {
  ...palmCourt,
  unit_count: 12,
  sqft: 9600,
  year_built: 1998,
  portfolio_id: PORTFOLIO_ID,
};

export const updatePropertyRequest = { noi: 182000, annual_revenue: 264000 };

export const property = {
  id: '8cc18c3e-88d8-4b6f-9575-d6ab67ae5bb4',
  ...palmCourt,
  sqft: 9600,
  unit_count: 12,
  monthly_usage_kwh: null,
  portfolio_id: PORTFOLIO_ID,
  year_built: 1998,
  utility_account_number: null,
  meter_number: null,
  tariff_id: null,
  monthly_demand_kw: null,
  supply_rate_per_kwh: null,
  supply_tariff_id: null,
  has_solar: false,
  solar_capacity_kw: null,
  annual_revenue: 264000,
  noi: 182000,
  energy_pct_of_noi: null,
  timezone: 'America/Chicago',
  timezone_source: 'zip_code',
  owner_id: '3c1e9b2a-5d7f-4e8a-9b0c-1d2e3f4a5b6c',
  created_at: '2026-11-02T14:05:11.000Z',
  updated_at: '2026-11-02T14:05:11.000Z',
};

export const propertyDetail = {
  ...property,
  annual_cost: null,
  annual_cost_basis: null,
  cost_by_utility: [],
  available_tariffs: [],
};

export const propertyPage = {
  items: [
    {
      id: property.id,
      name: property.name,
      address: property.address,
      city: property.city,
      state: property.state,
      zip_code: property.zip_code,
      property_type: property.property_type,
      sqft: property.sqft,
      unit_count: property.unit_count,
      monthly_usage_kwh: null,
      portfolio_id: PORTFOLIO_ID,
    },
  ],
  total: 1,
  page: 1,
  per_page: 20,
  pages: 1,
};
