import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { hostPortOf, redisStartupProblem } from '../src/platform/startup-error';
import { freePort } from './helpers/net';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..');

/** Runs `node scripts/start.mjs <role>` in the checkout; resolves with the exit code and output whatever the code. */
async function start(role: string, env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['scripts/start.mjs', role], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: '', REDIS_URL: '', ...env },
      timeout: 60_000,
    });
    return { code: 0 as number | null, stdout, stderr };
  } catch (err) {
    const e = err as { code: number | null; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** One line on stderr, no stack trace ("    at ..." frames), and exit code 1. */
function expectOneLine(res: { code: number | null; stderr: string }) {
  expect(res.code).toBe(1);
  expect(res.stderr).not.toMatch(/^\s+at /m);
  expect(res.stderr.trim().split('\n')).toHaveLength(1);
}

/**
 * Issue 51 item 6: a start-up that cannot work says why and what to do in one line, not a stack
 * trace, and exits 1 (a data dir another process holds: test/data-dir-lock.test.ts).
 */
describe('start-up errors are one line with the fix', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-api-startup-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('a PORT another process listens on: named, with PORT to set; before the database opens', async () => {
    const other = net.createServer();
    await new Promise<void>((resolve) => other.listen(0, resolve));
    const { port } = other.address() as net.AddressInfo;
    try {
      const res = await start('web', { DATA_DIR: dataDir, PORT: String(port) });
      expectOneLine(res);
      expect(res.stderr.trim()).toBe(
        `Port ${port} is in use by another process: stop it, or set PORT to a free port (PORT=8000 npm start).`,
      );
      // Found before anything was opened: no embedded database was created for it.
      expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(false);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('DATABASE_URL on a closed port: host:port named, how to fix it or unset it for the embedded database; no password', async () => {
    const port = await freePort();
    const res = await start('all', { DATA_DIR: dataDir, PORT: '0', DATABASE_URL: `postgres://someone:s3cret-pw@127.0.0.1:${port}/energy` });
    expectOneLine(res);
    expect(res.stderr.trim()).toBe(
      `Cannot use the PostgreSQL database at 127.0.0.1:${port} (DATABASE_URL): connection refused (nothing listens there). ` +
        'Start PostgreSQL there or correct DATABASE_URL; or unset DATABASE_URL to use the embedded database in DATA_DIR.',
    );
    expect(res.stderr).not.toContain('s3cret-pw');
  });

  it('DATABASE_URL naming a host that does not resolve', async () => {
    const res = await start('web', { DATA_DIR: dataDir, PORT: '0', DATABASE_URL: 'postgres://u:p@no-such-host.invalid/energy' });
    expectOneLine(res);
    expect(res.stderr).toContain('Cannot use the PostgreSQL database at no-such-host.invalid:5432 (DATABASE_URL): host not found.');
  });

  it('a worker or scheduler process with REDIS_URL on a closed port: Redis named, how to fix it or run one process', async () => {
    const port = await freePort();
    for (const role of ['worker', 'scheduler']) {
      const res = await start(role, {
        DATABASE_URL: `postgres://u:p@127.0.0.1:${await freePort()}/energy`,
        REDIS_URL: `redis://127.0.0.1:${port}`,
      });
      expectOneLine(res);
      expect(res.stderr.trim()).toBe(
        `Cannot reach Redis at 127.0.0.1:${port} (REDIS_URL): connection refused (nothing listens there). ` +
          'Start Redis there or correct REDIS_URL; or unset REDIS_URL to run jobs in-process (`npm start`, one process).',
      );
    }
  });
});

describe('the start-up checks', () => {
  it('name host:port without credentials, with the default port when the URL has none', () => {
    expect(hostPortOf('postgres://me:secret@db.internal:6543/energy', 5432)).toBe('db.internal:6543');
    expect(hostPortOf('postgresql://me:secret@db.internal/energy', 5432)).toBe('db.internal:5432');
    expect(hostPortOf('rediss://:secret@cache.internal', 6379)).toBe('cache.internal:6379');
  });

  it('Redis refused: the one line a web process logs as its warning (and a worker exits with)', async () => {
    const port = await freePort();
    expect(await redisStartupProblem(`redis://:secret@127.0.0.1:${port}`)).toBe(
      `Cannot reach Redis at 127.0.0.1:${port} (REDIS_URL): connection refused (nothing listens there). ` +
        'Start Redis there or correct REDIS_URL; or unset REDIS_URL to run jobs in-process (`npm start`, one process).',
    );
  });

  // Jest "did not exit" after this file: ioredis's disconnect() of the refused client left a 2 s timer.
  it('Redis refused: the check leaves no timer behind, so a process that asked can exit at once', async () => {
    const port = await freePort();
    const script = `require('./src/platform/startup-error.ts').redisStartupProblem('redis://127.0.0.1:${port}')
      .then(() => setImmediate(() => process.stdout.write(JSON.stringify(process.getActiveResourcesInfo()))));`;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT });
    expect(JSON.parse(stdout)).not.toContain('Timeout');
  });

  (process.env.REDIS_URL ? it : it.skip)('Redis that answers: no problem', async () => {
    expect(await redisStartupProblem(process.env.REDIS_URL!)).toBeUndefined();
  });
});
