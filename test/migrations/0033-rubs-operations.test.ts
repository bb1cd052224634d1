/**
 * Migration 0033 (tenant billing operations) on a database that holds configurations and
 * calculations from before it: each configuration gets its version 1 exactly as the API answers
 * the configuration, and each calculation is active, of version 1, without invoice numbers.
 */
import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { presentConfig } from '../../src/modules/tenant-billing/presenters';
import { billingConfigs } from '../../src/modules/tenant-billing/tables';
import { databaseBefore } from './helpers';

describe('migration 0033: versions, statuses and invoice numbers for what is already stored', () => {
  let client: PGlite;
  beforeAll(async () => {
    const db = await databaseBefore('0033_rubs_operations');
    client = db.client;
    await client.exec(`
      insert into users (id, email, password_hash, full_name) values ('u1', 'a@example.com', 'x', 'A');
      insert into properties (id, owner_id, name, address, city, state, zip_code, property_type)
        values ('p1', 'u1', 'P', '1 Main St', 'Gladstone', 'MI', '49837', 'residential');
      insert into billing_configs (id, property_id, method, utility_types, common_area_percent, admin_fee_percent, billing_day,
          is_active, vacancy_policy, rounding, sqft_weight_percent, created_at)
        values ('c1', 'p1', 'sqft_occupant', '{water,sewer}', 12.5, 2.25, 15, true, 'owner_pays', 'exact', 62.5, '2026-02-03 09:15:00.123+00'),
               ('c0', 'p1', 'sqft', '{trash}', 0, 0, 1, false, 'redistribute', 'per_unit', 50, '2025-12-01 00:00:00+00');
      insert into rubs_calculations (id, property_id, billing_config_id, source, billing_period_start, billing_period_end, utility_type,
          method, total_amount, units_billed, units_vacant, result, calculated_at)
        values ('r1', 'p1', 'c1', 'request', '2026-01-01', '2026-01-31', 'water', 'sqft_occupant', 100, 1, 0, '{}', '2026-02-03 09:20:00+00');`);
    await db.rest();
  });
  afterAll(() => client.close());

  it('version 1 of every configuration is what GET /billing/config answers for it', async () => {
    const rows = await drizzle(client).select().from(billingConfigs).orderBy(billingConfigs.id);
    const { rows: versions } = await client.query<{ config_id: string; version: number; terms: unknown; created_at: Date }>(
      'select config_id, version, terms, created_at from billing_config_versions order by config_id',
    );
    expect(versions.map((v) => [v.config_id, v.version])).toEqual([
      ['c0', 1],
      ['c1', 1],
    ]);
    expect(versions.map((v) => v.terms)).toEqual(rows.map(presentConfig));
    expect(versions[1].created_at.toISOString()).toBe('2026-02-03T09:15:00.123Z');
  });

  it('calculations already stored are active, of version 1, without invoice numbers', async () => {
    const { rows } = await client.query('select status, supersedes, billing_config_version, first_invoice_number from rubs_calculations');
    expect(rows).toEqual([{ status: 'active', supersedes: [], billing_config_version: 1, first_invoice_number: null }]);
  });
});
