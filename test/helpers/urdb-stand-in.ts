/**
 * A stand-in for NREL's OpenEI utility_rates API (version 8) on the loopback interface: answers
 * `GET /utility_rates?version=8&format=json&detail=full&api_key=..&eia=..&orderby=startdate&limit=..&offset=..[&modified_after=..]`
 * with `{"items": [...]}` from recorded records (the bundled ones and the newer ones in data/reference),
 * only those modified after `modified_after` (Unix seconds: the newest of a record's `revisions`),
 * ordered by startdate, paged by limit and offset, as the API does. `faults` are answered first, one
 * per request, in order: an HTTP status (429, 503), `hang` (no answer: the client's time-out) or `pass`
 * (answered as usual).
 */
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { closeServer, listenLocally } from './local-server';
import { REFERENCE_DIR } from '../../src/modules/utilities/reference';
import { URDB_FILE } from '../../src/modules/tariffs/bundled';
import { URDB_2020PLUS_FILE } from '../../src/modules/tariffs/bundled-2020plus';

export type Fault = { status: number; body?: string; retryAfter?: string } | 'hang' | 'pass';

export interface StandIn {
  url: string;
  /** The query of every request received, in order. */
  requests: URLSearchParams[];
  /** Answered first, one per request. */
  faults: Fault[];
  /** Records answered per EIA id (plain objects, or anything else to test malformed records). */
  records: Map<string, unknown[]>;
  close(): Promise<void>;
}

/** The recorded records of one utility: the bundled file's, and (with `newer`) the 2021-2025 file's. */
export function recordedRecords(eiaId: number, opts: { newer: boolean }): Array<Record<string, unknown>> {
  const main = zlib
    .gunzipSync(fs.readFileSync(path.join(REFERENCE_DIR, URDB_FILE)))
    .toString('utf8')
    .split('\n');
  const plus = opts.newer ? fs.readFileSync(path.join(REFERENCE_DIR, URDB_2020PLUS_FILE), 'utf8').split('\n') : [];
  const mark = new RegExp(`"eiaid": ?${eiaId}[,}]`);
  return [...main, ...plus].filter((l) => mark.test(l)).map((l) => JSON.parse(l) as Record<string, unknown>);
}

const startOf = (r: unknown) =>
  r !== null && typeof r === 'object' && typeof (r as { startdate?: unknown }).startdate === 'number'
    ? (r as { startdate: number }).startdate
    : 0;

/** When a record was last modified: the newest of its `revisions` (Unix seconds, as URDB records list them), 0 without. */
const modifiedAt = (r: unknown) => {
  const revisions = r !== null && typeof r === 'object' ? (r as { revisions?: unknown }).revisions : undefined;
  return Array.isArray(revisions) ? Math.max(0, ...revisions.filter((x): x is number => typeof x === 'number')) : 0;
};

export async function startUrdbStandIn(records: Map<string, unknown[]>): Promise<StandIn> {
  const state = { requests: [] as URLSearchParams[], faults: [] as Fault[], records };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    state.requests.push(url.searchParams);
    const fault = state.faults.shift();
    if (fault === 'hang') return; // never answered: closeServer drops it
    if (fault && fault !== 'pass') {
      res.writeHead(fault.status, { 'content-type': 'application/json', ...(fault.retryAfter ? { 'retry-after': fault.retryAfter } : {}) });
      res.end(
        fault.body ??
          JSON.stringify({ error: { code: fault.status === 429 ? 'OVER_RATE_LIMIT' : 'SERVER_ERROR', message: 'stand-in fault' } }),
      );
      return;
    }
    const q = url.searchParams;
    if (url.pathname !== '/utility_rates' || q.get('version') !== '8' || q.get('format') !== 'json' || !q.get('api_key')) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'BAD_REQUEST', message: 'version=8, format=json and api_key are required' } }));
      return;
    }
    if (q.get('api_key') === 'wrong-key') {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'API_KEY_INVALID', message: 'An invalid api_key was supplied.' } }));
      return;
    }
    const since = q.get('modified_after');
    const all = [...(state.records.get(q.get('eia') ?? '') ?? [])].filter((r) => since === null || modifiedAt(r) > Number(since));
    if (q.get('orderby') === 'startdate') all.sort((a, b) => startOf(a) - startOf(b));
    const limit = Math.min(Number(q.get('limit') ?? 500), 500);
    const offset = Number(q.get('offset') ?? 0);
    res.writeHead(200, {
      'content-type': 'application/json',
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': String(1000 - state.requests.length),
    });
    res.end(JSON.stringify({ items: all.slice(offset, offset + limit) }));
  });
  const url = `${await listenLocally(server)}/utility_rates`;
  return {
    url,
    get requests() {
      return state.requests;
    },
    faults: state.faults,
    records,
    close: () => closeServer(server),
  };
}
