/**
 * OpenAPI examples of the analytics endpoints, consistent with the rules in README.md:
 * examples.test.ts recomputes the health scores, benchmark statistics and the due-diligence
 * answer (the README's worked example, from the bundled data) with the rules themselves.
 */

/** The one annual cost of the example's three properties, by utility type (stats and global analytics). */
const annualByUtility = [
  { utility_type: 'electric', cost: 30011.2, usage: 262500, unit: 'kWh', basis: 'mixed' },
  { utility_type: 'water', cost: 5500, usage: 1420000, unit: 'gallons', basis: 'actual' },
];

export const dashboardStats = {
  total_properties: 3,
  total_portfolios: 1,
  total_sqft: 42000,
  total_monthly_cost: 2959.27,
  total_annual_cost: 35511.2,
  avg_cost_per_sqft: 0.8455,
  avg_cost_per_kwh: 0.1143,
  properties_with_savings: 1,
  total_potential_savings: 742.8,
  alerts_unread: 2,
  bills_this_month: 3,
  cost_by_utility: annualByUtility,
  emissions_year: 2025,
  emissions_tco2e: 546,
  emissions_kg_co2e_per_sqft: 13,
  properties_over_emissions_limit: 1,
  projected_emissions_penalty: 15217.58,
  audit_findings_open: 2,
  audit_amount_at_issue: 11.64,
  audit_amount_claimed: 412.5,
  audit_amount_recovered: 300,
  audit_amount_written_off: 100,
  audit_recovery: [
    {
      property_id: '2b9d7c1a-0e4f-4a6b-8c3d-5e6f7a8b9c0d',
      property_name: 'Harbor Lofts',
      year: 2026,
      disputes: 3,
      claimed: 412.5,
      recovered: 300,
      written_off: 100,
      pending: 12.5,
    },
  ],
};

/** One month of the example trend: its electricity as given, and the same water bill every month. */
const trendMonth = (month: string, totalCost: number, electricCost: number, kwh: number) => ({
  month,
  total_cost: totalCost,
  total_kwh: kwh,
  property_count: 3,
  cost_by_utility: [
    { utility_type: 'electric', cost: electricCost, usage: kwh, unit: 'kWh' },
    { utility_type: 'water', cost: 460, usage: 118000, unit: 'gallons' },
  ],
});

export const costTrend = {
  months: [
    trendMonth('2026-09', 2810.4, 2350.4, 20840),
    trendMonth('2026-10', 2955.1, 2495.1, 21900.5),
    trendMonth('2026-11', 3120.75, 2660.75, 23010),
  ],
  trend_direction: 'increasing',
  avg_monthly_cost: 2962.08,
};

export const globalAnalytics = {
  total_properties: 3,
  total_portfolios: 1,
  total_annual_cost: 35511.2,
  total_annual_kwh: 262500,
  avg_cost_per_kwh: 0.1143,
  avg_cost_per_sqft: 0.8455,
  cost_by_state: [
    { state: 'MI', annual_cost: 23900.2, property_count: 2 },
    { state: 'OH', annual_cost: 11611, property_count: 1 },
  ],
  cost_by_property_type: [
    { type: 'commercial', annual_cost: 29011.2, property_count: 2 },
    { type: 'residential', annual_cost: 6500, property_count: 1 },
  ],
  total_potential_savings: 742.8,
  properties_with_savings: 1,
  cost_by_utility: annualByUtility,
};

export const portfolioAnalytics = {
  portfolio_id: '6f1c2b7e-3f3a-4d51-9d43-0c8b1f8e2a10',
  period: '2025-12-01/2026-11-30',
  // The one annual cost: Harbor Lofts' bills (electric $12,400.00 and 103,200 kWh, water $3,000.00), Mill Street's estimate
  // (electric $9,000.00, 75,000 kWh); per kWh $21,400.00 / 178,200 kWh.
  total_cost: 24400,
  total_usage_kwh: 178200,
  avg_rate_per_kwh: 0.1201,
  cost_by_utility: [
    { utility_type: 'electric', cost: 21400, usage: 178200, unit: 'kWh', basis: 'mixed' },
    { utility_type: 'water', cost: 3000, usage: 780000, unit: 'gallons', basis: 'actual' },
  ],
  cost_by_month: [
    { month: '2025-12', cost: 2104.12, usage_kwh: 15630 },
    { month: '2026-01', cost: 2230.4, usage_kwh: 16500 },
  ],
  total_annual_cost: 24400,
  cost_by_property: [
    { property_id: '0b7d5a52-8d8e-4d8c-9a4e-5b6c7d8e9f01', name: 'Harbor Lofts', annual_cost: 15400, basis: 'actual' },
    { property_id: '1c8e6b63-9e9f-4e9d-8b5f-6c7d8e9f0a12', name: 'Mill Street Offices', annual_cost: 9000, basis: 'estimate' },
  ],
  potential_savings: {
    total_annual: 742.8,
    properties_with_savings: 1,
    top_opportunity: {
      property_id: '0b7d5a52-8d8e-4d8c-9a4e-5b6c7d8e9f01',
      current_tariff: '539f6a63ec4f024411ec8eb1',
      recommended_tariff: '539f6a34ec4f024411ec8c9b',
      annual_savings: 742.8,
    },
  },
};

