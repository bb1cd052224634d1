/**
 * OpenAPI examples of the emissions endpoints: a 50,000 sqft New York office (ZIP 10001, eGRID
 * NYCW) that used 100,000 kWh and 5,000 therms in January 2025 (README "Worked example"; the
 * integration test answers exactly this).
 */
import { LIMIT_SOURCES, LIMITS_2024_2029, LIMITS_2030_2034 } from './occupancy';
import { COEFFICIENTS_2030_2034_SOURCE } from './ll97-espm';
import { LL97_CONFIRMED, LL97_STANDARD, ll97Applies } from './building-performance';

const ELECTRIC_SOURCE =
  'EPA eGRID2022, subregion annual total output emission rate (SRC2ERTA); ZIP code to subregion: EPA Power Profiler v13.2; ' +
  'subregion NYCW (NPCC NYC/Westchester); 1 lb = 0.45359237 kg; output rate, no grid loss added';
const GAS_SOURCE =
  'EPA GHG Emission Factors Hub (Emission Factors for Greenhouse Gas Inventories, 9 March 2018), Table 1 Stationary Combustion, ' +
  'Natural Gas: 53.06 kg CO2, 1.0 g CH4, 0.10 g N2O per mmBtu; GWP CH4 25, N2O 298 (IPCC AR4, same document)';

const monthsOf2025 = (january: number) =>
  Array.from({ length: 12 }, (_, i) => ({
    month: `2025-${String(i + 1).padStart(2, '0')}`,
    tco2e: i === 0 ? january : 0,
  }));

export const propertyEmissions = {
  property_id: '5b0f3c8e-7d1a-4c2e-9f6b-1a2b3c4d5e6f',
  year: 2025,
  method: 'location-based',
  unit: 'metric tons CO2e',
  total_tco2e: 66.772,
  sqft: 50000,
  kg_co2e_per_sqft: 1.335,
  months: monthsOf2025(66.772),
  meters: [
    {
      meter_id: '0c6d2a4e-1f3b-4a5c-8d7e-9f0a1b2c3d4e',
      name: 'Electric meter',
      utility_type: 'electric',
      counted: true,
      reason: null,
      usage: 100000,
      usage_unit: 'kWh',
      tco2e: 40.215,
      bills_without_usage: 0,
      months_from_intervals: 0,
      months: [{ month: '2025-01', usage: 100000, tco2e: 40.215, basis: 'bills' }],
    },
    {
      meter_id: '7e8f9a0b-2c3d-4e5f-a6b7-c8d9e0f1a2b3',
      name: 'Gas meter',
      utility_type: 'gas',
      counted: true,
      reason: null,
      usage: 5000,
      usage_unit: 'therms',
      tco2e: 26.557,
      bills_without_usage: 0,
      months_from_intervals: 0,
      months: [{ month: '2025-01', usage: 5000, tco2e: 26.557, basis: 'bills' }],
    },
  ],
  factors: [
    {
      utility_type: 'electric',
      value: 886.58,
      unit: 'lb CO2e/MWh',
      tco2e_per_unit: 0.000402146,
      per_unit: 'kWh',
      source: ELECTRIC_SOURCE,
      year: 2022,
      subregion: 'NYCW',
      note: null,
    },
    {
      utility_type: 'gas',
      value: 53.1148,
      unit: 'kg CO2e/mmBtu',
      tco2e_per_unit: 0.00531148,
      per_unit: 'therm',
      source: GAS_SOURCE,
      year: 2018,
      subregion: null,
      note: null,
    },
  ],
  notes: [
    'Bills are spread over calendar months by days (calendarised), as ENERGY STAR Portfolio Manager does; usage is converted to ' +
      "each type's common unit with Portfolio Manager's conversions (1 ccf = 1.026 therms).",
  ],
};

/** The example's 20,000 therms (2,000,000 kBtu) of gas by LL97's coefficient, the same in both periods. */
const ll97Gas = {
  utility_type: 'gas',
  energy: 2000000,
  energy_unit: 'kBtu',
  coefficient: 0.00005311,
  coefficient_unit: 'tCO2e/kBtu',
  tco2e: 106.22,
};

/**
 * A 40,000 sf New York office (ZIP 10001; occupancy group B, 40,000 sf) billed quarterly in 2025:
 * 1,000,000 kWh and 20,000 therms, under Local Law 97 (README "Local Law 97, worked by hand").
 */
