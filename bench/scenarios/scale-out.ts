import fs from 'node:fs';
import os from 'node:os';
import type { IncomingHttpHeaders } from 'node:http';
import type { Client } from 'pg';
import type { BenchContext, CustomScenario, Scenario } from '../types';
import { serverAt, startWebBeside, type BenchProcess } from '../server';
import { loadMix, loadMixSplit, percentileOf, type MixRequest, type MixResult } from '../load';
import { cpuPer, sampleCpu } from '../process-cpu';
import { createCpuCap, type CpuCap } from '../cpu-cap';
import { newUser, seedProperties } from './seed';
import { inbox, linkedProperties, sign, unitEvent, withStack } from './webhooks';
import type { FakePmsProvider } from '../../test/helpers/fake-pms';
import { waitUntil } from '../../test/helpers/eventually';
import { freePort } from '../../test/helpers/net';

/*
 * Scaling the web role out, on the Procfile roles (web, worker, scheduler on PostgreSQL and
 * Redis), as information: mixed traffic at the rate one web process sustains (R), split over two
 * web processes, against one process at half that rate.
 *
 * The mix, a fixed cycle of 20 requests (request k of a load run, or of one process's share, is MIX[k % 20]):
 *   40 % reads: GET /tariffs/search?zip_code=..&sector=commercial (3), GET /pm/properties (3),
 *               GET /pm/dashboard/stats (2);
 *   25 % calculations: POST /calculate (5), tariffs found by the search, usage varying;
 *   20 % writes: POST /pm/properties/{id}/bills (3, each a new utility_type and month of a
 *               property, so never a 409), POST /pm/properties (1);
 *   15 % webhooks: signed POST /api/webhooks/pms (3), a unit update of a PMS-linked property,
 *               each body unique (its timestamp), so each is a new event the worker applies.
 * The account-bound requests rotate over ACCOUNTS users (a property manager's dashboard, list and
 * writes), so reads see their own users' writes (the dashboard recomputes what changed).
 *
 * Each web process stands in for a machine of its own: it runs under a CPU cap of WEB_CORES (a
 * cgroup, bench/cpu-cap.ts), so PostgreSQL, Redis, the worker and the load generator keep the
 * rest of the machine. Uncapped on a 2-core machine, two web processes at R leave PostgreSQL and
 * the load generator short of CPU, and the figure would measure the machine's cores rather than
 * what splitting the traffic costs (the shared database, Redis and the per-owner locks). The log
 * gives how busy the machine and each role were in every run, so a run on a saturated machine
 * shows it. Where no cgroup can be written the run is uncapped and says so.
 *
 * Measurement (one load generator, bench/load.ts loadMix, node:http keep-alive). A request's latency
 * includes any pause of the load generator's own event loop (the log gives its CPU per request).
 *
 *   R: closed loop, 10 connections, RATE_SECONDS after a warm-up (JIT_WARMUP_SECONDS), on the one web process.
 *   p99_one: open loop at R/2 (evenly spaced, latency from when each request was due), one process,
 *            measured before and again after the two-process run (the data grows over the runs:
 *            bills, events), the p99 of both runs' latencies together.
 *   diagnostic: one process offered R itself, open loop: when its p99 is as bad as two processes',
 *            R is the machine's limit, not the web process's.
 *   p99_two: a second web process started with the same environment (warmed up alone first); one
 *            open-loop stream at R dealt over the two as a load balancer would (R/2 at each,
 *            SPLIT below); the worse of the two processes' p99 (the combined one is reported too).
 * The log also gives per-kind latencies, CPU ms per request of each role and how busy the machine was.
 */

const ACCOUNTS = 4;
const PROPERTIES_PER_ACCOUNT = 25;
const ONBOARDING_ACCOUNTS = 2;
const LINKED_PROPERTIES = 10;
const ZIP = '49837'; // Gladstone, MI: flat and demand commercial tariffs
const WARMUP_SECONDS = 2;
const RATE_SECONDS = 5;
/** Each open-loop window: long enough for a p99 of several thousand requests. */
const PACED_SECONDS = 20;
const AT_R_SECONDS = 5;
const CLOSED_CONNECTIONS = 10;
/** Sockets per process for the open loop: enough that a rate the server keeps up with is never held back by the client. */
const OPEN_CONNECTIONS = 64;
/** Each web process's CPU budget, in cores. */
const WEB_CORES = 0.4;
/**
 * Closed-loop mix a web process serves before anything is measured on it: enough for V8 to have
 * optimised the request paths, so the first process (warm in a full bench run, cold when the
 * scenario runs alone) and the second (always new) are measured alike.
 */
