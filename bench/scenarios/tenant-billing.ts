import { TARGETS, type BenchContext, type Scenario } from '../types';
import { ALLOCATOR_UNITS, benchAllocator } from '../rubs.bench';
import { inParallel, newUser } from './seed';

const CALCULATE_UNITS = 10_000;
/** Of those, every fifth turned over within the month (issue 30): two occupancies each. */
const TURNOVER_UNITS = CALCULATE_UNITS / 5;
const HISTORY_CALCULATIONS = 1_000;

/** A user with a property and an active sqft configuration (10 % common area, 5 % admin fee). */
async function billedProperty(ctx: BenchContext, tag: string) {
  const { auth } = await newUser(ctx, tag);
  const property = await ctx.call<{ id: string }>(
    'POST',
    '/api/v1/pm/properties',
    {
      name: 'Bench Court',
      address: '1 Bench St',
      city: 'Ann Arbor',
      state: 'MI',
      zip_code: '48104',
      property_type: 'residential',
    },
    auth,
  );
  const config = await ctx.call<{ id: string }>(
    'POST',
    '/api/v1/billing/config',
    {
      property_id: property.id,
      method: 'sqft',
      utility_types: ['water'],
      common_area_percent: 10,
      admin_fee_percent: 5,
    },
    auth,
  );
  return { auth, propertyId: property.id, configId: config.id };
}

/**
 * A calculate-rubs body; `k` picks the billing month (the k-th month from January 1950); with
 * `turnover`, every fifth unit has two residents (out on the 12th, in on the 15th).
 */
function calculation(propertyId: string, configId: string, units: number, k = 0, turnover = false) {
  const month = `${1950 + Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, '0')}`;
  return {
    property_id: propertyId,
    billing_config_id: configId,
    billing_period_start: `${month}-01`,
    billing_period_end: `${month}-28`,
    total_amount: 48_250.37,
    utility_type: 'water',
    units: Array.from({ length: units }, (_, i) => {
      const unit = { unit_id: `U-${String(i + 1).padStart(5, '0')}`, tenant_name: `Tenant ${i + 1}`, sqft: 550 + ((i * 37) % 900) };
      if (turnover && i % 5 === 4) {
        return {
          ...unit,
          occupancies: [
            { tenant_name: `Tenant ${i + 1}`, move_out: `${month}-12` },
            { tenant_name: `New tenant ${i + 1}`, move_in: `${month}-15` },
          ],
        };
      }
      return { ...unit, is_vacant: i % 10 === 9 };
    }),
  };
}

export const tenantBillingScenarios: Scenario[] = [
  {
    kind: 'custom',
    name: `RUBS allocator alone, one core (${ALLOCATOR_UNITS} units, exact rounding)`,
    run: async () => {
      const r = await benchAllocator();
      return { value: r.perSecond, unit: 'allocations/s' };
    },
  },
  {
    kind: 'http',
    name: `GET /billing/history/{id} (${HISTORY_CALCULATIONS.toLocaleString('en-US')} stored calculations)`,
    prepare: async (ctx) => {
      const { auth, propertyId, configId } = await billedProperty(ctx, 'rubs-history');
      await inParallel(HISTORY_CALCULATIONS, 8, async (i) => {
        await ctx.call('POST', '/api/v1/billing/calculate-rubs', calculation(propertyId, configId, 12, i), auth);
      });
      return { path: `/api/v1/billing/history/${propertyId}?page=2&per_page=20`, headers: auth };
    },
  },
  // Last: it stores about 100 results of 10,000 units, which the scenarios after it would feel.
  {
    kind: 'http',
    name: `POST /billing/calculate-rubs (${CALCULATE_UNITS.toLocaleString('en-US')} units, ${TURNOVER_UNITS.toLocaleString('en-US')} with turnover; one connection)`,
    p99BelowMs: TARGETS.tenantBillingP99Ms,
    // A property manager bills a property and waits for it: one request at a time, so the latency is
    // the billing run's, not its wait behind nine others.
    connections: 1,
    prepare: async (ctx) => {
      const { auth, propertyId, configId } = await billedProperty(ctx, 'rubs-calc');
      return {
        path: '/api/v1/billing/calculate-rubs',
        method: 'POST',
        headers: auth,
        body: JSON.stringify(calculation(propertyId, configId, CALCULATE_UNITS, 912, true)),
      };
    },
  },
];
