import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { waitUntil } from '../helpers/eventually';
import { freePort } from '../helpers/net';
import { createPgDatabase } from '../helpers/pg-database';

/*
 * Throwaway PostgreSQL and Redis servers for the fault tests: started by the test on free ports
 * with their data in a temp folder, killed and restarted by it, never the machine's shared ones.
 */

export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** The newest PostgreSQL server binaries on the machine, or null. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? path.join(root, versions[0], 'bin') : null;
}

export function redisServerPath(): string | null {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

/** Why the fault tests cannot run here, or null when they can. */
export function missingServices(): string | null {
  if (!postgresBinDir()) return 'PostgreSQL server binaries (initdb) not found under /usr/lib/postgresql';
  if (!redisServerPath()) return 'redis-server not found on PATH';
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0) return 'running as root without a postgres user';
  return null;
}

export interface ThrowawayPostgres {
  url: string;
  /** A new empty database on this server; its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server: `immediate` is a crash (no checkpoint), recovered from the WAL at the next start. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/** initdb into a temp folder and run `postgres` on a free port, as the postgres user when we are root. */
export async function startPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir()!;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fault-pg-'));
  const dataDir = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const ids = asRoot
    ? {
        uid: Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout),
        gid: Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout),
      }
    : {};
  if (asRoot) fs.chownSync(dir, ids.uid!, ids.gid!);
  const init = spawnSync(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8'], {
    ...ids,
    encoding: 'utf8',
    cwd: dir,
  });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let child: ChildProcess | undefined;

  const ready = async () => {
    const c = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await c.connect();
      await c.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await c.end().catch(() => undefined);
    }
  };

  const start = async () => {
    child = spawn(
      path.join(bin, 'postgres'),
      [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        `unix_socket_directories=${dir}`,
        // Durable against a crash of the server process (what the tests do), not of the machine: no fsync needed.
        '-c',
        'fsync=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=200',
        '-c',
        'shared_buffers=64MB',
        ...(process.env.PG_EXTRA ?? '')
          .split(';')
          .filter(Boolean)
          .flatMap((setting) => ['-c', setting]),
      ],
      { ...ids, cwd: dir, stdio: 'ignore' },
    );
    await waitUntil('PostgreSQL', ready);
  };

  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    if (!child) return;
    const c = child;
    child = undefined;
    c.kill(mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
    await exited(c);
  };

  await start();
  return {
    url,
    createDatabase: async (name) => (await createPgDatabase(url, name)).url,
    stop,
    start,
    async destroy() {
      await stop('immediate');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ThrowawayRedis {
  url: string;
  /** SIGKILL: everything in it is lost (no persistence). */
  kill(): Promise<void>;
  /** Starts an empty server on the same port. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startRedis(): Promise<ThrowawayRedis> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fault-redis-'));
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      redisServerPath()!,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'],
      { stdio: 'ignore' },
    );
    await waitUntil(
      'Redis',
      () =>
        new Promise((resolve) => {
          const s = net.connect(port, '127.0.0.1', () => {
            s.write('PING\r\n');
            s.once('data', (d) => {
              s.destroy();
              resolve(d.toString().startsWith('+PONG'));
            });
          });
          s.once('error', () => resolve(false));
        }),
    );
  };
  const kill = async () => {
    if (!child) return;
    const c = child;
    child = undefined;
    c.kill('SIGKILL');
    await exited(c);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    kill,
    start,
    async destroy() {
      await kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
