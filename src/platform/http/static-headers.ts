import type { Request, RequestHandler, Response } from 'express';

type HeaderOp = { set: string; value: string | number | readonly string[]; vary: boolean } | { remove: string };

/**
 * Runs a header-only middleware once against a stand-in request and records what it does to the
 * response, or returns null when it did anything else (read the request, answered, called next
 * asynchronously or with an error). A middleware whose headers depend only on its options
 * (helmet's; cors for a request without an Origin) can then be replayed per request as a few
 * setHeader calls instead of running its option handling every time.
 */
export function recordHeaders(middleware: RequestHandler, request: { method: string; headers: Record<string, string> }): HeaderOp[] | null {
  const ops: HeaderOp[] = [];
  const current = new Map<string, string | number | readonly string[]>();
  let clean = true;
  let nextCalled = false;
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      ops.push({ set: name, value, vary: name.toLowerCase() === 'vary' });
      current.set(name.toLowerCase(), value);
      return res;
    },
    getHeader: (name: string) => current.get(name.toLowerCase()),
    removeHeader(name: string) {
      ops.push({ remove: name });
      current.delete(name.toLowerCase());
    },
  };
  const req = { method: request.method, headers: request.headers, url: '/', originalUrl: '/', path: '/' };
  // Anything else the middleware touches on the response (status, end, write...) is not a header.
  const guarded = new Proxy(res, {
    get(target, prop) {
      if (prop in target) return target[prop as keyof typeof target];
      clean = false;
      return () => undefined;
    },
  });
  middleware(req as unknown as Request, guarded as unknown as Response, (err?: unknown) => {
    if (err !== undefined) clean = false;
    nextCalled = true;
  });
  return clean && nextCalled ? ops : null;
}

/** Applies recorded header operations; a recorded Vary is added to one already set, as `vary` does. */
export function replayHeaders(ops: readonly HeaderOp[], res: Response): void {
  for (const op of ops) {
    if ('remove' in op) {
      res.removeHeader(op.remove);
    } else if (op.vary) {
      const existing = res.getHeader('Vary');
      res.setHeader('Vary', existing === undefined ? op.value : `${String(existing)}, ${String(op.value)}`);
    } else {
      res.setHeader(op.set, op.value);
    }
  }
}

/**
 * The middleware's recorded headers on every request, or the middleware itself if it cannot be
 * recorded. With `bypass`, the requests it picks run the middleware itself instead.
 */
export function precomputedHeaders(middleware: RequestHandler, bypass?: (req: Request) => boolean): RequestHandler {
  const ops = recordHeaders(middleware, { method: 'GET', headers: {} });
  if (!ops) return middleware;
  if (!bypass) {
    return (_req, res, next) => {
      replayHeaders(ops, res);
      next();
    };
  }
  return (req, res, next) => {
    if (bypass(req)) return middleware(req, res, next);
    replayHeaders(ops, res);
    next();
  };
}

/**
 * cors with its answer for requests without an Origin header (no browser cross-origin call, so
 * only `Vary: Origin` and the exposed headers) precomputed; preflights and requests with an
 * Origin run cors itself.
 */
export function corsWithoutOriginFastPath(corsMiddleware: RequestHandler): RequestHandler {
  return precomputedHeaders(corsMiddleware, (req) => req.headers.origin !== undefined || req.method === 'OPTIONS');
}
