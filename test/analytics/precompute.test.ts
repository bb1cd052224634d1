import request from 'supertest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/app';
import { eventually } from '../helpers/eventually';
import { registerUser, type RegisteredTestUser } from '../helpers/users';
import { as, createPortfolio, createProperty, GLADSTONE } from '../pm/helpers';
import { seedTariffs } from '../helpers/tariffs';
import { runScheduleTick } from '../../src/platform/scheduler';
import { appSchedules } from '../../src/schedules';
import { billedDaysByMonth, calendariseBill } from '../../src/modules/analytics/calendarise.calc';
import { monthIndexOfDate, monthKey } from '../../src/modules/analytics/months';
import { appQueues, type AppQueues } from '../../src/queues';
import type { JobContext, Processors } from '../../src/platform/queue/types';
import { rowsOf } from '../../src/platform/db/errors';
import { createLogger } from '../../src/platform/logger';
import { createRecomputer } from '../../src/modules/analytics/recompute';
import { dataVersion, NOW, postBill } from './helpers';
import { defaultMeter, ownMeter } from '../helpers/meters';

type Row = Record<string, unknown>;
const UTILITY_TYPES = ['electric', 'gas', 'water', 'sewer', 'trash'] as const;
const rows = async (t: TestApp, query: ReturnType<typeof sql>) => rowsOf<Row>(await t.deps.database.db.execute(query));

async function snapshotVersion(t: TestApp, ownerId: string): Promise<number | null> {
  const [r] = await rows(t, sql`select data_version::int as v from analytics_owner_snapshots where owner_id = ${ownerId}`);
  return (r?.v as number | undefined) ?? null;
}

/** Everything the recompute writes for an owner, in a comparable form. */
async function precomputed(t: TestApp, ownerId: string) {
  return {
    rollups: await rows(
      t,
      sql`select property_id, utility_type, month::text, cost_cents::text, usage_milli::text, billed_days, bill_count
      from analytics_monthly_rollups where owner_id = ${ownerId} order by property_id, month, utility_type`,
    ),
    metrics: await rows(
      t,
      sql`select property_id, annual_cost_cents::text, annual_kwh_milli::text, basis, annual_by_utility, savings_cents::text,
      health_score, health_status, health_issues, emissions_year, emissions_kg::text, penalty_period, penalty_cents::text, penalty_alerts
      from analytics_property_metrics where owner_id = ${ownerId} order by property_id`,
    ),
    sums: (await rows(t, sql`select sums from analytics_owner_snapshots where owner_id = ${ownerId}`))[0]?.sums,
  };
}

