import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/platform/db/client';
import { HEARTBEAT_MS, lockFileOf, type LockHolder } from '../src/platform/db/data-dir-lock';
import { bootPlatform } from '../src/platform/bootstrap';
import { loadConfig } from '../src/platform/config';
import type { PlatformDeps } from '../src/context';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..');

/** Runs `node <args>` in the checkout; resolves with the exit code and output whatever the code. */
async function node(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 });
    return { code: 0 as number | string | null, signal: null as string | null, stdout, stderr };
  } catch (err) {
    const e = err as { code: number | string | null; signal: string | null; stdout: string; stderr: string };
    return { code: e.code, signal: e.signal, stdout: e.stdout, stderr: e.stderr };
  }
}

/** `npm start` (every role) on the embedded database of `dataDir`: no PostgreSQL, no Redis. */
const startEmbedded = (dataDir: string) =>
  node(['scripts/start.mjs', 'all'], { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', DATABASE_URL: '', REDIS_URL: '' });

/** A separate process that opens the embedded database in `folder`, then runs `then` (TypeScript through tsx). */
const holderProcess = (folder: string, then: string) =>
  node([
    '--import',
    'tsx',
    '-e',
    `
  const { openDatabase } = require('./src/platform/db/client.ts');
  openDatabase({ pgliteDir: ${JSON.stringify(folder)} }).then(async (database) => {
    process.stdout.write(String(process.pid));
    ${then}
  });`,
  ]);

/**
 * Issue 46 item 7: two `npm start` on one DATA_DIR both accepted writes, and after a restart one
 * side's users were gone. The embedded database's folder now belongs to one process.
 */
describe('one process per embedded database folder (DATA_DIR)', () => {
  let dataDir: string;
  let folder: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-api-datadir-'));
    folder = path.join(dataDir, 'pglite');
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('a second `npm start` on the same DATA_DIR refuses to start, says why, and exits 1', async () => {
    const database = await openDatabase({ pgliteDir: folder });
    try {
      const second = await startEmbedded(dataDir);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`The embedded database folder ${folder} is in use by process ${process.pid} on ${os.hostname()}`);
      expect(second.stderr).toContain('give this one its own DATA_DIR');
      expect(second.stderr).not.toContain('    at '); // the message, not a stack trace
      // The holder goes on working.
      await database.db.execute(sql`select 1`);
      expect((JSON.parse(fs.readFileSync(lockFileOf(folder), 'utf8')) as LockHolder).pid).toBe(process.pid);
    } finally {
      await database.close();
    }
  });

  it('a clean stop releases the folder: the lock file is gone and the next process opens it', async () => {
    const first = await holderProcess(folder, 'await database.close();');
    expect(first.code).toBe(0);
    expect(fs.existsSync(lockFileOf(folder))).toBe(false);
    const database = await openDatabase({ pgliteDir: folder });
    await database.close();
    expect(fs.existsSync(lockFileOf(folder))).toBe(false);
  });

  it('a holder that crashed (SIGKILL) leaves its lock behind, and the next start takes it over', async () => {
    const crashed = await holderProcess(folder, "process.kill(process.pid, 'SIGKILL');");
    expect(crashed.signal).toBe('SIGKILL');
    const stale = JSON.parse(fs.readFileSync(lockFileOf(folder), 'utf8')) as LockHolder;
    expect(stale.pid).toBe(Number(crashed.stdout));
    const database = await openDatabase({ pgliteDir: folder });
    try {
      expect((JSON.parse(fs.readFileSync(lockFileOf(folder), 'utf8')) as LockHolder).pid).toBe(process.pid);
    } finally {
      await database.close();
    }
  });

  describe('the lock file deleted while the server runs (by hand, by a clean-up script)', () => {
    let deps: PlatformDeps | undefined;
    beforeEach(() => {
      // Only the heartbeat's interval is faked: it runs when the test says, not after 10 s.
      jest.useFakeTimers({
        doNotFake: [
          'Date',
          'hrtime',
          'nextTick',
          'performance',
          'queueMicrotask',
          'setImmediate',
          'clearImmediate',
          'setTimeout',
          'clearTimeout',
        ],
      });
    });
    afterEach(async () => {
      jest.useRealTimers();
      await deps?.queue.close();
      await deps?.database.close();
      deps = undefined;
    });
    /** The platform as `npm start` boots it (bootstrap.ts wires the lock's events), on this DATA_DIR. */
    const boot = async () => {
      deps = await bootPlatform({ config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '', REDIS_URL: '' }) });
      return deps;
    };
    const lockHolder = () => JSON.parse(fs.readFileSync(lockFileOf(folder), 'utf8')) as LockHolder;

    it('is put back at the next heartbeat, so a second `npm start` is still refused and the server keeps its data', async () => {
      const { database } = await boot();
      fs.rmSync(lockFileOf(folder));
      jest.advanceTimersByTime(HEARTBEAT_MS);
      expect(lockHolder().pid).toBe(process.pid);
      const second = await startEmbedded(dataDir);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`The embedded database folder ${folder} is in use by process ${process.pid} on ${os.hostname()}`);
      await database.db.execute(sql`select 1`);
    });

    it('a server whose folder another process took meanwhile stops: it says why and exits 1', async () => {
      const exit = jest.spyOn(process, 'exit').mockImplementation(() => undefined as never);
      const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
      try {
        await boot();
        // What the process that started while the file was gone wrote in its place.
        fs.rmSync(lockFileOf(folder));
        fs.writeFileSync(
          lockFileOf(folder),
          JSON.stringify({
            pid: process.ppid,
            hostname: os.hostname(),
            boot_id: null,
            process_start: null,
            acquired_at: new Date().toISOString(),
          }),
        );
        jest.advanceTimersByTime(HEARTBEAT_MS);
        expect(exit).toHaveBeenCalledWith(1);
        expect(stderr).toHaveBeenCalledWith(
          expect.stringContaining(
            `The lock ${lockFileOf(folder)} of the embedded database folder ${folder} was deleted and process ${process.ppid} on ${os.hostname()}`,
          ),
        );
        expect(lockHolder().pid).toBe(process.ppid);
      } finally {
        exit.mockRestore();
        stderr.mockRestore();
      }
    });
  });
});
