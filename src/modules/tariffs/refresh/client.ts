/**
 * A client of NREL's OpenEI `utility_rates` API, version 8 (https://openei.org/services/doc/rest/util_rates):
 * `GET <URDB_API_URL>?version=8&format=json&detail=full&api_key=...&eia=<EIA id>&orderby=startdate&direction=asc
 * &limit=<at most 500>&offset=<n>[&modified_after=<Unix seconds>]`, answered `{"items": [<URDB record>, ...]}`.
 *
 * What the documentation publishes and this client relies on: `limit` is at most 500 records; `offset`
 * pages from 0; `orderby` names the field to sort on (default `label`), `direction` asc or desc;
 * `modified_after` (Unix seconds, UTC) keeps the records changed since; `detail=full` gives the whole
 * record (rate structures and schedules), the shape of the bundled file. The NREL developer network's
 * limits (https://developer.nrel.gov/docs/rate-limits): 1,000 requests an hour per key by default,
 * rolling; a key over its limit gets HTTP 429 until the hour has passed; every answer carries
 * `X-RateLimit-Limit` and `X-RateLimit-Remaining`.
 *
 * Retries: a 429, a 5xx, a time-out or a network failure is tried again after a back-off doubling
 * from `backoffMs` (a 429's `Retry-After`, in seconds, when it says longer), up to `attempts` tries
 * in all; then an UrdbApiError says what happened on the last. Any other answer (a 4xx such as a
 * wrong key, a body that is not `{"items": [...]}`) fails at once: trying again would get the same.
 */

export interface UrdbClientOptions {
  apiUrl: string;
  apiKey: string;
  /** One request's time-out. */
  timeoutMs: number;
  /** Tries per request, the first included. */
  attempts: number;
  /** First back-off delay; doubled per retry. Default 2000. */
  backoffMs?: number;
  /** Records per page, at most 500 (the API's maximum). Default 500. */
  pageSize?: number;
  /** Waits between tries (tests pass one that does not wait). */
  sleep?: (ms: number) => Promise<void>;
  /** Called before each retry, for progress output. */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
}

/** The refresh could not get an answer: `retryable` failures used up their tries; others fail at once. */
export class UrdbApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly attempts: number,
  ) {
    super(message);
  }
}

export interface UrdbPage {
  /** The records as the API answered them (checked one by one by the caller). */
  items: unknown[];
  /** X-RateLimit-Remaining, when the answer had it. */
  rateLimitRemaining: number | null;
}

export const URDB_API_VERSION = '8';
export const URDB_MAX_PAGE = 500;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A failure that another try may not see. */
class Retryable extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryAfterMs: number | null,
  ) {
    super(message);
  }
}

/** The URL without the key, for messages and logs. */
const withoutKey = (url: string) => url.replace(/api_key=[^&]*/, 'api_key=***');

/** One GET of a page: a Retryable on timeouts, network errors, 429 and 5xx; an UrdbApiError on any other bad answer. */
async function fetchPage(url: string, timeoutMs: number): Promise<UrdbPage> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { signal: controller.signal, headers: { accept: 'application/json' } });
    text = await res.text();
  } catch (err) {
    if (controller.signal.aborted) throw new Retryable(`no answer within ${timeoutMs} ms`, null, null);
    throw new Retryable(`network error: ${(err as Error).message}`, null, null);
  } finally {
    clearTimeout(timer);
  }
  if (res.status === 429 || res.status >= 500) {
    const after = Number(res.headers.get('retry-after'));
    throw new Retryable(
      `HTTP ${res.status}${res.status === 429 ? " (over the API key's rate limit)" : ''}: ${text.slice(0, 200)}`,
      res.status,
      Number.isFinite(after) && after > 0 ? after * 1000 : null,
    );
  }
  if (res.status !== 200) {
    throw new UrdbApiError(`URDB API answered HTTP ${res.status} to ${withoutKey(url)}: ${text.slice(0, 300)}`, res.status, 1);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new UrdbApiError(`URDB API answer to ${withoutKey(url)} is not JSON: ${text.slice(0, 200)}`, 200, 1);
  }
  const items = (body as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) {
    const error = (body as { error?: unknown } | null)?.error;
    throw new UrdbApiError(
      `URDB API answer to ${withoutKey(url)} has no "items" list${error ? `: ${JSON.stringify(error).slice(0, 300)}` : ''}`,
      200,
      1,
    );
  }
  const remaining = Number(res.headers.get('x-ratelimit-remaining'));
  return { items, rateLimitRemaining: res.headers.has('x-ratelimit-remaining') && Number.isFinite(remaining) ? remaining : null };
}

export function createUrdbClient(opts: UrdbClientOptions) {
  const pageSize = Math.min(opts.pageSize ?? URDB_MAX_PAGE, URDB_MAX_PAGE);
  const backoffMs = opts.backoffMs ?? 2000;
  const sleep = opts.sleep ?? wait;

  function pageUrl(eiaId: string, offset: number, modifiedAfter: number | null): string {
    const url = new URL(opts.apiUrl);
    const params: Record<string, string> = {
      version: URDB_API_VERSION,
      format: 'json',
      detail: 'full',
      api_key: opts.apiKey,
      eia: eiaId,
      orderby: 'startdate',
      direction: 'asc',
      limit: String(pageSize),
      offset: String(offset),
    };
    if (modifiedAfter !== null) params.modified_after = String(modifiedAfter);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url.toString();
  }

  return {
    pageSize,

    /** One page of a utility's records (`offset` from 0), tried up to `attempts` times. */
    async page(eiaId: string, offset: number, modifiedAfter: number | null = null): Promise<UrdbPage> {
      const url = pageUrl(eiaId, offset, modifiedAfter);
      for (let attempt = 1; ; attempt++) {
        try {
          return await fetchPage(url, opts.timeoutMs);
        } catch (err) {
          if (err instanceof UrdbApiError) throw new UrdbApiError(err.message, err.status, attempt);
          if (!(err instanceof Retryable)) throw err;
          if (attempt >= opts.attempts) {
            throw new UrdbApiError(`URDB API gave up after ${attempt} tries of ${withoutKey(url)}: ${err.message}`, err.status, attempt);
          }
          const delayMs = Math.max(backoffMs * 2 ** (attempt - 1), err.retryAfterMs ?? 0);
          opts.onRetry?.({ attempt, delayMs, reason: err.message });
          await sleep(delayMs);
        }
      }
    },
  };
}

export type UrdbClient = ReturnType<typeof createUrdbClient>;
