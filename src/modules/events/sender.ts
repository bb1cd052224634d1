/**
 * One HTTP attempt of a delivery: POST the body with its headers, wait at most `timeoutMs` for the
 * whole answer, follow no redirect. A 2xx is a success; anything else, or no answer, is a failure
 * with its reason. In production the connection goes only to an address `guardedLookup` allows.
 */
import http from 'node:http';
import https from 'node:https';
import { guardedLookup } from './url-policy';

/** How much of an answer's body is read (and dropped): a receiver's answer is not kept. */
const MAX_ANSWER_BYTES = 64 * 1024;
const USER_AGENT = 'energy-api-webhooks/1';

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface SendOptions {
  timeoutMs: number;
  /** Connect only to addresses outside the private, loopback and reserved ranges (production). */
  publicAddressesOnly: boolean;
}

export type SendAttempt = (url: string, headers: Record<string, string>, body: string) => Promise<AttemptResult>;

export function createSender(opts: SendOptions): SendAttempt {
  return (url, headers, body) =>
    new Promise<AttemptResult>((resolve) => {
      const started = process.hrtime.bigint();
      const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
      let settled = false;
      const finish = (statusCode: number | null, error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const ok = error === null && statusCode !== null && statusCode >= 200 && statusCode < 300;
        resolve({ ok, statusCode, durationMs: elapsed(), error: ok ? null : (error ?? `the endpoint answered ${statusCode}`) });
      };
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        finish(null, 'invalid url');
        return;
      }
      const client = target.protocol === 'https:' ? https : http;
      const req = client.request(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': USER_AGENT },
          lookup: opts.publicAddressesOnly ? guardedLookup : undefined,
          agent: false,
        },
        (res) => {
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_ANSWER_BYTES) res.destroy();
          });
          res.on('end', () => finish(res.statusCode ?? null, null));
          res.on('close', () => finish(res.statusCode ?? null, null));
          res.on('error', () => finish(res.statusCode ?? null, null));
        },
      );
      const timer = setTimeout(() => {
        req.destroy();
        finish(null, `no answer within ${opts.timeoutMs / 1000} s`);
      }, opts.timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) => finish(null, err.code ? `${err.code}: ${err.message}` : err.message));
      req.end(body);
    });
}
