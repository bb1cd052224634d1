import type { Logger } from '../../platform/logger';

/** What both PMS provider clients (units and connections; charges) are built with. */
export interface PmsHttpOptions {
  apiUrl?: string;
  apiKey?: string;
  /** One HTTP call's time limit, body included. */
  timeoutMs: number;
  logger: Logger;
  /** Calls per request in all, the first included (3 by default). */
  tries?: number;
  /** Wait before the second call; doubled before each later one (250 ms by default). */
  backoffMs?: number;
  fetch?: typeof fetch;
}

// By name: the DOMException of an aborted fetch may come from another realm than this module's Error.
const errorName = (err: unknown) => (typeof err === 'object' && err !== null ? String((err as { name?: unknown }).name) : '');

/** A fetch that ran out of its time limit (AbortSignal.timeout). */
const isTimeout = (err: unknown) => errorName(err) === 'TimeoutError' || errorName(err) === 'AbortError';

// A failed fetch says "fetch failed"; its cause says why (ECONNREFUSED, ENOTFOUND, ...).
const messageOf = (err: unknown) => {
  if (typeof err !== 'object' || err === null) return String(err);
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  return String(cause?.code ?? cause?.message ?? (err as { message?: unknown }).message);
};

/** Why a call (its request or its answer's body) failed, as both clients report it: its time limit, or the network. */
export const callFailure = (err: unknown, timeoutMs: number) =>
  isTimeout(err) ? `time-out after ${timeoutMs} ms` : `network error (${messageOf(err)})`;

/** PMS_API_URL with a trailing slash, so `new URL('v1/…', base)` keeps its path; undefined when unset. */
export const apiBase = (apiUrl: string | undefined) => (apiUrl ? (apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`) : undefined);

/** The settings both clients call with: PmsHttpOptions with its defaults (3 tries, 250 ms back-off, the global fetch). */
export function pmsCallSettings(opts: PmsHttpOptions) {
  return {
    tries: Math.max(1, opts.tries ?? 3),
    backoffMs: opts.backoffMs ?? 250,
    doFetch: opts.fetch ?? fetch,
    base: apiBase(opts.apiUrl),
  };
}
