import type { IncomingMessage } from 'node:http';
import { Router, type RequestHandler, type Response } from 'express';
import { AppError, badRequest, unauthorized, unprocessable } from '../../platform/http/errors';
import { MAX_BODY_BYTES } from './envelope';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';
import { BodyDigests, plausibleSignature, signatureMatches } from './signature';
import type { WebhookService } from './service';

export const WEBHOOK_RECEIVER_PATH = '/api/webhooks/pms';
export const SIGNATURE_HEADER = 'x-pms-signature';
/**
 * Reading stops here: a larger body is refused (413) unverified, at once when its Content-Length
 * says so. Up to it, a signed body is logged (over MAX_BODY_BYTES, without its content). Twice
 * the largest body kept: a provider's oversized event is still logged `failed`, and a caller
 * without the secret cannot make the service read more than this.
 */
export const READ_LIMIT_BYTES = 2 * MAX_BODY_BYTES;

const invalidSignature = () => unauthorized('Invalid signature', 'HMAC-SHA256 header="X-Pms-Signature"');
const tooLarge = () => new AppError(413, 'Request body too large');

/** An answer given before the body is read: the connection closes after it, so the rest is never read. */
function refuseUnread(res: Response, err: AppError): never {
  res.setHeader('Connection', 'close');
  throw err;
}

/**
 * Reads a request body, hashing it as it streams in and keeping at most MAX_BODY_BYTES of it;
 * null when it passes READ_LIMIT_BYTES (the rest is discarded unread).
 */
function readBody(req: IncomingMessage, secrets: string[]): Promise<{ digests: BodyDigests; kept: Buffer[] } | null> {
  return new Promise((resolve, reject) => {
    const digests = new BodyDigests(secrets);
    const kept: Buffer[] = [];
    const onData = (chunk: Buffer) => {
      digests.update(chunk);
      if (digests.size > READ_LIMIT_BYTES) {
        req.off('data', onData);
        req.off('end', onEnd);
        req.resume();
        resolve(null);
      } else if (digests.size <= MAX_BODY_BYTES) {
        kept.push(chunk);
      }
    };
    const onEnd = () => resolve({ digests, kept });
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
    // A client gone before the end of its body: nothing to store, nobody to answer.
    req.once('close', () => {
      if (!req.complete) reject(badRequest('Request aborted'));
    });
  });
}

/**
 * POST /api/webhooks/pms (site root). Mounted before the JSON body parser: the signature is an
 * HMAC of the raw body, computed while it streams in. Order of checks: the rate limit of refused
 * deliveries (429); before a byte of the body is read, a Content-Length within READ_LIMIT_BYTES
 * (else 413) and a signature header of the right form with a secret configured (else 401); then the
 * signature itself (401, nothing stored) and the nesting depth (422, nothing stored); then the body
 * is stored whatever else it holds and answered 200 only once stored; a database that cannot
 * commit gives 503 (the error handler), so the provider retries.
 */
export function webhookReceiverRouter(deps: {
  secrets: string[];
  webhooks: Pick<WebhookService, 'receive'>;
  /** express-rate-limit counting the deliveries refused with a 4xx, per client address. */
  limiter?: RequestHandler;
}): Router {
  const router = Router();
  const limiter: RequestHandler[] = deps.limiter ? [deps.limiter] : [];
  router.post(WEBHOOK_RECEIVER_PATH, ...limiter, async (req, res) => {
    if (Number(req.headers['content-length']) > READ_LIMIT_BYTES) refuseUnread(res, tooLarge());
    if (deps.secrets.length === 0 || !plausibleSignature(req.headers[SIGNATURE_HEADER])) refuseUnread(res, invalidSignature());
    const body = await readBody(req, deps.secrets);
    if (!body) refuseUnread(res, tooLarge());
    const { sha256, macs } = body.digests.finish();
    if (!signatureMatches(req.headers[SIGNATURE_HEADER], macs)) throw invalidSignature();
    const size = body.digests.size;
    const rawBody = size <= MAX_BODY_BYTES ? Buffer.concat(body.kept) : null;
    // Refused, not logged: a body too deep to serialise again would break the log that shows it.
    if (rawBody && nestsDeeperThan(rawBody)) throw unprocessable(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`, 'body');
    const answer = await deps.webhooks.receive({ rawBody, bodyBytes: size, sha256 });
    // Written directly: the provider's deliveries are many and small, Express's res.json (ETag, negotiation) would cost more than the rest.
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(answer));
  });
  return router;
}