describe('the precompute: stored rollups, data versions, incremental recompute', () => {
  let t: TestApp;
  let alice: RegisteredTestUser;
  const clock = { now: NOW };
  beforeAll(async () => {
    t = await createTestApp({ now: () => clock.now });
    alice = await registerUser(t);
  });
  afterAll(() => t.stop());

  it("the stored rollups are calendarise.calc.ts's months of every bill in the 36-month window, per utility type (shares, usage, billed days, bills per month)", async () => {
    const p = await createProperty(t, alice.token);
    // Issue 29 replaced bills of 658 days and 9 years here: a period lasts at most 100 days (bill-rules.ts).
    // Usage is in the default meter's unit (water and sewer: kgal), rolled up in the type's common unit (gallons).
    const bills = [
      ['electric', '2026-01-20', '2026-02-19', 100, 1000],
      ['gas', '2026-01-31', '2026-03-01', 100, null],
      ['water', '2026-08-11', '2026-11-18', 9999.99, 123.457], // 100 days over 4 months
      ['electric', '2023-11-15', '2024-01-20', 99999.99, 5], // starts before the 36-month window
      ['sewer', '2026-11-20', '2026-11-20', 0.01, 0.001],
      ['trash', '2026-06-05', '2026-06-05', 0, null],
      ['electric', '2026-11-25', '2026-12-15', -40.5, 3], // a credit, ending after the window
    ] as const;
    const perCommonUnit: Record<string, number> = { electric: 1, gas: 1, water: 1000, sewer: 1000, trash: 1 };
    for (const [utility_type, period_start, period_end, amount, usage] of bills) {
      await postBill(t, alice.token, p.id, { utility_type, period_start, period_end, amount, usage: usage ?? undefined });
    }
    await t.services.analytics.recompute(alice.user.id, { full: true });
    const window = { from: monthIndexOfDate('2023-12'), to: monthIndexOfDate('2026-11') };
    const expected = new Map<string, { cost: number; usage: number; bills: number }>();
    for (const [type, periodStart, periodEnd, amount, usage] of bills) {
      const usageMilli = Math.round((usage ?? 0) * perCommonUnit[type]! * 1000);
      for (const s of calendariseBill({ periodStart, periodEnd, cents: Math.round(amount * 100), usageMilli }, window)) {
        const key = `${monthKey(s.month)} ${type}`;
        const e = expected.get(key) ?? { cost: 0, usage: 0, bills: 0 };
        expected.set(key, { cost: e.cost + s.cents, usage: e.usage + s.usageMilli, bills: e.bills + 1 });
      }
    }
    const daysOf = (type: string) =>
      billedDaysByMonth(
        bills.filter((b) => b[0] === type).map(([, periodStart, periodEnd]) => ({ periodStart, periodEnd })),
        window,
      );
    const stored = await rows(
      t,
      sql`select to_char(month, 'YYYY-MM') || ' ' || utility_type as key, cost_cents::text as c, usage_milli::text as u,
      billed_days, bill_count from analytics_monthly_rollups where property_id = ${p.id} order by month, utility_type`,
    );
    expect(stored).toEqual(
      [...expected.keys()].sort().map((key) => ({
        key,
        c: String(expected.get(key)!.cost),
        u: String(expected.get(key)!.usage),
        billed_days: daysOf(key.split(' ')[1]!).get(monthIndexOfDate(key.split(' ')[0]!)),
        bill_count: expected.get(key)!.bills,
      })),
    );
    expect(stored.map((r) => r.key)).toEqual([
      '2023-12 electric',
      '2024-01 electric',
      '2026-01 electric',
      '2026-01 gas',
      '2026-02 electric',
      '2026-02 gas',
      '2026-03 gas',
      '2026-06 trash',
      '2026-08 water',
      '2026-09 water',
      '2026-10 water',
      '2026-11 electric',
      '2026-11 sewer',
      '2026-11 water',
    ]);
  });

  it("the owner's data version moves with each statement that changes analytics data, and only then", async () => {
    const owner = alice.user.id;
    const v0 = await dataVersion(t, owner);
    const p = await createProperty(t, alice.token, { sqft: 10 });
    const v1 = await dataVersion(t, owner);
    expect(v1).toBe(v0 + 1);
    // one multi-row insert statement: one bump
    const meter = await defaultMeter(t.deps.database.db, p.id, 'electric');
    await t.deps.database.db
      .execute(sql`insert into utility_bills (property_id, meter_id, unit, utility_type, period_start, period_end, amount)
      select ${p.id}, ${meter.id}, 'kWh', 'electric', d::date, d::date, 1 from generate_series('2026-01-01'::date, '2026-01-31'::date, '1 day') as d`);
    expect(await dataVersion(t, owner)).toBe(v1 + 1);
    // an update that changes nothing: no bump
    await t.deps.database.db.execute(sql`update properties set sqft = sqft where id = ${p.id}`);
    expect(await dataVersion(t, owner)).toBe(v1 + 1);
    await createPortfolio(t, alice.token, 'X');
    expect(await dataVersion(t, owner)).toBe(v1 + 2);
    const [dirty] = await rows(t, sql`select marked_version::int as v from analytics_dirty_properties where property_id = ${p.id}`);
    expect(dirty?.v).toBe(v1 + 1);
  });

  it('an incremental recompute leaves exactly what a full one computes', async () => {
    const owner = alice.user.id;
    const p = await createProperty(t, alice.token, { name: 'Incremental', sqft: 500 });
    await as(t, alice.token).get('/pm/dashboard/stats').expect(200);
    await postBill(t, alice.token, p.id, { period_start: '2026-09-10', period_end: '2026-10-09', amount: 77.77, usage_kwh: 300 });
    await as(t, alice.token).patch(`/pm/properties/${p.id}`, { sqft: 600 }).expect(200);
    const result = await t.services.analytics.recompute(owner);
    expect(result).toMatchObject({ recomputed: true, scope: [p.id] });
    const incremental = await precomputed(t, owner);
    await t.services.analytics.recompute(owner, { full: true });
    expect(await precomputed(t, owner)).toEqual(incremental);
    // nothing changed since: no work
    expect(await t.services.analytics.recompute(owner)).toMatchObject({ recomputed: false });
  });

  it('metrics written over several statements (batches) and the rows of vanished properties dropped: the same as a full recompute', async () => {
    // An owner of its own: five properties, all changed below, so the last batch (of one) is one of them.
    const carol = await registerUser(t);
    const owner = carol.user.id;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const p = await createProperty(t, carol.token, { name: `Batch ${i}`, sqft: 400 + i * 10 });
      await postBill(t, carol.token, p.id, { period_start: '2026-09-01', period_end: '2026-09-30', amount: 10 + i, usage_kwh: 100 + i });
      ids.push(p.id);
    }
    await t.services.analytics.recompute(owner);
    // Every property changes (raw SQL: the triggers mark them, and no job catches up before the recompute below),
    // and a metrics row is left by a property that is gone (the delete trigger normally removes it).
    const db = t.deps.database.db;
    for (const [i, id] of ids.entries()) {
      const meter = await defaultMeter(db, id, 'electric');
      await db.execute(sql`insert into utility_bills (property_id, meter_id, unit, utility_type, period_start, period_end, amount, usage_kwh)
        values (${id}, ${meter.id}, 'kWh', 'electric', '2026-10-01', '2026-10-31', ${20 + i}, ${200 + i})`);
      await db.execute(sql`update properties set annual_energy_cost = ${1000 + i} where id = ${id}`); // the metrics' annual cost (estimate)
    }
    const version = await dataVersion(t, owner);
    await db.execute(sql`insert into analytics_property_metrics (property_id, owner_id, health_score, health_status, health_issues)
      values ('gone-property', ${owner}, 50, 'warning', '[]'::jsonb)`);
    await db.execute(sql`insert into analytics_dirty_properties (owner_id, property_id, marked_version)
      select ${owner}, id, ${version}::bigint from properties where owner_id = ${owner}
      union all select ${owner}, 'gone-property', ${version}::bigint
      on conflict (owner_id, property_id) do nothing`);
    const batched = createRecomputer({
      db,
      now: () => clock.now,
      logger: createLogger('silent'),
      metricsBatch: 2,
      notifyMany: (list, executor) => t.services.notifications.notifyMany(list, executor),
    });
    const result = await batched.recompute(owner);
    expect(result.recomputed).toBe(true);
    expect(result.scope).toEqual(expect.arrayContaining([...ids, 'gone-property']));
    expect(await rows(t, sql`select 1 from analytics_dirty_properties where owner_id = ${owner}`)).toEqual([]);
    const incremental = await precomputed(t, owner);
    expect(incremental.metrics.map((m) => m.property_id)).not.toContain('gone-property');
    await t.services.analytics.recompute(owner, { full: true });
    expect(await precomputed(t, owner)).toEqual(incremental);
  });

  it('bills mark the months their periods cover, widened by later changes; other changes mark no rollup month', async () => {
    const dave = await registerUser(t);
    const erin = await registerUser(t);
    const owner = dave.user.id;
    const db = t.deps.database.db;
    const p = await createProperty(t, dave.token, { name: 'Marks', sqft: 800 });
    const marks = async (ownerId = owner) =>
      rows(
        t,
        sql`select property_id, rollup_from, rollup_to from analytics_dirty_properties
      where owner_id = ${ownerId} order by property_id`,
      );
    const month = (ym: string) => monthIndexOfDate(ym);
    const clear = () => db.execute(sql`delete from analytics_dirty_properties where owner_id in (${owner}, ${erin.user.id})`);
    // A new property: its metrics only.
    expect(await marks()).toEqual([{ property_id: p.id, rollup_from: null, rollup_to: null }]);
    await clear();
    const meter = await defaultMeter(t.deps.database.db, p.id, 'electric');
    const bill = async (start: string, end: string) =>
      (
        await rows(
          t,
          sql`insert into utility_bills
      (property_id, meter_id, unit, utility_type, period_start, period_end, amount, usage_kwh)
      values (${p.id}, ${meter.id}, 'kWh', 'electric', ${start}::date, ${end}::date, 10, 100) returning id`,
        )
      )[0]!.id as string;
    const sep = await bill('2026-09-10', '2026-10-09');
    expect(await marks()).toEqual([{ property_id: p.id, rollup_from: month('2026-09'), rollup_to: month('2026-10') }]);
    await bill('2026-03-01', '2026-03-31');
    expect(await marks()).toEqual([{ property_id: p.id, rollup_from: month('2026-03'), rollup_to: month('2026-10') }]);
    // An edit of the property, or a rate analysis: the range stays what the bills made it.
    await as(t, dave.token).patch(`/pm/properties/${p.id}`, { sqft: 900 }).expect(200);
    expect(await marks()).toEqual([{ property_id: p.id, rollup_from: month('2026-03'), rollup_to: month('2026-10') }]);
    await clear();
    // An edit of a bill: its old months and its new ones; a delete: its months.
    await db.execute(sql`update utility_bills set period_start = '2025-12-20', period_end = '2026-01-19' where id = ${sep}`);
    expect(await marks()).toEqual([{ property_id: p.id, rollup_from: month('2025-12'), rollup_to: month('2026-10') }]);
    await clear();
    await db.execute(sql`delete from utility_bills where id = ${sep}`);
    expect(await marks()).toEqual([{ property_id: p.id, rollup_from: month('2025-12'), rollup_to: month('2026-01') }]);
    await clear();
    await db.execute(sql`update properties set name = 'Marks renamed' where id = ${p.id}`);
    expect(await marks()).toEqual([{ property_id: p.id, rollup_from: null, rollup_to: null }]);
    await clear();
    // A property that changes owner: every month, for both owners.
    await db.execute(sql`update properties set owner_id = ${erin.user.id}, portfolio_id = null where id = ${p.id}`);
    const all = [{ property_id: p.id, rollup_from: 0, rollup_to: 2147483647 }];
    expect(await marks()).toEqual(all);
    expect(await marks(erin.user.id)).toEqual(all);
  });

  it('an incremental recompute rebuilds only the marked months of a property: the others stay as stored', async () => {
    const frank = await registerUser(t);
    const owner = frank.user.id;
    const db = t.deps.database.db;
    const p = await createProperty(t, frank.token, { name: 'Months', sqft: 500 });
    for (const m of ['2026-06', '2026-07', '2026-08']) {
      const meter = await defaultMeter(db, p.id, 'electric');
      await db.execute(sql`insert into utility_bills (property_id, meter_id, unit, utility_type, period_start, period_end, amount, usage_kwh)
        values (${p.id}, ${meter.id}, 'kWh', 'electric', ${`${m}-01`}::date, (${`${m}-01`}::date + interval '1 month' - interval '1 day')::date, 40, 400)`);
    }
    await t.services.analytics.recompute(owner);
    const june = sql`owner_id = ${owner} and property_id = ${p.id} and month = '2026-06-01'`;
    // A stored June that no bill supports: only a rebuild of June would correct it.
    await db.execute(sql`update analytics_monthly_rollups set cost_cents = 1 where ${june}`);
    const gas = await defaultMeter(db, p.id, 'gas');
    await db.execute(sql`insert into utility_bills (property_id, meter_id, unit, utility_type, period_start, period_end, amount, usage)
      values (${p.id}, ${gas.id}, 'therms', 'gas', '2026-08-01', '2026-08-31', 5, 0)`);
    expect(await t.services.analytics.recompute(owner)).toMatchObject({ recomputed: true, scope: [p.id] });
    const cents = async () =>
      Object.fromEntries(
        (
          await rows(
            t,
            sql`select month::text as m, sum(cost_cents)::int as c from analytics_monthly_rollups
      where owner_id = ${owner} and property_id = ${p.id} group by month order by month`,
          )
        ).map((r) => [r.m, r.c]),
      );
    expect(await cents()).toEqual({ '2026-06-01': 1, '2026-07-01': 4000, '2026-08-01': 4500 });
    await t.services.analytics.recompute(owner, { full: true });
    expect(await cents()).toEqual({ '2026-06-01': 4000, '2026-07-01': 4000, '2026-08-01': 4500 });
  });

  it('incremental recomputes after each of a run of bill inserts, edits and deletes leave what a full one computes', async () => {
    // Periods inside the window, across its first month (2023-12 .. 2026-11, 36 months), wholly before it,
    // overlapping each other and running past the current month; the property moves to another owner midway.
    const gina = await registerUser(t);
    const hank = await registerUser(t);
    const db = t.deps.database.db;
    const props = [
      await createProperty(t, gina.token, { name: 'Oracle A', sqft: 300 }),
      await createProperty(t, gina.token, { name: 'Oracle B', sqft: 0 }),
    ];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const day = (d: number) => new Date(Date.UTC(2023, 0, 1) + d * 86_400_000).toISOString().slice(0, 10);
    const ids: string[] = [];
    const owners = [gina.user.id, hank.user.id];
    const check = async () => {
      for (const owner of owners) {
        await t.services.analytics.recompute(owner);
        const incremental = await precomputed(t, owner);
        await t.services.analytics.recompute(owner, { full: true });
        expect(await precomputed(t, owner)).toEqual(incremental);
      }
    };
    // A year of monthly bills for A (its annual cost is then actual, from the metrics' months) and half a year for B.
    for (let m = 0; m < 18; m++) {
      const first = new Date(Date.UTC(2025, 11 + (m % 12), 1));
      const meter = await defaultMeter(db, props[m < 12 ? 0 : 1]!.id, 'electric');
      const [row] = await rows(
        t,
        sql`insert into utility_bills (property_id, meter_id, unit, utility_type, period_start, period_end, amount, usage_kwh)
        values (${props[m < 12 ? 0 : 1]!.id}, ${meter.id}, 'kWh', 'electric', ${first.toISOString().slice(0, 10)}::date,
          (${first.toISOString().slice(0, 10)}::date + interval '1 month' - interval '1 day')::date, ${50 + m}, ${500 + m}) returning id`,
      );
      ids.push(row!.id as string);
    }
    for (const owner of owners) await t.services.analytics.recompute(owner, { full: true });
    for (let step = 0; step < 30; step++) {
      const op = random(4);
      // half of the periods start in the last 18 months (the metrics' months), the rest anywhere from 2023 on
      const start = step % 2 ? 1414 - 540 + random(560) : random(1500);
      const length = [0, 27, 29, 30, 61, 400][random(6)]!;
      if (op <= 1) {
        // Each bill on a meter of its own: these periods overlap at random, which one meter's bills may not.
        const property = props[random(2)]!.id;
        const meter = await ownMeter(db, property, UTILITY_TYPES[random(5)]!);
        const usage = random(5) ? random(90_000) / 7 : null;
        const kwh = meter.utilityType === 'electric' ? usage : null;
        const [row] = await rows(
          t,
          sql`insert into utility_bills (property_id, meter_id, unit, utility_type, period_start, period_end, amount, usage, usage_kwh)
          values (${property}, ${meter.id}, ${meter.unit}, ${meter.utilityType}, ${day(start)}::date, ${day(start + length)}::date,
            ${(random(100_000) + 1) / 100}, ${usage}, ${kwh}) returning id`,
        );
        ids.push(row!.id as string);
      } else if (op === 2) {
        await db.execute(sql`update utility_bills set period_start = ${day(start)}::date, period_end = ${day(start + length)}::date,
          amount = ${(random(100_000) + 1) / 100} where id = ${ids[random(ids.length)]!}`);
      } else {
        await db.execute(sql`delete from utility_bills where id = ${ids.splice(random(ids.length), 1)[0]!}`);
      }
      if (step === 12)
        await db.execute(sql`update properties set owner_id = ${hank.user.id}, portfolio_id = null where id = ${props[1]!.id}`);
      await check();
    }
    expect(
      await rows(t, sql`select count(*)::int as n from analytics_monthly_rollups where owner_id in (${gina.user.id}, ${hank.user.id})`),
    ).not.toEqual([{ n: 0 }]);
  });

  it('a snapshot at or after the version a caller needs answers it, even after later writes; an older one is recomputed', async () => {
    const owner = alice.user.id;
    const p = await createProperty(t, alice.token, { name: 'AtLeast', sqft: 700 });
    await t.services.analytics.recompute(owner);
    const covered = (await snapshotVersion(t, owner))!;
    expect(covered).toBe(await dataVersion(t, owner));
    // Another write moves the version on: the snapshot still covers what a caller saw before it.
    await postBill(t, alice.token, p.id, { period_start: '2026-08-01', period_end: '2026-08-31', amount: 12.34, usage_kwh: 50 });
    expect(await dataVersion(t, owner)).toBe(covered + 1);
    expect(await t.services.analytics.recompute(owner, { atLeast: covered })).toEqual({
      version: covered,
      month: expect.any(Number),
      recomputed: false,
      scope: [],
    });
    expect(await snapshotVersion(t, owner)).toBe(covered);
    // A caller that saw the newer version gets it computed.
    expect(await t.services.analytics.recompute(owner, { atLeast: covered + 1 })).toMatchObject({
      version: covered + 1,
      recomputed: true,
      scope: [p.id],
    });
    expect(await snapshotVersion(t, owner)).toBe(covered + 1);
  });

  it('two recomputes of one owner at once: one rebuilds, the other waits for its lock and finds the work done', async () => {
    const owner = alice.user.id;
    const p = await createProperty(t, alice.token, { name: 'AtOnce', sqft: 800 });
    await t.services.analytics.recompute(owner);
    await postBill(t, alice.token, p.id, { period_start: '2026-07-01', period_end: '2026-07-31', amount: 45.67, usage_kwh: 300 });
    const version = await dataVersion(t, owner);
    // On PostgreSQL each runs on a connection of its own: the second's read, after the lock, must
    // see what the first committed (a read in the statement that waited would not).
    const results = await Promise.all([t.services.analytics.recompute(owner), t.services.analytics.recompute(owner)]);
    expect(results.map((r) => [r.version, r.recomputed]).sort()).toEqual([
      [version, false],
      [version, true],
    ]);
    expect(await snapshotVersion(t, owner)).toBe(version);
  });

  it('a new month recomputes everything: the windows move', async () => {
    const owner = alice.user.id;
    clock.now = new Date('2026-11-30T23:59:00Z');
    // a token issued now, still valid after midnight
    const login = await request(t.app)
      .post('/api/v1/auth/login')
      .type('form')
      .send({ username: alice.user.email, password: alice.password })
      .expect(200);
    const token = login.body.access_token as string;
    const before = await as(t, token).get('/pm/dashboard/cost-trend?months=1').expect(200);
    expect(before.body.months[0].month).toBe('2026-11');
    clock.now = new Date('2026-12-01T00:00:01Z');
    try {
      const after = await as(t, token).get('/pm/dashboard/cost-trend?months=2').expect(200);
      expect(after.body.months.map((m: { month: string }) => m.month)).toEqual(['2026-11', '2026-12']);
      expect(after.body.months[0]).toEqual(before.body.months[0]);
      const [snap] = await rows(t, sql`select as_of_month::text as m from analytics_owner_snapshots where owner_id = ${owner}`);
      expect(snap?.m).toBe('2026-12-01');
    } finally {
      clock.now = NOW;
    }
  });

  it('deleting a user with properties, bills and a snapshot works (the triggers never block a cascade)', async () => {
    const bob = await registerUser(t);
    const p = await createProperty(t, bob.token);
    await postBill(t, bob.token, p.id, { period_start: '2026-11-01', period_end: '2026-11-30', amount: 5 });
    await as(t, bob.token).get('/pm/properties/health').expect(200);
    await t.deps.database.db.execute(sql`delete from users where id = ${bob.user.id}`);
    expect(await rows(t, sql`select 1 from owner_data_versions where owner_id = ${bob.user.id}`)).toEqual([]);
    expect(await rows(t, sql`select 1 from analytics_monthly_rollups where owner_id = ${bob.user.id}`)).toEqual([]);
  });
});

