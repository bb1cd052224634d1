import { z } from 'zod';
import { backoffDelay } from '../../platform/queue/policy';
import { callFailure, pmsCallSettings, type PmsHttpOptions } from './http-options';

/** One charge (or reversing charge) for a tenant's ledger, as the provider's charges call takes it. */
export interface PmsCharge {
  connection_id: string;
  /** The PMS property id of the link. */
  property_id: string;
  /** The PMS unit id. */
  unit_id: string;
  resident_name: string;
  /** Integer cents; negative for a reversal. Sent as a number with 2 decimals. */
  amountCents: number;
  description: string;
  /** YYYY-MM-DD. */
  charge_date: string;
}

/** Why a charge was not posted. `final`: asking again cannot help (a 4xx); else a 5xx, a time-out, a network error. */
export class PmsChargeError extends Error {
  constructor(
    readonly reason: string,
    readonly final: boolean,
    /** Calls made for this charge, the failed ones included. */
    readonly tries: number,
    /**
     * The provider may have created the charge: a call reached it and the answer was lost or ambiguous (a time-out,
     * a 5xx, a connection cut after sending, a 2xx without a charge id). Only a call that surely created nothing (a
     * 4xx, 408 or 429, a connection refused or a name not resolved) leaves this false.
     */
    readonly ambiguous = false,
  ) {
    super(`PMS provider: ${reason}`);
    this.name = 'PmsChargeError';
  }
}

export interface PostedCharge {
  /** The provider's charge id. */
  id: string;
  /** Calls it took, the successful one included. */
  tries: number;
}

export interface PmsChargesClient {
  /** False when PMS_API_URL or PMS_API_KEY is unset: nothing can be posted. */
  readonly configured: boolean;
  /**
   * Posts one charge under its idempotency key (the same key always names the same charge: the
   * provider answers a repeated key with the charge it created the first time). Resolves with the
   * provider's charge id, or rejects with a PmsChargeError.
   */
  postCharge(idempotencyKey: string, charge: PmsCharge): Promise<PostedCharge>;
}

const chargeAnswer = z.object({ id: z.union([z.string().min(1), z.number().int()]) });

/** Largest error body read for its reason, in bytes. */
const MAX_ERROR_BODY = 4096;
const MAX_REASON = 300;

/** 2 decimals, from integer cents: -12345 is -123.45. */
export function centsText(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * The request body: the contract's fields in its order, `amount` a JSON number written with
 * exactly 2 decimals (12.50, not 12.5), so what the ledger receives is the cents we computed.
 */
export function chargeBody(c: PmsCharge): string {
  const head = JSON.stringify({
    connection_id: c.connection_id,
    property_id: c.property_id,
    unit_id: c.unit_id,
    resident_name: c.resident_name,
  });
  const tail = JSON.stringify({ description: c.description, charge_date: c.charge_date });
  return `${head.slice(0, -1)},"amount":${centsText(c.amountCents)},${tail.slice(1)}`;
}

/**
 * An idempotency key as a header value: printable ASCII is kept as is; spaces, `%` and anything
 * else (non-ASCII unit ids) are percent-encoded as UTF-8, so two different keys never become one.
 */
export function headerSafeKey(key: string): string {
  return key.replace(/[^\x21-\x24\x26-\x7e]/gu, (ch) => encodeURIComponent(ch));
}

/** The reason a 4xx gives: its `detail`, `error` or `message` when the body is JSON, else the start of its text. */
async function errorReason(res: Response): Promise<string> {
  let text = '';
  try {
    text = (await res.text()).slice(0, MAX_ERROR_BODY);
  } catch {
    // no body to read
  }
  let said = text.trim();
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const found = [body.detail, body.error, body.message].find((v) => typeof v === 'string' && v !== '');
    if (typeof found === 'string') said = found;
    else if (body.error && typeof body.error === 'object' && typeof (body.error as { message?: unknown }).message === 'string') {
      said = (body.error as { message: string }).message;
    }
  } catch {
    // not JSON: the text itself
  }
  said = said.replace(/\s+/g, ' ').slice(0, MAX_REASON);
  return said ? `HTTP ${res.status}: ${said}` : `HTTP ${res.status}`;
}

