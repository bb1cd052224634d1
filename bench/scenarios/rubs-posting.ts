import type { BenchContext, CustomScenario, Scenario } from '../types';
import { pmsProviderPort } from '../server';
import { FakePmsLedger } from '../../test/helpers/fake-pms-ledger';
import { fakeUnit } from '../../test/helpers/fake-pms';
import { waitUntil } from '../../test/helpers/eventually';
import { linkThroughProvider } from '../../test/helpers/pms-link';
import { newUser } from './seed';

/*
 * A 500-unit calculation posted to the PMS ledger, timed from the POST to the last charge
 * recorded, with a fake provider answering every call in 50 ms on the port the processes were
 * given (PMS_API_URL). With Redis the worker process posts; embedded, the web process's
 * in-process runner does.
 */

const UNITS = 500;
const PROVIDER_LATENCY_MS = 50;

interface Posting {
  status: string;
  posted: number;
  failed: number;
}

/** A property of `UNITS` occupied units linked to the fake provider's PMS property, and a calculation of them from the PMS. */
async function postableCalculation(ctx: BenchContext, provider: FakePmsLedger): Promise<{ id: string; auth: Record<string, string> }> {
  const { auth } = await newUser(ctx, 'posting');
  const connection = `bench-post-${Date.now().toString(36)}`;
  provider.setUnits(
    connection,
    'P0',
    Array.from({ length: UNITS }, (_, i) =>
      fakeUnit(i + 1, 'P0', {
        status: 'occupied',
        current_lease: { resident_name: `Resident ${i + 1}`, occupant_count: 1 + (i % 4), start_date: '2025-01-01', end_date: null },
      }),
    ),
  );
  const property = await ctx.call<{ id: string }>(
    'POST',
    '/api/v1/pm/properties',
    {
      name: 'Bench Towers',
      address: '1 Bench St',
      city: 'Ann Arbor',
      state: 'MI',
      zip_code: '48104',
      property_type: 'residential',
      unit_count: UNITS,
    },
    auth,
  );
  await linkThroughProvider((method, path, body) => ctx.call(method, path, body, auth), provider, property.id, {
    connection_id: connection,
    pms_property_id: 'P0',
  });
  await waitUntil(
    'units imported',
    async () =>
      (await ctx.call<{ last_synced_at: string | null }>('GET', `/api/v1/pm/properties/${property.id}/pms`, undefined, auth))
        .last_synced_at !== null,
    120_000,
    50,
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
  const calculation = await ctx.call<{ id: string; units_billed: number }>(
    'POST',
    '/api/v1/billing/calculate-from-pms',
    {
      property_id: property.id,
      billing_config_id: config.id,
      billing_period_start: '2026-03-01',
      billing_period_end: '2026-03-31',
      total_amount: 48_250.37,
      utility_type: 'water',
    },
    auth,
  );
  if (calculation.units_billed !== UNITS) throw new Error(`expected ${UNITS} billed units, got ${calculation.units_billed}`);
  return { id: calculation.id, auth };
}

const postingEndToEnd: CustomScenario = {
  kind: 'custom',
  name: `RUBS posting: a ${UNITS}-unit calculation to a PMS provider answering in ${PROVIDER_LATENCY_MS} ms, end to end`,
  perMode: true,
  run: async (context) => {
    if (!context) throw new Error('needs a running server');
    const ctx = context;
    const provider = new FakePmsLedger();
    await provider.start(pmsProviderPort(Number(new URL(ctx.url).port)));
    try {
      const { id, auth } = await postableCalculation(ctx, provider);
      provider.latencyMs = PROVIDER_LATENCY_MS;
      const started = performance.now();
      await ctx.call('POST', `/api/v1/billing/calculations/${id}/post`, undefined, auth);
      let posting: Posting = { status: 'pending', posted: 0, failed: 0 };
      await waitUntil(
        'charges posted',
        async () => {
          posting = (await ctx.call<{ posting: Posting }>('GET', `/api/v1/billing/calculations/${id}`, undefined, auth)).posting;
          if (posting.status !== 'pending') return true;
          return false;
        },
        120_000,
        20,
      );
      const seconds = (performance.now() - started) / 1000;
      const charges = [...provider.charges.keys()].filter((k) => k.startsWith(`${id}:`)).length;
      const duplicates = provider.duplicates().length;
      console.log(
        `[posting] ${UNITS} charges: ${posting.status} in ${seconds.toFixed(2)} s (${charges} created, ${duplicates} duplicates, ${posting.failed} failed)`,
      );
      return {
        value: Number(seconds.toFixed(2)),
        unit:
          `s (${posting.status}: ${posting.posted} of ${UNITS} charges posted, ${charges} created at the provider, ` +
          `${provider.calls.length} provider calls, ${duplicates} duplicates; from the POST to the last charge recorded)`,
      };
    } finally {
      await provider.stop();
    }
  },
};

export const rubsPostingScenarios: Scenario[] = [postingEndToEnd];
