import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { rowsOf } from '../../src/platform/db/errors';
import type { Executor } from '../../src/platform/db/client';
import { rebuildRollupsSql, storeMetricsAndSnapshotSql, type MetricsRow } from '../../src/modules/analytics/recompute-repository';
import { monthIndexOfDate } from '../../src/modules/analytics/months';
import { MAX_SCOPED_MARKS } from '../../src/modules/analytics/recompute';
import { nodesOf, type PlanNode } from '../helpers/plans';

const dialect = new PgDialect();
const literal = (v: unknown) => `'${String(v).replace(/'/g, "''")}'`;

/**
 * Runs the statements (one text, different parameters) as one prepared statement, as
 * executePrepared does on a pooled connection, and returns how PostgreSQL planned the calls.
 */
async function planCounts(tx: Executor, name: string, statements: SQL[]): Promise<{ generic: number; custom: number }> {
  const queries = statements.map((s) => dialect.sqlToQuery(s));
  await tx.execute(sql.raw(`prepare ${name} as ${queries[0]!.sql}`));
  for (const q of queries) {
    expect(q.sql).toBe(queries[0]!.sql);
    await tx.execute(sql.raw(`execute ${name}(${q.params.map(literal).join(', ')})`));
  }
  const [row] = rowsOf<{ generic: number; custom: number }>(await tx.execute(sql.raw(
    `select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where name = '${name}'`)));
  await tx.execute(sql.raw(`deallocate ${name}`));
  return row!;
}

/** The plan nodes of the statement's generic plan. */
async function genericPlan(tx: Executor, name: string, statement: SQL): Promise<PlanNode[]> {
  const q = dialect.sqlToQuery(statement);
  await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
  await tx.execute(sql.raw(`prepare ${name} as ${q.sql}`));
  const [{ 'QUERY PLAN': plan }] = rowsOf<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    await tx.execute(sql.raw(`explain (format json) execute ${name}(${q.params.map(literal).join(', ')})`)));
  await tx.execute(sql.raw(`deallocate ${name}`));
  await tx.execute(sql`set local plan_cache_mode = auto`);
  return nodesOf(plan[0].Plan);
}

/** The plan's nodes that read one of `tables` (not those that write it). */
const readsOf = (nodes: PlanNode[], tables: string[]) =>
  nodes.filter((n) => tables.includes(n['Relation Name'] ?? '') && n['Node Type'] !== 'ModifyTable');

const NOW_MONTH = monthIndexOfDate('2026-11-01');
const PROPERTIES = 2000;

/**
 * The recompute's statements run prepared, under the owner's lock. PostgreSQL keeps re-planning a
 * prepared statement on every call when its generic plan looks dearer than the plans it makes for
 * the actual parameters: planning these statements costs as much as running them, so they must
 * settle on a generic plan once the tables have statistics, and that plan must read the
 * properties in scope by index, whatever the owner's size.
 */