describe('the cost-rollup queue and its schedules (in-process, or BullMQ when REDIS_URL is set)', () => {
  let t: TestApp;
  let alice: RegisteredTestUser;
  beforeAll(async () => {
    t = await createTestApp({ now: () => NOW, jobs: true });
    alice = await registerUser(t);
  });
  afterAll(() => t.stop());

  it("a write queues the owner's recompute: the snapshot catches up without any read", async () => {
    const p = await createProperty(t, alice.token);
    await postBill(t, alice.token, p.id, { period_start: '2026-11-01', period_end: '2026-11-30', amount: 42 });
    const version = await dataVersion(t, alice.user.id);
    await eventually(async () => expect(await snapshotVersion(t, alice.user.id)).toBe(version));
    const [r] = await rows(
      t,
      sql`select cost_cents::int as c from analytics_monthly_rollups where property_id = ${p.id} and month = '2026-11-01'`,
    );
    expect(r?.c).toBe(4200);
  });

  it("a job queued for an older version is skipped: the newer write's job, behind it, does the work", async () => {
    const owner = alice.user.id;
    const old = await dataVersion(t, owner);
    await createPortfolio(t, alice.token, 'Newer');
    expect(await t.services.analytics.processRollup({ owner_id: owner, version: old })).toBeNull();
    const current = await dataVersion(t, owner);
    await eventually(async () => expect(await snapshotVersion(t, owner)).toBe(current));
  });

  it('the 5-minute schedule queues owners whose data changed; raw SQL writes are caught up without a read', async () => {
    const schedule = appSchedules.find((s) => s.name === 'cost-rollup-changed')!;
    // every 5 minutes, into the sweep queue, which queues the changed owners' cost-rollup jobs
    expect(schedule.cron).toBe('*/5 * * * *');
    expect(schedule.queue).toBe('cost-rollup-sweep');
    expect(schedule.payload(new Date('2026-11-15T12:05:00Z'))).toEqual({ scope: 'changed' });
    const p = await createProperty(t, alice.token, { name: 'Swept' });
    await eventually(async () => expect(await snapshotVersion(t, alice.user.id)).toBe(await dataVersion(t, alice.user.id)));
    // a write no service sees: only the trigger moves the version
    const gas = await defaultMeter(t.deps.database.db, p.id, 'gas');
    await t.deps.database.db
      .execute(sql`insert into utility_bills (property_id, meter_id, unit, utility_type, period_start, period_end, amount)
      values (${p.id}, ${gas.id}, 'therms', 'gas', '2026-10-01', '2026-10-31', 9)`);
    const version = await dataVersion(t, alice.user.id);
    expect(await snapshotVersion(t, alice.user.id)).toBeLessThan(version);
    const tick = await runScheduleTick(t.deps.queue, schedule, new Date('2026-11-15T12:05:00Z'));
    expect(tick).toEqual({ jobId: 'cost-rollup-changed@20261115T1205Z', deduplicated: false });
    expect(await runScheduleTick(t.deps.queue, schedule, new Date('2026-11-15T12:05:30Z'))).toEqual({
      jobId: tick.jobId,
      deduplicated: true,
    });
    await eventually(async () => expect(await snapshotVersion(t, alice.user.id)).toBe(version));
  });

  it("a stored rate analysis (the rate-analysis job) queues the owner's recompute too", async () => {
    await seedTariffs(t.deps.database, [GLADSTONE.C1, GLADSTONE.SP1]);
    const carol = await registerUser(t);
    // Issue 45 replaced 1,000 kWh (SP1 is open from 15,000 kWh a month): at 20,000 kWh C1 costs 20,000 x 0.1217 + 13.54
    // = 2,447.54 and SP1 20,000 x 0.1016 + 18.54 = 2,050.54 a month: SP1 saves 397.00 a month, 4,764.00 a year.
    const p = await createProperty(t, carol.token, { tariff_id: GLADSTONE.C1, monthly_usage_kwh: 20000 });
    // the property's rate-analysis job stores an analysis (moving the version), then queues the recompute
    await eventually(async () => {
      const [a] = await rows(t, sql`select count(*)::int as n from rate_analyses where property_id = ${p.id}`);
      expect(a?.n).toBeGreaterThan(0);
      expect(await snapshotVersion(t, carol.user.id)).toBe(await dataVersion(t, carol.user.id));
      const [m] = await rows(t, sql`select savings_cents::int as s from analytics_property_metrics where property_id = ${p.id}`);
      expect(m?.s).toBe(476400);
    }, 20000);
  });

  it('nightly, every owner is rebuilt from the bills, once per day whatever the number of ticks', async () => {
    const nightly = appSchedules.find((s) => s.name === 'cost-rollup-nightly')!;
    expect(nightly.cron).toBe('20 0 * * *');
    expect(nightly.queue).toBe('cost-rollup-sweep');
    // damage the precomputed data behind the version's back: only a full rebuild repairs it
    await t.deps.database.db.execute(sql`update analytics_monthly_rollups set cost_cents = 0 where owner_id = ${alice.user.id}`);
    const tick = await runScheduleTick(t.deps.queue, nightly, new Date('2026-11-16T00:20:00Z'));
    expect(tick.deduplicated).toBe(false);
    await eventually(async () => {
      const [r] = await rows(t, sql`select sum(cost_cents)::int as c from analytics_monthly_rollups where owner_id = ${alice.user.id}`);
      expect(r?.c).toBe(4200 + 900);
    });
    // the owner's nightly job id is deterministic: the same day queues it once
    const again = await t.deps.queue.enqueue(
      'cost-rollup',
      { owner_id: alice.user.id, full: true },
      { jobId: `cost-rollup.owner.${alice.user.id}.full.20261116` },
    );
    expect(again.deduplicated).toBe(true);
  });
});

