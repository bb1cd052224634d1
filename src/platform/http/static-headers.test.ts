import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import cors from 'cors';
import request from 'supertest';
import { corsWithoutOriginFastPath, precomputedHeaders, recordHeaders } from './static-headers';

/** The response headers an app with `middleware` gives, minus those that differ per response. */
async function headersOf(middleware: RequestHandler, method: 'get' | 'options' = 'get', headers: Record<string, string> = {}) {
  const app = express();
  app.disable('x-powered-by');
  app.use((_req, res, next) => {
    res.setHeader('Vary', 'Accept-Encoding');
    next();
  });
  app.use(middleware);
  app.get('/', (_req, res) => {
    res.json({ ok: true });
  });
  const res = await request(app)[method]('/').set(headers);
  const { date: _date, etag: _etag, connection: _connection, 'keep-alive': _keepAlive, ...rest } = res.headers;
  return { status: res.status, headers: rest };
}

const helmetMiddleware = helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });
const corsMiddleware = cors({ origin: true, exposedHeaders: ['X-Request-Id', 'Retry-After'] });
const listedOrigins = cors({ origin: ['https://app.example.com'], exposedHeaders: ['X-Request-Id'] });

describe('precomputed headers', () => {
  it('helmet replayed gives exactly the headers helmet gives', async () => {
    const replayed = await headersOf(precomputedHeaders(helmetMiddleware));
    expect(replayed).toEqual(await headersOf(helmetMiddleware));
    expect(replayed.headers['content-security-policy']).toContain("default-src 'self'");
    expect(replayed.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('cors with the fast path answers like cors: without an Origin, with one, with an unlisted one, and a preflight', async () => {
    const cases: Array<[RequestHandler, 'get' | 'options', Record<string, string>]> = [
      [corsMiddleware, 'get', {}],
      [corsMiddleware, 'get', { Origin: 'https://app.example.com' }],
      [corsMiddleware, 'options', { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'POST' }],
      [listedOrigins, 'get', {}],
      [listedOrigins, 'get', { Origin: 'https://app.example.com' }],
      [listedOrigins, 'get', { Origin: 'https://evil.example.com' }],
    ];
    for (const [middleware, method, headers] of cases) {
      expect(await headersOf(corsWithoutOriginFastPath(middleware), method, headers)).toEqual(await headersOf(middleware, method, headers));
    }
    const withOrigin = await headersOf(corsWithoutOriginFastPath(corsMiddleware), 'get', { Origin: 'https://app.example.com' });
    expect(withOrigin.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(withOrigin.headers.vary).toBe('Accept-Encoding, Origin');
  });

  it('a middleware that does more than set headers is not recorded, and runs as it is', async () => {
    const reads: RequestHandler = (req, res, next) => {
      res.setHeader('X-Seen', String(req.headers['x-in'] ?? 'none'));
      res.status(200);
      next();
    };
    const answers: RequestHandler = (_req, res) => {
      res.end('done');
    };
    const later: RequestHandler = (_req, _res, next) => {
      setImmediate(next);
    };
    expect(recordHeaders(reads, { method: 'GET', headers: {} })).toBeNull();
    expect(recordHeaders(answers, { method: 'GET', headers: {} })).toBeNull();
    expect(recordHeaders(later, { method: 'GET', headers: {} })).toBeNull();
    expect(precomputedHeaders(answers)).toBe(answers);
  });
});
