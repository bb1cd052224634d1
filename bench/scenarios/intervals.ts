import type { BenchContext, CustomScenario, Scenario } from '../types';
import { ADMIN_TOKEN } from '../server';
import { newUser } from './seed';

/*
 * Issue 50 item 5, on PostgreSQL with the Procfile roles (the `postgres` mode): a meter-year of
 * 15-minute readings (35,040, as a "Download My Data" CSV through POST /pm/meters/{id}/intervals)
 * imports in under 5 s, and its 12 monthly bills price from them in under 1 s. The bills are priced
 * as a user gets them priced: the 12 bills entered on the meter, then the meter's audit
 * (POST /pm/bills/{id}/audit audits every bill of the meter now; with readings covering each
 * bill's period, each is priced from them: audit README "Interval data").
 */

/** The figures of item 5, seconds. */
export const INTERVAL_TARGETS = { importS: 5, priceYearS: 1 } as const;

const YEAR = 2025;
const ZONE_OFFSET_HOURS = 5; // Columbus, OH: local midnight of January 1 is 05:00 UTC (EST), as is that of the next January 1.
const INTERVALS = 365 * 96;
const ALL_MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/** A commercial time-of-use tariff with demand: on-peak 12:00-18:00 on weekdays. */
const touTariff = {
  name: 'Bench time-of-use service (own tariff)',
  utility_name: 'Bench Electric',
  state: 'OH',
  sector: 'commercial',
  utility_type: 'electric',
  unit: 'kWh',
  effective_date: '2020-01-01',
  energy_rates: [
    { period: 'on_peak', months: ALL_MONTHS, hours: '12:00-18:00', days: 'weekdays', rate_per_kwh: 0.21 },
    {
      period: 'off_peak',
      months: ALL_MONTHS,
      hours: 'weekdays 00:00-12:00, 18:00-24:00; weekends 00:00-24:00',
      days: 'all',
      rate_per_kwh: 0.08,
    },
  ],
  demand_rates: [{ period: 'all_year', months: ALL_MONTHS, type: 'facility', rate_per_kw: 12.5 }],
  fixed_charges: [{ name: 'Customer charge', amount: 25, frequency: 'monthly' }],
};

/** kWh of the i-th 15-minute interval of the year: a working-day bump over a base load, never the same twice in a row. */
export const intervalKwh = (i: number) => {
  const hour = Math.floor((i % 96) / 4);
  const day = Math.floor(i / 96);
  const working = (day + 3) % 7 < 5; // January 1, 2025 was a Wednesday
  return Math.round((working && hour >= 8 && hour < 19 ? 4 : 1.5) * 1000 + ((i * 37) % 250)) / 1000;
};

/** The year's readings as a generic CSV (`start,end,kwh`, instants in UTC), 35,040 rows. */
export function yearCsv(): string {
  const first = Date.UTC(YEAR, 0, 1, ZONE_OFFSET_HOURS);
  const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
  const lines = ['start,end,kwh'];
  for (let i = 0; i < INTERVALS; i++) lines.push(`${iso(first + i * 900_000)},${iso(first + (i + 1) * 900_000)},${intervalKwh(i)}`);
  return `${lines.join('\n')}\n`;
}

/** The 12 calendar months of the year as bills: first and last day, and the readings' kWh in them (local months). */
export function monthlyBills(): Array<{ period_start: string; period_end: string; usage_kwh: number }> {
  const out: Array<{ period_start: string; period_end: string; usage_kwh: number }> = [];
  let i = 0;
  for (let m = 0; m < 12; m++) {
    const days = new Date(Date.UTC(YEAR, m + 1, 0)).getUTCDate();
    // Local days are 96 intervals but on the spring-forward (92) and fall-back (100) Sundays: March 9 and November 2, 2025.
    const intervals = days * 96 + (m === 2 ? -4 : m === 10 ? 4 : 0);
    let wh = 0;
    for (let k = 0; k < intervals; k++) wh += Math.round(intervalKwh(i + k) * 1000);
    i += intervals;
    const month = String(m + 1).padStart(2, '0');
    out.push({ period_start: `${YEAR}-${month}-01`, period_end: `${YEAR}-${month}-${days}`, usage_kwh: wh / 1000 });
  }
  if (i !== INTERVALS) throw new Error(`the months hold ${i} intervals, not ${INTERVALS}`);
  return out;
}

