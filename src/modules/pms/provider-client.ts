import { z } from 'zod';
import { backoffDelay } from '../../platform/queue/policy';
import { callFailure, pmsCallSettings, type PmsHttpOptions } from './http-options';
import { CircuitBreaker } from './breaker';
import { firstIssue, pmsUnitData, type PmsUnitData } from './unit-data';

/** Why the provider's units could not be fetched; the HTTP layer answers 502 for it. */
export class PmsProviderError extends Error {
  constructor(
    readonly reason: string,
    /** False when asking again cannot help soon (a 4xx, a malformed answer, an open breaker). */
    readonly retryable = true,
  ) {
    super(`PMS provider: ${reason}`);
    this.name = 'PmsProviderError';
  }
}

/** A failure that another try cannot fix (a 4xx, a body that is not the API's shape). */
class FinalError extends PmsProviderError {
  constructor(reason: string) {
    super(reason, false);
  }
}

export interface ProviderClientOptions extends PmsHttpOptions {
  /** A provider whose pagination never ends is cut off here (and the whole fetch fails). */
  maxPages?: number;
  maxUnits?: number;
  /** Largest page body read, in bytes. */
  maxPageBytes?: number;
  /** Default: the client's own, open after 5 failed fetches in a row for 30 s. */
  breaker?: CircuitBreaker;
}

/** A connection as the provider reports it: `reference` is what the connect flow was given (a link token), or null. */
export interface PmsConnection {
  id: string;
  reference: string | null;
}

export interface PmsProviderClient {
  /** False when PMS_API_URL or PMS_API_KEY is unset: nothing can be fetched. */
  readonly configured: boolean;
  /** Every unit of a PMS property, all pages, or a PmsProviderError: never a partial list. */
  fetchUnits(connectionId: string, pmsPropertyId: string): Promise<PmsUnitData[]>;
  /**
   * The provider's record of a connection (`GET /v1/connections/{id}`), null when it answers 404
   * (no such connection); a PmsProviderError when it cannot tell (5xx, time-out, garbage, 3 tries).
   */
  fetchConnection(connectionId: string): Promise<PmsConnection | null>;
}

const pageBody = z.object({
  data: z.array(z.unknown()),
  meta: z.object({ page: z.number().int().optional(), next_page: z.number().int().min(1).nullable().optional() }),
});

const connectionBody = z.object({
  id: z.string(),
  reference: z.string().nullable().optional(),
});

/** The shape an answer's JSON is checked against. */
type Shape<T> = z.ZodType<T>;

