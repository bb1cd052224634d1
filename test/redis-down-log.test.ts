/**
 * Issue 51 item 6: with REDIS_URL on a closed port `npm start` served on, with its one documented
 * warning, but then logged every failed reconnect of every Redis client (and BullMQ's, once per
 * queue) with its stack, several times a second. Now an outage is one line when it starts (at
 * start-up, that warning) and one when Redis answers again (platform/redis.ts logOutages).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CONFIG_VARIABLES } from '../src/platform/config';
import { openDatabase } from '../src/platform/db/client';
import { writeSystemState } from '../src/platform/db/system-state';
import { REFERENCE_DATA_VERSION, REFERENCE_IMPORT_KEY } from '../src/modules/tariffs/importer';
import { templatePath } from './helpers/template';
import pino from 'pino';
import type { Redis } from 'ioredis';
import { closeRedisClient, createRedisClient } from '../src/platform/redis';
import { closeRedis, producerConnection } from '../src/platform/queue/redis';
import { freePort } from './helpers/net';
import { bulk, parseCommand } from './helpers/resp';

const ROOT = path.resolve(__dirname, '..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface LogLine {
  level?: number;
  msg?: string;
  url?: string;
}

describe('npm start with REDIS_URL on a closed port', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-api-redis-log-'));
  let redisPort = 0;
  let output = '';
  const statuses: Record<string, number[]> = {};

  beforeAll(async () => {
    // A data folder whose reference data counts as imported (none is needed here), so the start
    // takes seconds rather than the first start's import.
    const database = await openDatabase({
      pgliteDir: path.join(dataDir, 'pglite'),
      pgliteTemplate: new Blob([fs.readFileSync(templatePath())]),
    });
    await writeSystemState(database.db, REFERENCE_IMPORT_KEY, JSON.stringify({ version: REFERENCE_DATA_VERSION }), new Date());
    await database.close();

    redisPort = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of [...CONFIG_VARIABLES, 'NODE_ENV']) delete env[name];
    Object.assign(env, { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', REDIS_URL: `redis://127.0.0.1:${redisPort}` });
    const child = spawn(process.execPath, ['scripts/start.mjs', 'all'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      let url: string | undefined;
      while (!url && child.exitCode === null) {
        await sleep(100);
        url = /"msg":"ready: (http:\/\/localhost:\d+) /.exec(output)?.[1];
      }
      if (!url) throw new Error(`the service exited before it was ready:\n${output}`);
      // A few seconds of requests while every client retries Redis in the background.
      const count = (name: string, status: number) => (statuses[name] ??= []).push(status);
      const email = `redis-log-${Date.now()}@example.com`;
      const register = await fetch(`${url}/api/v1/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'Kilowatt42', full_name: 'Pat' }),
      });
      count('register', register.status);
      const login = await fetch(`${url}/api/v1/auth/login`, {
        method: 'POST',
        body: new URLSearchParams({ username: email, password: 'Kilowatt42' }),
      });
      count('login', login.status);
      const auth = { authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` };
      for (let round = 0; round < 8; round++) {
        count('health', (await fetch(`${url}/health`)).status);
        count('search', (await fetch(`${url}/api/v1/tariffs/search?zip_code=94103`)).status);
        count('me', (await fetch(`${url}/api/v1/auth/me`, { headers: auth })).status);
        await sleep(500);
      }
      // One request that queues a job (a rate analysis): its enqueue fails and is logged.
      const property = await fetch(`${url}/api/v1/pm/properties`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Elm',
          address: '1 Elm St',
          city: 'Ann Arbor',
          state: 'MI',
          zip_code: '48104',
          property_type: 'residential',
          unit_count: 4,
        }),
      });
      count('property', property.status);
      await sleep(1000);
    } finally {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);

  it('serves: health says degraded, the rest answers as usual', () => {
    expect(statuses).toEqual({
      register: [201],
      login: [200],
      health: Array(8).fill(503),
      search: Array(8).fill(200),
      me: Array(8).fill(200),
      property: [201],
    });
  });

  it('logs no stack trace', () => {
    const stackLines = output.split('\n').filter((line) => /^\s+at \S/.test(line) || /\\n\s+at \S/.test(line));
    expect(stackLines).toEqual([]);
    expect(output).not.toContain('Unhandled error event');
  });

  it('says Redis is unreachable once, in the start-up warning that names the fix', () => {
    const lines = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);
    const aboutRedis = lines.filter((l) => /redis/i.test(l.msg ?? ''));
    expect(aboutRedis.map((l) => [l.level, l.msg])).toEqual([
      [
        40,
        `Cannot reach Redis at 127.0.0.1:${redisPort} (REDIS_URL): connection refused (nothing listens there). ` +
          'Start Redis there or correct REDIS_URL; or unset REDIS_URL to run jobs in-process (`npm start`, one process). ' +
          'Until it answers, this process serves degraded (GET /health says so).',
      ],
    ]);
    // The request log has its line per 5xx answer (the eight 503s of /health); otherwise the warnings are that
    // one and the work the new property could not queue (a line each), nothing per retry, client or queue.
    const warnings = lines.filter((l) => (l.level ?? 0) >= 40);
    expect(warnings.filter((l) => l.msg === 'request errored')).toHaveLength(8);
    const others = warnings.filter((l) => l.msg !== 'request errored');
    expect(others[0]).toBe(aboutRedis[0]);
    expect(others.length).toBeLessThanOrEqual(3);
  });
});

/** A Redis that answers the connection handshake and PING, and can go away and come back on its port. */
class FakeRedis {
  port = 0;
  private server?: net.Server;
  private sockets = new Set<net.Socket>();

