/**
 * `npm run bench [-- --seconds=5 --modes=embedded,postgres --only=<substring>[|<substring>...] --out=<file>]`
 *
 * Starts the web process per database mode (embedded PGlite; PostgreSQL when
 * reachable at DATABASE_URL or the local default), measures GET /health and
 * every scenario in the same run, and writes BENCHMARKS.md (or `--out`, for a partial run).
 * With BENCH_CPU_PROFILE_DIR set, each server process leaves a .cpuprofile there
 * (open it in Chrome DevTools) to see where a slow scenario spends its time.
 */
import fs from 'node:fs';
import os from 'node:os';
import { Client } from 'pg';
import { Redis } from 'ioredis';
import { startServer, startBareExpress, freshPostgres } from './server';
import { load, type LoadResult } from './load';
import { scenarios } from './scenarios';
import { databaseSettled, workersIdle } from './idle';
import type { BenchContext, HttpScenario, Target } from './types';

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const seconds = Number(args.seconds ?? 5);
/** Substrings of the scenarios to run (`|` between them: names hold commas); undefined runs every one. */
const only = (args.only as string | undefined)?.split('|');
const picked = (name: string) => !only || only.some((o) => name.includes(o));
const outFile = (args.out as string | undefined) ?? 'BENCHMARKS.md';
/** Answers at least this large also show the bare app's figures for a body of their size. */
const LARGE_ANSWER_BYTES = 100_000;
const pgBase = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Row {
  mode: string;
  issue: number;
  name: string;
  measured: string;
  target: string;
  met: boolean | null;
}

