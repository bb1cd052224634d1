import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { openDatabase, type Database } from '../../src/platform/db/client';
import { queuePrefix } from '../../src/platform/queue';
import { exited } from '../faults/services';
import { waitUntil } from '../helpers/eventually';
import { deleteRedisPrefix } from '../helpers/queue-harness';
import { freePort } from '../helpers/net';
import { createPgDatabase } from '../helpers/pg-database';
import { bullQueues, unfinishedJobs } from '../helpers/bull';
import { roleEnv } from '../faults/stream';

/*
 * The multi-process tests: the real entry points (workers/web.ts, worker.ts, scheduler.ts) as
 * child processes on the machine's PostgreSQL and Redis (DATABASE_URL, REDIS_URL), each test file
 * in its own database (mp_<random>, dropped WITH (FORCE) afterwards) and its own REDIS_KEY_PREFIX
 * (its keys deleted afterwards), so they run beside other tests on the same servers.
 */

const ROOT = path.resolve(__dirname, '../..');
/** A process SIGTERMed must be gone within this (Docker's and Kubernetes' default grace is 10 to 30 s). */
export const GRACE_MS = 10_000;

export interface SharedServers {
  databaseUrl: string;
  redisUrl: string;
}

/**
 * DATABASE_URL and REDIS_URL of the shared servers, or null (with a warning) when unset; with
 * MULTI_REQUIRED set (.ci/run does) a missing one is an error, so CI cannot go green without them.
 */
export function sharedServers(): SharedServers | null {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (databaseUrl && redisUrl) return { databaseUrl, redisUrl };
  const missing = [databaseUrl ? null : 'DATABASE_URL', redisUrl ? null : 'REDIS_URL'].filter(Boolean).join(' and ');
  if (process.env.MULTI_REQUIRED) throw new Error(`The multi-process tests cannot run: ${missing} not set`);
  // Jest does not show the console output of a file whose tests are all skipped: stderr, so it is seen.
  const warning = `Skipping the multi-process tests: ${missing} not set`;
  console.warn(warning);
  process.stderr.write(`${warning}\n`);
  return null;
}

export type RoleName = 'web' | 'worker' | 'scheduler';

export interface RoleProcess {
  role: RoleName;
  pid: number;
  /** BullMQ's `processedBy` of the jobs this process ran (`hostname:pid`, see platform/queue/worker.ts). */
  workerName: string;
  /** Web only: http://127.0.0.1:PORT. */
  url: string;
  port: number;
  /** Resolves once it serves (web: /health answers 200; worker and scheduler: their start-up log line). */
  ready: Promise<void>;
  /** Resolves when the process has exited. */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
  /** Sends SIGTERM; resolves with the exit and how long it took, SIGKILLing it after `killAfterMs`. */
  stop(killAfterMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
  /** SIGKILL, no shutdown of any kind (a crash); resolves when it has exited. */
  kill(): Promise<void>;
  /** SIGSTOP: frozen as is, connections open (a worker with a backlog piling up); `resume` sends SIGCONT. */
  pause(): void;
  resume(): void;
  /** The last lines it printed (stdout and stderr). */
  output(): string;
}

/** The line each role logs (at info) once it runs; web is probed over HTTP instead. */
const READY_LINE: Record<Exclude<RoleName, 'web'>, string> = {
  worker: 'workers started',
  scheduler: 'scheduler started',
};

/** A JSON log line below error level (anything else, a crash's stack trace included, is worth showing). */
function isRoutineLogLine(line: string): boolean {
  if (!line.startsWith('{')) return false;
  try {
    const { level } = JSON.parse(line) as { level?: unknown };
    return typeof level === 'number' ? level < 50 : !['error', 'fatal'].includes(String(level));
  } catch {
    return false;
  }
}

/**
 * Starts `node --import tsx workers/<role>.ts` with `env` (plus PORT for web). A web process is
 * ready once GET /health answers 200; workers and schedulers log at info until their start-up line.
 * Error-level lines and anything that is not a log line (a crash) are copied to this process's stderr.
 */
export function spawnRole(role: RoleName, env: Record<string, string>, port = 0): RoleProcess {
  const childEnv: Record<string, string> = { ...(process.env as Record<string, string>), ...env };
  if (role === 'web') childEnv.PORT = String(port);
  else childEnv.LOG_LEVEL = 'info';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', `workers/${role}.ts`], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid!;
  const lines: string[] = [];
  let sawReadyLine = false;
  const onLine = (line: string) => {
    if (!line) return;
    lines.push(line);
    if (lines.length > 300) lines.splice(0, lines.length - 300);
    if (role !== 'web' && line.includes(READY_LINE[role])) sawReadyLine = true;
    if (!isRoutineLogLine(line)) process.stderr.write(`[${role} ${pid}] ${line}\n`);
  };
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = '';
    stream.on('data', (chunk: Buffer) => {
      const parts = (rest + chunk.toString()).split('\n');
      rest = parts.pop()!;
      parts.forEach(onLine);
    });
    stream.on('end', () => onLine(rest));
  }
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  const url = `http://127.0.0.1:${port}`;
  const ready = waitUntil(
    `${role} ${pid}`,
    async () => {
      if (!alive()) throw new Error(`${role} ${pid} exited during start-up:\n${lines.slice(-20).join('\n')}`);
      if (role !== 'web') return sawReadyLine;
      try {
        const res = await fetch(`${url}/health`);
        await res.arrayBuffer();
        return res.status === 200;
      } catch {
        return false;
      }
    },
    60_000,
  );
  ready.catch(() => undefined);
  return {
    role,
    pid,
    url,
    port,
    ready,
    exit,
    alive,
    workerName: `${os.hostname()}:${pid}`,
    async stop(killAfterMs = 20_000) {
      const started = Date.now();
      if (alive()) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      await exited(child);
      clearTimeout(timer);
      return { ...(await exit), ms: Date.now() - started };
    },
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
    pause: () => {
      child.kill('SIGSTOP');
    },
    resume: () => {
      child.kill('SIGCONT');
    },
    output: () => lines.join('\n'),
  };
}

