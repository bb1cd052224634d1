/**
 * Two real `worker` processes (workers/worker.ts), two `web` processes and a `scheduler` on one
 * PostgreSQL database and one Redis prefix: jobs queued through both web processes are each run
 * once, in order per key, by both workers; a worker SIGTERMed in the middle of a long job finishes
 * it (or hands it back) and exits within its grace period, losing nothing. Run by
 * `npm run test:multi` (a step of .ci/run).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Queue } from 'bullmq';
import { FakePmsProvider, fakeUnit } from '../helpers/fake-pms';
import { linkThroughProvider } from '../helpers/pms-link';
import { waitUntil } from '../helpers/eventually';
import { readSystemState, writeSystemState } from '../../src/platform/db/system-state';
import { REFERENCE_IMPORT_KEY } from '../../src/modules/tariffs/importer';
import {
  checkState,
  linkConnections,
  makeStream,
  overtakeSomeUpdates,
  readState,
  sendStreams,
  waitForApplied,
  type SendReport,
} from '../faults/stream';
import {
  GRACE_MS,
  apiOk,
  jobRecords,
  orderingLeftovers,
  registerUser,
  sharedServers,
  startAllRoles,
  startCluster,
  stopCluster,
  waitForDrain,
  type Cluster,
  type JobRecord,
  type RoleProcess,
} from './processes';

const servers = sharedServers();
const describeMulti = servers ? describe : describe.skip;

/** Rate-analysis properties, and pricing writes to each after its creation (each queues one job; at most 9 in all, since 10 analyses are kept). */
const PROPERTIES = 10;
const ROUNDS = 5;
/** Webhook streams: connections x events (some overtaking the next, so logged stale). */
const CONNECTIONS = 6;
const PER_CONNECTION = 40;

/** Queues fed by the scheduler's cron ticks. */
const SCHEDULED = new Set(['webhook-sweep', 'cost-rollup-sweep', 'tariff-import-sweep']);

interface Property {
  id: string;
  updated_at: string;
}