const JIT_WARMUP_SECONDS = 10;
/** CPU (cores) used by processes other than the run's own above which the figures are reported as disturbed. */
const OTHER_LOAD_CORES = 0.25;

type Kind = 'search' | 'list' | 'stats' | 'calculate' | 'bill' | 'property' | 'webhook';
const MIX: Kind[] = [
  'search', 'calculate', 'list', 'bill', 'webhook', 'stats', 'calculate', 'search', 'bill', 'list',
  'calculate', 'webhook', 'search', 'property', 'stats', 'calculate', 'list', 'bill', 'webhook', 'calculate',
];
const UTILITY_TYPES = ['electric', 'gas', 'water', 'sewer', 'trash'];

/**
 * How the two-process run deals its one stream (request k goes to process SPLIT(k)): alternately,
 * as a round-robin balancer does, the pairs swapped at every cycle of MIX, so each process gets
 * the whole mix (every other request of MIX has one parity). Two streams of their own at R/2,
 * started together, would send both processes the same kind of request of the same account at the
 * same instant throughout (both dashboards of one owner recomputing at once), a lockstep no
 * balancer makes.
 */
const SPLIT = (k: number) => (k + Math.floor(k / MIX.length)) % 2;

interface Traffic {
  accounts: Array<{ auth: Record<string, string>; propertyIds: string[] }>;
  /** Where the new properties go: users no read of the mix looks at, so the portfolios read do not grow over the runs. */
  onboarding: Array<Record<string, string>>;
  tariffIds: string[];
  connectionPrefix: string;
}

/**
 * Users with properties (half priced), users that onboard new properties, tariff ids from a
 * search, PMS-linked properties for the webhooks.
 */
async function prepare(ctx: BenchContext, db: Client, provider: FakePmsProvider): Promise<Traffic> {
  const { items } = await ctx.call<{ items: Array<{ id: string }> }>('GET', `/api/v1/tariffs/search?zip_code=${ZIP}&sector=commercial&per_page=20`);
  const tariffIds: string[] = [];
  for (const { id } of items) {
    try {
      await ctx.call('POST', '/api/v1/calculate', { tariff_id: id, usage_kwh: 1000, demand_kw: 10, month: 1 });
      tariffIds.push(id);
    } catch {
      // not priceable with this usage: left out of the mix
    }
    if (tariffIds.length === 5) break;
  }
  if (tariffIds.length === 0) throw new Error(`no tariff of ZIP ${ZIP} prices`);
  const accounts: Traffic['accounts'] = [];
  for (let a = 0; a < ACCOUNTS; a++) {
    const { auth } = await newUser(ctx, `scale${a}`);
    const propertyIds = await seedProperties(ctx, auth, PROPERTIES_PER_ACCOUNT, (i) => ({
      name: `Scale ${a}-${i}`, address: `${i} Main St`, city: 'Gladstone', state: 'MI', zip_code: ZIP,
      property_type: 'commercial', sqft: 5000 + i * 100, unit_count: 1 + (i % 10),
      ...(i % 2 ? {} : { tariff_id: tariffIds[i % tariffIds.length], monthly_usage_kwh: 2000 + i * 150, monthly_demand_kw: 15 }),
    }));
    accounts.push({ auth, propertyIds });
  }
  const onboarding: Traffic['onboarding'] = [];
  for (let a = 0; a < ONBOARDING_ACCOUNTS; a++) onboarding.push((await newUser(ctx, `scalenew${a}`)).auth);
  const connectionPrefix = `scale${Date.now().toString(36)}-`;
  await linkedProperties(ctx, db, provider, connectionPrefix, LINKED_PROPERTIES);
  return { accounts, onboarding, tariffIds, connectionPrefix };
}

/**
 * The k-th request of one load run (each run, and each process's share, cycles through MIX on its
 * own); `i` counts requests over the whole scenario, so every write and event is new.
 */
