import { execFile, execFileSync, spawn } from 'node:child_process';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every process below `pid`, from `ps`. */
function descendantsOf(pid: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number));
  const found: number[] = [];
  for (let frontier = [pid]; frontier.length > 0;) {
    frontier = rows.filter(([, ppid]) => frontier.includes(ppid)).map(([child]) => child);
    found.push(...frontier);
  }
  return found;
}
const commandOf = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
};
const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};
const ROOT = path.resolve(__dirname, '..');

/** Runs `node <args>` in the checkout; resolves with the exit code and output whatever the code. */
async function node(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('npm start (scripts/start.mjs over the dist/ build)', () => {
  it('builds dist/ from the sources and writes nothing when they did not change', async () => {
    await node(['scripts/build.mjs']);
    const again = await node(['scripts/build.mjs']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^dist\/: \d+ files, 0 changed/);
    for (const role of ['all', 'web', 'worker', 'scheduler']) {
      expect(fs.existsSync(path.join(ROOT, 'dist', 'workers', `${role}.js`))).toBe(true);
    }
    expect(fs.existsSync(path.join(ROOT, 'dist', 'src', 'app.js'))).toBe(true);
    expect(fs.readdirSync(path.join(ROOT, 'dist', 'src', 'platform', 'http')).some((f) => f.endsWith('.test.js'))).toBe(false);
  });

  it('runs the built role: its whole module graph loads and the config check answers with the variable', async () => {
    // An invalid PORT stops start-up after every module is loaded, before anything listens or writes.
    const res = await node(['scripts/start.mjs', 'web'], { PORT: 'not-a-port', DATABASE_URL: '', REDIS_URL: '' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('PORT');
  });

  it('refuses an unknown role with its usage', async () => {
    const res = await node(['scripts/start.mjs', 'webb']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('usage: node scripts/start.mjs <all|web|worker|scheduler>');
  });

  it('finds data/ and drizzle/ from the built code as from the sources', async () => {
    const res = await node(['-e', 'console.log(require("./dist/src/platform/paths.js").PROJECT_ROOT)']);
    expect(res.stdout.trim()).toBe(ROOT);
  });

  it("`kill <pid of npm start>` stops the service: the script execs node, so npm's SIGTERM and SIGINT reach it", async () => {
    // Before: npm passed the signal to `sh -c`, which died and left node running with no parent.
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-api-start-'));
      const npm = spawn('npm', ['start'], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', DATABASE_URL: '', REDIS_URL: '' },
        stdio: 'ignore',
      });
      let tree: number[] = [];
      try {
        // Wait until node (npm's child or grandchild) runs scripts/start.mjs.
        for (let i = 0; i < 200 && !tree.some((pid) => commandOf(pid).includes('scripts/start.mjs')); i++) {
          await sleep(50);
          tree = descendantsOf(npm.pid!);
        }
        expect(tree.some((pid) => commandOf(pid).includes('scripts/start.mjs'))).toBe(true);
        npm.kill(signal);
        // Up to a minute: the shutdown closes the embedded database, which a loaded machine slows; the test checks that it ends.
        for (let i = 0; i < 1200 && tree.some(isAlive); i++) await sleep(50);
        expect(tree.filter(isAlive)).toEqual([]);
      } finally {
        for (const pid of tree.filter(isAlive)) process.kill(pid, 'SIGKILL');
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }, 300_000);

  it('first start prints its progress: each reference-data stage with its counts, then the URL when ready', async () => {
    // Issue 51 item 6: the first start was a minute or two of silence.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-api-first-start-'));
    const child = spawn(process.execPath, ['scripts/start.mjs', 'all'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: '', REDIS_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: Array<{ msg: string; stage?: string; url?: string } & Record<string, unknown>> = [];
    let rest = '';
    const ready = new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop()!;
        for (const part of parts) {
          const line = JSON.parse(part) as (typeof lines)[number];
          lines.push(line);
          if (line.msg.startsWith('ready: ')) resolve(line.url!);
        }
      });
      child.on('exit', (code) => reject(new Error(`exited ${code} before it was ready`)));
    });
    try {
      const url = await ready;
      const msgs = lines.map((l) => l.msg);
      expect(msgs[0]).toBe('first start: importing the bundled reference data (tariffs, utilities, ZIP codes); this takes a minute or two');
      // Every stage, in order, before the ready line; counts both in the words and as fields.
      const stages = lines.filter((l) => l.stage !== undefined);
      expect(stages.map((l) => l.stage)).toEqual(['read', 'utilities', 'zip_codes', 'tariffs', 'stats', 'analyze']);
      expect(stages.map((l) => l.msg)).toEqual([
        expect.stringMatching(/^reference data 1\/6: read [\d,]+ tariff records \([\d,]+ kept\), [\d,]+ utilities, [\d,]+ ZIP-code pairs$/),
        `reference data 2/6: stored ${(stages[0].utilities as number).toLocaleString('en-US')} utilities`,
        `reference data 3/6: stored ${(stages[0].zipCodePairs as number).toLocaleString('en-US')} ZIP-code pairs`,
        `reference data 4/6: stored ${(stages[0].tariffs as number).toLocaleString('en-US')} tariffs`,
        'reference data 5/6: counted tariffs per utility and refreshed the catalog statistics',
        'reference data 6/6: analyzed the tables for search',
      ]);
      expect(stages[0].tariffs).toBeGreaterThan(10_000);
      expect(stages[0].utilities).toBeGreaterThan(1_000);
      expect(stages[0].zipCodePairs).toBeGreaterThan(10_000);
      expect(msgs.indexOf(`ready: ${url} (API reference at ${url}/docs)`)).toBeGreaterThan(
        msgs.indexOf('reference data 6/6: analyzed the tables for search'),
      );
      // The URL it prints answers.
      expect(url).toMatch(/^http:\/\/localhost:\d+$/);
      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 600_000);

  it('starts every role with plain node: no V8 flags in the scripts, the Dockerfile or compose', () => {
    const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    for (const role of ['web', 'worker', 'scheduler']) expect(scripts[`start:${role}`]).toBe(`exec node scripts/start.mjs ${role}`);
    expect(scripts.start).toBe('exec node scripts/start.mjs all');
    expect(read('Dockerfile')).toContain('CMD ["node", "dist/workers/web.js"]');
    expect(read('docker-compose.yml')).not.toMatch(/--(no-memory-reducer|\w+-space-size)/);
    expect(fs.existsSync(path.join(ROOT, 'workers', 'v8-tuning.ts'))).toBe(false);
  });
});