export interface Cluster {
  env: Record<string, string>;
  /** This file's own database, as a client for checks (the processes have their own pools). */
  database: Database;
  redis: Redis;
  /** BullMQ's key prefix of the processes' queues. */
  bullPrefix: string;
  processes: RoleProcess[];
  /** Starts one more process of the cluster (tracked, stopped by tearDown). */
  spawn(role: RoleName, port?: number): Promise<RoleProcess>;
  tearDown(): Promise<void>;
}

/**
 * A database `mp_<random>` on the shared server and a unique Redis prefix, the env every
 * process of the file shares (roleEnv's, plus `extraEnv`), and the first web process: it runs the
 * migrations and loads the reference data, so it is started and healthy before any other.
 */
export async function startCluster(servers: SharedServers, extraEnv: Record<string, string> = {}): Promise<Cluster> {
  const tag = crypto.randomBytes(4).toString('hex');
  const name = `mp_${tag}`;
  const created = await createPgDatabase(servers.databaseUrl, name);
  const prefix = `mp${tag}:`;
  const env: Record<string, string> = { ...roleEnv(created.url, servers.redisUrl, prefix), QUOTA_FREE_PER_DAY: '100000', ...extraEnv };
  const processes: RoleProcess[] = [];
  const redis = new Redis(servers.redisUrl, { maxRetriesPerRequest: 3 });
  let database: Database | undefined;

  const tearDown = async () => {
    await Promise.allSettled(processes.map((p) => p.stop(5000)));
    await database?.close().catch(() => undefined);
    // The shared Redis keeps nothing of this file.
    await redis.quit().catch(() => undefined);
    await deleteRedisPrefix(servers.redisUrl, prefix);
    await created.drop();
  };

  const cluster: Cluster = {
    env,
    redis,
    processes,
    bullPrefix: queuePrefix(prefix),
    get database() {
      return database!;
    },
    async spawn(role, port) {
      const p = spawnRole(role, env, role === 'web' ? (port ?? (await freePort())) : 0);
      processes.push(p);
      await p.ready;
      return p;
    },
    tearDown,
  };
  try {
    await cluster.spawn('web');
    database = await openDatabase({ databaseUrl: env.DATABASE_URL, poolSize: 3 });
    return cluster;
  } catch (err) {
    await tearDown().catch(() => undefined);
    throw err;
  }
}

/**
 * The rest of the Procfile's roles beside the cluster's first web process, started together: a second
 * web process, two workers and the scheduler. Returns both web processes, both workers, and the app's
 * BullMQ queues under the cluster's prefix (read only, for reports; closed by stopCluster).
 */
export async function startAllRoles(
  cluster: Cluster,
): Promise<{ webs: RoleProcess[]; workers: RoleProcess[]; queues: Map<string, Queue> }> {
  const [webB, w1, w2] = await Promise.all([
    cluster.spawn('web'),
    cluster.spawn('worker'),
    cluster.spawn('worker'),
    cluster.spawn('scheduler'),
  ]);
  return { webs: [cluster.processes[0], webB], workers: [w1, w2], queues: bullQueues(cluster.redis, cluster.bullPrefix) };
}

