import net from 'node:net';
import { createLogger } from '../../platform/logger';
import { FakePmsProvider, fakeUnit } from '../../../test/helpers/fake-pms';
import { CircuitBreaker } from './breaker';
import { PmsProviderError, createPmsProviderClient, type ProviderClientOptions } from './provider-client';

const logger = createLogger('silent');

describe('PMS provider client', () => {
  const fake = new FakePmsProvider();
  let url: string;
  beforeAll(async () => {
    url = await fake.start();
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.behaviour = undefined;
    fake.pageSize = 2;
    fake.setUnits(
      'c1',
      'p1',
      [0, 1, 2, 3, 4].map((i) => fakeUnit(i, 'p1')),
    );
  });

  // A time-out the tests of time-outs set themselves (50 ms); the others allow a loaded CI machine 5 s a call
  // (200 ms once timed out a page, and its retry broke the page sequence asserted below).
  const client = (o: Partial<ProviderClientOptions> = {}) =>
    createPmsProviderClient({ apiUrl: url, apiKey: 'key-1', timeoutMs: 5000, logger, backoffMs: 1, ...o });

  const failure = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PmsProviderError);
    return err as PmsProviderError;
  };

  it('follows next_page to the end with the bearer key, connection and property', async () => {
    const units = await client().fetchUnits('c1', 'p1');
    expect(units.map((u) => u.id)).toEqual(['u0', 'u1', 'u2', 'u3', 'u4']);
    expect(fake.requests.map((r) => r.query.page)).toEqual(['1', '2', '3']);
    expect(
      fake.requests.every((r) => r.authorization === 'Bearer key-1' && r.query.connection_id === 'c1' && r.query.property_id === 'p1'),
    ).toBe(true);
    expect(fake.requests[0].path).toBe('/v1/units');
  });

  it('keeps a path prefix of PMS_API_URL', async () => {
    fake.behaviour = (r, res) => {
      if (r.path !== '/base/v1/units') return false;
      res.end(JSON.stringify({ data: [fakeUnit(9, 'p1')], meta: { page: 1, next_page: null } }));
      return true;
    };
    const units = await client({ apiUrl: `${url}/base` }).fetchUnits('c1', 'p1');
    expect(units.map((u) => u.id)).toEqual(['u9']);
  });

  it('retries a 5xx and goes on', async () => {
    let failures = 1;
    fake.behaviour = (_r, res) => {
      if (failures-- <= 0) return false;
      res.writeHead(503).end();
      return true;
    };
    expect(await client().fetchUnits('c1', 'p1')).toHaveLength(5);
    expect(fake.requests).toHaveLength(4);
  });

  it('gives up after 3 tries of a 500, retryable', async () => {
    fake.behaviour = (_r, res) => {
      res.writeHead(500).end('oops');
      return true;
    };
    const err = await failure(client().fetchUnits('c1', 'p1'));
    expect(err.reason).toBe('HTTP 500 (3 tries)');
    expect(err.retryable).toBe(true);
    expect(fake.requests).toHaveLength(3);
  });

  it('gives up after 3 time-outs', async () => {
    fake.behaviour = () => true; // never answers
    const err = await failure(client({ timeoutMs: 50 }).fetchUnits('c1', 'p1'));
    expect(err.reason).toBe('time-out after 50 ms (3 tries)');
    expect(fake.requests).toHaveLength(3);
  });

  it('a body that stops half-way times out too', async () => {
    fake.behaviour = (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data": [');
      return true;
    };
    const err = await failure(client({ timeoutMs: 50 }).fetchUnits('c1', 'p1'));
    expect(err.reason).toMatch(/^time-out after 50 ms/);
  });

  it('a network error is retried, then reported', async () => {
    const err = await failure(client({ apiUrl: 'http://127.0.0.1:1' }).fetchUnits('c1', 'p1'));
    expect(err.reason).toMatch(/^network error .*\(3 tries\)$/);
  });

  it("a network error names its cause's code, as the charges client does (http-options.ts callFailure)", async () => {
    // A port nothing listens on: this one was free a moment ago.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const err = await failure(client({ apiUrl: `http://127.0.0.1:${port}` }).fetchUnits('c1', 'p1'));
    expect(err.reason).toBe('network error (ECONNREFUSED) (3 tries)');
  });

  it.each([
    ['garbage JSON', (res: import('node:http').ServerResponse) => res.end('<html>oops'), 'the answer is not JSON'],
    [
      'a JSON answer of the wrong shape',
      (res: import('node:http').ServerResponse) => res.end('{"items": []}'),
      'unexpected answer (data: field required)',
    ],
    ['a 404', (res: import('node:http').ServerResponse) => res.writeHead(404).end(), 'HTTP 404'],
    [
      'an invalid unit',
      (res: import('node:http').ServerResponse) =>
        res.end(
          JSON.stringify({ data: [{ id: 'u', property_id: 'p1', unit_number: '1', status: 'gone' }], meta: { page: 1, next_page: null } }),
        ),
      'invalid unit on page 1',
    ],
  ])('%s fails at once, not retryable', async (_name, answer, reason) => {
    fake.behaviour = (_r, res) => {
      answer(res);
      return true;
    };
    const err = await failure(client().fetchUnits('c1', 'p1'));
    expect(err.reason.startsWith(reason)).toBe(true);
    expect(err.retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it('a later page failing loses the whole list (no partial result)', async () => {
    fake.behaviour = (r, res) => {
      if (r.query.page !== '3') return false;
      res.end('not json');
      return true;
    };
    await failure(client().fetchUnits('c1', 'p1'));
    expect(fake.requests.map((r) => r.query.page)).toEqual(['1', '2', '3']);
  });

  it('caps a pagination that never ends', async () => {
    fake.behaviour = (r, res) => {
      const page = Number(r.query.page);
      res.end(JSON.stringify({ data: [fakeUnit(page, 'p1')], meta: { page, next_page: page + 1 } }));
      return true;
    };
    const err = await failure(client({ maxPages: 20 }).fetchUnits('c1', 'p1'));
    expect(err.reason).toBe('more than 20 pages');
    expect(fake.requests).toHaveLength(20);
  });

  it('refuses a next_page that does not advance', async () => {
    fake.behaviour = (_r, res) => {
      res.end(JSON.stringify({ data: [], meta: { page: 1, next_page: 1 } }));
      return true;
    };
    expect((await failure(client().fetchUnits('c1', 'p1'))).reason).toBe('pagination does not advance (page 1, next_page 1)');
  });

  it('a unit listed twice counts once, the later listing winning', async () => {
    fake.setUnits('c1', 'p1', [fakeUnit(1, 'p1', { unit_number: 'old' }), fakeUnit(2, 'p1'), fakeUnit(1, 'p1', { unit_number: 'new' })]);
    const units = await client().fetchUnits('c1', 'p1');
    expect(units.map((u) => [u.id, u.unit_number])).toEqual([
      ['u1', 'new'],
      ['u2', '102'],
    ]);
  });

  it('a breaker stops calling a provider that keeps failing, for a while', async () => {
    let t = 0;
    const breaker = new CircuitBreaker({ threshold: 3, openMs: 1000, now: () => t });
    fake.behaviour = (_r, res) => {
      res.writeHead(502).end();
      return true;
    };
    const c = client({ breaker });
    await failure(c.fetchUnits('c1', 'p1')); // 3 tries: the breaker opens
    expect(fake.requests).toHaveLength(3);
    const refused = await failure(c.fetchUnits('c1', 'p1'));
    expect(refused.reason).toBe('circuit open after repeated failures');
    expect(fake.requests).toHaveLength(3);
    t = 1000;
    fake.behaviour = undefined;
    expect(await c.fetchUnits('c1', 'p1')).toHaveLength(5);
  });

  it('is not configured without URL or key', async () => {
    const c = client({ apiKey: undefined });
    expect(c.configured).toBe(false);
    expect((await failure(c.fetchUnits('c1', 'p1'))).reason).toBe('PMS_API_URL and PMS_API_KEY are not configured');
    expect((await failure(c.fetchConnection('c1'))).reason).toBe('PMS_API_URL and PMS_API_KEY are not configured');
  });

  describe('fetchConnection (the linking handshake)', () => {
    it('reports a connection with its reference, with the bearer key; null for one the provider does not know', async () => {
      fake.authorize('conn/1 ü', 'pmslink_token');
      expect(await client().fetchConnection('conn/1 ü')).toEqual({ id: 'conn/1 ü', reference: 'pmslink_token' });
      expect(fake.requests[0]).toMatchObject({ path: '/v1/connections/conn%2F1%20%C3%BC', authorization: 'Bearer key-1' });
      expect(await client().fetchConnection('nobody')).toBeNull();
      expect(await client().fetchConnection('..')).toBeNull();
      expect(fake.requests).toHaveLength(2);
    });

    it('a connection without a reference, or with none given, reports null', async () => {
      fake.behaviour = (r, res) => {
        res.end(JSON.stringify(r.path.endsWith('/a') ? { id: 'a', reference: null } : { id: 'b' }));
        return true;
      };
      expect(await client().fetchConnection('a')).toEqual({ id: 'a', reference: null });
      expect(await client().fetchConnection('b')).toEqual({ id: 'b', reference: null });
    });

    it("retries a 5xx up to 3 tries; another connection's record, garbage or a 401 fail at once", async () => {
      fake.behaviour = (_r, res) => {
        res.writeHead(503).end();
        return true;
      };
      const err = await failure(client().fetchConnection('c1'));
      expect(err.reason).toBe('HTTP 503 (3 tries)');
      expect(fake.requests).toHaveLength(3);
      fake.behaviour = (_r, res) => {
        res.end(JSON.stringify({ id: 'someone-else', reference: 'x' }));
        return true;
      };
      expect((await failure(client().fetchConnection('c1'))).reason).toBe('unexpected answer (the connection "someone-else" for "c1")');
      fake.behaviour = (_r, res) => {
        res.end('{"id": 7}');
        return true;
      };
      expect((await failure(client().fetchConnection('c1'))).reason).toMatch(/^unexpected answer \(id: /);
      fake.behaviour = (_r, res) => {
        res.writeHead(401).end();
        return true;
      };
      expect((await failure(client().fetchConnection('c1'))).reason).toBe('HTTP 401');
    });
  });
});
