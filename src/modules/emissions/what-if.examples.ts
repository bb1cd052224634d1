/**
 * OpenAPI examples of POST /pm/properties/{id}/what-if: the 40,000 sf group B office of README
 * "Local Law 97, worked by hand" (ZIP 10001, 1,000,000 kWh and 20,000 therms in 2025, billed
 * quarterly; electric $0.20/kWh + $50 a month, gas $1.00/therm + $30 a month), its gas electrified
 * at 85.3 % / COP 2.5 (README "What-if"; test/emissions/what-if.test.ts answers exactly this).
 */
import { propertyEmissions } from './examples';
import { WHAT_IF_NOTES } from './what-if.calc';

const GAS_METER = '0c6d2a4e-1f3b-4a5c-8d7e-9f0a1b2c3d4f';
const ELECTRIC_METER = '0c6d2a4e-1f3b-4a5c-8d7e-9f0a1b2c3d4e';
const LL97 = 'New York City Local Law 97 of 2019 (Administrative Code § 28-320)';

export const whatIfBody = {
  year: 2025,
  changes: [{ kind: 'electrify', meter_id: GAS_METER, gas_efficiency: 0.853, electric_efficiency: 2.5 }],
};

// 2030-2034: the law's own group B limit (§ 28-320.3.2 item 2), 0.00453 x 40,000 sf = 181.2 t, against the rule's 2030-2034
// coefficients (1 RCNY § 103-14(d)(3)(ii), as quoted): before, 1,000,000 kWh x 0.000145 = 145 t + 2,000,000 kBtu x 0.00005311 =
// 106.22 t = 251.22 t, 70.02 t over, $18,765.36; after, 1,200,000 kWh x 0.000145 = 174 t, under: $0 (emissions README).
const period2030 = (ll97: number, excess: number, penalty: number) => ({
  standard: LL97,
  period: '2030-2034',
  status: 'computed',
  emissions_tco2e: ll97,
  limit_tco2e: 181.2,
  excess_tco2e: excess,
  projected_penalty: penalty,
});

const side = (
  electricKwh: number,
  therms: number,
  electricTons: number,
  gasTons: number,
  ll97: number,
  excess: number,
  penalty: number,
  ll97In2030: [number, number, number],
) => ({
  energy: [
    { utility_type: 'electric', usage: electricKwh, unit: 'kWh' },
    { utility_type: 'gas', usage: therms, unit: 'therms' },
  ],
  emissions: [
    { utility_type: 'electric', tco2e: electricTons },
    { utility_type: 'gas', tco2e: gasTons },
  ],
  building_performance: {
    jurisdiction: 'new_york_city',
    applies: true,
    periods: [
      {
        standard: LL97,
        period: '2024-2029',
        status: 'computed',
        emissions_tco2e: ll97,
        limit_tco2e: 338.4,
        excess_tco2e: excess,
        projected_penalty: penalty,
      },
      period2030(...ll97In2030),
    ],
  },
});

const meter = (id: string, name: string, type: string, unit: string, usage: [number, number], cost: [number, number]) => ({
  meter_id: id,
  name,
  utility_type: type,
  unit,
  tariff_id: `custom:${id}`,
  cost_basis: 'tariff',
  reasons: [],
  usage_before: usage[0],
  usage_after: usage[1],
  billed: cost[0],
  cost_before: cost[0],
  cost_after: cost[1],
});

export const whatIfAnswer = {
  property_id: '5b0f3c8e-7d1a-4c2e-9f6b-1a2b3c4d5e6f',
  year: 2025,
  changes: [
    {
      kind: 'electrify',
      description: 'gas meter Boiler gas electrified onto Main electric: gas equipment 0.853, electric 2.5, 10 kWh per therm',
      meter_id: GAS_METER,
      to_meter_id: ELECTRIC_METER,
      kwh_per_therm: 10,
      added_demand_kw: 0,
    },
  ],
  before: {
    ...side(1_000_000, 20_000, 402.146, 106.23, 395.182, 56.782, 15217.58, [251.22, 70.02, 18765.36]),
    total_tco2e: 508.376,
    energy_cost: 220960,
  },
  after: { ...side(1_200_000, 0, 482.575, 0, 346.754, 8.354, 2238.87, [174, 0, 0]), total_tco2e: 482.575, energy_cost: 240960 },
  delta: {
    total_tco2e: -25.801,
    energy_cost: 20000,
    projected_penalty: [
      { standard: LL97, period: '2024-2029', projected_penalty: -12978.71 },
      { standard: LL97, period: '2030-2034', projected_penalty: -18765.36 },
    ],
  },
  meters: [
    meter(GAS_METER, 'Boiler gas', 'gas', 'therms', [20_000, 0], [20360, 360]),
    meter(ELECTRIC_METER, 'Main electric', 'electric', 'kWh', [1_000_000, 1_200_000], [200600, 240600]),
  ],
  unpriced_kwh: 0,
  factors: propertyEmissions.factors,
  notes: WHAT_IF_NOTES,
};