/** Closes the queues startAllRoles opened, then tears the cluster down; either may be unset (a beforeAll that failed early). */
export async function stopCluster(cluster: Cluster | undefined, queues: Map<string, Queue> | undefined): Promise<void> {
  await Promise.allSettled([...(queues?.values() ?? [])].map((q) => q.close()));
  await cluster?.tearDown();
}

// ---- HTTP ----

export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** One JSON request; answers whatever the status (a network error throws). */
export async function api<T = unknown>(
  base: string,
  method: string,
  p: string,
  opts: { token?: string; body?: unknown; form?: string; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = opts.form;
  } else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(`${base}${p}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** Like `api`, but anything other than `expected` throws with the answer. */
export async function apiOk<T = unknown>(
  base: string,
  method: string,
  p: string,
  expected: number,
  opts: Parameters<typeof api>[3] = {},
): Promise<T> {
  const res = await api<T>(base, method, p, opts);
  if (res.status !== expected)
    throw new Error(`${method} ${p} -> ${res.status} (expected ${expected}): ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
}

export interface TestUser {
  id: string;
  email: string;
  token: string;
}

/** Registers and logs in over `web`; with `tier` (needs ADMIN_TOKEN) the operator sets it before the first authenticated request. */
export async function registerUser(web: string, tag: string, tier?: 'free' | 'pro' | 'enterprise', adminToken?: string): Promise<TestUser> {
  const email = `${tag}-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const user = await apiOk<{ id: string }>(web, 'POST', '/api/v1/auth/register', 201, {
    body: { email, password: 'Multi123x', full_name: 'Multi Test' },
  });
  if (tier) await apiOk(web, 'PATCH', `/api/v1/admin/users/${user.id}`, 200, { body: { tier }, headers: { 'x-admin-token': adminToken! } });
  const { access_token } = await apiOk<{ access_token: string }>(web, 'POST', '/api/v1/auth/login', 200, {
    form: `username=${encodeURIComponent(email)}&password=Multi123x`,
  });
  return { id: user.id, email, token: access_token };
}

// ---- BullMQ's records, read from Redis ----

export interface JobRecord {
  queue: string;
  id: string;
  state: string;
  attemptsMade: number;
  /** Times the stall checker took the job back from a worker that lost it (a possible second run). */
  stalledCounter: number;
  processedBy?: string;
  processedOn?: number;
  finishedOn?: number;
  failedReason?: string;
  orderingKey?: string;
  payload: unknown;
}

const STATES = ['active', 'waiting', 'delayed', 'prioritized', 'waiting-children', 'paused', 'completed', 'failed'] as const;

/** Every job BullMQ still holds, in every queue, with its state. */
export async function jobRecords(queues: Map<string, Queue>): Promise<JobRecord[]> {
  const out: JobRecord[] = [];
  for (const [name, q] of queues) {
    for (const state of STATES) {
      const jobs = (await q.getJobs([state], 0, -1)) as Array<Job<{ payload: unknown; orderingKey?: string }> | undefined>;
      for (const j of jobs) {
        if (!j) continue;
        out.push({
          queue: name,
          id: j.id!,
          state,
          attemptsMade: j.attemptsMade,
          stalledCounter: j.stalledCounter ?? 0,
          processedBy: j.processedBy,
          processedOn: j.processedOn,
          finishedOn: j.finishedOn,
          failedReason: j.failedReason,
          orderingKey: j.data?.orderingKey,
          payload: j.data?.payload,
        });
      }
    }
  }
  return out;
}

/** Counts of unfinished jobs over every queue (0 when drained). */

/** Waits until no queue has an unfinished job (seen twice in a row, 200 ms apart) and `also` holds. */
export async function waitForDrain(
  queues: Map<string, Queue>,
  timeoutMs: number,
  also: () => Promise<boolean> = async () => true,
): Promise<void> {
  let last: Record<string, number> = {};
  let quietOnce = false;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    last = await unfinishedJobs(queues);
    const quiet = Object.keys(last).length === 0 && (await also());
    if (quiet && quietOnce) return;
    quietOnce = quiet;
    if (Date.now() > deadline) throw new Error(`queues not drained within ${timeoutMs} ms: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The ordering store's per-key lists and locks still in Redis (none once every keyed job finished). */
export async function orderingLeftovers(redis: Redis, bullPrefix: string): Promise<string[]> {
  const keys: string[] = [];
  const scan = redis.scanStream({ match: `${bullPrefix}-ordering:*`, count: 1000 });
  for await (const batch of scan) keys.push(...(batch as string[]).filter((k) => /:(list|lock):/.test(k)));
  return keys;
}
