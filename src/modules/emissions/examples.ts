/**
 * OpenAPI examples of the emissions endpoints: a 50,000 sqft New York office (ZIP 10001, eGRID
 * NYCW) that used 100,000 kWh and 5,000 therms in January 2025 (README "Worked example"; the
 * integration test answers exactly this).
 */
const ELECTRIC_SOURCE = 'EPA eGRID2022, subregion annual total output emission rate (SRC2ERTA); ZIP code to subregion: EPA Power Profiler v13.2; '
  + 'subregion NYCW (NPCC NYC/Westchester); 1 lb = 0.45359237 kg; output rate, no grid loss added';
const GAS_SOURCE = 'EPA GHG Emission Factors Hub (Emission Factors for Greenhouse Gas Inventories, 9 March 2018), Table 1 Stationary Combustion, '
  + 'Natural Gas: 53.06 kg CO2, 1.0 g CH4, 0.10 g N2O per mmBtu; GWP CH4 25, N2O 298 (IPCC AR4, same document)';

const monthsOf2025 = (january: number) => Array.from({ length: 12 }, (_, i) => ({
  month: `2025-${String(i + 1).padStart(2, '0')}`, tco2e: i === 0 ? january : 0,
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
      meter_id: '0c6d2a4e-1f3b-4a5c-8d7e-9f0a1b2c3d4e', name: 'Electric meter', utility_type: 'electric', counted: true, reason: null,
      usage: 100000, usage_unit: 'kWh', tco2e: 40.215, bills_without_usage: 0, months: [{ month: '2025-01', usage: 100000, tco2e: 40.215 }],
    },
    {
      meter_id: '7e8f9a0b-2c3d-4e5f-a6b7-c8d9e0f1a2b3', name: 'Gas meter', utility_type: 'gas', counted: true, reason: null,
      usage: 5000, usage_unit: 'therms', tco2e: 26.557, bills_without_usage: 0, months: [{ month: '2025-01', usage: 5000, tco2e: 26.557 }],
    },
  ],
  factors: [
    {
      utility_type: 'electric', value: 886.58, unit: 'lb CO2e/MWh', tco2e_per_unit: 0.000402146, per_unit: 'kWh',
      source: ELECTRIC_SOURCE, year: 2022, subregion: 'NYCW', note: null,
    },
    {
      utility_type: 'gas', value: 53.1148, unit: 'kg CO2e/mmBtu', tco2e_per_unit: 0.00531148, per_unit: 'therm',
      source: GAS_SOURCE, year: 2018, subregion: null, note: null,
    },
  ],
  notes: [
    'Bills are spread over calendar months by days (calendarised), as ENERGY STAR Portfolio Manager does; usage is converted to '
      + "each type's common unit with Portfolio Manager's conversions (1 ccf = 1.026 therms).",
  ],
};
