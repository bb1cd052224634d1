import { defaultMetersOfAll } from '../helpers/meters';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { rowsOf } from '../../src/platform/db/errors';
import { MAX_SCOPED_MARKS } from '../../src/modules/analytics/recompute';

const PROPERTIES = 2000;

/** Which properties a recompute rebuilds: the marked ones, up to MAX_SCOPED_MARKS; past that, the whole owner. */
describe('analytics recompute scope', () => {
  let t: TestApp;
  let big: string;
  let small: string;

  beforeAll(async () => {
    t = await createTestApp();
    big = (await registerUser(t)).user.id;
    small = (await registerUser(t)).user.id;
    const { db } = t.deps.database;
    await db.execute(sql`
      insert into properties (id, owner_id, name, address, city, state, zip_code, property_type, sqft, monthly_usage_kwh, annual_energy_cost)
      select 'plan-' || o.n || '-' || g, o.id, 'P' || g, '1 Main St', 'Gladstone', 'MI', '49837', 'commercial', 1000 + g, 500, 1200
      from (values (1, ${big}::text, ${PROPERTIES}::int), (2, ${small}::text, 25)) as o(n, id, count)
      cross join lateral generate_series(1, o.count) g`);
    await defaultMetersOfAll(db, 'electric');
    await db.execute(sql`
      insert into utility_bills (property_id, meter_id, unit, utility_type, period_start, period_end, amount, usage_kwh)
      select p.id, e.id, 'kWh', 'electric', make_date(2025, m, 1), (make_date(2025, m, 1) + interval '1 month - 1 day')::date, 100 + m, 800
      from properties p join meters e on e.property_id = p.id and e.utility_type = 'electric' and e.is_default
      cross join generate_series(1, 12) m`);
    await db.execute(sql`
      insert into rate_analyses (id, property_id, owner_id, recommended_tariff_id, annual_savings, result, analyzed_at)
      select 'ra-' || p.id || '-' || k, p.id, p.owner_id, 'some-tariff', 120, '{}'::jsonb, now() - k * interval '1 day'
      from properties p cross join generate_series(1, 2) k`);
    await db.execute(sql`
      insert into analytics_property_metrics (property_id, owner_id, annual_cost_cents, health_score, health_status, health_issues)
      select id, owner_id, 120000, 80, 'good', '[]'::jsonb from properties`);
  }, 120_000);
  afterAll(() => t.stop());

  it('rebuilds only the marked properties up to MAX_SCOPED_MARKS of them, and the whole owner past it', async () => {
    const { db } = t.deps.database;
    const { analytics } = t.services;
    expect((await analytics.recompute(big, { full: true })).scope).toBeNull(); // a snapshot at the owner's current version
    const touch = async (n: number) => {
      const some = rowsOf<{ id: string }>(
        await db.execute(sql`select id from properties where owner_id = ${big} order by id desc limit ${n}`),
      ).map((r) => r.id);
      await db.execute(
        sql`update properties set annual_energy_cost = annual_energy_cost + 1 where id = any(${`{${some.join(',')}}`}::text[])`,
      );
      return some;
    };
    const few = await touch(MAX_SCOPED_MARKS);
    expect([...((await analytics.recompute(big)).scope ?? [])].sort()).toEqual([...few].sort());
    await touch(MAX_SCOPED_MARKS + 1);
    const many = await analytics.recompute(big);
    expect(many).toMatchObject({ recomputed: true, scope: null });
    expect(rowsOf(await db.execute(sql`select 1 from analytics_dirty_properties where owner_id = ${big}`))).toEqual([]);
  }, 60_000);
});
