/**
 * Issue 51 item 6: each block of the README's tour works pasted as is into bash. This runs them as
 * a reader would, in order and in one shell: the tour's first block starts `npm start` (on a fresh
 * data folder, embedded database, in-process jobs) and waits for it, the "A bill in two minutes"
 * block of "Run it" goes next, and the last block stops the server. Only the ports are changed (the
 * machine may be running other servers on 8000 and 9100), and `npm start` runs in the checkout
 * while the shell's own folder (the statement and CSV the tour downloads) is a temporary one.
 * No timing is asserted: the first start imports the reference data, however long that takes here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CONFIG_VARIABLES } from '../src/platform/config';

const ROOT = path.resolve(__dirname, '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The body of every ```bash block of the section that starts with `heading`, up to the next heading of its level or above. */
function bashBlocks(heading: string): string[] {
  const start = README.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README has no "${heading}" section`);
  const level = /^#+/.exec(heading)![0].length;
  // Up to the next heading of that level or above; a line of a code block that starts with `#` is a comment.
  const lines = README.slice(start + heading.length + 2).split('\n');
  let inCode = false;
  let end = lines.length;
  for (const [i, line] of lines.entries()) {
    if (line.startsWith('```')) inCode = !inCode;
    else if (!inCode && new RegExp(`^#{1,${level}} `).test(line)) {
      end = i;
      break;
    }
  }
  const section = `\n${lines.slice(0, end).join('\n')}`;
  return [...section.matchAll(/\n```bash\n([\s\S]*?)\n```/g)].map((m) => m[1]);
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** `text` with every `from` replaced, failing when there is none (the README changed under the test). */
function replaceAll(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`the tour no longer says ${from}`);
  return text.split(from).join(to);
}

const MARK = '@@tour-block';

describe("the README's tour, pasted block by block into bash", () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-api-tour-'));
  let shell: ChildProcess | undefined;
  let output = '';
  let exitCode: number | null = null;
  let apiPort = 0;
  let pmsPort = 0;
  const blocks = new Map<string, string>();

  beforeAll(async () => {
    apiPort = await freePort();
    pmsPort = await freePort();
    const tour = bashBlocks('## Tour');
    const twoMinutes = bashBlocks('### A bill in two minutes');
    expect(twoMinutes).toHaveLength(1);
    const ordered = [tour[0], twoMinutes[0], ...tour.slice(1)];
    let script = ordered.map((block, i) => `echo '${MARK} ${i} start'\n${block}\necho '${MARK} ${i} end'`).join('\n');
    script = replaceAll(script, 'localhost:8000', `localhost:${apiPort}`);
    script = replaceAll(script, '127.0.0.1:9100', `127.0.0.1:${pmsPort}`);
    script = replaceAll(script, '.listen(9100)', `.listen(${pmsPort})`);
    script = replaceAll(script, 'npm start', `npm --prefix '${ROOT}' start`);
    fs.writeFileSync(path.join(workDir, 'tour.sh'), script);

    // The environment of a reader's shell: none of the service's settings (not the test suite's
    // DATABASE_URL or REDIS_URL either), a fresh data folder, and the port the blocks now name.
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of [...CONFIG_VARIABLES, 'NODE_ENV']) delete env[name];
    Object.assign(env, { DATA_DIR: path.join(workDir, 'data'), PORT: String(apiPort) });

    // Its own process group, so that whatever the tour fails to stop is stopped below.
    shell = spawn('bash', ['tour.sh'], { cwd: workDir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    shell.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    shell.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    exitCode = await new Promise<number | null>((resolve) => shell!.once('exit', (code) => resolve(code)));
    for (const m of output.matchAll(new RegExp(`${MARK} (\\d+) start\\n([\\s\\S]*?)${MARK} \\1 end`, 'g'))) {
      blocks.set(m[1], m[2]);
    }
    blocks.set('count', String(ordered.length));
  }, 600_000);

  afterAll(() => {
    // The tour stops its own processes; this is only for a tour that broke off half-way.
    if (shell?.pid) {
      try {
        process.kill(-shell.pid, 'SIGTERM');
      } catch {
        // the group is gone: everything stopped
      }
    }
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  const block = (i: number) => {
    const text = blocks.get(String(i));
    if (text === undefined) throw new Error(`block ${i} did not finish; the shell's output:\n${output.slice(-4000)}`);
    return text;
  };

  it('runs to its end: every block finished, then the shell exited', () => {
    expect(exitCode).toBe(0);
    for (let i = 0; i < Number(blocks.get('count')); i++) block(i);
  });

  it('starts the API and waits until it answers', () => {
    expect(block(0)).toContain('"status":"healthy"');
  });

  it('finds tariffs and prices the first bill', () => {
    expect(block(1)).toContain('"line_items":[');
    expect(block(1)).toContain('5a382b5d5457a31d47d2dd7f');
  });

  it('registers, logs in, and uses the token and the API key', () => {
    expect(block(2).match(/"email":"pm@example.com"/g)).toHaveLength(3);
  });

  it('prices a month on the water tariff at $31.51, and audits a $40.00 bill on it', () => {
    expect(block(3)).toMatch(/"total_cost":31\.51\b/);
    expect(block(4)).toContain('8.49');
  });

  it('splits the building: unit 102 pays $337.50 plus a $16.88 fee', () => {
    expect(block(5)).toContain('337.5');
    expect(block(5)).toContain('16.88');
    expect(fs.readFileSync(path.join(workDir, 'statement-102.html'), 'utf8')).toContain('Ben Okafor');
  });

  it('links the building to the stand-in PMS, posts February, and the provider receives the charges', () => {
    expect(block(6)).toContain('provider got a charge:');
    expect(block(6)).toContain('"status":"posted"');
  });

  it('records a bill and reads the dashboards', () => {
    expect(block(7)).toContain('"cost_by_utility"');
  });

  it('accepts a signed webhook, shows it in the log, and lists no dead letters with the admin token', () => {
    expect(block(8)).toContain('"status":"accepted"');
    expect(block(8)).toMatch(/"items":\[\],"total":0/);
  });

  it('answers a retried POST with the first answer', () => {
    expect(block(9)).toMatch(/idempotent-replayed: true/i);
  });

  it('stops everything it started', async () => {
    block(10);
    expect(await listening(apiPort)).toBe(false);
    expect(await listening(pmsPort)).toBe(false);
  });

  it('answers no request with an error body', () => {
    const errors = output.match(/\{"detail":"[^"]*"/g) ?? [];
    expect(errors).toEqual([]);
  });
});