function mixer(traffic: Traffic): (k: number) => MixRequest {
  let n = 0;
  let bills = 0;
  const base = Date.now();
  const now = new Date();
  const lastMonth = now.getUTCFullYear() * 12 + now.getUTCMonth() - 1;
  return (k) => {
    const i = n++;
    const kind = MIX[k % MIX.length];
    const account = traffic.accounts[Math.floor(k / MIX.length) % traffic.accounts.length];
    const { auth } = account;
    const json = (body: object) => JSON.stringify(body);
    switch (kind) {
      case 'search':
        return { kind, path: `/api/v1/tariffs/search?zip_code=${ZIP}&sector=commercial&page=${1 + (i % 2)}` };
      case 'list':
        return { kind, path: `/api/v1/pm/properties?page=1&per_page=20`, headers: auth };
      case 'stats':
        return { kind, path: '/api/v1/pm/dashboard/stats', headers: auth };
      case 'calculate':
        return {
          kind, path: '/api/v1/calculate', method: 'POST',
          body: json({ tariff_id: traffic.tariffIds[i % traffic.tariffIds.length], usage_kwh: 1000 + (i % 997) * 25, demand_kw: 10 + (i % 40), month: 1 + (i % 12) }),
        };
      case 'bill': {
        // Bill b goes to property b % P of its account, as a utility type and month that property has not had yet:
        // last month's five types first, then the month before, and so on (the dashboards' window is the recent months).
        const b = bills++;
        const props = account.propertyIds;
        const m = Math.floor(b / props.length);
        const month = lastMonth - Math.floor(m / UTILITY_TYPES.length);
        const y = Math.floor(month / 12);
        const mm = String((month % 12) + 1).padStart(2, '0');
        return {
          kind, path: `/api/v1/pm/properties/${props[b % props.length]}/bills`, method: 'POST', headers: auth,
          body: json({ utility_type: UTILITY_TYPES[m % UTILITY_TYPES.length], period_start: `${y}-${mm}-01`, period_end: `${y}-${mm}-28`,
            amount: (10_000 + (b % 5000)) / 100, usage: 800 + (b % 400) }),
        };
      }
      case 'property':
        return {
          kind, path: '/api/v1/pm/properties', method: 'POST', headers: traffic.onboarding[i % traffic.onboarding.length],
          body: json({ name: `Scale new ${i}`, address: `${i} Oak St`, city: 'Gladstone', state: 'MI', zip_code: ZIP, property_type: 'residential', unit_count: 1 + (i % 8) }),
        };
      case 'webhook': {
        const c = i % LINKED_PROPERTIES;
        const body = unitEvent(`${traffic.connectionPrefix}c${c}`, `P${c}`, i % 5, 1 + i, base + i);
        return { kind, path: '/api/webhooks/pms', method: 'POST', body, headers: { 'x-pms-signature': sign(body) } };
      }
    }
  };
}

type Ticks = { machine: number; irq: number; steal: number; procs: Map<number, { name: string; ticks: number }> } | null;

/**
 * CPU ticks (USER_HZ) used so far by the machine (all CPUs, busy time) and by the processes that
 * serve this run: each web process, the worker and scheduler, this bench (the load generator),
 * PostgreSQL (its shared processes and the backends of database `db`) and Redis. From /proc (Linux).
 */
function cpuTicks(webPids: number[], db: string): Ticks {
  try {
    // user nice system idle iowait irq softirq steal (guest time is counted in user already)
    const [user, nice, system, , , irq, softirq, steal] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const machine = user + nice + system + irq + softirq + steal;
    const procs = new Map<number, { name: string; ticks: number }>();
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const pid = Number(entry);
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ppid = Number(fields[1]);
        let name: string | null = null;
        const web = webPids.indexOf(pid);
        if (web >= 0) name = webPids.length > 1 ? `web${web + 1}` : 'web';
        else if (pid === process.pid) name = 'bench';
        else if (comm === 'postgres') {
          // A backend reads "postgres: <cluster>: <user> <database> <host>(<port>) <state>"; the others serve every database.
          const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\u0000', ' ');
          const backendOf = /^postgres: [^:]+: \S+ (\S+) \S+\(\d+\)/.exec(cmd)?.[1];
          name = backendOf === undefined || backendOf === db ? 'postgres' : null;
        } else if (comm.startsWith('redis')) name = 'redis';
        else if (ppid === process.pid) {
          const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\u0000', ' ');
          if (/scripts\/start\.mjs (worker|scheduler)\b/.test(cmd)) name = 'worker+scheduler';
        }
        if (name) procs.set(pid, { name, ticks: Number(fields[11]) + Number(fields[12]) });
      } catch {
        // ended meanwhile
      }
    }
    return { machine, irq: irq + softirq, steal, procs };
  } catch {
    return null;
  }
}