describe('analytics recompute statement plans', () => {
  let t: TestApp;
  let big: string;
  let small: string;
  let ids: string[];

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
    await db.execute(sql`
      insert into utility_bills (property_id, utility_type, period_start, period_end, amount, usage_kwh)
      select p.id, 'electric', make_date(2025, m, 1), (make_date(2025, m, 1) + interval '1 month - 1 day')::date, 100 + m, 800
      from properties p cross join generate_series(1, 12) m`);
    await db.execute(sql`
      insert into rate_analyses (id, property_id, owner_id, recommended_tariff_id, annual_savings, result, analyzed_at)
      select 'ra-' || p.id || '-' || k, p.id, p.owner_id, 'some-tariff', 120, '{}'::jsonb, now() - k * interval '1 day'
      from properties p cross join generate_series(1, 2) k`);
    ids = rowsOf<{ id: string }>(await db.execute(sql`select id from properties where owner_id = ${big} order by id limit 20`)).map((r) => r.id);
    // The owner's rollups as a full recompute leaves them, then statistics (autovacuum's or the app's ANALYZE).
    await db.execute(rebuildRollupsSql(big, null, NOW_MONTH - 23, NOW_MONTH, NOW_MONTH - 11));
    await db.execute(rebuildRollupsSql(small, null, NOW_MONTH - 23, NOW_MONTH, NOW_MONTH - 11));
    await db.execute(sql`
      insert into analytics_property_metrics (property_id, owner_id, annual_cost_cents, health_score, health_status, health_issues)
      select id, owner_id, 120000, 80, 'good', '[]'::jsonb from properties`);
    await db.execute(sql`analyze`);
  }, 120_000);
  afterAll(() => t.stop());

  const marks = (i: number) => [{ id: ids[i]!, rollupFrom: NOW_MONTH - 20 + i, rollupTo: NOW_MONTH - 10 }];
  const metricsRow = (id: string): MetricsRow => ({
    property_id: id, annual_cost_cents: 1_000_000, annual_kwh_milli: 9_600_000, basis: 'bills', savings_cents: null,
    current_tariff_id: null, recommended_tariff_id: null, health_score: 80, health_status: 'good', health_issues: [],
  });
  const snapshot = (i: number) => ({ version: 100 + i, month: NOW_MONTH, now: new Date('2026-11-24T12:00:00Z') });

  it('a marked property\'s rollup rebuild settles on a generic plan', async () => {
    const counts = await t.deps.database.db.transaction(async (tx) => planCounts(tx, 'rollups_probe',
      Array.from({ length: 12 }, (_, i) => rebuildRollupsSql(i % 3 ? big : small, i % 3 ? marks(i) : [{ id: `plan-2-${i + 1}`, rollupFrom: NOW_MONTH - 20, rollupTo: NOW_MONTH }],
        NOW_MONTH - 23, NOW_MONTH, NOW_MONTH - 11))));
    expect(counts.custom).toBeLessThanOrEqual(5);
    expect(counts.generic).toBeGreaterThanOrEqual(7);
  });

  it('the metrics and snapshot statement settles on a generic plan', async () => {
    const counts = await t.deps.database.db.transaction(async (tx) => planCounts(tx, 'metrics_probe',
      Array.from({ length: 12 }, (_, i) => storeMetricsAndSnapshotSql(i % 3 ? big : small, [ids[i]!], [metricsRow(ids[i]!)], snapshot(i)))));
    expect(counts.custom).toBeLessThanOrEqual(5);
    expect(counts.generic).toBeGreaterThanOrEqual(7);
  });

  it('the rollup rebuild\'s generic plan reads bills, rollups and properties by index', async () => {
    const nodes = await t.deps.database.db.transaction(async (tx) => genericPlan(tx, 'rollups_shape', rebuildRollupsSql(big, marks(0), NOW_MONTH - 23, NOW_MONTH, NOW_MONTH - 11)));
    const scans = readsOf(nodes, ['utility_bills', 'analytics_monthly_rollups', 'properties', 'rate_analyses']);
    expect(scans.filter((n) => !/Index|Bitmap/.test(n['Node Type']))).toEqual([]);
  });

  it('the metrics and snapshot statement\'s generic plan reads the stored metrics and rollups by index', async () => {
    // In a bench run, each recompute of an owner of 25 properties hash-joined every stored metrics row (5,000 pages).
    const nodes = await t.deps.database.db.transaction(async (tx) => genericPlan(tx, 'metrics_shape',
      storeMetricsAndSnapshotSql(small, ['plan-2-1'], [metricsRow('plan-2-1')], snapshot(0))));
    const scans = readsOf(nodes, ['analytics_property_metrics', 'analytics_monthly_rollups']);
    expect(scans.length).toBeGreaterThan(0);
    expect(scans.filter((n) => !/Index|Bitmap/.test(n['Node Type']))).toEqual([]);
  });

  it('rebuilds only the marked properties up to MAX_SCOPED_MARKS of them, and the whole owner past it', async () => {
    const { db } = t.deps.database;
    const { analytics } = t.services;
    expect((await analytics.recompute(big, { full: true })).scope).toBeNull(); // a snapshot at the owner's current version
    const touch = async (n: number) => {
      const some = rowsOf<{ id: string }>(await db.execute(sql`select id from properties where owner_id = ${big} order by id desc limit ${n}`)).map((r) => r.id);
      await db.execute(sql`update properties set annual_energy_cost = annual_energy_cost + 1 where id = any(${`{${some.join(',')}}`}::text[])`);
      return some;
    };
    const few = await touch(MAX_SCOPED_MARKS);
    expect([...(await analytics.recompute(big)).scope ?? []].sort()).toEqual([...few].sort());
    await touch(MAX_SCOPED_MARKS + 1);
    const many = await analytics.recompute(big);
    expect(many).toMatchObject({ recomputed: true, scope: null });
    expect(rowsOf(await db.execute(sql`select 1 from analytics_dirty_properties where owner_id = ${big}`))).toEqual([]);
  }, 60_000);
});
