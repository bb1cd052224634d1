import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { createProperty } from '../pm/helpers';
import { createWebhookRepository } from '../../src/modules/webhooks/repository';
import { MAX_JSON_DEPTH } from '../../src/modules/webhooks/json-depth';
import { READ_LIMIT_BYTES } from '../../src/modules/webhooks/receiver';
import { SECRET, client, deliver, nextTimestamp } from './helpers';
import { bindConnectionDirectly } from '../helpers/pms-link';
import { errorBody } from '../helpers/error-body';

const sha = (body: string | Buffer) => crypto.createHash('sha256').update(body).digest('hex');
/** A ping whose `data` nests `depth` arrays (the body itself is one level more). */
const nested = (conn: string, depth: number) =>
  `{"event":"test.ping","timestamp":"${nextTimestamp()}","connection_id":"${conn}","data":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}`;

/** Sends `total` bytes to the receiver with `headers`; resolves with the answer and how much was sent before it came. */
async function stream(t: TestApp, headers: Record<string, string | number>, total: number) {
  const server = http.createServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    return await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/api/webhooks/pms', headers });
      req.on('response', (res) => {
        answered = true;
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body, sent }));
      });
      // Writing on after the server closed the connection fails: expected once it has answered.
      req.on('error', (err) => (answered ? undefined : reject(err)));
      const pump = () => {
        while (!answered && sent < total && req.write(chunk)) sent += chunk.length;
        if (!answered && sent < total)
          req.once('drain', () => {
            sent += chunk.length;
            pump();
          });
      };
      pump();
    });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Issue 46 items 5 and 6: the receiver's limits (nesting depth, early refusals, body cap, rate limit). */