/** Where the machine's CPU went between two samples, in cores; "rest" is everything else (other users of the machine, processes that ended). */
function cpuSplit(before: Ticks, after: Ticks, seconds: number): { text: string; rest: number } {
  if (!before || !after || seconds <= 0) return { text: 'n/a', rest: 0 };
  const cores = new Map<string, number>();
  let known = 0;
  for (const [pid, p] of after.procs) {
    const used = p.ticks - (before.procs.get(pid)?.ticks ?? 0);
    if (used <= 0) continue;
    cores.set(p.name, (cores.get(p.name) ?? 0) + used);
    known += used;
  }
  // Interrupts (the loopback traffic's softirq) and time the hypervisor took are no process's.
  const irq = after.irq - before.irq;
  const steal = after.steal - before.steal;
  cores.set('irq', irq);
  if (steal > 0) cores.set('steal', steal);
  cores.set('rest', Math.max(0, after.machine - before.machine - known - irq - steal));
  const total = after.machine - before.machine;
  return {
    text: `machine busy ${(total / 100 / seconds).toFixed(2)} of ${os.cpus().length} cores: `
      + [...cores].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k} ${(v / 100 / seconds).toFixed(2)}`).join(', '),
    rest: cores.get('rest')! / 100 / seconds,
  };
}

/** A run's figures per kind of request, for the log. */
function kinds(r: MixResult): string {
  return Object.entries(r.byKind).sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k} ${v.count}: p50 ${v.p50} / p99 ${v.p99} ms${v.non2xx ? ` (${v.non2xx} non-2xx)` : ''}`).join('; ');
}

function line(label: string, r: MixResult): string {
  return `${label}: ${Math.round(r.reqPerSec)} req/s answered (${Math.round(r.sentPerSec)}/s sent), p50 ${r.p50} ms, p99 ${r.p99} ms, `
    + `${r.non2xx} non-2xx, ${r.errors} errors`;
}

/** Runs fn while measuring CPU (the bench's processes' ms per request, where the machine's cores went); note() after it. */
async function measured<T extends MixResult | MixResult[]>(
  webPids: number[], db: string, note: () => string, fn: () => Promise<T>,
): Promise<{ result: T; cpu: string; rest: number; note: string }> {
  const [roles, ticks, started] = [sampleCpu(), cpuTicks(webPids, db), performance.now()];
  const result = await fn();
  const seconds = (performance.now() - started) / 1000;
  const answered = ([] as MixResult[]).concat(result).reduce((a, r) => a + r.answered, 0);
  const split = cpuSplit(ticks, cpuTicks(webPids, db), seconds);
  return { result, cpu: `CPU ms per request: ${cpuPer(roles, sampleCpu(), Math.max(answered, 1))}; ${split.text}`, rest: split.rest, note: note() };
}

const scaleOut: CustomScenario = {
  kind: 'custom',
  name: 'scale-out: mixed traffic (40 % reads, 25 % calculations, 20 % writes, 15 % webhooks) at R over two web processes vs R/2 on one',
  perMode: true,
  modes: ['postgres'],
  run: (context) => withStack(context, async (ctx, db, provider) => {
    const scenarioStarted = performance.now();
    const server = serverAt(ctx.url);
    if (!server) throw new Error(`no BenchServer of this process answers at ${ctx.url}`);
    const caps: CpuCap[] = [];
    try {
      return await measure(ctx, db, provider, server, caps, scenarioStarted);
    } finally {
      // The first web process serves the scenarios after this one: uncapped again.
      for (const cap of caps) cap.remove();
    }
  }),
};

/** Puts a web process under a cap of its own; false where none can be made. */
function capWeb(caps: CpuCap[], pid: number): boolean {
  const cap = createCpuCap(`bench-web${caps.length + 1}`, WEB_CORES);
  if (!cap) return false;
  caps.push(cap);
  cap.add(pid);
  return true;
}