export const buildingPerformance = {
  property_id: '3a4b5c6d-7e8f-4a0b-9c1d-2e3f4a5b6c7d',
  year: 2025,
  jurisdiction: 'new_york_city',
  applies: true,
  message: ll97Applies('New York, NY 10001', 2025),
  standards: [
    {
      standard: LL97_STANDARD,
      status: 'partly_confirmed',
      reason: LL97_CONFIRMED,
      periods: [
        {
          period: '2024-2029',
          status: 'computed',
          emissions_tco2e: 395.182,
          emissions_lines: [
            {
              utility_type: 'electric',
              energy: 1000000,
              energy_unit: 'kWh',
              coefficient: 0.000288962,
              coefficient_unit: 'tCO2e/kWh',
              tco2e: 288.962,
            },
            ll97Gas,
          ],
          not_covered: [],
          gross_floor_area: 40000,
          limit_tco2e: 338.4,
          limit_basis: 'occupancy_groups',
          limit_lines: [
            {
              occupancy_group: 'B',
              property_type: null,
              gross_floor_area: 40000,
              intensity_limit: 0.00846,
              tco2e: 338.4,
              source: `${LIMIT_SOURCES.law2024}: ${LIMITS_2024_2029.B.label}`,
            },
          ],
          excess_tco2e: 56.782,
          penalty_per_ton: 268,
          projected_penalty: 15217.58,
          notes: [],
        },
        {
          period: '2030-2034',
          status: 'computed',
          emissions_tco2e: 251.22,
          emissions_lines: [
            {
              utility_type: 'electric',
              energy: 1000000,
              energy_unit: 'kWh',
              coefficient: 0.000145,
              coefficient_unit: 'tCO2e/kWh',
              tco2e: 145,
            },
            ll97Gas,
          ],
          not_covered: [],
          gross_floor_area: 40000,
          limit_tco2e: 181.2,
          limit_basis: 'occupancy_groups',
          limit_lines: [
            {
              occupancy_group: 'B',
              property_type: null,
              gross_floor_area: 40000,
              intensity_limit: 0.00453,
              tco2e: 181.2,
              source: `${LIMIT_SOURCES.law2030}: ${LIMITS_2030_2034.B.label}`,
            },
          ],
          excess_tco2e: 70.02,
          penalty_per_ton: 268,
          projected_penalty: 18765.36,
          notes: [
            'For 2030-2034 the law leaves the greenhouse gas coefficients to rule (§ 28-320.3.2.1): emissions by 1 RCNY § 103-14(d)(3)(ii), ' +
              'utility electricity 0.000145 tCO2e/kWh and natural gas 0.00005311 tCO2e/kBtu, read in public quotations of the rule (three ' +
              'independent sources each), not in the rule itself.',
            "This year's energy against the 2030-2034 limit and coefficients: what the period would charge if the building used the same " +
              'energy then.',
            "The limit shown is the law's own (§ 28-320.3.2 items 1 to 10, item 6 as amended by Local Law 147 of 2019). 1 RCNY § 103-14(c)(3) " +
              'sets limits per Portfolio Manager property type for this period, which reports from calendar year 2026 use; this property ' +
              "records occupancy groups only, so its limit under the rule can differ (an office's is lower, 0.002690852 tCO2e/sf against " +
              "group B's 0.00453, and its penalty higher than shown).",
          ],
        },
      ],
      sources: [
        'NYC Administrative Code § 28-320.3.1.1 (greenhouse gas coefficients of energy consumption for calendar years 2024 through 2029), ' +
          'codelibrary.amlegal.com, read 2026-11-28: item 1, utility electricity 0.000288962 tCO2e/kWh; item 2, natural gas 0.00005311 ' +
          'tCO2e/kBtu; item 3, #2 fuel oil 0.00007421 tCO2e/kBtu; item 4, #4 fuel oil 0.00007529 tCO2e/kBtu; item 5, district steam ' +
          '0.00004493 tCO2e/kBtu',
        'NYC Administrative Code § 28-320.6 (penalty: the difference between the building emissions limit and the reported building ' +
          'emissions, multiplied by $268), codelibrary.amlegal.com, read 2026-11-28',
        "NYC Administrative Code §§ 28-320.3.1 (2024-2029) and 28-320.3.2 (2030-2034), read 2026-11-28: a building's limit is each " +
          "occupancy group's building emissions intensity limit (tCO2e/sf) times its gross floor area, summed over the groups of a " +
          'mixed-use building',
        LIMIT_SOURCES.law2024,
        LIMIT_SOURCES.dob,
        LIMIT_SOURCES.sustainable,
        LIMIT_SOURCES.law2030,
        COEFFICIENTS_2030_2034_SOURCE,
      ],
    },
  ],
};

/** The office of the examples and a Michigan property without bills in 2025, as one owner's portfolio. */
export const portfolioEmissions = {
  year: 2025,
  method: 'location-based',
  unit: 'metric tons CO2e',
  total_tco2e: 66.772,
  kg_co2e_per_sqft: 1.113,
  properties: [
    {
      property_id: '9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f',
      name: 'Harbor Lofts',
      tco2e: 0,
      sqft: 10000,
      kg_co2e_per_sqft: 0,
      meters_not_counted: 0,
      meter_months_from_intervals: 0,
    },
    {
      property_id: propertyEmissions.property_id,
      name: 'Midtown office',
      tco2e: 66.772,
      sqft: 50000,
      kg_co2e_per_sqft: 1.335,
      meters_not_counted: 0,
      meter_months_from_intervals: 0,
    },
  ],
  factors: propertyEmissions.factors,
  notes: [
    propertyEmissions.notes[0],
    "kg_co2e_per_sqft of the whole is the tons of the properties with sqft over their sqft; each property's figures are its own " +
      'GET /pm/properties/{id}/emissions total.',
  ],
};
