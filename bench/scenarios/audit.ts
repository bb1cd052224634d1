import { Client } from 'pg';
import { Redis } from 'ioredis';
import { queuePrefix } from '../../src/platform/queue';
import { bullQueues } from '../../test/helpers/bull';
import { waitUntil } from '../../test/helpers/eventually';
import { TARGETS, type BenchContext, type CustomScenario, type Scenario } from '../types';
import { workersIdle } from '../idle';
import { sampleCpu, type CpuSample } from '../process-cpu';
import { ANALYTICS_OWNER, analyticsOwner } from './analytics';

/*
 * A full re-audit, on the Procfile roles, as the product runs one: the analytics owner (10,000
 * properties; 144,000 monthly electric bills and 48,000 quarterly water bills, 20,000 meters) has
 * its own electric tariff on every property, every bill audited on it; a version of the tariff is
 * added (POST /tariffs/custom/{id}/versions: the product queues the audit of every meter of the
 * owner with bills on the bill-audit queue, in jobs of 200 meters), and the clock runs from that
 * POST until every meter of the owner has been audited again by the worker (each electric bill
 * re-priced on the new rates, the findings rewritten). Information beside it: the worker's CPU time over that re-audit per bill audited (it
 * also covers the rate analysis and the analytics recomputes the same change queues), and the
 * bill-audit job one bill written to a meter with a year of bills queues, timed on the worker
 * (BullMQ's processedOn to finishedOn: the whole meter, 13 bills, is audited again), 20 times. Those
 * bills are written a year before the others, so they are neither duplicates nor overlaps.
 */

const SINGLE_WRITES = 20;

const allYear = { period: 'all_year', months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], hours: '00:00-24:00', days: 'all' };
const electricTariff = (rates: [number, number], fixed: number) => ({
  name: 'Bench general service (own tariff)',
  utility_name: 'Bench Electric',
  state: 'OH',
  sector: 'commercial',
  utility_type: 'electric',
  unit: 'kWh',
  effective_date: '2020-01-01',
  energy_rates: [
    { ...allYear, tier: 1, tier_max: 500, rate_per_unit: rates[0] },
    { ...allYear, tier: 2, tier_max: null, rate_per_unit: rates[1] },
  ],
  fixed_charges: [{ name: 'Customer charge', amount: fixed, frequency: 'monthly' }],
});

