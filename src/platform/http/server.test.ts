import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createHttpServer } from './server';

/** GETs or POSTs over one keep-alive agent, so consecutive requests share a socket. */
function call(port: number, agent: http.Agent, path: string, body?: object): Promise<{ status: number; body: unknown; socket: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request({
      port, host: '127.0.0.1', path, agent, method: payload ? 'POST' : 'GET',
      headers: payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {},
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text), socket: req.socket }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

describe('createHttpServer', () => {
  const app = express();
  const admin = express();
  admin.get('/who', (req, res) => {
    res.json({ sub: Object.getPrototypeOf(req) === admin.request });
  });
  app.use(express.json());
  app.use('/admin', admin);
  app.get('/hello', (req, res) => {
    res.status(201).json({ q: req.query.q, accept: req.get('accept') ?? null, proto: Object.getPrototypeOf(req) === app.request });
  });
  app.post('/echo', (req, res) => {
    res.json({ got: req.body as unknown });
  });
  const server = createHttpServer(app);
  // What each request and response looked like before Express touched them.
  const arrived: Array<{ req: boolean; res: boolean }> = [];
  server.prependListener('request', (req, res) => {
    arrived.push({ req: Object.getPrototypeOf(req) === app.request, res: Object.getPrototypeOf(res) === app.response });
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let port = 0;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    agent.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    arrived.length = 0;
  });

  it("creates every request and response with Express's prototypes, also the second one on a kept-alive socket", async () => {
    const first = await call(port, agent, '/hello?q=1');
    const second = await call(port, agent, '/hello?q=2');
    expect(second.socket).toBe(first.socket);
    expect(arrived).toEqual([{ req: true, res: true }, { req: true, res: true }]);
    expect(first).toMatchObject({ status: 201, body: { q: '1', accept: null, proto: true } });
    expect(second.body).toMatchObject({ q: '2' });
  });

  it('reads request bodies as a stock server does', async () => {
    const res = await call(port, agent, '/echo', { a: [1, 2], b: 'x' });
    expect(res).toMatchObject({ status: 200, body: { got: { a: [1, 2], b: 'x' } } });
  });

  it("lets a mounted app swap in its own prototypes and restores the parent's after it", async () => {
    expect((await call(port, agent, '/admin/who')).body).toEqual({ sub: true });
    expect((await call(port, agent, '/hello')).body).toMatchObject({ proto: true });
  });
});
