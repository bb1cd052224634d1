import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Request, RequestHandler, Response } from 'express';
import busboy from 'busboy';
import type { Logger } from '../logger';
import { AppError } from './errors';
import type { IdempotencyStore } from './idempotency-store';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set on an answer replayed from a key's first answer. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** The request id of the key's first request, on a replay (as Stripe's header of the same name). */
export const ORIGINAL_REQUEST_HEADER = 'Original-Request';

/** 1 to 255 visible ASCII characters (Stripe's limit): a UUID v4 is the advice. */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;
/** A streamed upload sent with a key is spooled to a temporary file up to this size (the bills import takes 50 MB). */
export const MAX_SPOOLED_BYTES = 51 * 1024 * 1024;

export const idempotencyErrors = {
  invalid: () =>
    new AppError(400, `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 visible ASCII characters`, { code: 'invalid_idempotency_key' }),
  inUse: () =>
    new AppError(409, 'A request with this Idempotency-Key is still being processed: retry after it has answered', {
      code: 'idempotency_key_in_use',
      headers: { 'Retry-After': '1' },
    }),
  reused: () =>
    new AppError(409, 'This Idempotency-Key was used with another request (method, path or body) in the last 24 hours', {
      code: 'idempotency_key_reused',
    }),
};

/** The key's owner: the account (its bearer tokens and API keys alike), the operator, or an anonymous caller's address. */
export function idempotencyScope(req: Request): string {
  if (req.user) return `user:${req.user.id}`;
  if (req.headers['x-admin-token'] !== undefined) return 'admin';
  return `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
}

/** JSON text with object keys in order: `{"a":1,"b":2}` and `{"b":2,"a":1}` are one body. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const sha256 = () => crypto.createHash('sha256');

/** Streamed bodies spooled because they came with a key: the route reads the file instead of the request. */
const spooled = new WeakMap<Request, string>();

/**
 * The body stream a route that reads its request itself (a multipart upload) must read: the spooled
 * copy when the request came with an Idempotency-Key (the key's check read the request), else the request.
 */
export function requestBody(req: Request): Readable {
  const file = spooled.get(req);
  return file ? fs.createReadStream(file) : req;
}

/**
 * Reads a multipart request into a temporary file and fingerprints its parts (names, values and
 * file contents, not the random boundary: a client that sends the same file again gets the same
 * fingerprint).
 */
async function spoolMultipart(req: Request, res: Response): Promise<string> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'idempotent-upload-'));
  const file = path.join(dir, 'body');
  res.once('close', () => void fs.promises.rm(dir, { recursive: true, force: true }));
  const hash = sha256();
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers: req.headers });
  } catch {
    // Not multipart at all: the route answers its own 415; the fingerprint is of the raw bytes.
    bb = undefined as never;
  }
  await new Promise<void>((resolve, reject) => {
    const out = fs.createWriteStream(file);
    let size = 0;
    let pending = bb ? 2 : 1;
    const done = () => {
      if (--pending === 0) resolve();
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (!bb) hash.update(chunk);
      if (size > MAX_SPOOLED_BYTES) {
        req.unpipe();
        reject(new AppError(413, 'Request body too large'));
      }
    });
    req.on('error', reject);
    out.on('error', reject);
    out.on('finish', done);
    req.pipe(out);
    if (bb) {
      bb.on('field', (name, value) => hash.update(`field\0${name}\0${value}\0`));
      bb.on('file', (name, stream) => {
        hash.update(`file\0${name}\0`);
        stream.on('data', (chunk: Buffer) => hash.update(chunk));
      });
      // A malformed body: the route reads it from the file and answers its own 400.
      bb.on('error', () => {
        hash.update('malformed');
        done();
      });
      bb.on('close', done);
      req.pipe(bb);
    }
  });
  spooled.set(req, file);
  return hash.digest('hex');
}

async function fingerprint(req: Request, res: Response, streamed: boolean): Promise<string> {
  const base = `${req.method} ${req.originalUrl}\n`;
  if (streamed)
    return sha256()
      .update(base)
      .update(await spoolMultipart(req, res))
      .digest('hex');
  return sha256()
    .update(base)
    .update(canonicalJson(req.body ?? null))
    .digest('hex');
}

/** Replays a key's first answer: its status and body, marked as a replay. */
function replay(req: Request, res: Response, stored: { status: number; body: string | null; requestId: string }): void {
  res.setHeader(REPLAYED_HEADER, 'true');
  res.setHeader(ORIGINAL_REQUEST_HEADER, stored.requestId);
  res.status(stored.status);
  if (stored.body === null) {
    res.end();
    return;
  }
  const body = JSON.parse(stored.body) as unknown;
  // An error body names the request it answers: this one (the first is in Original-Request).
  if (body !== null && typeof body === 'object' && 'request_id' in body) (body as Record<string, unknown>).request_id = req.id;
  res.json(body);
}

export interface IdempotencyOptions {
  store: IdempotencyStore;
  logger: Logger;
}

/**
 * Idempotent POSTs as Stripe makes them: a request with an `Idempotency-Key` header acts once;
 * the same key with the same method, path and body within 24 hours gets the first answer's status
 * and body again (`Idempotent-Replayed: true`), without acting; with anything else, a 409. A key
 * still being acted on is a 409 `idempotency_key_in_use` (Retry-After: 1). An answer of 500 or more
 * is not kept: the next request with the key acts. `streamed`: the route reads its (multipart)
 * body itself, through requestBody().
 */
export function idempotency(opts: IdempotencyOptions, streamed = false): RequestHandler {
  const { store, logger } = opts;
  return async (req, res, next) => {
    const key = req.get(IDEMPOTENCY_KEY_HEADER);
    if (key === undefined) return next();
    if (!VALID_KEY.test(key)) throw idempotencyErrors.invalid();
    const scope = idempotencyScope(req);
    const claim = {
      scope,
      key,
      method: req.method,
      path: req.originalUrl,
      fingerprint: await fingerprint(req, res, streamed),
      requestId: req.id,
    };
    const result = await store.claim(claim);
    if (!result.claimed) {
      const { stored } = result;
      if (stored.fingerprint !== claim.fingerprint) throw idempotencyErrors.reused();
      if (stored.status === null) throw idempotencyErrors.inUse();
      replay(req, res, { status: stored.status, body: stored.body, requestId: stored.requestId });
      return;
    }
    // The answer is kept before it is sent: a client that retries once it has the answer gets the replay.
    let body: string | null = null;
    let settled = false;
    const json = res.json.bind(res);
    res.json = (value: unknown) => {
      body = JSON.stringify(value) ?? null;
      return json(value);
    };
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      if (settled) return end(...args);
      settled = true;
      const kept =
        res.statusCode < 500
          ? store.complete(scope, key, result.createdAt, { status: res.statusCode, body })
          : store.release(scope, key, result.createdAt);
      kept
        .catch((err: unknown) => logger.warn({ err, reqId: req.id }, 'could not store the answer of an idempotency key'))
        .finally(() => end(...args));
      return res;
    }) as Response['end'];
    // No answer at all (the connection closed first): the key is given up.
    res.once('close', () => {
      if (settled) return;
      settled = true;
      store
        .release(scope, key, result.createdAt)
        .catch((err: unknown) => logger.warn({ err, reqId: req.id }, 'could not release an idempotency key'));
    });
    next();
  };
}