describe('POST /api/webhooks/pms limits', () => {
  let t: TestApp;
  let token: string;
  const conn = 'conn-limits';

  beforeAll(async () => {
    t = await createTestApp({ env: { PMS_WEBHOOK_SECRET: SECRET, RATE_LIMIT_WEBHOOK_REFUSED_PER_MIN: '10000' } });
    token = (await registerUser(t)).token;
    const property = await createProperty(t, token);
    // No provider here to complete a link session with: the connection is bound as one from before them.
    await bindConnectionDirectly(t, token, conn);
    await client(t, token).put(`/pm/properties/${property.id}/pms`, { connection_id: conn, pms_property_id: 'p1' }).expect(200);
  });
  afterAll(() => t.stop());

  it(`refuses a signed body nested deeper than ${MAX_JSON_DEPTH} levels with a 422, storing nothing`, async () => {
    const body = nested(conn, 20_000);
    const res = await deliver(t, body).expect(422);
    expect(res.body).toEqual(
      errorBody({
        detail: `JSON nested deeper than ${MAX_JSON_DEPTH} levels`,
        errors: [{ field: 'body', message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` }],
      }),
    );
    expect(await createWebhookRepository(t.deps.database.db).findBySha(sha(body))).toBeNull();
    await client(t, token).logs('?limit=500').expect(200);
  });

  it(`takes a body exactly ${MAX_JSON_DEPTH} levels deep (brackets inside strings do not count)`, async () => {
    const body = nested(conn, MAX_JSON_DEPTH - 2).replace(
      '"data":',
      '"note":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[","data":',
    );
    expect((await deliver(t, body).expect(200)).body).toEqual({ status: 'ok' });
  });

  it('the log answers 200 for a deeply nested body stored before the limit, showing it as text', async () => {
    const body = nested(conn, 20_000);
    const repo = createWebhookRepository(t.deps.database.db);
    await repo.insertFinal(
      {
        id: crypto.randomUUID(),
        sha256: sha(body),
        rawBody: Buffer.from(body),
        bodyBytes: body.length,
        receivedAt: new Date(),
        connectionId: conn,
        event: 'test.ping',
        resourceType: null,
      },
      'success',
      null,
    );
    const res = await client(t, token).logs('?limit=500').expect(200);
    const entry = res.body.items.find((i: { payload: unknown }) => i.payload === body);
    expect(entry).toMatchObject({ event: 'test.ping', connection_id: conn });
  });

  it('answers 401 to a request without a plausible signature before reading its body', async () => {
    const total = 16 * 1024 * 1024;
    const headerSets: Array<Record<string, string>> = [{}, { 'X-Pms-Signature': 'sha256=xyz' }, { 'X-Pms-Signature': 'md5=abc' }];
    for (const headers of headerSets) {
      // Without a length: only the header can tell.
      const answer = await stream(t, { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...headers }, total);
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toEqual(errorBody({ detail: 'Invalid signature' }));
      expect(answer.sent).toBeLessThan(total);
    }
  });

  it(`answers 413 at once to a Content-Length over ${READ_LIMIT_BYTES} bytes`, async () => {
    const total = READ_LIMIT_BYTES + 1;
    const answer = await stream(t, { 'content-length': total, 'X-Pms-Signature': `sha256=${'0'.repeat(64)}` }, total);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual(errorBody({ detail: 'Request body too large' }));
  });

  it(`reads at most ${READ_LIMIT_BYTES} bytes of a body sent without a length`, async () => {
    const total = 8 * 1024 * 1024;
    const answer = await stream(t, { 'transfer-encoding': 'chunked', 'X-Pms-Signature': `sha256=${'0'.repeat(64)}` }, total);
    expect(answer.status).toBe(413);
    expect(READ_LIMIT_BYTES).toBeLessThanOrEqual(4 * 1024 * 1024);
  });
});

describe('POST /api/webhooks/pms rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PMS_WEBHOOK_SECRET: SECRET, RATE_LIMIT_WEBHOOK_REFUSED_PER_MIN: '3' } });
  });
  afterAll(() => t.stop());

  const ping = () => JSON.stringify({ event: 'test.ping', timestamp: nextTimestamp(), connection_id: 'conn-rl', data: {} });

  it('counts only refused deliveries: signed ones pass however many; past the limit of refusals an address gets 429', async () => {
    for (let i = 0; i < 5; i++) await deliver(t, ping()).expect(200);
    for (let i = 0; i < 3; i++) await deliver(t, ping(), { signature: null }).expect(401);
    const limited = await deliver(t, ping(), { signature: null }).expect(429);
    expect(limited.body).toEqual(errorBody({ detail: 'Rate limit exceeded' }));
    expect(limited.headers['retry-after']).toBeDefined();
    // For the rest of the minute, that address is refused whatever it sends.
    await deliver(t, ping()).expect(429);
    // The API's own routes are not affected.
    await request(t.app).get('/api/v1/tariffs/stats').expect(200);
  });
});

describe('POST /api/webhooks/pms refusal limit under a burst', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PMS_WEBHOOK_SECRET: SECRET, RATE_LIMIT_WEBHOOK_REFUSED_PER_MIN: '3' } });
  });
  afterAll(() => t.stop());

  // Issue 46 item 9: a limiter that counts every request on arrival and forgives it once answered
  // refused a provider's burst while more than the limit were in flight (429s at 500 events/s).
  it('never refuses signed deliveries however many are in flight at once', async () => {
    const server = http.createServer(t.app);
    // The server's 'request' event: a delivery's headers have arrived, so it is in flight.
    let received = 0;
    let fiveInFlight!: () => void;
    const inFlightNow = new Promise<void>((resolve) => (fiveInFlight = resolve));
    server.on('request', () => {
      if (++received === 5) fiveInFlight();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const body = () => JSON.stringify({ event: 'test.ping', timestamp: nextTimestamp(), connection_id: 'conn-burst', data: {} });
      const sign = (b: string) => `sha256=${crypto.createHmac('sha256', SECRET).update(b).digest('hex')}`;
      /** Starts a delivery whose body arrives in two halves; `finish` sends the rest; `answer` is its status. */
      const slow = () => {
        const b = body();
        const req = http.request({
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/api/webhooks/pms',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(b), 'x-pms-signature': sign(b) },
        });
        const answer = new Promise<number>((resolve, reject) => {
          req.on('response', (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
          });
          req.on('error', reject);
        });
        req.write(b.slice(0, 10));
        req.flushHeaders();
        return { answer, finish: () => req.end(b.slice(10)) };
      };
      // Five deliveries in flight, more than the limit of three refusals, none of them refused.
      const inFlight = Array.from({ length: 5 }, slow);
      await inFlightNow;
      const another = slow();
      another.finish();
      expect(await another.answer).toBe(200);
      for (const d of inFlight) d.finish();
      expect(await Promise.all(inFlight.map((d) => d.answer))).toEqual([200, 200, 200, 200, 200]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
