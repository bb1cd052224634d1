import type { IncomingMessage } from 'node:http';
import { Router } from 'express';
import { AppError, badRequest, unauthorized } from '../../platform/http/errors';
import { MAX_BODY_BYTES } from './envelope';
import { BodyDigests, signatureMatches } from './signature';
import type { WebhookService } from './service';

export const WEBHOOK_RECEIVER_PATH = '/api/webhooks/pms';
export const SIGNATURE_HEADER = 'x-pms-signature';
/** Reading stops here: a larger body is refused (413) unverified. Up to it, a signed body is logged. */
export const READ_LIMIT_BYTES = 50 * 1024 * 1024;

const invalidSignature = () => unauthorized('Invalid signature', 'HMAC-SHA256 header="X-Pms-Signature"');

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
 * HMAC of the raw body, computed while it streams in. Order of checks: signature first (401,
 * nothing stored), then the body is stored whatever it holds and answered 200 only once stored;
 * a database that cannot commit gives 503 (the error handler), so the provider retries.
 */
export function webhookReceiverRouter(deps: { secrets: string[]; webhooks: Pick<WebhookService, 'receive'> }): Router {
  const router = Router();
  router.post(WEBHOOK_RECEIVER_PATH, async (req, res) => {
    const body = await readBody(req, deps.secrets);
    if (!body) {
      res.setHeader('Connection', 'close');
      throw new AppError(413, 'Request body too large');
    }
    const { sha256, macs } = body.digests.finish();
    if (!signatureMatches(req.headers[SIGNATURE_HEADER], macs)) throw invalidSignature();
    const size = body.digests.size;
    const answer = await deps.webhooks.receive({ rawBody: size <= MAX_BODY_BYTES ? Buffer.concat(body.kept) : null, bodyBytes: size, sha256 });
    // Written directly: the provider's deliveries are many and small, Express's res.json (ETag, negotiation) would cost more than the rest.
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(answer));
  });
  return router;
}
