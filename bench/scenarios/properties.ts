import type { Scenario } from '../types';
import { newUser, seedProperties } from './seed';

/** City of Gladstone, Michigan: C1 commercial flat tariff (serves ZIP 49837). */
const BENCH_TARIFF = '539f6a63ec4f024411ec8eb1';
const LIST_PROPERTIES = 10_000;
const PORTFOLIO_PROPERTIES = 1_000;
const IMPORT_ROWS = 200_000;

const property = (i: number) => ({
  name: `Bench ${i}`,
  address: `${i} Main St`,
  city: i % 2 ? 'Gladstone' : 'Escanaba',
  state: 'MI',
  zip_code: '49837',
  property_type: i % 3 ? 'commercial' : 'residential',
  sqft: 1000 + i,
  unit_count: 1 + (i % 40),
});

export const propertyScenarios: Scenario[] = [
  {
    kind: 'http',
    name: `GET /pm/properties (20 per page, user with ${LIST_PROPERTIES.toLocaleString('en-US')} properties)`,
    prepare: async (ctx) => {
      const { auth } = await newUser(ctx, 'list');
      await seedProperties(ctx, auth, LIST_PROPERTIES, property);
      return { path: '/api/v1/pm/properties?page=3&per_page=20', headers: auth };
    },
  },
  {
    kind: 'http',
    name: `GET /pm/portfolios/{id} (${PORTFOLIO_PROPERTIES.toLocaleString('en-US')} priced properties)`,
    prepare: async (ctx) => {
      const { auth } = await newUser(ctx, 'portfolio');
      const { id } = await ctx.call<{ id: string }>('POST', '/api/v1/pm/portfolios', { name: 'Bench portfolio' }, auth);
      await seedProperties(ctx, auth, PORTFOLIO_PROPERTIES, (i) => ({
        ...property(i),
        property_type: 'commercial',
        portfolio_id: id,
        tariff_id: BENCH_TARIFF,
        monthly_usage_kwh: 1000 + (i % 50) * 100,
      }));
      // Each priced property queued a rate analysis; the run waits for the worker to be idle before measuring.
      return { path: `/api/v1/pm/portfolios/${id}`, headers: auth };
    },
  },
  {
    kind: 'custom',
    name: `POST /pm/properties/{id}/bills/import (${IMPORT_ROWS.toLocaleString('en-US')}-row CSV)`,
    perMode: true,
    run: async (ctx) => {
      if (!ctx) throw new Error('needs a running server');
      const { auth } = await newUser(ctx, 'import');
      const { id } = await ctx.call<{ id: string }>('POST', '/api/v1/pm/properties', property(0), auth);
      // 25 meters (5 of each of 5 utility types), named in the file by account number; two bills of one meter
      // never overlap (issue 29), so each meter's rows are distinct days from 2000-01-01.
      const types = ['electric', 'gas', 'water', 'sewer', 'trash'];
      const units = ['kWh', 'ccf', 'kgal', 'kgal', 'tons'];
      const METERS = 25;
      for (let k = 0; k < METERS; k++) {
        await ctx.call('POST', `/api/v1/pm/properties/${id}/meters`, { utility_type: types[k % 5], account_number: `A${k}` }, auth);
      }
      const lines = ['account_number,utility_type,period_start,period_end,amount,usage,unit,demand_kw,is_estimated'];
      // Every other row as utility portals export it (MM/DD/YYYY dates, "$1,234.56" amounts).
      const day0 = Date.UTC(2000, 0, 1);
      const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
      for (let i = 0; i < IMPORT_ROWS; i++) {
        const k = i % METERS;
        const day = new Date(day0 + Math.floor(i / METERS) * 86_400_000).toISOString().slice(0, 10);
        const cents = (i % 100_000) * 1000 + (i % 100);
        const amount = (cents / 100).toFixed(2);
        const rest = `${i % 1000},${units[k % 5]},${k % 5 === 0 && i % 4 === 0 ? 25 : ''},${i % 10 === 0 ? 'yes' : ''}`;
        lines.push(
          i % 2
            ? `A${k},${types[k % 5]},${usDate(day)},${usDate(day)},"$${Number(amount).toLocaleString('en-US', { minimumFractionDigits: 2 })}",${rest}`
            : `A${k},${types[k % 5]},${day},${day},${amount},${rest}`,
        );
      }
      const form = new FormData();
      form.append('file', new Blob([lines.join('\n') + '\n'], { type: 'text/csv' }), 'bills.csv');
      const started = performance.now();
      const res = await fetch(`${ctx.url}/api/v1/pm/properties/${id}/bills/import`, { method: 'POST', body: form, headers: auth });
      const seconds = (performance.now() - started) / 1000;
      const body = (await res.json()) as { imported?: number };
      if (!res.ok || body.imported !== IMPORT_ROWS) throw new Error(`import failed: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      return { value: Math.round(IMPORT_ROWS / seconds), unit: 'rows/s' };
    },
  },
];
