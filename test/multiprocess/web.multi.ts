/**
 * Two real `web` processes (workers/web.ts) on one PostgreSQL database and one Redis prefix: the
 * daily quota is one counter across them, and one of them restarted under a stream of writes
 * loses nothing and answers no 5xx. Run by `npm run test:multi` (a step of .ci/run).
 */
import { sql } from 'drizzle-orm';
import { GRACE_MS, api, registerUser, sharedServers, startCluster, type Cluster, type RoleProcess } from './processes';
import { errorBody } from '../helpers/error-body';

const servers = sharedServers();
const describeMulti = servers ? describe : describe.skip;

const QUOTA = 10;
const ADMIN_TOKEN = 'multi-admin-token-0123456789';

describeMulti('two web processes on one database and one Redis', () => {
  let cluster: Cluster;
  let webA: RoleProcess;
  let webB: RoleProcess;

  beforeAll(async () => {
    cluster = await startCluster(servers!, { QUOTA_FREE_PER_DAY: String(QUOTA), ADMIN_TOKEN });
    webA = cluster.processes[0];
    webB = await cluster.spawn('web');
  }, 120_000);
  afterAll(async () => {
    await cluster?.tearDown();
  }, 60_000);

  it('a Free user gets exactly the daily quota over A and B together, then 429 from both', async () => {
    const user = await registerUser(webA.url, 'quota');
    const answers = [];
    for (let i = 0; i < QUOTA + 6; i++) {
      const web = i % 2 === 0 ? webA : webB;
      answers.push(await api<{ detail?: string }>(web.url, 'GET', '/api/v1/pm/properties', { token: user.token }));
    }
    expect(answers.map((a) => a.status)).toEqual([...Array(QUOTA).fill(200), ...Array(6).fill(429)]);
    // One counter: each answer, whichever process gave it, counts every request before it.
    expect(answers.map((a) => a.headers.get('ratelimit-remaining'))).toEqual([
      ...Array.from({ length: QUOTA }, (_, i) => String(QUOTA - i - 1)),
      ...Array(6).fill('0'),
    ]);
    for (const a of answers) expect(a.headers.get('ratelimit-limit')).toBe(String(QUOTA));
    for (const a of answers.slice(QUOTA)) {
      expect(a.body).toEqual(errorBody({ detail: 'Daily request quota exceeded' }));
      const retryAfter = Number(a.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(86_400);
      expect(a.headers.get('ratelimit-reset')).toBe(a.headers.get('retry-after'));
    }

    // At once: three times the quota, half to each process; the shared counter admits exactly the quota.
    const burstUser = await registerUser(webB.url, 'burst');
    const burst = await Promise.all(
      Array.from({ length: 3 * QUOTA }, (_, i) =>
        api(i % 2 === 0 ? webA.url : webB.url, 'GET', '/api/v1/pm/properties', { token: burstUser.token }).then((a) => ({
          web: i % 2 === 0 ? 'A' : 'B',
          status: a.status,
        })),
      ),
    );
    expect(burst.filter((b) => b.status === 200)).toHaveLength(QUOTA);
    expect(burst.filter((b) => b.status === 429)).toHaveLength(2 * QUOTA);
    // 15 requests each and only 10 admitted in all: both processes refused some.
    expect(new Set(burst.filter((b) => b.status === 429).map((b) => b.web))).toEqual(new Set(['A', 'B']));
  }, 60_000);

  it('web A restarted (SIGTERM, then started again) under a stream of writes to A and B: no 5xx, every acknowledged write stored once', async () => {
    const user = await registerUser(webA.url, 'roll', 'enterprise', ADMIN_TOKEN);
    const LANES = 4;
    const acked = new Map<string, string>(); // write name -> property id
    const statuses: Record<string, number> = {};
    const served = { A: 0, B: 0, A2: 0 };
    let refusedByA = 0;
    let phase: 'before' | 'stopping' | 'restarted' = 'before';
    let done = false;
    const count = (key: string) => {
      statuses[key] = (statuses[key] ?? 0) + 1;
    };

    /** One write, first to `first`, re-sent to the other process whenever it was not acknowledged for lack of a connection. */
    const write = async (name: string, firstToA: boolean) => {
      for (let attempt = 0; ; attempt++) {
        const toA = attempt % 2 === 0 ? firstToA : !firstToA;
        const phaseAtSend = phase;
        let res;
        try {
          res = await api<{ id: string }>(toA ? webA.url : webB.url, 'POST', '/api/v1/pm/properties', {
            token: user.token,
            body: { name, address: '1 Main St', city: 'Gladstone', state: 'MI', zip_code: '49837', property_type: 'residential' },
          });
        } catch {
          // Connection refused or reset: never acknowledged, so the client sends it again (to the other process).
          count('network');
          if (toA) refusedByA += 1;
          else await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        count(String(res.status));
        if (res.status !== 201) return; // a 5xx (or anything else) is a failure the assertions report
        acked.set(name, res.body.id);
        if (!toA) served.B += 1;
        else if (phaseAtSend === 'restarted') served.A2 += 1;
        else served.A += 1;
        return;
      }
    };

    // Half the lanes alternate between A and B; the other half always try A first, back to back, as a
    // proxy's persistent upstream connections do (busy keep-alive sockets when the SIGTERM comes).
    const lanes = Array.from({ length: LANES }, async (_, lane) => {
      for (let n = 0; !done; n++) await write(`roll-${lane}-${n}`, lane % 2 === 0 || n % 2 === 0);
    });

    const waitFor = async (what: string, cond: () => boolean, ms = 60_000) => {
      const deadline = Date.now() + ms;
      while (!cond()) {
        if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms (${JSON.stringify({ statuses, served })})`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    let stopped: Awaited<ReturnType<RoleProcess['stop']>>;
    try {
      await waitFor('40 writes acknowledged by A', () => served.A >= 40);
      phase = 'stopping';
      // SIGTERM with requests in flight on A's keep-alive connections; SIGKILL only well after the grace period.
      stopped = await webA.stop(GRACE_MS + 10_000);
      const restarted = await cluster.spawn('web', webA.port);
      phase = 'restarted';
      const ackedAtRestart = acked.size;
      await waitFor('restarted A acknowledges writes', () => served.A2 >= 40 && acked.size >= ackedAtRestart + 80);
      webA = restarted;
    } finally {
      done = true;
      await Promise.all(lanes);
    }

    // A stopped by itself, in time, cleanly.
    expect({ code: stopped.code, signal: stopped.signal, withinGrace: stopped.ms < GRACE_MS }).toEqual({
      code: 0,
      signal: null,
      withinGrace: true,
    });
    // No 5xx, nor any other refusal: only acknowledgments and connection errors (re-sent).
    expect(Object.keys(statuses).filter((s) => s !== '201' && s !== 'network')).toEqual([]);
    // The stream really went through the restart: A was refused while down, and both A's served writes.
    expect(refusedByA).toBeGreaterThan(0);
    expect(served.A).toBeGreaterThan(0);
    expect(served.A2).toBeGreaterThan(0);
    expect(served.B).toBeGreaterThan(0);

    // Every acknowledged write is stored, once; nothing is stored that was not acknowledged.
    const rows = await cluster.database.db.execute(sql`select id::text as id, name from properties where owner_id = ${user.id}`);
    const stored = (rows as unknown as { rows: Array<{ id: string; name: string }> }).rows;
    const byName = new Map<string, string[]>();
    for (const r of stored) byName.set(r.name, [...(byName.get(r.name) ?? []), r.id]);
    const missing = [...acked].filter(([name, id]) => !byName.get(name)?.includes(id));
    const twice = [...byName].filter(([, ids]) => ids.length > 1).map(([name]) => name);
    const unacked = [...byName.keys()].filter((name) => !acked.has(name));
    expect({ missing, twice, unacked }).toEqual({ missing: [], twice: [], unacked: [] });
    expect(stored).toHaveLength(acked.size);

    // And both processes read them all back over HTTP.
    for (const web of [webA, webB]) {
      const ids = new Set<string>();
      for (let page = 1; ; page++) {
        const res = await api<{ items: Array<{ id: string }>; pages: number }>(
          web.url,
          'GET',
          `/api/v1/pm/properties?per_page=100&page=${page}`,
          { token: user.token },
        );
        expect(res.status).toBe(200);
        for (const p of res.body.items) ids.add(p.id);
        if (page >= res.body.pages) break;
      }
      expect(ids).toEqual(new Set(acked.values()));
    }
  }, 120_000);
});
