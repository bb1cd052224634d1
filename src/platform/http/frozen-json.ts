import type { Request, Response } from 'express';

/**
 * Answers that a cache hands to many requests are frozen (deepFreeze) when they are cached, and
 * then serialised once: the JSON text and its ETag are kept beside the object for as long as the
 * object lives. Frozen, so a cached answer cannot change under its serialised copy.
 */
const serialised = new WeakMap<object, { body: Buffer; etag: string | undefined }>();

/** Freezes a value and everything reachable from it; returns it. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** True for an answer sendFrozenJson can send. */
export function isFrozenAnswer(value: unknown): value is object {
  return value !== null && typeof value === 'object' && Object.isFrozen(value);
}

/**
 * Sends a frozen answer as res.json would (same body, Content-Type and ETag, so conditional
 * requests still get 304), reusing its serialisation from an earlier request.
 */
export function sendFrozenJson(req: Request, res: Response, status: number, value: object): void {
  let entry = serialised.get(value);
  if (!entry) {
    const body = Buffer.from(JSON.stringify(value), 'utf8');
    const etagFn = req.app.get('etag fn') as ((body: Buffer, encoding?: string) => string) | undefined;
    entry = { body, etag: etagFn ? etagFn(body) : undefined };
    serialised.set(value, entry);
  }
  res.status(status);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (entry.etag !== undefined && !res.getHeader('ETag')) res.setHeader('ETag', entry.etag);
  res.send(entry.body);
}
