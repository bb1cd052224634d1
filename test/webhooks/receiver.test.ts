import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { createProperty } from '../pm/helpers';
import { createWebhookRepository } from '../../src/modules/webhooks/repository';
import { SECRET, client, deliver, nextTimestamp } from './helpers';
import { bindConnectionDirectly } from '../helpers/pms-link';
import { errorBody } from '../helpers/error-body';

const sha = (body: string | Buffer) => crypto.createHash('sha256').update(body).digest('hex');

describe('POST /api/webhooks/pms', () => {
  let t: TestApp;
  let token: string;
  const conn = 'conn-recv';
  const stored = (body: string | Buffer) => createWebhookRepository(t.deps.database.db).findBySha(sha(body));

  beforeAll(async () => {
    t = await createTestApp({ env: { PMS_WEBHOOK_SECRET: `old-secret-123, ${SECRET}` } });
    const alice = await registerUser(t);
    token = alice.token;
    const property = await createProperty(t, token);
    // No provider here to complete a link session with: the connection is bound as one from before them.
    await bindConnectionDirectly(t, token, conn);
    await client(t, token).put(`/pm/properties/${property.id}/pms`, { connection_id: conn, pms_property_id: 'p1' }).expect(200);
  });
  afterAll(() => t.stop());

  const ping = () => JSON.stringify({ event: 'test.ping', timestamp: nextTimestamp(), connection_id: conn, data: {} });

  it('answers test.ping with {"status": "ok"} and logs it as success', async () => {
    const body = ping();
    const res = await deliver(t, body).expect(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(await stored(body)).toMatchObject({ status: 'success', event: 'test.ping', connectionId: conn });
  });

  describe('logs every event with its resource_type as sent (null only when absent or not a string)', () => {
    const logged = async (body: string) => {
      const items: Array<{ payload: unknown; resource_type: unknown }> = (await client(t, token).logs('?limit=500').expect(200)).body.items;
      return items.find((i) => JSON.stringify(i.payload) === body);
    };

    it.each(['property', 'unit', 'parking_spot', ''])('test.ping with resource_type %j', async (resourceType) => {
      const body = JSON.stringify({
        event: 'test.ping',
        timestamp: nextTimestamp(),
        connection_id: conn,
        resource_type: resourceType,
        data: {},
      });
      expect((await deliver(t, body).expect(200)).body).toEqual({ status: 'ok' });
      expect(await logged(body)).toMatchObject({ event: 'test.ping', status: 'success', resource_type: resourceType });
    });

    it.each([
      ['an unknown event type', { event: 'lease.renewed', resource_type: 'lease' }, 'ignored'],
      ['an unknown resource type', { event: 'data.update', resource_type: 'parking_spot' }, 'ignored'],
      ['a resource_type that fails validation', { event: 'data.update', resource_type: '' }, 'failed'],
      ['a resource_type too long to be valid', { event: 'data.update', resource_type: 'u'.repeat(101) }, 'failed'],
      ['a body that fails validation elsewhere', { event: 'data.update', resource_type: 'unit', timestamp: 'yesterday' }, 'failed'],
      // Accepted into its stream (pending, or already applied): the applier is given no type, the log keeps it.
      [
        'sync.complete with a resource type it does not need',
        { event: 'sync.complete', connection_id: 'conn-nobody', resource_type: 'building' },
        expect.any(String),
      ],
    ])('%s', async (_name, over, status) => {
      const body = JSON.stringify({ timestamp: nextTimestamp(), connection_id: conn, data: { id: 'u1', property_id: 'p-none' }, ...over });
      await deliver(t, body).expect(200);
      expect(await stored(body)).toMatchObject({ status, resourceType: over.resource_type });
    });

    it('null when absent or not a string', async () => {
      const absent = ping();
      const numeric = JSON.stringify({ event: 'test.ping', timestamp: nextTimestamp(), connection_id: conn, resource_type: 7, data: {} });
      for (const body of [absent, numeric]) await deliver(t, body).expect(200);
      expect(await logged(absent)).toMatchObject({ resource_type: null });
      expect(await logged(numeric)).toMatchObject({ resource_type: null });
    });
  });

  it('accepts a signature by any configured secret (rotation)', async () => {
    await deliver(t, ping(), { secret: 'old-secret-123' }).expect(200);
    await deliver(t, ping(), { secret: SECRET }).expect(200);
  });

  it.each([
    ['no signature', null],
    ['a wrong secret', 'wrong'],
    ['a malformed header', 'sha256=xyz'],
  ])('rejects %s with 401 and stores nothing', async (_name, how) => {
    const body = ping();
    const signature = how === null ? null : how === 'wrong' ? undefined : how;
    const res = await deliver(t, body, signature === undefined ? { secret: 'wrong' } : { signature }).expect(401);
    expect(res.body).toEqual(errorBody({ detail: 'Invalid signature' }));
    expect(await stored(body)).toBeNull();
  });

  it('verifies the raw body: the same JSON re-serialised does not match', async () => {
    const body = ping();
    const spaced = JSON.stringify(JSON.parse(body), null, 2);
    const res = await request(t.app)
      .post('/api/webhooks/pms')
      .set('content-type', 'application/json')
      .set('X-Pms-Signature', `sha256=${crypto.createHmac('sha256', SECRET).update(body).digest('hex')}`)
      .send(spaced);
    expect(res.status).toBe(401);
  });

  it('stores an event before answering, and a second delivery of the same body is a duplicate', async () => {
    const body = JSON.stringify({
      event: 'data.new',
      timestamp: nextTimestamp(),
      connection_id: 'conn-unknown',
      resource_type: 'unit',
      data: { id: 'u1' },
    });
    const first = await deliver(t, body).expect(200);
    expect(first.body).toEqual({ status: 'accepted', id: expect.any(String) });
    const row = await stored(body);
    expect(row).toMatchObject({
      id: first.body.id,
      status: 'pending',
      connectionId: 'conn-unknown',
      seq: 1,
      event: 'data.new',
      resourceType: 'unit',
    });
    expect(row!.rawBody!.toString()).toBe(body);
    const again = await deliver(t, body).expect(200);
    expect(again.body).toEqual({ status: 'duplicate', id: first.body.id });
    const next = JSON.stringify({
      event: 'data.new',
      timestamp: nextTimestamp(),
      connection_id: 'conn-unknown',
      resource_type: 'unit',
      data: { id: 'u2' },
    });
    await deliver(t, next).expect(200);
    expect((await stored(next))!.seq).toBe(2); // no number lost to the duplicate
  });

  it.each([
    ['not JSON', 'hello', 'Body is not valid JSON'],
    ['a JSON array', '[1, 2]', 'Body is not a JSON object'],
    ['a missing event', JSON.stringify({ connection_id: conn, data: {} }), 'event: field required'],
    [
      'a number as connection_id',
      JSON.stringify({ event: 'data.update', timestamp: '2026-01-01T00:00:00Z', connection_id: 5, resource_type: 'unit', data: {} }),
      'connection_id: str type expected',
    ],
    [
      'data that is not an object',
      JSON.stringify({ event: 'data.update', timestamp: '2026-01-01T00:00:00Z', connection_id: conn, resource_type: 'unit', data: [] }),
      'data: value is not a valid dict',
    ],
    [
      'a NUL in the event name',
      JSON.stringify({ event: 'data\u0000new', connection_id: conn, data: {} }),
      'event: must not contain NUL characters',
    ],
  ])('logs a signed body with %s as failed, answered 200', async (_name, body, detail) => {
    const res = await deliver(t, body).expect(200);
    expect(res.body).toEqual({ status: 'failed', id: expect.any(String), detail });
    expect(await stored(body)).toMatchObject({ status: 'failed', detail, seq: null });
    // Unsigned, the same body is a 401.
    await deliver(t, body, { signature: null }).expect(401);
  });

  describe('signed bodies PostgreSQL or the applier cannot take are logged failed at once, answered 200', () => {
    const event = (over: Record<string, unknown>) =>
      JSON.stringify({
        event: 'data.update',
        timestamp: nextTimestamp(),
        connection_id: conn,
        resource_type: 'unit',
        data: { id: 'u1', property_id: 'p1' },
        ...over,
      });
    const NOT_ISO = 'timestamp: invalid ISO 8601 date-time, expected YYYY-MM-DDTHH:MM:SS[.fraction][Z|+HH:MM|-HH:MM]';
    it.each([
      ['a timestamp in year 0000', () => event({ timestamp: '0000-01-01T00:00:00Z' }), 'timestamp: year out of range (0001 to 9999)', conn],
      ["a timestamp past PostgreSQL's last year", () => event({ timestamp: '+294277-01-01T00:00:00Z' }), NOT_ISO, conn],
      [
        'a time zone offset PostgreSQL refuses',
        () => event({ timestamp: '2026-01-01T00:00:00+23:00' }),
        'timestamp: time zone offset out of range (-15:59 to +15:59)',
        conn,
      ],
      ['a timestamp without seconds or zone', () => event({ timestamp: '2026-01-01T00:00' }), NOT_ISO, conn],
      // JSON.stringify writes the lone surrogate as the escape \ud800, NUL as \u0000: the raw body is plain ASCII.
      [
        'a lone surrogate in connection_id',
        () => event({ connection_id: 'c\ud800' }),
        'connection_id: must be well-formed Unicode (no lone surrogates)',
        null,
      ],
      [
        'a lone surrogate in data',
        () => event({ data: { id: 'u1', property_id: 'p1', unit_number: '\udc00' } }),
        'data.unit_number: must be well-formed Unicode (no lone surrogates)',
        conn,
      ],
      [
        'a NUL in data',
        () => event({ data: { id: 'u1', property_id: 'p1', current_lease: { resident_name: 'A\u0000' } } }),
        'data.current_lease.resident_name: must not contain NUL characters',
        conn,
      ],
    ])('%s', async (_name, make, detail, connectionId) => {
      const body = make();
      const res = await deliver(t, body).expect(200);
      expect(res.body).toEqual({ status: 'failed', id: expect.any(String), detail });
      const row = await stored(body);
      expect(row).toMatchObject({ id: res.body.id, status: 'failed', detail, seq: null, connectionId, event: 'data.update' });
      expect(row!.rawBody!.toString()).toBe(body); // the body is kept as received
      // Final: a second delivery is a duplicate of it.
      expect((await deliver(t, body).expect(200)).body).toEqual({ status: 'duplicate', id: res.body.id });
    });
  });

  it('logs a signed body over 1 MB as failed without keeping it', async () => {
    const body = JSON.stringify({ event: 'data.update', connection_id: conn, data: { blob: 'x'.repeat(1024 * 1024) } });
    const res = await deliver(t, body).expect(200);
    expect(res.body).toMatchObject({ status: 'failed', detail: 'Body exceeds 1048576 bytes' });
    const row = await stored(body);
    expect(row).toMatchObject({ status: 'failed', rawBody: null, bodyBytes: Buffer.byteLength(body) });
    await deliver(t, body, { signature: null }).expect(401);
  });

  it('refuses a body over the read limit (Content-Length 200 MiB) with 413 without reading the rest', async () => {
    const server = http.createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      const answer = await new Promise<{ status: number; body: string; sentMiB: number }>((resolve, reject) => {
        let sent = 0;
        const req = http.request({
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/api/webhooks/pms',
          headers: { 'content-length': 200 * chunk.length },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body, sentMiB: sent }));
        });
        req.on('error', reject);
        const pump = () => {
          while (sent < 200 && req.write(chunk)) sent += 1;
          if (sent < 200)
            req.once('drain', () => {
              sent += 1;
              pump();
            });
        };
        pump();
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual(errorBody({ detail: 'Request body too large' }));
      expect(answer.sentMiB).toBeLessThan(200);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('logs an unknown event type as ignored', async () => {
    const body = JSON.stringify({ event: 'lease.renewed', timestamp: nextTimestamp(), connection_id: conn, data: {} });
    const res = await deliver(t, body).expect(200);
    expect(res.body).toEqual({ status: 'ignored', id: expect.any(String), detail: 'unknown event type' });
  });

  it("GET /api/webhooks/logs lists the caller's connections' events, newest first, with their payloads", async () => {
    const body = ping();
    await deliver(t, body).expect(200);
    const res = await client(t, token).logs('?limit=3').expect(200);
    expect(res.body.items).toHaveLength(3);
    expect(res.body.items[0]).toEqual({
      id: expect.any(String),
      received_at: expect.any(String),
      event: 'test.ping',
      resource_type: null,
      connection_id: conn,
      status: 'success',
      detail: null,
      payload: JSON.parse(body),
    });
    const times = res.body.items.map((i: { received_at: string }) => i.received_at);
    expect([...times].sort().reverse()).toEqual(times);
    // Another account sees none of them; events of unknown connections belong to nobody.
    const bob = await registerUser(t);
    expect((await client(t, bob.token).logs().expect(200)).body).toEqual({ items: [], total: 0, page: 1, per_page: 50, pages: 0 });
  });

  it('GET /api/webhooks/logs answers a page: items, total, page, per_page, pages', async () => {
    const all = (await client(t, token).logs('?per_page=500').expect(200)).body;
    expect(all.total).toBe(all.items.length);
    const second = (await client(t, token).logs('?page=2&per_page=2').expect(200)).body;
    expect(second).toEqual({ items: all.items.slice(2, 4), total: all.total, page: 2, per_page: 2, pages: Math.ceil(all.total / 2) });
    // limit, the earlier name of per_page, still works.
    expect((await client(t, token).logs('?limit=2').expect(200)).body).toMatchObject({ items: all.items.slice(0, 2), per_page: 2 });
  });

  it('GET /api/webhooks/logs: bearer token required, limit 1 to 500', async () => {
    await request(t.app).get('/api/webhooks/logs').expect(401);
    await client(t, token).logs('?limit=0').expect(422);
    await client(t, token).logs('?limit=501').expect(422);
    await client(t, token).logs('?limit=500').expect(200);
    await client(t, token).logs('?per_page=501').expect(422);
    await client(t, token).logs('?page=0').expect(422);
  });

  it('without PMS_WEBHOOK_SECRET every webhook gets 401', async () => {
    const bare = await createTestApp();
    try {
      await deliver(bare, ping()).expect(401);
    } finally {
      await bare.stop();
    }
  });

  it('is documented in /openapi.json', async () => {
    const doc = (await request(t.app).get('/openapi.json').expect(200)).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/webhooks/pms',
        '/api/webhooks/logs',
        '/api/v1/pm/properties/{id}/pms',
        '/api/v1/pm/properties/{id}/units',
        '/api/v1/admin/webhooks/{id}/replay',
        '/api/v1/admin/webhooks/dead-letters',
      ]),
    );
    expect(Object.keys(doc.paths['/api/v1/pm/properties/{id}/pms'])).toEqual(expect.arrayContaining(['put', 'get', 'delete']));
  });
});
