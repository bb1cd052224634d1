import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPgDatabase, type PgDatabase } from '../test/helpers/pg-database';

export interface BenchServer {
  url: string;
  pid: number;
  /** Milliseconds from spawn to the first healthy /health answer. */
  startMs: number;
  /** Resident memory of the server process in MiB, read from /proc. */
  rssMiB(): number;
  /** The server's DATA_DIR (embedded database). */
  dataDir: string;
  /** The Procfile roles beside web (worker, scheduler), when started with Redis. */
  roles: string[];
  /** The Redis the roles share, and their key prefix (REDIS_KEY_PREFIX). */
  redis?: { url: string; keyPrefix: string };
  /** Stops every process; keepData leaves DATA_DIR for a restart. */
  stop(keepData?: boolean): Promise<void>;
  /** The environment its processes were started with (startWebBeside starts another web process with it). */
  env: NodeJS.ProcessEnv;
}

/** One more process of a running BenchServer (startWebBeside). */
export interface BenchProcess {
  url: string;
  pid: number;
  startMs: number;
  stop(): Promise<void>;
}

export const ADMIN_TOKEN = 'bench-admin-token-0123456789';
/** The PMS webhook signing secret and provider key the bench's processes get (bench/scenarios/webhooks.ts). */
export const BENCH_WEBHOOK_SECRET = 'bench-webhook-secret-0123456789';
export const BENCH_PMS_API_KEY = 'bench-pms-api-key';
/** Where the processes find the PMS provider: the webhook scenarios serve a fake one on this port, beside the server's. */
export const pmsProviderPort = (serverPort: number) => serverPort + 600;

/**
 * Diagnostic node flags of the server processes: BENCH_NODE_FLAGS (space-separated, such as
 * --trace-gc, whose lines go to the process's log); BENCH_CPU_PROFILE_DIR=<dir>, where each server
 * process writes a V8 CPU profile when it stops.
 */
function diagnosticFlags(): string[] {
  const dir = process.env.BENCH_CPU_PROFILE_DIR;
  const extra = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  return [...extra, ...(dir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`] : [])];
}

/** Creates an empty PostgreSQL database for one bench run and returns its URL. */
export function freshPostgres(baseUrl: string): Promise<PgDatabase> {
  return createPgDatabase(baseUrl, `bench_${Date.now().toString(36)}`);
}

/**
 * Spawns one role of `scripts/start.mjs` with the given environment. Its log (at `info`: a line
 * per request, as in production) goes to `<DATA_DIR>/<role>-<PORT>.log` (BENCH_LOG_DIR, when set,
 * instead of DATA_DIR, which is deleted after the run), so what is measured includes writing it;
 * errors still reach the terminal on stderr.
 */
function spawnRole(role: string, env: NodeJS.ProcessEnv): ChildProcess {
  const log = fs.openSync(path.join(process.env.BENCH_LOG_DIR ?? env.DATA_DIR!, `${role}-${env.PORT}.log`), 'a');
  const child = spawn(process.execPath, [...diagnosticFlags(), 'scripts/start.mjs', role], {
    env,
    stdio: ['ignore', log, 'inherit'],
  });
  fs.closeSync(log);
  return child;
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  });
}

/** Waits for a spawned web process's first healthy GET /health answer (at most 180 s). */
async function waitHealthy(child: ChildProcess, url: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('server did not become healthy within 180 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The servers startServer started and that are not stopped, by URL (a scenario only knows the URL). */
const running = new Map<string, BenchServer>();

/**
 * Starts the web process the way `npm run start:web` does, as its own process on a free port with
 * a fresh DATA_DIR, quotas raised so the load itself is not rejected. With `redisUrl` (PostgreSQL
 * only) it runs the Procfile roles: a `worker` and a `scheduler` process beside web, sharing jobs
 * through Redis under a key prefix of their own.
 */
export async function startServer(opts: { databaseUrl?: string; redisUrl?: string; port: number; dataDir?: string }): Promise<BenchServer> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'energy-api-bench-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(opts.port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ADMIN_TOKEN,
    QUOTA_FREE_PER_DAY: '1000000000',
    QUOTA_PRO_PER_DAY: '1000000000',
    RATE_LIMIT_REGISTER_PER_MIN: '1000',
    RATE_LIMIT_LOGIN_PER_MIN: '1000',
    PMS_WEBHOOK_SECRET: BENCH_WEBHOOK_SECRET,
    PMS_API_URL: `http://127.0.0.1:${pmsProviderPort(opts.port)}`,
    PMS_API_KEY: BENCH_PMS_API_KEY,
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  if (opts.redisUrl && opts.databaseUrl) {
    env.REDIS_URL = opts.redisUrl;
    env.REDIS_KEY_PREFIX = `bench:${path.basename(dataDir)}:`;
    env.JWT_SECRET = `bench-jwt-secret-${path.basename(dataDir)}-0123456789abcdef`;
  }
  const started = Date.now();
  const child = spawnRole('web', env);
  const url = `http://127.0.0.1:${opts.port}`;
  await waitHealthy(child, url);
  const startMs = Date.now() - started;
  // The other roles start once web has migrated the schema and imported the reference data.
  const others = env.REDIS_URL ? ['worker', 'scheduler'].map((role) => ({ role, child: spawnRole(role, env) })) : [];
  const server: BenchServer = {
    url,
    pid: child.pid!,
    startMs,
    rssMiB: () => {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return kb / 1024;
    },
    dataDir,
    roles: others.map((o) => o.role),
    redis: env.REDIS_URL ? { url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX! } : undefined,
    env,
    stop: async (keepData = false) => {
      running.delete(url);
      await Promise.all([child, ...others.map((o) => o.child)].map(stopChild));
      if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  running.set(url, server);
  return server;
}

/** The running BenchServer answering at `url` (started by startServer in this process). */
export function serverAt(url: string): BenchServer | undefined {
  return running.get(url);
}

/**
 * Starts a second `web` process beside a running server, as scaling the Procfile's web role out
 * does: the same environment (database, Redis and key prefix, JWT secret, DATA_DIR, PMS settings)
 * on another port. Its stop() ends that process only; the server's stop() does not end it.
 */
export async function startWebBeside(server: BenchServer, port: number): Promise<BenchProcess> {
  const started = Date.now();
  const child = spawnRole('web', { ...server.env, PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(child, url);
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  return { url, pid: child.pid!, startMs: Date.now() - started, stop: () => stopChild(child) };
}