async function measure(ctx: BenchContext, db: Client, provider: FakePmsProvider, server: NonNullable<ReturnType<typeof serverAt>>, caps: CpuCap[], scenarioStarted: number) {
  const capped = capWeb(caps, server.pid);
  console.log(`[scale-out] ${capped ? `each web process capped at ${WEB_CORES} core (${caps[0].where})` : 'no cgroup could be written: web processes uncapped'}`);
  const dbName = new URL(ctx.databaseUrl!).pathname.slice(1);
  const traffic = await prepare(ctx, db, provider);
  const next = mixer(traffic);
  const all: MixResult[] = [];
  // Dashboard reads that had to bring the owner's analytics up to date first (the Server-Timing header says so).
  let recompute = { reads: 0, recomputed: 0, ms: 0 };
  const inspect = (req: MixRequest, headers: IncomingHttpHeaders) => {
    if (req.kind !== 'stats') return;
    recompute.reads++;
    const dur = /analytics-recompute;dur=(\d+(?:\.\d+)?)/.exec(String(headers['server-timing'] ?? ''))?.[1];
    if (dur !== undefined) {
      recompute.recomputed++;
      recompute.ms += Number(dur);
    }
  };
  const recomputes = () => {
    const { reads, recomputed, ms } = recompute;
    recompute = { reads: 0, recomputed: 0, ms: 0 };
    return `dashboard reads that recomputed first: ${recomputed} of ${reads}${recomputed ? `, ${(ms / recomputed).toFixed(1)} ms each on average` : ''}`;
  };
  const run = async (url: string, opts: Parameters<typeof loadMix>[2]) => (await runSplit([url], opts))[0];
  const runSplit = async (urls: string[], opts: Parameters<typeof loadMix>[2]) => {
    const results = await loadMixSplit(urls, next, urls.length === 1 ? () => 0 : SPLIT, { inspect, ...opts });
    all.push(...results);
    for (const f of results.flatMap((r) => r.failures)) console.log(`[scale-out]   ${f}`);
    return results;
  };
  // Events still queued for the worker (from set-up or the run before) would share the machine with the next run.
  const drained = () => waitUntil('webhook events applied', async () => (await inbox(db, traffic.connectionPrefix)).pending === 0, 30_000, 20)
    .catch((err: Error) => console.log(`[scale-out] ${err.message}; measuring anyway`));

  // 1. R: what one web process sustains with the mix, closed loop.
  await run(ctx.url, { seconds: JIT_WARMUP_SECONDS, connections: CLOSED_CONNECTIONS });
  recomputes();
  const closed = await measured([server.pid], dbName, recomputes, () => run(ctx.url, { seconds: RATE_SECONDS, connections: CLOSED_CONNECTIONS }));
  const rate = Math.floor(closed.result.reqPerSec);
  const half = rate / 2;
  console.log(`[scale-out] ${line(`R, one process, closed loop ${CLOSED_CONNECTIONS} connections`, closed.result)}`);
  console.log(`[scale-out]   ${kinds(closed.result)}`);
  console.log(`[scale-out]   ${closed.cpu}`);
  console.log(`[scale-out]   ${closed.note}`);

  // 2. One web process at R/2.
  await drained();
  await run(ctx.url, { seconds: WARMUP_SECONDS, connections: OPEN_CONNECTIONS, rate: half });
  recomputes();
  const one = await measured([server.pid], dbName, recomputes, () => run(ctx.url, { seconds: PACED_SECONDS, connections: OPEN_CONNECTIONS, rate: half }));
  console.log(`[scale-out] ${line(`one process at R/2 = ${half} req/s`, one.result)}`);
  console.log(`[scale-out]   ${kinds(one.result)}`);
  console.log(`[scale-out]   ${one.cpu}`);
  console.log(`[scale-out]   ${one.note}`);

  // Diagnostic: one web process offered R itself, open loop (is R the process's limit or the machine's?).
  await drained();
  recomputes();
  const oneAtR = await measured([server.pid], dbName, recomputes, () => run(ctx.url, { seconds: AT_R_SECONDS, connections: OPEN_CONNECTIONS, rate }));
  console.log(`[scale-out] ${line(`one process at R = ${rate} req/s (diagnostic)`, oneAtR.result)}`);
  console.log(`[scale-out]   ${kinds(oneAtR.result)}`);
  console.log(`[scale-out]   ${oneAtR.cpu}`);
  console.log(`[scale-out]   ${oneAtR.note}`);

  // 3. A second web process with the same environment; one stream at R dealt over both (R/2 at each).
  let second: BenchProcess | undefined;
  let two: Awaited<ReturnType<typeof measured<MixResult[]>>>;
  try {
    second = await startWebBeside(server, await freePort());
    if (capped) capWeb(caps, second.pid);
    console.log(`[scale-out] second web process (pid ${second.pid}) healthy in ${(second.startMs / 1000).toFixed(1)} s at ${second.url}`);
    const urls = [ctx.url, second.url];
    await drained();
    // The new process first serves alone what the first served before its R/2 run: the closed-loop warm-up
    // (JIT, its tariff catalog, pools), the closed loop at R and a window at R/2, so the two are measured alike.
    await run(second.url, { seconds: JIT_WARMUP_SECONDS + RATE_SECONDS, connections: CLOSED_CONNECTIONS });
    await run(second.url, { seconds: WARMUP_SECONDS + PACED_SECONDS, connections: OPEN_CONNECTIONS, rate: half });
    await runSplit(urls, { seconds: WARMUP_SECONDS, connections: OPEN_CONNECTIONS, rate });
    const pids = [server.pid, second.pid];
    recomputes();
    two = await measured(pids, dbName, recomputes, () => runSplit(urls, { seconds: PACED_SECONDS, connections: OPEN_CONNECTIONS, rate }));
  } finally {
    await second?.stop();
  }
  const combined = two.result.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const p99Two = Math.max(...two.result.map((r) => r.p99));
  const p99Combined = percentileOf(combined, 99);
  const reached = two.result.reduce((a, r) => a + r.reqPerSec, 0);
  two.result.forEach((r, i) => {
    console.log(`[scale-out] ${line(`process ${i + 1} of 2 at R/2 = ${half} req/s`, r)}`);
    console.log(`[scale-out]   ${kinds(r)}`);
  });
  console.log(`[scale-out]   two processes: ${Math.round(reached)} req/s answered in all, p99 combined ${p99Combined} ms; ${two.cpu}`);
  console.log(`[scale-out]   ${two.note}`);

  // 4. One web process at R/2 again: the data grew meanwhile, so the one-process figure brackets the two-process one.
  await drained();
  await run(ctx.url, { seconds: WARMUP_SECONDS, connections: OPEN_CONNECTIONS, rate: half });
  recomputes();
  const oneAfter = await measured([server.pid], dbName, recomputes, () => run(ctx.url, { seconds: PACED_SECONDS, connections: OPEN_CONNECTIONS, rate: half }));
  console.log(`[scale-out] ${line(`one process at R/2 = ${half} req/s, again`, oneAfter.result)}`);
  console.log(`[scale-out]   ${kinds(oneAfter.result)}`);
  console.log(`[scale-out]   ${oneAfter.cpu}`);
  console.log(`[scale-out]   ${oneAfter.note}`);

  const p99One = percentileOf([...one.result.latencies, ...oneAfter.result.latencies].sort((a, b) => a - b), 99);
  const non2xx = all.reduce((a, r) => a + r.non2xx, 0);
  const errors = all.reduce((a, r) => a + r.errors, 0);
  // CPU the run's own processes did not use: another user of the machine makes the figures meaningless.
  const disturbed = Math.max(closed.rest, one.rest, two.rest, oneAfter.rest);
  if (disturbed > OTHER_LOAD_CORES) console.log(`[scale-out] other load on the machine took up to ${disturbed.toFixed(2)} cores during the measurements`);
  console.log(`[scale-out] p99 two at R ${p99Two} ms vs ${p99One} ms one at R/2 (before ${one.result.p99}, after ${oneAfter.result.p99}) `
    + `(${non2xx} non-2xx, ${errors} errors in all runs; scenario took ${((performance.now() - scenarioStarted) / 1000).toFixed(0)} s)`);
  return {
    value: p99Two,
    unit: `ms p99 (two processes at R, the worse; combined ${p99Combined} ms; ${Math.round(reached)} req/s reached) `
      + `vs ${p99One} ms (one at R/2, before and after: ${one.result.p99} / ${oneAfter.result.p99} ms, `
      + `${Math.round(one.result.reqPerSec)} / ${Math.round(oneAfter.result.reqPerSec)} req/s reached), R = ${rate} req/s `
      + `(one process, closed loop, ${CLOSED_CONNECTIONS} connections, p99 ${closed.result.p99} ms; `
      + `one process offered R: p99 ${oneAtR.result.p99} ms, ${Math.round(oneAtR.result.reqPerSec)} req/s reached)`
      + `; ${capped ? `each web process capped at ${WEB_CORES} core` : 'web processes uncapped (no cgroup)'}`
      + `${non2xx || errors ? `; ${non2xx} non-2xx, ${errors} errors` : ''}`
      + `${disturbed > OTHER_LOAD_CORES ? `; disturbed: other load on the machine took up to ${disturbed.toFixed(2)} cores` : ''}`,
  };
}

export const scaleOutScenarios: Scenario[] = [scaleOut];