/** A call to try again; `ambiguous` when the provider may have acted on it (see PmsChargeError). */
class RetryableFailure extends Error {
  constructor(
    message: string,
    readonly ambiguous: boolean,
  ) {
    super(message);
  }
}

/** Network errors raised before a request left: nothing reached the provider. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);
const notSent = (err: unknown) => {
  const code = typeof err === 'object' && err !== null ? (err as { cause?: { code?: unknown } }).cause?.code : undefined;
  return typeof code === 'string' && NOT_SENT_CODES.has(code);
};

/**
 * The PMS data provider's charges API (`POST {PMS_API_URL}/v1/charges`; tenant-billing README,
 * "Posting to the PMS ledger"): bearer key, the `Idempotency-Key` header, a time limit per call, and up to 3 calls per charge
 * with back-off on a 5xx, a time-out, a network error or a 2xx without a charge id (the same key
 * makes a repeated call safe: the provider answers it with the charge it already created). A 4xx
 * is final, except 408 and 429, which ask to be called again later.
 */
export function createPmsChargesClient(opts: PmsHttpOptions): PmsChargesClient {
  const { tries, backoffMs, doFetch, base } = pmsCallSettings(opts);
  const { apiKey, logger } = opts;
  const url = base ? new URL('v1/charges', base) : undefined;

  const failure = (err: unknown) => callFailure(err, opts.timeoutMs);

  /** One call: the charge id, a PmsChargeError (final), or a RetryableFailure. */
  async function callOnce(key: string, body: string, attempt: number): Promise<string> {
    let res: Response;
    try {
      res = await doFetch(url!, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${apiKey}`,
          'idempotency-key': key,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body,
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
    } catch (err) {
      throw new RetryableFailure(failure(err), !notSent(err));
    }
    if (res.status >= 500 || res.status === 408 || res.status === 429) {
      await res.body?.cancel().catch(() => undefined);
      // 408 and 429 say the request was not processed; a 5xx may come after the charge was made.
      throw new RetryableFailure(`HTTP ${res.status}`, res.status >= 500);
    }
    if (res.status >= 400) throw new PmsChargeError(await errorReason(res), true, attempt);
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      throw new RetryableFailure(failure(err), true);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new RetryableFailure(`HTTP ${res.status} without a JSON body`, true);
    }
    const parsed = chargeAnswer.safeParse(json);
    if (!parsed.success || (res.status !== 200 && res.status !== 201)) {
      throw new RetryableFailure(`HTTP ${res.status} without a charge id`, true);
    }
    return String(parsed.data.id);
  }

  return {
    configured: Boolean(base && apiKey),

    async postCharge(idempotencyKey, charge) {
      if (!url || !apiKey) throw new PmsChargeError('PMS_API_URL and PMS_API_KEY are not configured', true, 0);
      const key = headerSafeKey(idempotencyKey);
      const body = chargeBody(charge);
      let last = 'no answer';
      let ambiguous = false;
      for (let attempt = 1; attempt <= tries; attempt++) {
        if (attempt > 1) await new Promise((r) => setTimeout(r, backoffDelay(backoffMs, attempt - 1)));
        try {
          return { id: await callOnce(key, body, attempt), tries: attempt };
        } catch (err) {
          if (!(err instanceof RetryableFailure)) {
            // A 4xx after an ambiguous call: the provider refused this call, yet an earlier one may have made the charge.
            if (err instanceof PmsChargeError && ambiguous) throw new PmsChargeError(err.reason, err.final, err.tries, true);
            throw err;
          }
          last = err.message;
          ambiguous ||= err.ambiguous;
          logger.warn({ idempotencyKey: key, attempt, reason: last }, 'PMS charge call failed');
        }
      }
      throw new PmsChargeError(`${last} (${tries} tries)`, false, tries, ambiguous);
    },
  };
}
