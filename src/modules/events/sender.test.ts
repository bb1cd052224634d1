import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSender } from './sender';

/** One delivery attempt against receivers on the loopback interface (README "Retries", "Endpoint URLs and SSRF"). */
describe('a delivery attempt', () => {
  let answer: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.writeHead(204).end();
  const seen: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ headers: req.headers, body });
      answer(req, res);
    });
  });
  let port: number;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const send = createSender({ timeoutMs: 15_000, publicAddressesOnly: false });

  it('POSTs the body as JSON with the signature headers; a 2xx is a success', async () => {
    const result = await send(`http://127.0.0.1:${port}/hooks`, { 'webhook-id': 'evt_1' }, '{"type":"webhook.test"}');
    expect(result).toMatchObject({ ok: true, statusCode: 204, error: null });
    expect(seen.at(-1)).toMatchObject({
      body: '{"type":"webhook.test"}',
      headers: { 'webhook-id': 'evt_1', 'content-type': 'application/json' },
    });
  });

  it('a redirect is not followed: a failure with its status', async () => {
    answer = (_req, res) => res.writeHead(301, { location: 'http://169.254.169.254/' }).end();
    const before = seen.length;
    expect(await send(`http://127.0.0.1:${port}/hooks`, {}, '{}')).toMatchObject({
      ok: false,
      statusCode: 301,
      error: 'the endpoint answered 301',
    });
    expect(seen).toHaveLength(before + 1);
  });

  it('an answer that does not come within the time-out is a failure without a status', async () => {
    answer = () => undefined;
    const quick = createSender({ timeoutMs: 200, publicAddressesOnly: false });
    expect(await quick(`http://127.0.0.1:${port}/hooks`, {}, '{}')).toMatchObject({
      ok: false,
      statusCode: null,
      error: 'no answer within 0.2 s',
    });
  });

  it('in production a name that resolves to a loopback address is refused before connecting', async () => {
    answer = (_req, res) => res.writeHead(200).end();
    const before = seen.length;
    const guarded = createSender({ timeoutMs: 15_000, publicAddressesOnly: true });
    const result = await guarded(`http://localhost:${port}/hooks`, {}, '{}');
    expect(result).toMatchObject({ ok: false, statusCode: null });
    expect(result.error).toMatch(/^EADDRBLOCKED: localhost resolves to (127\.0\.0\.1|::1), which deliveries may not reach$/);
    expect(seen).toHaveLength(before);
  });
});