/** Reads a response body, failing once it passes maxBytes (a page must not exhaust memory). */
async function readCapped(res: Response, maxBytes: number): Promise<string> {
  if (!res.body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new FinalError(`page larger than ${maxBytes} bytes`);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** What one GET needs: the fetch, the bearer key, its time limit and the largest answer read. */
interface OneCall {
  doFetch: typeof fetch;
  apiKey: string | undefined;
  timeoutMs: number;
  maxPageBytes: number;
}

/** One GET with the bearer key, no retry: the parsed answer, null for a 404 when `notFoundIsNull`. */
async function getOnce<T>(call: OneCall, url: URL, shape: Shape<T>, notFoundIsNull: boolean): Promise<T | null> {
  const res = await call.doFetch(url, {
    headers: { authorization: `Bearer ${call.apiKey}`, accept: 'application/json' },
    signal: AbortSignal.timeout(call.timeoutMs),
  });
  if (res.status === 404 && notFoundIsNull) {
    await res.body?.cancel().catch(() => undefined);
    return null;
  }
  if (res.status >= 500) {
    await res.body?.cancel().catch(() => undefined);
    throw new PmsProviderError(`HTTP ${res.status}`);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new FinalError(`HTTP ${res.status}`);
  }
  const text = await readCapped(res, call.maxPageBytes);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new FinalError('the answer is not JSON');
  }
  const parsed = shape.safeParse(json);
  if (!parsed.success) throw new FinalError(`unexpected answer (${firstIssue(parsed.error)})`);
  return parsed.data;
}

/**
 * The PMS data provider's units API (`GET {PMS_API_URL}/v1/units`): bearer key, `next_page`
 * followed to the end; and its connections (`GET {PMS_API_URL}/v1/connections/{id}`, the linking
 * handshake's proof). For every call: a time limit, up to 3 tries on a 5xx, a time-out or a network
 * error with back-off, and a circuit breaker shared by every call, so a provider that keeps
 * failing is left alone for a while instead of being hammered by every sync and calculation.
 */
export function createPmsProviderClient(opts: ProviderClientOptions): PmsProviderClient {
  const { tries, backoffMs, doFetch, base } = pmsCallSettings(opts);
  const maxPages = opts.maxPages ?? 1000;
  const maxUnits = opts.maxUnits ?? 100_000;
  const maxPageBytes = opts.maxPageBytes ?? 32 * 1024 * 1024;
  const breaker = opts.breaker ?? new CircuitBreaker({ threshold: 5, openMs: 30_000 });
  const { apiKey, logger } = opts;
  const call: OneCall = { doFetch, apiKey, timeoutMs: opts.timeoutMs, maxPageBytes };

  /** One GET with the bearer key: tries, back-off and the breaker; null for a 404 when `notFoundIsNull`. */
  async function get<T>(url: URL, shape: Shape<T>, notFoundIsNull = false): Promise<T | null> {
    let last = 'no answer';
    for (let attempt = 1; attempt <= tries; attempt++) {
      if (attempt > 1) await new Promise((r) => setTimeout(r, backoffDelay(backoffMs, attempt - 1)));
      if (!breaker.tryAcquire()) throw new FinalError('circuit open after repeated failures');
      try {
        const answer = await getOnce(call, url, shape, notFoundIsNull);
        breaker.success();
        return answer;
      } catch (err) {
        if (err instanceof FinalError) {
          // A 4xx says nothing about the provider's health; a malformed answer does.
          if (/^HTTP 4/.test(err.reason)) breaker.neutral();
          else breaker.failure();
          throw err;
        }
        breaker.failure();
        last = err instanceof PmsProviderError ? err.reason : callFailure(err, opts.timeoutMs);
        logger.warn({ url: url.toString(), attempt, reason: last }, 'PMS provider call failed');
      }
    }
    throw new PmsProviderError(`${last} (${tries} tries)`);
  }

  return {
    configured: Boolean(base && apiKey),

    async fetchUnits(connectionId, pmsPropertyId) {
      if (!base || !apiKey) throw new FinalError('PMS_API_URL and PMS_API_KEY are not configured');
      const units = new Map<string, PmsUnitData>();
      let page = 1;
      for (let pagesRead = 1; ; pagesRead++) {
        if (pagesRead > maxPages) throw new FinalError(`more than ${maxPages} pages`);
        const url = new URL('v1/units', base);
        url.searchParams.set('connection_id', connectionId);
        url.searchParams.set('property_id', pmsPropertyId);
        url.searchParams.set('page', String(page));
        const body = (await get(url, pageBody))!;
        for (const [i, raw] of body.data.entries()) {
          const unit = pmsUnitData.safeParse(raw);
          if (!unit.success) throw new FinalError(`invalid unit on page ${page} (${firstIssue(unit.error, `data.${i}`)})`);
          units.set(unit.data.id, unit.data); // a unit listed twice: the later listing wins
        }
        if (units.size > maxUnits) throw new FinalError(`more than ${maxUnits} units`);
        const next = body.meta.next_page ?? null;
        if (next === null) return [...units.values()];
        if (next <= page) throw new FinalError(`pagination does not advance (page ${page}, next_page ${next})`);
        page = next;
      }
    },

    async fetchConnection(connectionId) {
      if (!base || !apiKey) throw new FinalError('PMS_API_URL and PMS_API_KEY are not configured');
      // "." and ".." are path steps, not names, in any URL: no connection can be asked for by them.
      if (connectionId === '.' || connectionId === '..') return null;
      const url = new URL(`v1/connections/${encodeURIComponent(connectionId)}`, base);
      const body = await get(url, connectionBody, true);
      if (body === null) return null;
      if (body.id !== connectionId)
        throw new FinalError(`unexpected answer (the connection ${JSON.stringify(body.id)} for ${JSON.stringify(connectionId)})`);
      return { id: body.id, reference: body.reference ?? null };
    },
  };
}