async function withDb<T>(ctx: BenchContext, work: (db: Client) => Promise<T>): Promise<T> {
  const db = new Client({ connectionString: ctx.databaseUrl });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

/** The owner's meters whose stored audit read them after `since` (the database's clock), and the owner's meters in all. */
async function metersAudited(ctx: BenchContext, ownerId: string, since: string): Promise<{ audited: number; meters: number }> {
  return withDb(ctx, async (db) => {
    const { rows } = await db.query<{ audited: string; meters: string }>(
      `select count(*) filter (where ma.read_at > $2) as audited, count(*) as meters
       from meters m join properties p on p.id = m.property_id left join meter_audits ma on ma.meter_id = m.id
       where p.owner_id = $1`,
      [ownerId, since],
    );
    return { audited: Number(rows[0].audited), meters: Number(rows[0].meters) };
  });
}

async function billsOf(ctx: BenchContext, ownerId: string): Promise<number> {
  return withDb(ctx, async (db) =>
    Number(
      (
        await db.query<{ n: string }>(
          'select count(*) as n from utility_bills b join properties p on p.id = b.property_id where p.owner_id = $1',
          [ownerId],
        )
      ).rows[0].n,
    ),
  );
}

/** Electric bills of the owner priced on `tariffId` (their stored audit names it). */
async function billsPricedOn(ctx: BenchContext, ownerId: string, tariffId: string): Promise<number> {
  return withDb(ctx, async (db) =>
    Number(
      (await db.query<{ n: string }>('select count(*) as n from bill_audits where owner_id = $1 and tariff_id = $2', [ownerId, tariffId]))
        .rows[0].n,
    ),
  );
}

const dbNow = (ctx: BenchContext) => withDb(ctx, async (db) => (await db.query<{ now: string }>('select now()::text as now')).rows[0].now);

interface Prepared {
  ownerId: string;
  tariffId: string;
  auth: Record<string, string>;
}
/** The re-audit's worker CPU per bill, measured by the re-audit scenario for the next. */
const perBill = new Map<string, { ms: number; bills: number }>();
const TICK_MS = 10;
const workerMs = (before: CpuSample | null, after: CpuSample | null) => (before && after ? (after.worker - before.worker) * TICK_MS : NaN);
const prepared = new Map<string, Promise<Prepared>>();

/**
 * The owner's tariff on every property (set in the database: 10,000 PATCHes would each queue a
 * rate analysis and an audit), then every meter audited on it (a tolerance change queues them all).
 */
function ownTariffEverywhere(ctx: BenchContext): Promise<Prepared> {
  let p = prepared.get(ctx.url);
  if (!p) {
    p = (async () => {
      const { auth } = await analyticsOwner(ctx);
      const me = await ctx.call<{ id: string }>('GET', '/api/v1/auth/me', undefined, auth);
      const tariff = await ctx.call<{ id: string }>('POST', '/api/v1/tariffs/custom', electricTariff([0.11, 0.14], 12), auth);
      await withDb(ctx, (db) =>
        db.query("update properties set tariff_id = $1 where owner_id = $2 and name like 'Analytics %'", [tariff.id, me.id]),
      );
      const started = Date.now();
      await ctx.call('PATCH', '/api/v1/pm/audit/settings', { tolerance_percent: 3 }, auth);
      await waitUntil(
        'every electric bill priced on the own tariff',
        async () => (await billsPricedOn(ctx, me.id, tariff.id)) >= ANALYTICS_OWNER.electricBills,
        1_200_000,
        1000,
      );
      console.log(
        `[${ctx.mode}] audit: ${ANALYTICS_OWNER.electricBills} electric bills priced on the own tariff in ${((Date.now() - started) / 1000).toFixed(0)} s (set-up)`,
      );
      await workersIdle(ctx.redis, 600_000);
      return { ownerId: me.id, tariffId: tariff.id, auth };
    })();
    prepared.set(ctx.url, p);
  }
  return p;
}

const reAudit: CustomScenario = {
  kind: 'custom',
  name:
    `bill audit: full re-audit of the analytics owner's ${ANALYTICS_OWNER.bills.toLocaleString('en-US')} bills ` +
    `(${ANALYTICS_OWNER.properties.toLocaleString('en-US')} properties; ${ANALYTICS_OWNER.electricBills.toLocaleString('en-US')} electric bills re-priced) after a version of their tariff is added`,
  perMode: true,
  modes: ['postgres'],
  run: async (ctx) => {
    if (!ctx?.databaseUrl || !ctx.redis) throw new Error('needs the Procfile roles (PostgreSQL and Redis)');
    const { ownerId, tariffId, auth } = await ownTariffEverywhere(ctx);
    const since = await dbNow(ctx);
    const cpuBefore = sampleCpu();
    const started = performance.now();
    const { energy_rates, fixed_charges } = electricTariff([0.115, 0.147], 12.5);
    await ctx.call(
      'POST',
      `/api/v1/tariffs/custom/${tariffId}/versions`,
      { effective_date: '2021-01-01', energy_rates, fixed_charges },
      auth,
    );
    let last = { audited: 0, meters: 0 };
    await waitUntil(
      'every meter audited again',
      async () => {
        last = await metersAudited(ctx, ownerId, since);
        return last.audited === last.meters;
      },
      600_000,
      250,
    );
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const bills = await billsOf(ctx, ownerId);
    perBill.set(ctx.url, { ms: workerMs(cpuBefore, sampleCpu()) / bills, bills });
    return {
      value: seconds,
      unit: `s (${last.meters.toLocaleString('en-US')} meters, ${bills.toLocaleString('en-US')} bills audited; from the POST of the version to the last meter's audit stored)`,
      target: `< ${TARGETS.fullReAuditS / 60} min, ${ANALYTICS_OWNER.bills.toLocaleString('en-US')} bills`,
      met: seconds < TARGETS.fullReAuditS && bills >= ANALYTICS_OWNER.bills,
    };
  },
};

const workerTimePerBill: CustomScenario = {
  kind: 'custom',
  name: "bill audit: worker time per bill audited (the worker process's CPU time over the re-audit above, per bill)",
  perMode: true,
  modes: ['postgres'],
  run: async (ctx) => {
    const measured = ctx ? perBill.get(ctx.url) : undefined;
    if (!measured || !Number.isFinite(measured.ms)) return { value: 0, unit: 'ms: not measured (needs the re-audit above and /proc)' };
    const ms = Math.round(measured.ms * 1000) / 1000;
    return { value: ms, unit: `ms of worker CPU per bill (${measured.bills.toLocaleString('en-US')} bills)` };
  },
};

const singleBill: CustomScenario = {
  kind: 'custom',
  name: "bill audit: one bill written to a meter with a year of bills, its audit job on the worker (the meter's 13 bills re-priced and stored)",
  perMode: true,
  modes: ['postgres'],
  run: async (ctx) => {
    if (!ctx?.databaseUrl || !ctx.redis) throw new Error('needs the Procfile roles (PostgreSQL and Redis)');
    const { ownerId, auth } = await ownTariffEverywhere(ctx);
    await workersIdle(ctx.redis, 600_000);
    // Properties with a year of monthly electric bills (the long-history ones have three).
    const properties = await withDb(
      ctx,
      async (db) =>
        (
          await db.query<{ id: string; meter_id: string }>(
            `select p.id, m.id as meter_id from properties p join meters m on m.property_id = p.id and m.utility_type = 'electric'
       where p.owner_id = $1 and (select count(*) from utility_bills b where b.meter_id = m.id) = 12 order by p.id limit $2`,
            [ownerId, SINGLE_WRITES],
          )
        ).rows,
    );
    const connection = new Redis(ctx.redis.url, { maxRetriesPerRequest: null });
    const queue = bullQueues(connection, queuePrefix(ctx.redis.keyPrefix)).get('bill-audit')!;
    const times: number[] = [];
    try {
      for (const p of properties) {
        await ctx.call(
          'POST',
          `/api/v1/pm/properties/${p.id}/bills`,
          {
            utility_type: 'electric',
            meter_id: p.meter_id,
            period_start: '2019-01-15',
            period_end: '2019-02-14',
            amount: 131.4,
            usage: 980,
            unit: 'kWh',
          },
          auth,
        );
        let ms: number | null = null;
        await waitUntil(
          'the bill audited',
          async () => {
            const done = await queue.getJobs(['completed'], 0, 50);
            const job = done.find((j) => (j.data as { payload?: { meter_id?: string } }).payload?.meter_id === p.meter_id);
            if (!job?.finishedOn || !job.processedOn) return false;
            ms = job.finishedOn - job.processedOn;
            return true;
          },
          60_000,
          20,
        );
        times.push(ms!);
        // The write's analytics recompute is queued a second later (debounced): it runs before the next write.
        await new Promise((r) => setTimeout(r, 1500));
        await workersIdle(ctx.redis, 60_000);
      }
    } finally {
      await queue.close();
      connection.disconnect();
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    return {
      value: median,
      unit: `ms median wall time of the job (p90 ${times[Math.floor(times.length * 0.9)]} ms; ${times.length} bills written)`,
    };
  },
};

export const auditScenarios: Scenario[] = [reAudit, workerTimePerBill, singleBill];