describeMulti('two workers, two web processes and a scheduler on one database and one Redis', () => {
  let cluster: Cluster;
  let webs: RoleProcess[];
  let workers: RoleProcess[];
  let queues: Map<string, Queue>;
  let provider: FakePmsProvider;

  const rows = async <T>(query: SQL): Promise<T[]> => ((await cluster.database.db.execute(query)) as unknown as { rows: T[] }).rows;

  /** Every owner's precomputed analytics are at its data version: the last cost-rollup queued for its last write ran. */
  const analyticsCurrent = async (ownerIds: string[]) => {
    const behind = await rows<{ owner_id: string }>(sql`
      select v.owner_id from owner_data_versions v left join analytics_owner_snapshots s on s.owner_id = v.owner_id
      where v.owner_id in (${sql.join(
        ownerIds.map((id) => sql`${id}`),
        sql`, `,
      )}) and s.data_version is distinct from v.version`);
    return behind.length === 0;
  };

  /** Jobs failed, or still unfinished after the drain (a scheduler tick's job that just came in aside). */
  const unsettled = (records: JobRecord[]) =>
    records
      .filter((r) => r.state === 'failed' || (r.state !== 'completed' && !SCHEDULED.has(r.queue)))
      .map((r) => `${r.queue}/${r.id}: ${r.state} ${r.failedReason ?? ''}`);

  const byWorker = (records: JobRecord[]) => {
    const out: Record<string, number> = {};
    for (const r of records) out[r.processedBy ?? '(none)'] = (out[r.processedBy ?? '(none)'] ?? 0) + 1;
    return out;
  };

  beforeAll(async () => {
    provider = new FakePmsProvider();
    const pmsUrl = await provider.start();
    cluster = await startCluster(servers!, { PMS_API_URL: pmsUrl, PMS_API_KEY: 'multi-pms-key' });
    // The scheduler's tariff-import sweep (every 5 minutes) would queue a re-analysis of every owner,
    // which stores analyses of its own: the bundled import the first web process loaded is marked swept.
    const imported = await readSystemState(cluster.database.db, REFERENCE_IMPORT_KEY);
    if (!imported) throw new Error('the first web process loaded no reference data');
    await writeSystemState(cluster.database.db, 'rate_analysis_import_sweep', String(imported.updatedAt.getTime()), new Date());
    ({ webs, workers, queues } = await startAllRoles(cluster));
  }, 120_000);

  afterAll(async () => {
    await stopCluster(cluster, queues);
    await provider?.stop();
  }, 60_000);

  it('both workers drain rate analyses, cost rollups and webhook events queued over both web processes: every job once, every key in order', async () => {
    const owner = await registerUser(webs[0].url, 'ra');
    const auth = { token: owner.token };
    const body = (i: number, usage: number) => ({
      // Marquette, not Gladstone: Gladstone's commercial record prices below half its utility's average rate (issue 45's
      // plausibility check), so a property there without a tariff gets no analysis to count.
      name: `RA ${i}`,
      address: '1 Main St',
      city: 'Marquette',
      state: 'MI',
      zip_code: '49855',
      property_type: 'commercial',
      sqft: 5000,
      monthly_usage_kwh: usage,
    });
    /** The updated_at of each pricing write per property: each names one rate-analysis job (its id ends with it). */
    const versions = new Map<string, number[]>();
    const wrote = (p: Property) => versions.set(p.id, [...(versions.get(p.id) ?? []), Date.parse(p.updated_at)]);
    const properties = await Promise.all(
      Array.from({ length: PROPERTIES }, async (_, i) => {
        const p = await apiOk<Property>(webs[i % 2].url, 'POST', '/api/v1/pm/properties', 201, { ...auth, body: body(i, 1000 + i) });
        wrote(p);
        return p;
      }),
    );

    // Webhook streams; their properties' first imports (empty: the fake provider has no units for them) are done before any event.
    const connections = await linkConnections(webs[1], 'mpw', CONNECTIONS, provider);
    await waitUntil(
      'first PMS imports',
      async () =>
        (await rows(sql`select 1 from pms_property_links where connection_id like 'mpw-%' and last_synced_at is null`)).length === 0,
    );
    const original = makeStream(connections, PER_CONNECTION);
    const { streams, stale } = overtakeSomeUpdates(original);

    // A backlog, so that order per key is really at stake: both workers are frozen (SIGSTOP) while the jobs are
    // queued, each property's re-analyses one after the other (its jobs next to each other in the queue, where
    // free slots of both workers would take several at once), then both resume and drain it together.
    await waitForDrain(queues, 60_000);
    for (const w of workers) w.pause();
    let report: SendReport | undefined;
    try {
      // Usage changes queue a rate analysis each; bills and usage changes queue cost rollups; the web process
      // alternates per write, and the webhook events go to A and B in turn.
      const reanalyses = (async () => {
        for (const [i, p] of properties.entries()) {
          for (let round = 1; round <= ROUNDS; round++) {
            wrote(
              await apiOk<Property>(webs[(i + round) % 2].url, 'PATCH', `/api/v1/pm/properties/${p.id}`, 200, {
                ...auth,
                body: { monthly_usage_kwh: 1000 + i + 100 * round },
              }),
            );
          }
        }
      })();
      const bills = Promise.all(
        properties.map(async (p, i) => {
          for (let round = 1; round <= ROUNDS; round++) {
            const month = String(round).padStart(2, '0');
            await apiOk(webs[(i + round + 1) % 2].url, 'POST', `/api/v1/pm/properties/${p.id}/bills`, 201, {
              ...auth,
              body: {
                utility_type: 'electric',
                period_start: `2025-${month}-01`,
                period_end: `2025-${month}-28`,
                amount: 100 + round,
                usage_kwh: 900,
              },
            });
          }
        }),
      );
      report = await sendStreams(
        webs.map((w) => w.url),
        streams,
        () => undefined,
      );
      await Promise.all([reanalyses, bills]);
    } finally {
      for (const w of workers) w.resume();
    }
    expect(report!.statuses).toEqual({ 200: CONNECTIONS * PER_CONNECTION });

    const linkOwner = (
      await rows<{ owner_id: string }>(
        sql`select distinct p.owner_id from properties p join pms_property_links l on l.property_id = p.id where l.connection_id like 'mpw-%'`,
      )
    )[0].owner_id;
    await waitForApplied({ deps: { database: cluster.database } }, 'mpw', CONNECTIONS * PER_CONNECTION, 60_000);
    await waitForDrain(queues, 60_000, () => analyticsCurrent([owner.id, linkOwner]));

    // Webhooks: every event applied once, each connection's in order, the overtaken ones logged stale.
    checkState((await readState({ deps: { database: cluster.database } }, 'mpw'))!, streams, { original, stale });

    const records = await jobRecords(queues);
    // Nothing failed, nothing left over, no job ever taken back from a worker that lost it (a second run).
    expect(unsettled(records)).toEqual([]);
    expect(records.filter((r) => r.stalledCounter > 0).map((r) => `${r.queue}/${r.id}`)).toEqual([]);

    // Rate analyses: one job per pricing write, each run once (one stored analysis per job), each property's in order.
    const analyses = new Map(
      (
        await rows<{ property_id: string; n: number }>(sql`
      select property_id, count(*)::int as n from rate_analyses where owner_id = ${owner.id} group by property_id`)
      ).map((r) => [r.property_id, r.n]),
    );
    const problems: string[] = [];
    for (const p of properties) {
      const expected = [...new Set(versions.get(p.id))].sort((a, b) => a - b).map((v) => `rate-analysis.property.${p.id}.${v}`);
      const jobs = records.filter((r) => r.queue === 'rate-analysis' && r.orderingKey === `rate-analysis.property.${p.id}`);
      const ran = jobs.map((j) => j.id).sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop()));
      if (JSON.stringify(ran) !== JSON.stringify(expected))
        problems.push(`${p.id}: jobs ${JSON.stringify(ran)}, expected ${JSON.stringify(expected)}`);
      if (analyses.get(p.id) !== expected.length)
        problems.push(`${p.id}: ${analyses.get(p.id) ?? 0} analyses stored for ${expected.length} jobs`);
      // A job of the key starts (its last activation, the one that took the key's turn) only after the previous one's.
      const byId = new Map(jobs.map((j) => [j.id, j]));
      for (let k = 1; k < expected.length; k++) {
        const [before, after] = [byId.get(expected[k - 1]), byId.get(expected[k])];
        if (before && after && after.processedOn! < before.processedOn!) problems.push(`${p.id}: ${after.id} started before ${before.id}`);
      }
    }
    // Runs of one key never overlap: each job stores its analysis (computed at analyzed_at, in the worker)
    // before the next job of the property starts computing, so the rows' analyzed_at order is the order in
    // which their transactions wrote (xmin); two runs at once may store theirs the other way round.
    const stored = await rows<{ property_id: string; analyzed_at: string; tx: string }>(sql`
      select property_id, analyzed_at::text as analyzed_at, xmin::text as tx from rate_analyses where owner_id = ${owner.id}
      order by property_id, analyzed_at, xmin::text::bigint`);
    for (let i = 1; i < stored.length; i++) {
      const [a, b] = [stored[i - 1], stored[i]];
      if (a.property_id === b.property_id && Number(b.tx) < Number(a.tx))
        problems.push(`${a.property_id}: analysis of ${b.analyzed_at} stored before that of ${a.analyzed_at}`);
    }
    expect(problems).toEqual([]);
    // Cost rollups ran for the owner (the drain waited for its precomputed analytics to reach its data version).
    const rollups = records.filter((r) => r.queue === 'cost-rollup');
    expect(rollups.filter((r) => r.orderingKey === `cost-rollup.owner.${owner.id}`).length).toBeGreaterThan(0);

    // Both worker processes took jobs, and nothing else did.
    const names = workers.map((w) => w.workerName);
    const ran = byWorker(records);
    expect(Object.keys(ran).filter((n) => !names.includes(n))).toEqual([]);
    for (const n of names) expect(ran[n] ?? 0).toBeGreaterThan(0);
    expect(byWorker(records.filter((r) => r.queue === 'rate-analysis'))).toEqual({
      [names[0]]: expect.any(Number),
      [names[1]]: expect.any(Number),
    });
    // And the ordering store let go of every key (no list, no lock left).
    expect(await orderingLeftovers(cluster.redis, cluster.bullPrefix)).toEqual([]);
  }, 120_000);

  it('a worker SIGTERMed while it runs a long PMS import finishes it (or hands it back) and exits within its grace period; no job lost, failed or left active', async () => {
    const owner = await registerUser(webs[0].url, 'slow');
    const auth = { token: owner.token };
    const property = await apiOk<Property>(webs[0].url, 'POST', '/api/v1/pm/properties', 201, {
      ...auth,
      body: { name: 'Slow', address: '1 Main St', city: 'Gladstone', state: 'MI', zip_code: '49837', property_type: 'residential' },
    });
    const others = await Promise.all(
      [0, 1, 2].map((i) =>
        apiOk<Property>(webs[i % 2].url, 'POST', '/api/v1/pm/properties', 201, {
          ...auth,
          body: {
            name: `Other ${i}`,
            address: '2 Main St',
            city: 'Marquette',
            state: 'MI',
            zip_code: '49855',
            property_type: 'commercial',
            monthly_usage_kwh: 2000,
          },
        }),
      ),
    );

    // The provider holds the import's first page until released, then answers each of its 3 pages 300 ms late.
    const CONNECTION = 'mps-slow';
    const units = Array.from({ length: 120 }, (_, i) => fakeUnit(i, 'SP1'));
    let fetches = 0;
    let arrived!: () => void;
    const firstFetch = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    provider.behaviour = (req, res) => {
      if (req.query.connection_id !== CONNECTION) return false;
      fetches += 1;
      arrived();
      void released.then(() =>
        setTimeout(() => {
          const page = Number(req.query.page ?? '1');
          const data = units.slice((page - 1) * 50, page * 50);
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ data, meta: { page, next_page: page * 50 < units.length ? page + 1 : null } }));
        }, 300),
      );
      return true;
    };

    try {
      // Quiet queues first, so that the import is the only job running when the SIGTERM comes.
      await waitForDrain(queues, 60_000, () => analyticsCurrent([owner.id]));
      await linkThroughProvider(
        (method, path, body) => apiOk(webs[1].url, method, path, method === 'POST' ? 201 : 200, { ...auth, body }),
        provider,
        property.id,
        { connection_id: CONNECTION, pms_property_id: 'SP1' },
      );
      await withTimeout(firstFetch, 30_000, 'the PMS import never called the provider');
      const [active] = (await jobRecords(queues)).filter(
        (r) => r.queue === 'pms-sync' && r.state === 'active' && (r.payload as { property_id: string }).property_id === property.id,
      );
      expect(active).toBeDefined();
      const victim = workers.find((w) => w.workerName === active.processedBy)!;
      const survivor = workers.find((w) => w !== victim)!;
      expect(victim).toBeDefined();

      const sigterm = Date.now();
      const stopping = victim.stop(GRACE_MS + 10_000);
      // Work queued while it shuts down (rate analyses and rollups through both web processes) goes to the other worker.
      await Promise.all(
        others.map((p, i) =>
          apiOk(webs[i % 2].url, 'PATCH', `/api/v1/pm/properties/${p.id}`, 200, { ...auth, body: { monthly_usage_kwh: 2500 + i } }),
        ),
      );
      await new Promise((r) => setTimeout(r, 1500));
      const waitedForItsJob = victim.alive();
      release();
      const stopped = await stopping;
      expect({ code: stopped.code, signal: stopped.signal, withinGrace: stopped.ms < GRACE_MS }).toEqual({
        code: 0,
        signal: null,
        withinGrace: true,
      });

      await waitForDrain(queues, 60_000, () => analyticsCurrent([owner.id]));
      const records = await jobRecords(queues);
      expect(unsettled(records)).toEqual([]);
      expect(await orderingLeftovers(cluster.redis, cluster.bullPrefix)).toEqual([]);

      // The import: finished by the worker that had it (it waited for it before exiting), or handed back and run by the other.
      const sync = records.find((r) => r.id === active.id && r.queue === 'pms-sync')!;
      expect(sync.state).toBe('completed');
      // One attempt: it never failed (a run cut short by the shutdown, retried, would count two).
      expect(sync.attemptsMade).toBe(1);
      if (sync.processedBy === victim.workerName) {
        expect({ waitedForItsJob, fetches }).toEqual({ waitedForItsJob: true, fetches: 3 });
        expect(sync.finishedOn!).toBeLessThanOrEqual(sigterm + stopped.ms);
      } else {
        expect(sync.processedBy).toBe(survivor.workerName);
        expect(fetches).toBeGreaterThan(3);
      }
      const imported = await apiOk<{ total: number }>(
        webs[0].url,
        'GET',
        `/api/v1/pm/properties/${property.id}/units?per_page=100`,
        200,
        auth,
      );
      expect(imported.total).toBe(units.length);

      // Nothing queued after the SIGTERM went to the stopping worker (the scheduler's ticks aside: one may
      // have been taken in the few milliseconds before the signal arrived).
      const late = records.filter((r) => !SCHEDULED.has(r.queue) && r.processedOn! > sigterm && r.id !== active.id);
      expect(late.length).toBeGreaterThan(0);
      expect(byWorker(late)).toEqual({ [survivor.workerName]: late.length });
      // Every re-analysis queued after it ran (one stored analysis each, besides the one of the creation).
      const analyses = await rows<{ n: number }>(sql`select count(*)::int as n from rate_analyses where owner_id = ${owner.id}`);
      expect(analyses[0].n).toBe(2 * others.length);
    } finally {
      release?.();
      provider.behaviour = undefined;
    }
  }, 120_000);

  async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        p,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(what)), ms);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
});
