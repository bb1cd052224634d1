import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/platform/db/client';
import { lockFileOf, type LockHolder } from '../src/platform/db/data-dir-lock';

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

/** A separate process that opens the embedded database in `folder`, then runs `then` (TypeScript through tsx). */
const holderProcess = (folder: string, then: string) => node(['--import', 'tsx', '-e', `
  const { openDatabase } = require('./src/platform/db/client.ts');
  openDatabase({ pgliteDir: ${JSON.stringify(folder)} }).then(async (database) => {
    process.stdout.write(String(process.pid));
    ${then}
  });`]);

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
      const second = await node(['scripts/start.mjs', 'all'], { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', DATABASE_URL: '', REDIS_URL: '' });
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
});