  async start(): Promise<void> {
    const server = net.createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
      let buffer = '';
      socket.on('data', (chunk) => {
        buffer += chunk.toString('latin1');
        for (let parsed = parseCommand(buffer); parsed; parsed = parseCommand(buffer)) {
          buffer = buffer.slice(parsed.length);
          const name = parsed.args[0].toUpperCase();
          if (name === 'INFO') socket.write(bulk('# Server\r\nredis_version:7.2.0\r\nloading:0\r\n'));
          else if (name === 'PING') socket.write('+PONG\r\n');
          else socket.write('+OK\r\n');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !condition(); i++) await sleep(50);
  expect(condition()).toBe(true);
}

describe('a Redis that goes away and comes back, seen by several clients', () => {
  const redis = new FakeRedis();
  const lines: Array<{ level: number; msg: string } & Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  let counters: Redis;
  let producer: Redis;

  beforeAll(async () => {
    await redis.start();
    counters = createRedisClient(`redis://127.0.0.1:${redis.port}`, logger);
    producer = producerConnection(`redis://127.0.0.1:${redis.port}`, logger);
    await until(() => counters.status === 'ready' && producer.status === 'ready');
  });
  afterAll(async () => {
    await closeRedisClient(counters);
    await closeRedis(producer);
    await redis.stop();
  });

  it('logs one line when it goes (not one per client or per reconnect attempt) and one when it is back, without a stack', async () => {
    expect(lines).toEqual([]);
    await redis.stop();
    let attempts = 0;
    producer.on('reconnecting', () => attempts++);
    // Both clients fail and retry, several times each.
    await until(() => attempts >= 3);
    const where = `127.0.0.1:${redis.port}`;
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [40, expect.stringMatching(new RegExp(`^Redis at ${where} \\(REDIS_URL\\) is unreachable: .+\\. Retrying in the background`))],
    ]);

    await redis.start();
    await until(() => counters.status === 'ready' && producer.status === 'ready');
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [40, expect.stringMatching(/is unreachable/)],
      [30, `Redis at ${where} (REDIS_URL) answers again: rate limits, quotas and job queueing use it again.`],
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/"stack"|\\n\s+at /);
  });
});
