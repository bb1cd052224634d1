import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

export interface BenchServer {
  url: string;
  pid: number;
  /** Milliseconds from spawn to the first healthy /health answer. */
  startMs: number;
  /** Resident memory of the server process in MiB, read from /proc. */
  rssMiB(): number;
  /** The server's DATA_DIR (embedded database). */
  dataDir: string;
  /** Stops the process; keepData leaves DATA_DIR for a restart. */
  stop(keepData?: boolean): Promise<void>;
}

export const ADMIN_TOKEN = 'bench-admin-token-0123456789';

/** BENCH_CPU_PROFILE_DIR=<dir>: each server process writes a V8 CPU profile there when it stops. */
function profileFlags(): string[] {
  const dir = process.env.BENCH_CPU_PROFILE_DIR;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`] : [];
}

/** Creates an empty PostgreSQL database for one bench run and returns its URL. */
export async function freshPostgres(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bench_${Date.now().toString(36)}`;
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * Starts the web process the way `npm run start:web` does, as its own process on a free port with
 * a fresh DATA_DIR, quotas raised so the load itself is not rejected.
 */
export async function startServer(opts: { databaseUrl?: string; port: number; dataDir?: string }): Promise<BenchServer> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'energy-api-bench-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(opts.port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ADMIN_TOKEN,
    QUOTA_FREE_PER_DAY: '1000000000',
    QUOTA_PRO_PER_DAY: '1000000000',
    RATE_LIMIT_REGISTER_PER_MIN: '1000',
    RATE_LIMIT_LOGIN_PER_MIN: '1000',
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  const started = Date.now();
  const child: ChildProcess = spawn(process.execPath, [...profileFlags(), '--enable-source-maps', 'scripts/start.mjs', 'web'], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${opts.port}`;
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
  const startMs = Date.now() - started;
  return {
    url,
    pid: child.pid!,
    startMs,
    rssMiB: () => {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return kb / 1024;
    },
    dataDir,
    stop: (keepData = false) =>
      new Promise<void>((resolve) => {
        child.once('exit', () => {
          if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  };
}