async function postgresReachable(): Promise<boolean> {
  const c = new Client({ connectionString: pgBase, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

function context(url: string, mode: BenchContext['mode'], extra: Pick<BenchContext, 'databaseUrl' | 'redis'> = {}): BenchContext {
  return {
    url,
    mode,
    ...extra,
    call: async (method, path, body, headers, form) => {
      const res = await fetch(url + path, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : form ? String(body) : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path} -> ${res.status} ${text.slice(0, 200)}`);
      return (text ? JSON.parse(text) : undefined) as never;
    },
  };
}

function describeTarget(t: Target): string {
  const parts: string[] = [];
  if (t.minRatioToHealth !== undefined) parts.push(`>= ${t.minRatioToHealth} x health`);
  if (t.maxMedianMs !== undefined) parts.push(`median <= ${t.maxMedianMs} ms`);
  if (t.medianBelowMs !== undefined) parts.push(`median < ${t.medianBelowMs} ms`);
  if (t.maxMedianVs) parts.push(`median <= ${t.maxMedianVs.factor} x "${t.maxMedianVs.scenario}"`);
  if (t.minThroughputVs) parts.push(`>= ${t.minThroughputVs.fraction} x "${t.minThroughputVs.scenario}" req/s`);
  if (t.p99BelowMs !== undefined) parts.push(`p99 < ${t.p99BelowMs} ms`);
  return parts.join(', ');
}

/** True when Redis answers PING at REDIS_URL (or the local default). */
async function redisReachable(): Promise<boolean> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000 });
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

async function runMode(mode: 'embedded' | 'postgres', port: number): Promise<Row[]> {
  const pg = mode === 'postgres' ? await freshPostgres(pgBase) : undefined;
  // PostgreSQL mode runs the Procfile roles (web, worker, scheduler on Redis) when Redis answers.
  const redis = pg && (await redisReachable()) ? redisUrl : undefined;
  const server = await startServer({ databaseUrl: pg?.url, redisUrl: redis, port });
  const bare = await startBareExpress(port + 500);
  console.log(`[${mode}] processes: web${server.roles.map((r) => `, ${r}`).join('')}`);
  const rows: Row[] = [];
  try {
    rows.push({
      mode, issue: 2, name: 'first start to healthy (fresh data dir, includes reference-data import)',
      measured: `${(server.startMs / 1000).toFixed(1)} s, RSS ${server.rssMiB().toFixed(0)} MiB`,
      target: '<= 60 s', met: server.startMs <= 60_000,
    });
    const ctx = context(server.url, mode, { databaseUrl: pg?.url, redis: server.redis });
    // The worker's start-up jobs (reference-data sweeps) finish before anything is measured.
    await workersIdle(server.redis);
    // Every shape is warmed up unmeasured first (JIT, caches built on first use), then measured.
    await load(server.url, { path: '/health' }, 2);
    const health = await load(server.url, { path: '/health' }, seconds);
    rows.push({ mode, issue: 2, name: 'GET /health (baseline)', measured: fmt(health), target: '', met: null });
    // The floor: a bare Express app on the same machine (its own process, like the server).
    await load(bare.url, { path: '/' }, 2);
    const bareRun = await load(bare.url, { path: '/' }, seconds);
    rows.push({ mode, issue: 13, name: 'bare Express, constant JSON (the floor)', measured: fmt(bareRun), target: '', met: null });
    const medians = new Map<string, number>();
    const throughputs = new Map<string, number>();
    const http = scenarios.filter((s): s is HttpScenario => s.kind === 'http' && picked(s.name));
    for (const s of http) {
      const req = await s.prepare(ctx);
      // Jobs a preparation queued (or an earlier scenario left) run before, not during, the
      // measurement, and the database's disk writes of the preparation are done.
      await workersIdle(server.redis);
      await databaseSettled(pg?.url);
      await load(server.url, req, 1, s.connections);
      // Ratio targets pair the scenario with a /health run just before it, so drift of a busy
      // machine over the run does not move the ratio.
      const baseline = s.target.minRatioToHealth !== undefined ? await load(server.url, { path: '/health' }, seconds) : health;
      const bareBaseline = s.target.minRatioToBare !== undefined ? await load(bare.url, { path: '/' }, seconds, s.connections) : bareRun;
      const r = await load(server.url, req, seconds, s.connections);
      medians.set(s.name, r.p50);
      throughputs.set(s.name, r.reqPerSec);
      const ratio = r.reqPerSec / baseline.reqPerSec;
      const toBare = r.reqPerSec / bareBaseline.reqPerSec;
      let met = r.non2xx === 0 && r.errors === 0;
      if (s.target.minRatioToHealth !== undefined) met &&= ratio >= s.target.minRatioToHealth;
      if (s.target.maxMedianMs !== undefined) met &&= r.p50 <= s.target.maxMedianMs;
      if (s.target.medianBelowMs !== undefined) met &&= r.p50 < s.target.medianBelowMs;
      if (s.target.p99BelowMs !== undefined) met &&= r.p99 < s.target.p99BelowMs;
      if (s.target.maxMedianVs) {
        const other = medians.get(s.target.maxMedianVs.scenario);
        met &&= other !== undefined && r.p50 <= Math.max(other, 1) * s.target.maxMedianVs.factor;
      }
      if (s.target.minThroughputVs) {
        const other = throughputs.get(s.target.minThroughputVs.scenario);
        met &&= other !== undefined && r.reqPerSec >= other * s.target.minThroughputVs.fraction;
      }
      // A large answer's floor: the bare app sending a body of the same size, same connections,
      // through the same client (the request's headers choose it: load() in load.ts).
      let floor = '';
      if (r.bytesPerResponse >= LARGE_ANSWER_BYTES) {
        const sized = { path: `/bytes/${Math.round(r.bytesPerResponse)}`, headers: req.headers };
        await load(bare.url, sized, 1, s.connections);
        const f = await load(bare.url, sized, seconds, s.connections);
        floor = `; bare Express sending ${(r.bytesPerResponse / 1e6).toFixed(2)} MB: ${fmt(f)}`;
      }
      rows.push({
        mode, issue: s.issue, name: s.name,
        measured: `${fmt(r)}, ${ratio.toFixed(2)} x health, ${toBare.toFixed(2)} x bare${r.non2xx ? `, ${r.non2xx} non-2xx` : ''}${floor}`,
        target: describeTarget(s.target), met,
      });
      if (s.target.minRatioToBare !== undefined) {
        rows.push({
          mode, issue: s.target.bareIssue ?? s.issue, name: `${s.name}, against bare Express`,
          measured: `${Math.round(r.reqPerSec)} req/s vs ${Math.round(bareBaseline.reqPerSec)} req/s: ${toBare.toFixed(2)} x bare`,
          target: `>= ${s.target.minRatioToBare} x bare Express`, met: r.non2xx === 0 && toBare >= s.target.minRatioToBare,
        });
      }
      console.log(`[${mode}] ${s.name}: ${fmt(r)} (${ratio.toFixed(2)} x health, ${toBare.toFixed(2)} x bare)`);
    }
    for (const s of scenarios) {
      if (s.kind !== 'custom' || !s.perMode || !picked(s.name)) continue;
      if (s.modes && !s.modes.includes(mode)) continue;
      await workersIdle(server.redis);
      await databaseSettled(pg?.url);
      const r = await s.run(ctx);
      rows.push({ mode, issue: s.issue, name: s.name, measured: `${r.value} ${r.unit}`, target: r.target, met: r.met });
    }
  } finally {
    await server.stop(true);
    await bare.stop();
  }
  try {
    const again = await startServer({ databaseUrl: pg?.url, redisUrl: redis, port, dataDir: server.dataDir });
    rows.push({
      mode, issue: 3, name: 'later start to healthy (data already imported)',
      measured: `${(again.startMs / 1000).toFixed(1)} s`, target: '< 5 s', met: again.startMs < 5000,
    });
    await again.stop();
  } finally {
    await pg?.drop();
  }
  return rows;
}

function fmt(r: LoadResult): string {
  return `${Math.round(r.reqPerSec)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms`;
}

async function main() {
  const modes = (args.modes as string | undefined)?.split(',') ?? ['embedded', ...((await postgresReachable()) ? ['postgres'] : [])];
  const rows: Row[] = [];
  let port = 18000 + Math.floor(Math.random() * 1000);
  for (const s of scenarios) {
    if (s.kind !== 'custom' || s.perMode || !picked(s.name)) continue;
    const r = await s.run(undefined);
    rows.push({ mode: 'engine', issue: s.issue, name: s.name, measured: `${r.value} ${r.unit}`, target: r.target, met: r.met });
    console.log(`${s.name}: ${r.value} ${r.unit}`);
  }
  for (const mode of modes) rows.push(...(await runMode(mode as 'embedded' | 'postgres', port++)));
  write(rows, modes);
}

function write(rows: Row[], modes: string[]) {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (bench/run.ts). HTTP figures: autocannon, 10 connections unless a row says otherwise,',
    `${seconds} s per scenario after an unmeasured warm-up, against the processes the bench starts (embedded: \`npm start\`; postgres:`,
    'the Procfile roles on PostgreSQL and Redis). "x health" and "x bare" compare throughput with `GET /health` and with a stock',
    'Express app (`app.listen`, a constant JSON body) measured right before. Each measurement starts with the worker idle and',
    'PostgreSQL checkpointed (bench/idle.ts), not behind earlier scenarios\' jobs and disk writes. An answer of 100 KB or more is',
    'followed by the same app sending a body of its size (its floor on this machine). Rows read with Accept-Encoding: gzip use a',
    'node:http closed loop instead of autocannon, whose client decodes every body to a string: for gzip bytes that decoding was',
    'the load generator\'s own limit (bench/load.ts). The scale-out row is information, not a target.',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${os.cpus().length} x ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}`,
    `- Node.js ${process.version}; database modes: ${modes.join(', ')}`,
    '',
    '| issue | mode | scenario | measured | target | met |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.issue} | ${r.mode} | ${r.name} | ${r.measured} | ${r.target} | ${r.met === null ? '' : r.met ? 'yes' : '**no**'} |`),
    '',
  ];
  fs.writeFileSync(outFile, lines.join('\n'));
  console.log(lines.join('\n'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