interface Prepared {
  auth: Record<string, string>;
  meterId: string;
  propertyId: string;
  importSeconds: number;
  readings: number;
}
const prepared = new Map<string, Promise<Prepared>>();

/** A Pro owner with one commercial property on the tariff and one electric meter, its year of readings imported (timed). */
function meterYear(ctx: BenchContext): Promise<Prepared> {
  let p = prepared.get(ctx.url);
  if (!p) {
    p = (async () => {
      const { auth } = await newUser(ctx, 'intervals');
      const me = await ctx.call<{ id: string }>('GET', '/api/v1/auth/me', undefined, auth);
      await ctx.call('PATCH', `/api/v1/admin/users/${me.id}`, { tier: 'pro' }, { 'x-admin-token': ADMIN_TOKEN });
      const tariff = await ctx.call<{ id: string }>('POST', '/api/v1/tariffs/custom', touTariff, auth);
      const property = await ctx.call<{ id: string }>(
        'POST',
        '/api/v1/pm/properties',
        {
          name: 'Interval office',
          address: '1 Main St',
          city: 'Columbus',
          state: 'OH',
          zip_code: '43004',
          property_type: 'commercial',
          tariff_id: tariff.id,
        },
        auth,
      );
      const meter = await ctx.call<{ id: string }>(
        'POST',
        `/api/v1/pm/properties/${property.id}/meters`,
        { utility_type: 'electric' },
        auth,
      );
      const csv = yearCsv();
      const form = new FormData();
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'usage.csv');
      const started = performance.now();
      const res = await fetch(`${ctx.url}/api/v1/pm/meters/${meter.id}/intervals`, { method: 'POST', body: form, headers: auth });
      const importSeconds = (performance.now() - started) / 1000;
      const body = (await res.json()) as { stored?: number };
      if (!res.ok) throw new Error(`import failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      return { auth, meterId: meter.id, propertyId: property.id, importSeconds, readings: body.stored ?? 0 };
    })();
    prepared.set(ctx.url, p);
  }
  return p;
}

const importYear: CustomScenario = {
  kind: 'custom',
  name: 'interval data: a meter-year of 15-minute readings (35,040, Green Button "Download My Data" CSV) imported through POST /pm/meters/{id}/intervals',
  perMode: true,
  modes: ['postgres'],
  run: async (ctx) => {
    if (!ctx) throw new Error('needs a running server');
    const { importSeconds, readings } = await meterYear(ctx);
    const seconds = Math.round(importSeconds * 100) / 100;
    return {
      value: seconds,
      unit: `s (${readings.toLocaleString('en-US')} readings stored; from the upload to the import report)`,
      target: `< ${INTERVAL_TARGETS.importS} s`,
      met: seconds < INTERVAL_TARGETS.importS && readings === INTERVALS,
    };
  },
};

const priceYear: CustomScenario = {
  kind: 'custom',
  name: "interval data: the meter's 12 monthly bills priced from its readings (POST /pm/bills/{id}/audit: the meter's audit, every bill from the intervals)",
  perMode: true,
  modes: ['postgres'],
  run: async (ctx) => {
    if (!ctx) throw new Error('needs a running server');
    const { auth, meterId, propertyId } = await meterYear(ctx);
    const ids: string[] = [];
    for (const b of monthlyBills()) {
      const bill = await ctx.call<{ id: string }>(
        'POST',
        `/api/v1/pm/properties/${propertyId}/bills`,
        { ...b, meter_id: meterId, amount: 1000 },
        auth,
      );
      ids.push(bill.id);
    }
    const started = performance.now();
    const audit = await ctx.call<{ basis: string | null }>('POST', `/api/v1/pm/bills/${ids[0]}/audit`, undefined, auth);
    const seconds = Math.round((performance.now() - started) / 10) / 100;
    const fromIntervals = (
      await Promise.all(ids.map((id) => ctx.call<{ basis: string | null }>('GET', `/api/v1/pm/bills/${id}/audit`, undefined, auth)))
    ).filter((a) => a.basis === 'intervals').length;
    return {
      value: seconds,
      unit: `s (${fromIntervals} of 12 bills priced from the readings; the first bill's basis: ${audit.basis})`,
      target: `< ${INTERVAL_TARGETS.priceYearS} s`,
      met: seconds < INTERVAL_TARGETS.priceYearS && fromIntervals === 12,
    };
  },
};

export const intervalScenarios: Scenario[] = [importYear, priceYear];
