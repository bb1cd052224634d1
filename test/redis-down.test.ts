import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { createTestApp, type TestApp } from './helpers/app';
import { loadConfig } from '../src/platform/config';
import { createLogger } from '../src/platform/logger';
import { createLimits, type Limits } from '../src/platform/http/limits';
import { REDIS_RETRY_AFTER_MS } from '../src/platform/redis';
import { freePort } from './helpers/net';
import { bulk, parseCommand } from './helpers/resp';

/**
 * A Redis that accepts the connection and its handshake, then stops answering commands (a stalled
 * server, or packets lost on the way) until `resume()`: it counts the commands it receives.
 */
class StalledRedis {
  commands: string[] = [];
  private answering = false;
  private held: Array<{ socket: net.Socket; args: string[] }> = [];
  private sockets = new Set<net.Socket>();
  private server = net.createServer((socket) => {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      for (let parsed = parseCommand(buffer); parsed; parsed = parseCommand(buffer)) {
        buffer = buffer.slice(parsed.length);
        this.reply(socket, parsed.args);
      }
    });
  });

  private reply(socket: net.Socket, args: string[]) {
    const name = args[0].toUpperCase();
    if (name === 'CLIENT') socket.write('+OK\r\n');
    else if (name === 'INFO') socket.write(bulk('# Server\r\nredis_version:7.2.0\r\nloading:0\r\n'));
    else {
      this.commands.push(name);
      if (!this.answering) {
        this.held.push({ socket, args });
        return;
      }
      this.answerCommand(socket, args);
    }
  }

  /** Answers the commands held so far, in order (as Redis would once back), and every later one. */
  resume() {
    this.answering = true;
    for (const { socket, args } of this.held.splice(0)) this.answerCommand(socket, args);
  }

  private answerCommand(socket: net.Socket, args: string[]) {
    const name = args[0].toUpperCase();
    // Counters: the quota's script answers one count per key.
    if (name === 'EVALSHA' || name === 'EVAL') socket.write(`*${Number(args[2])}\r\n${':1\r\n'.repeat(Number(args[2]))}`);
    else if (name === 'PING') socket.write('+PONG\r\n');
    else socket.write('+OK\r\n');
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `redis://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/**
 * Issue 46 item 8: with REDIS_URL set and Redis unreachable, /health answered 200 "healthy" while
 * every request was a second slower.
 */
describe('Redis unreachable', () => {
  describe('REDIS_URL on a closed port', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}` } });
    });
    afterAll(() => t.stop());

    it('GET /health answers 503 degraded and names Redis as the failing dependency', async () => {
      const res = await request(t.app).get('/health').expect(503);
      expect(res.body).toEqual({
        status: 'degraded',
        database: { status: 'up', driver: t.deps.database.kind },
        queue: { status: 'down', driver: 'bullmq' },
        rate_limits: { status: 'down', store: 'redis' },
        failing: ['redis'],
        detail: expect.stringContaining('Redis (REDIS_URL) is unreachable'),
        // Issue 49: how current the catalog is (this test app imports no reference data and has no URDB key).
        tariff_data: { imported_at: null, newest_effective_date: null, last_refresh: null, refresh_configured: false },
      });
    });

    it('still serves requests: rate-limited, quota-counted and job-queueing ones', async () => {
      const email = `redis-down-${Date.now()}@example.com`;
      await request(t.app).post('/api/v1/auth/register').send({ email, password: 'Kilowatt42', full_name: 'Pat' }).expect(201);
      const login = await request(t.app)
        .post('/api/v1/auth/login')
        .type('form')
        .send({ username: email, password: 'Kilowatt42' })
        .expect(200);
      const auth = `Bearer ${login.body.access_token}`;
      await request(t.app).get('/api/v1/auth/me').set('Authorization', auth).expect(200);
      // Queues a rate analysis: the enqueue fails at once and is logged; the property is stored.
      await request(t.app)
        .post('/api/v1/pm/properties')
        .set('Authorization', auth)
        .send({
          name: 'Elm',
          address: '1 Elm St',
          city: 'Ann Arbor',
          state: 'MI',
          zip_code: '48104',
          property_type: 'residential',
          unit_count: 4,
        })
        .expect(201);
    });
  });

  describe('a Redis that stops answering (the quota counter on a frozen clock)', () => {
    const redis = new StalledRedis();
    let limits: Limits;
    let now = new Date();
    let app: express.Express;
    beforeAll(async () => {
      const config = loadConfig({
        NODE_ENV: 'test',
        JWT_SECRET: 'test-secret-0123456789-abcdefghijklmnop',
        LOG_LEVEL: 'silent',
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'energy-api-redis-')),
        REDIS_URL: await redis.start(),
        QUOTA_FREE_PER_DAY: '5',
      });
      limits = createLimits({ config, logger: createLogger('silent'), now: () => now });
      app = express();
      app.get('/anything', limits.quota, (_req, res) => {
        res.json({ ok: true });
      });
    });
    afterAll(async () => {
      await limits.close();
      await redis.stop();
    });

    it('one request waits for Redis, bounded; then requests skip it without asking, until the retry time; a Redis back is used again', async () => {
      // The first request's counter command gets no answer: it times out (1 s) and the request is let through.
      await request(app).get('/anything').expect(200);
      const asked = redis.commands.length;
      expect(asked).toBeGreaterThan(0);
      // Redis is now known to be down: the next requests do not wait on it, they do not even ask it.
      for (let i = 0; i < 5; i++) {
        const res = await request(app).get('/anything').expect(200);
        expect(res.headers['ratelimit-limit']).toBeUndefined();
      }
      expect(redis.commands.length).toBe(asked);
      expect(await limits.storeStatus()).toEqual({ store: 'redis', up: false });
      expect(redis.commands.length).toBe(asked);

      // After the retry time, one trial: Redis answers again, and requests are counted again.
      redis.resume();
      now = new Date(now.getTime() + REDIS_RETRY_AFTER_MS);
      const counted = await request(app).get('/anything').expect(200);
      expect(counted.headers['ratelimit-limit']).toBe('5');
      expect(redis.commands.length).toBe(asked + 1);
      expect(await limits.storeStatus()).toEqual({ store: 'redis', up: true });
    });
  });
});
