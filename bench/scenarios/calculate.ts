import type { Scenario } from '../types';
import { benchEngine, ENGINE_BENCH_TARIFF } from '../engine.bench';
import { readUrdbLines } from '../../src/modules/tariffs/bundled';
import { REFERENCE_DIR } from '../../src/modules/utilities/reference';
import { newUser } from './seed';

/** Ten real bundled tariffs of every kind (TOU, demand, tiered, flat); demand_kw is sent so all of them price. */
const COMPARE_TARIFFS = [
  ENGINE_BENCH_TARIFF, // LGS-TOU-N: tiered TOU + demand
  '58f675d45457a36350156660', // GS-TOD-G: TOU + facility demand + fuel adjustments
  '5a6233b75457a3b637e429ce', // TGSA: TOU + TOU demand
  '539f6a22ec4f024411ec8b87', // Retail Transmission: TOU demand
  '606b31765457a3d01b3caddf', // facility demand tiers
  '58f661175457a3133d156660', // kWh per kW tiers
  '539f6a0aec4f024411ec8aa7', // seasonal tiers
  '539f6a45ec4f024411ec8d1d', // tiered + minimum charge
  '539f6adcec4f024411ec9565', // flat
  '5925fea75457a30036de90e2', // daily fixed charge
];

const CALCULATE_SCENARIO = 'POST /calculate (tiered TOU + demand tariff)';
const CALCULATE_BODY = { usage_kwh: 24_500, demand_kw: 120, month: 7 };

export const calculateScenarios: Scenario[] = [
  {
    kind: 'custom',
    name: 'bill engine alone, one core (tiered TOU + demand tariff)',
    run: async () => {
      const r = await benchEngine();
      return { value: r.billsPerSecond, unit: 'bills/s' };
    },
  },
  {
    kind: 'http',
    name: CALCULATE_SCENARIO,
    prepare: async () => ({
      path: '/api/v1/calculate',
      method: 'POST',
      body: JSON.stringify({ tariff_id: ENGINE_BENCH_TARIFF, ...CALCULATE_BODY }),
    }),
  },
  // The catalog tariff with a token, then the same URDB record as its owner's custom tariff (priced for its
  // owner only, so its calls carry a token): the two rows are the same call on either.
  {
    kind: 'http',
    name: 'POST /calculate (the same catalog tariff, bearer token)',
    prepare: async (ctx) => {
      const { auth } = await newUser(ctx, 'catalog-tariff');
      return {
        path: '/api/v1/calculate',
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ tariff_id: ENGINE_BENCH_TARIFF, ...CALCULATE_BODY }),
      };
    },
  },
  {
    kind: 'http',
    name: "POST /calculate on a custom tariff (the same URDB record, its owner's token)",
    prepare: async (ctx) => {
      const { auth } = await newUser(ctx, 'custom-tariff');
      const [line] = readUrdbLines(REFERENCE_DIR, new Set([ENGINE_BENCH_TARIFF]));
      const { id } = await ctx.call<{ id: string }>('POST', '/api/v1/tariffs/custom', { urdb: line!.record }, auth);
      return { path: '/api/v1/calculate', method: 'POST', headers: auth, body: JSON.stringify({ tariff_id: id, ...CALCULATE_BODY }) };
    },
  },
  {
    kind: 'http',
    name: 'POST /calculate/compare (10 tariffs)',
    prepare: async () => ({
      path: '/api/v1/calculate/compare',
      method: 'POST',
      body: JSON.stringify({ tariff_ids: COMPARE_TARIFFS, usage_kwh: 24_500, demand_kw: 120, month: 7 }),
    }),
  },
];
