import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { requestLog } from './request-log';

/** An app with the request log writing to memory, and routes that succeed, fail and never answer. */
function site(enabled = true, level = 'info') {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level }, sink);
  const app = express();
  app.use(requestLog(logger, { enabled }));
  // Counts closed responses; registered after the request log, so its 'close' listener runs after the log line is written.
  const closes = new EventEmitter();
  let closed = 0;
  app.use((_req, res, next) => {
    res.once('close', () => {
      closed++;
      closes.emit('close');
    });
    next();
  });
  /** Resolves once `n` responses have closed, so each of their lines is written (or was never to be). */
  const closedResponses = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (closed < n) return;
        closes.off('close', check);
        resolve();
      };
      closes.on('close', check);
      check();
    });
  app.get('/ok', (req, res) => {
    res.json({ id: req.id });
  });
  app.get('/boom', (_req, res) => {
    res.status(503).json({ detail: 'x' });
  });
  app.get('/fail', (_req, res) => {
    res.status(500).json({ detail: 'Internal Server Error' });
  });
  return { app, lines, closedResponses };
}

describe('request log', () => {
  it('writes one flat line per request with its id, method, url, status and time', async () => {
    const s = site();
    const res = await request(s.app).get('/ok?x=1').expect(200);
    await s.closedResponses(1);
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body).toEqual({ id });
    expect(s.lines).toHaveLength(1);
    expect(s.lines[0]).toMatchObject({ level: 30, msg: 'request completed', reqId: id, method: 'GET', url: '/ok?x=1', statusCode: 200 });
    expect(typeof s.lines[0].responseTime).toBe('number');
    expect(s.lines[0]).not.toHaveProperty('req');
  });

  it('keeps a valid incoming X-Request-Id and replaces one that is not', async () => {
    const s = site();
    expect((await request(s.app).get('/ok').set('X-Request-Id', 'abc.DEF-1_2')).headers['x-request-id']).toBe('abc.DEF-1_2');
    const replaced = (await request(s.app).get('/ok').set('X-Request-Id', 'bad id with spaces')).headers['x-request-id'];
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
    expect((await request(s.app).get('/ok').set('X-Request-Id', 'a'.repeat(129))).headers['x-request-id']).toHaveLength(36);
  });

  it('logs a 500 as an error and other statuses at info', async () => {
    const s = site();
    await request(s.app).get('/fail').expect(500);
    await request(s.app).get('/boom').expect(503);
    await request(s.app).get('/nowhere').expect(404);
    await s.closedResponses(3);
    expect(s.lines.map((l) => [l.level, l.msg, l.statusCode])).toEqual([
      [50, 'request errored', 500],
      [50, 'request errored', 503],
      [30, 'request completed', 404],
    ]);
  });

  it('writes nothing when disabled or below info, and still sets the id', async () => {
    for (const s of [site(false), site(true, 'warn')]) {
      const res = await request(s.app).get('/ok').expect(200);
      await s.closedResponses(1);
      expect(res.headers['x-request-id']).toBeDefined();
      expect(s.lines).toEqual([]);
    }
  });
});
