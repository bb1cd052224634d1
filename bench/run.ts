/**
 * `npm run bench [-- --seconds=5 --modes=embedded,postgres --only=<substring>[|<substring>...] --out=<file>]`
 *
 * Starts the processes per database mode (embedded PGlite: `npm start`; PostgreSQL when reachable
 * at DATABASE_URL or the local default: the Procfile roles, with Redis), measures every scenario
 * against them and writes BENCHMARKS.md (or `--out`, for a partial run): one table of this run.
 * With BENCH_CPU_PROFILE_DIR set, each server process leaves a .cpuprofile there
 * (open it in Chrome DevTools) to see where a slow scenario spends its time.
 */
import fs from 'node:fs';
import os from 'node:os';
import { Client } from 'pg';
import { Redis } from 'ioredis';
import { startServer, freshPostgres } from './server';
import { load, type LoadResult } from './load';
import { scenarios } from './scenarios';
import { databaseSettled, workersIdle } from './idle';
import { TARGETS, type BenchContext, type HttpScenario, type Measured } from './types';

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
const pgBase = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Row {
  mode: string;
  name: string;
  measured: string;
  /** Empty for information (no figure of TARGETS, or a mode they are not for). */
  target: string;
  met: boolean | null;
}

/** The targets are for the postgres mode (TARGETS): elsewhere a row is information. */
function row(mode: string, name: string, measured: string, target = '', met: boolean | null = null): Row {
  return mode === 'postgres' && target ? { mode, name, measured, target, met } : { mode, name, measured, target: '', met: null };
}

const customRow = (mode: string, name: string, r: Measured): Row => row(mode, name, `${r.value} ${r.unit}`, r.target, r.met ?? false);

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
  console.log(`[${mode}] processes: web${server.roles.map((r) => `, ${r}`).join('')}`);
  const rows: Row[] = [];
  try {
    rows.push(
      row(
        mode,
        'first start to healthy (fresh data dir, includes reference-data import)',
        `${(server.startMs / 1000).toFixed(1)} s, RSS ${server.rssMiB().toFixed(0)} MiB`,
      ),
    );
    const ctx = context(server.url, mode, { databaseUrl: pg?.url, redis: server.redis });
    // The worker's start-up jobs (reference-data sweeps) finish before anything is measured.
    await workersIdle(server.redis);
    // Every shape is warmed up unmeasured first (JIT, caches built on first use), then measured.
    await load(server.url, { path: '/health' }, 2);
    rows.push(row(mode, 'GET /health', fmt(await load(server.url, { path: '/health' }, seconds))));
    const http = scenarios.filter((s): s is HttpScenario => s.kind === 'http' && picked(s.name));
    for (const s of http) {
      const req = await s.prepare(ctx);
      // Jobs a preparation queued (or an earlier scenario left) run before, not during, the
      // measurement, and the database's disk writes of the preparation are done.
      await workersIdle(server.redis);
      await databaseSettled(pg?.url);
      await load(server.url, req, 1, s.connections);
      const r = await load(server.url, req, seconds, s.connections);
      const p99BelowMs = s.p99BelowMs ?? TARGETS.interactiveP99Ms;
      const failed = r.non2xx + r.errors;
      rows.push(
        row(
          mode,
          s.name,
          `${fmt(r)}${failed ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`,
          `p99 < ${p99BelowMs} ms`,
          failed === 0 && r.p99 < p99BelowMs,
        ),
      );
      console.log(`[${mode}] ${s.name}: ${fmt(r)}`);
    }
    for (const s of scenarios) {
      if (s.kind !== 'custom' || !s.perMode || !picked(s.name)) continue;
      if (s.modes && !s.modes.includes(mode)) continue;
      await workersIdle(server.redis);
      await databaseSettled(pg?.url);
      rows.push(customRow(mode, s.name, await s.run(ctx)));
    }
  } finally {
    await server.stop(true);
  }
  try {
    const again = await startServer({ databaseUrl: pg?.url, redisUrl: redis, port, dataDir: server.dataDir });
    rows.push(row(mode, 'later start to healthy (data already imported)', `${(again.startMs / 1000).toFixed(1)} s`));
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
    rows.push(customRow('engine', s.name, r));
    console.log(`${s.name}: ${r.value} ${r.unit}`);
  }
  for (const mode of modes) rows.push(...(await runMode(mode as 'embedded' | 'postgres', port++)));
  write(rows, modes);
}

function targetList(): string[] {
  return [
    `every interactive endpoint: p99 < ${TARGETS.interactiveP99Ms} ms at 10 connections;`,
    `tenant billing of 10,000 units (POST /billing/calculate-rubs): p99 < ${TARGETS.tenantBillingP99Ms} ms;`,
    `webhooks: acknowledged with p99 < ${TARGETS.webhookAckP99Ms} ms at ${TARGETS.webhookRate} events/s, and applied in order;`,
    `a full re-audit of 192,000 bills: < ${TARGETS.fullReAuditS / 60} minutes;`,
    `a full analytics recompute for 10,000 properties: < ${TARGETS.fullAnalyticsRecomputeS} s.`,
  ];
}

function write(rows: Row[], modes: string[]) {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    '# Benchmarks',
    '',
    'Information, not a gate: the figures of the latest `npm run bench` (bench/run.ts) on the machine named below, which',
    'may have been busy. Each mode runs against the processes the bench starts: embedded is `npm start` (PGlite, jobs in',
    'the web process); postgres is the Procfile roles (web, worker, scheduler) on PostgreSQL and Redis. An HTTP row drives',
    `one request in a closed loop, 10 connections unless the row says otherwise, for ${seconds} s after an unmeasured warm-up,`,
    'with the worker idle and PostgreSQL checkpointed first (bench/idle.ts): throughput, and latency from the request sent',
    'to its answer read (rows read with Accept-Encoding: gzip through node:http instead of autocannon, bench/load.ts says',
    'why). Every other row says what it times.',
    '',
    `Run of ${new Date().toISOString()} on ${os.cpus().length} x ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
      `${os.type()} ${os.release()}; Node.js ${process.version}; database modes: ${modes.join(', ')}.`,
    '',
    'The targets (issue 48), for the postgres mode only; a row without one is information, and met on one full run is met:',
    '',
    ...targetList().map((t) => `- ${t}`),
    '',
    '| mode | scenario | measured | target | met |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.mode} | ${r.name} | ${r.measured} | ${r.target} | ${r.met === null ? '' : r.met ? 'yes' : '**no**'} |`),
    '',
  ];
  fs.writeFileSync(outFile, lines.join('\n'));
  console.log(lines.join('\n'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