describe("writes outside the jobs queue the owner's cost-rollup (every other job a no-op)", () => {
  let t: TestApp;
  const queued: Array<{ jobId: string; payload: { owner_id: string; version?: number; full?: boolean } }> = [];
  beforeAll(async () => {
    const noop = async () => undefined;
    // Only cost-rollup jobs are recorded; the rate-analysis job (which queues a recompute itself) does nothing here.
    const processors = () =>
      ({
        ...Object.fromEntries(Object.keys(appQueues).map((name) => [name, noop])),
        'cost-rollup': async (payload: { owner_id: string; version?: number }, ctx: JobContext) => {
          queued.push({ jobId: ctx.jobId, payload });
        },
      }) as unknown as Processors<AppQueues>;
    t = await createTestApp({ now: () => NOW, processors });
    await seedTariffs(t.deps.database, [GLADSTONE.C1, GLADSTONE.SP1]);
  });
  afterAll(() => t.stop());

  it("POST /pm/properties/{id}/analyze-rates (the synchronous path) queues the owner's job for the version it wrote", async () => {
    const dave = await registerUser(t);
    const owner = dave.user.id;
    const p = await createProperty(t, dave.token, { tariff_id: GLADSTONE.C1, monthly_usage_kwh: 1000 });
    const created = await dataVersion(t, owner);
    // the create's own (debounced) job first, so it cannot be the one that covers the analysis
    await eventually(async () => expect(queued.map((q) => q.payload)).toContainEqual({ owner_id: owner, version: created }));
    const res = await as(t, dave.token).post(`/pm/properties/${p.id}/analyze-rates`).expect(200);
    expect(res.body.property_id).toBe(p.id);
    const analysed = await dataVersion(t, owner);
    expect(analysed).toBe(created + 1);
    await eventually(
      async () =>
        expect(queued).toContainEqual({
          jobId: `cost-rollup.owner.${owner}.v${analysed}`,
          payload: { owner_id: owner, version: analysed },
        }),
      5000,
    );
  });
});