export const health = {
  summary: { green: 1, yellow: 2, red: 0, total: 3 },
  properties: [
    {
      property_id: '2d9f7c74-af0a-4fae-9c60-7d8e9f0a1b23',
      name: 'Canal Warehouse',
      status: 'yellow',
      score: 65,
      issues: [
        'No tariff set',
        'No monthly usage set',
        'Bill anomaly: Water meter, 2026-09-12 to 2026-10-11, cost 47% more per day than the same period a year earlier',
      ],
    },
    {
      property_id: '0b7d5a52-8d8e-4d8c-9a4e-5b6c7d8e9f01',
      name: 'Harbor Lofts',
      status: 'yellow',
      score: 70,
      issues: [
        'Electric meter: 1 estimated read in the last 12 months',
        'Costs up 8% on the same months a year earlier',
        'Rate savings available: $742.80 a year',
      ],
    },
    { property_id: '1c8e6b63-9e9f-4e9d-8b5f-6c7d8e9f0a12', name: 'Mill Street Offices', status: 'green', score: 100, issues: [] },
  ],
  total: 3,
  page: 1,
  per_page: 100,
  pages: 1,
};

export const benchmarks = {
  metric: 'cost_per_sqft',
  emissions_year: 2025,
  portfolio_avg: 0.8455,
  portfolio_median: 0.75,
  rankings: [
    {
      property_id: '1c8e6b63-9e9f-4e9d-8b5f-6c7d8e9f0a12',
      name: 'Mill Street Offices',
      value: 0.6,
      percentile: 0,
      outlier: false,
      basis: 'actual',
      tco2e: 48.5,
      kg_co2e_per_sqft: 4.85,
    },
    {
      property_id: '0b7d5a52-8d8e-4d8c-9a4e-5b6c7d8e9f01',
      name: 'Harbor Lofts',
      value: 0.75,
      percentile: 50,
      outlier: false,
      basis: 'actual',
      tco2e: 20.25,
      kg_co2e_per_sqft: 1.35,
    },
    {
      property_id: '2d9f7c74-af0a-4fae-9c60-7d8e9f0a1b23',
      name: 'Canal Warehouse',
      value: 1.1865,
      percentile: 100,
      outlier: false,
      basis: 'actual',
      tco2e: 8.4,
      kg_co2e_per_sqft: 0.7,
    },
  ],
  outlier_threshold: 1.4081,
  outlier_count: 0,
  total: 3,
  page: 1,
  per_page: 100,
  pages: 1,
  partial_coverage: [
    {
      property_id: '3e0a8d85-b01b-4a0f-8d71-8e9f0a1b2c34',
      name: 'Elm Court',
      value: 0.21,
      basis: 'actual',
      tco2e: 12.6,
      kg_co2e_per_sqft: 2.1,
      meters: [{ meter_id: '6f1c2a8e-3b7d-4c55-9a0e-1d2f3b4c5d6e', name: 'House panel', utility_type: 'electric', covers: 'common_area' }],
    },
  ],
};

export const dueDiligenceRequest = {
  address: '28 Main St',
  city: 'Jemez Pueblo',
  state: 'NM',
  zip_code: '87024',
  unit_count: 24,
  sqft: 21000,
  property_type: 'residential',
  annual_revenue: 360000,
};

/** README "Due diligence", the worked example: Residential Service is both the median and the cheapest tariff. */
export const dueDiligenceResponse = {
  property_summary: { address: '28 Main St', city: 'Jemez Pueblo', state: 'NM', zip_code: '87024', unit_count: 24, sqft: 21000 },
  serving_utility: { id: 9699, name: 'Jemez Mountains Elec Coop, Inc' },
  utility_choice: {
    reason:
      'Jemez Mountains Elec Coop, Inc is the only utility serving ZIP code 87024 in NM; its bundled residential tariffs are priced. ' +
      "No other utility's tariffs are priced.",
    county: 'Sandoval',
    estimated_customers_in_county: 5077,
    other_utilities: [],
  },
  catalog_current: true,
  latest_tariff_end_date: null,
  estimated_costs: { annual_energy_cost: 19794, monthly_energy_cost: 1649.5, cost_per_unit: 824.75, cost_per_sqft: 0.9426 },
  comparable_properties: 3,
  available_tariffs: 2,
  best_tariff: { name: 'Residential Service', estimated_annual_cost: 19794 },
  noi_impact: { annual_revenue: 360000, energy_pct_of_revenue: 5.5, estimated_noi_impact: -19794 },
  basis: {
    kind: 'tariffs',
    source: 'U.S. Utility Rate Database (URDB, OpenEI/NREL)',
    year: 2013,
    service_type: 'bundled',
    rate_per_kwh: null,
    supply: null,
  },
  assumptions: [
    'Consumption: 24 units x 6,392.579 kWh a year, the EIA-861 2018 average residential customer (residential sales / customers) of Jemez Mountains Elec Coop, Inc; each unit is its own metered customer',
    'Months and demand: the residential load shape "residential" (data/reference/load-shapes.json) spreads the year by its monthly shares; a month\'s demand is its kWh x the shape\'s largest hourly share of that month',
    'Priced on the 2 eligible bundled residential tariffs of Jemez Mountains Elec Coop, Inc in NM (current, general purpose, secondary or unstated voltage, applicability admitting 532.715 kWh a month and a 1.511 kW peak per meter), month by month by the bill engine: estimated_costs use the median "Residential Service", best_tariff the cheapest "Residential Service"',
    'Median and cheapest tariff "Residential Service": the tariff\'s rates took effect on 2013-06-26, more than 5 years ago: the utility\'s current rates may differ',
  ],
};
