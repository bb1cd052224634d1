import http from 'node:http';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../src/platform/config';
import { bootPlatform } from '../../src/platform/bootstrap';
import { createApp, type BuiltApp } from '../../src/app';
import type { PlatformDeps } from '../../src/context';
import { signBody } from '../../src/modules/webhooks/signature';
import { isDatabaseUnavailable } from '../../src/platform/db/errors';
import { linkThroughProvider, type LinkAuthorizer } from '../helpers/pms-link';

export const SECRET = 'fault-test-secret-0123456789';
export const UNITS_PER_PROPERTY = 5;

/** The environment the web process and the worker processes share. */
export function roleEnv(databaseUrl: string, redisUrl: string, prefix: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: process.env.FAULT_LOG_LEVEL ?? 'error',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: prefix,
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'fault-role-')),
    JWT_SECRET: 'fault-test-jwt-secret-0123456789-abcdef',
    PMS_WEBHOOK_SECRET: SECRET,
    RATE_LIMIT_REGISTER_PER_MIN: '10000',
    RATE_LIMIT_LOGIN_PER_MIN: '10000',
  };
}

export interface WebRole {
  url: string;
  deps: PlatformDeps;
  built: BuiltApp;
  stop(): Promise<void>;
}

/** The web role in this process (as `npm run start:web` builds it), listening on a free port. */
export async function startWeb(env: Record<string, string>): Promise<WebRole> {
  const config = loadConfig(env);
  const deps = await bootPlatform({ config });
  const built = createApp(deps);
  const server = http.createServer(built.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    deps,
    built,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await built.close();
      await deps.queue.close();
      await deps.database.close();
    },
  };
}

/** A JSON (or form) request to a role; a non-2xx answer throws with its status and the start of its body. */
export async function call<T>(url: string, method: string, body?: unknown, headers: Record<string, string> = {}, form = false): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : form ? String(body) : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} -> ${res.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Registers a new account (`<tag>-<random>@example.com`) on the web role and logs it in: the Authorization header of its token. */
export async function signUp(web: Pick<WebRole, 'url'>, tag: string): Promise<{ authorization: string }> {
  const email = `${tag}-${crypto.randomBytes(4).toString('hex')}@example.com`;
  await call(`${web.url}/api/v1/auth/register`, 'POST', { email, password: 'Faults123x', full_name: 'Fault Test' });
  const { access_token } = await call<{ access_token: string }>(
    `${web.url}/api/v1/auth/login`,
    'POST',
    `username=${encodeURIComponent(email)}&password=Faults123x`,
    {},
    true,
  );
  return { authorization: `Bearer ${access_token}` };
}

/**
 * An account with `count` properties, property i linked to connection `${tag}-c${i}`, PMS property
 * `P${i}`, each connection bound through `provider` (a link session completed at the fake provider
 * the roles' PMS_API_URL points at).
 */
export async function linkConnections(web: Pick<WebRole, 'url'>, tag: string, count: number, provider: LinkAuthorizer): Promise<string[]> {
  const auth = await signUp(web, tag);
  const connections: string[] = [];
  for (let i = 0; i < count; i++) {
    const property = await call<{ id: string }>(
      `${web.url}/api/v1/pm/properties`,
      'POST',
      {
        name: `Fault ${i}`,
        address: '1 Main St',
        city: 'Gladstone',
        state: 'MI',
        zip_code: '49837',
        property_type: 'residential',
      },
      auth,
    );
    const connectionId = `${tag}-c${i}`;
    await linkThroughProvider((method, path, body) => call(`${web.url}${path}`, method, body, auth), provider, property.id, {
      connection_id: connectionId,
      pms_property_id: `P${i}`,
    });
    connections.push(connectionId);
  }
  return connections;
}

export interface StreamEvent {
  connectionId: string;
  body: string;
  unit: string;
  property: string;
  sqft: number;
  status: 'vacant' | 'occupied';
}

/**
 * `perConnection` events for each connection: five units per property, each created once
 * (data.new) and then updated, with strictly increasing timestamps; the last event of each
 * unit is its expected final state.
 */
export function makeStream(connections: string[], perConnection: number): StreamEvent[][] {
  const base = Date.now();
  return connections.map((connectionId, c) =>
    Array.from({ length: perConnection }, (_, e) => {
      const u = e % UNITS_PER_PROPERTY;
      const version = Math.floor(e / UNITS_PER_PROPERTY);
      const status = version % 2 ? ('vacant' as const) : ('occupied' as const);
      const sqft = 500 + version * 10 + u;
      const body = JSON.stringify({
        event: version === 0 ? 'data.new' : 'data.update',
        timestamp: new Date(base + e * 1000).toISOString(),
        connection_id: connectionId,
        resource_type: 'unit',
        data: {
          id: `u${u}`,
          property_id: `P${c}`,
          unit_number: String(u + 1),
          sqft,
          bedrooms: 1,
          bathrooms: 1,
          status,
          current_lease:
            status === 'vacant'
              ? null
              : { resident_name: `R${version}`, occupant_count: 1 + (version % 3), start_date: '2026-01-01', end_date: null },
        },
      });
      return { connectionId, body, unit: `u${u}`, property: `P${c}`, sqft, status };
    }),
  );
}

export interface SendReport {
  acknowledged: number;
  /** Answers by status code (every try). */
  statuses: Record<number, number>;
}

/**
 * Sends every connection's events in order, the connections in parallel, like a provider: an
 * event is retried (after `retryMs`) until it gets a 200 before the connection's next is sent.
 * `onAck` runs after every acknowledgment (the tests trigger their faults from it); `copies` > 1
 * delivers every event that many times in a row, as a provider retrying a lost answer would.
 */
export async function sendStreams(
  url: string | readonly string[],
  streams: StreamEvent[][],
  onAck: (acked: number) => void,
  retryMs = 100,
  copies = 1,
): Promise<SendReport> {
  const report: SendReport = { acknowledged: 0, statuses: {} };
  // Several URLs (web processes sharing the database and Redis): each try goes to the next one in turn.
  const urls = typeof url === 'string' ? [url] : url;
  let tries = 0;
  await Promise.all(
    streams.map(async (events) => {
      for (const e of events)
        for (let copy = 0; copy < copies; copy++) {
          for (;;) {
            let status = 0;
            try {
              const res = await fetch(`${urls[tries++ % urls.length]}/api/webhooks/pms`, {
                method: 'POST',
                body: e.body,
                headers: { 'content-type': 'application/json', 'x-pms-signature': signBody(e.body, SECRET) },
              });
              status = res.status;
              await res.arrayBuffer();
            } catch {
              status = -1; // connection refused or reset
            }
            report.statuses[status] = (report.statuses[status] ?? 0) + 1;
            if (status === 200) break;
            await new Promise((r) => setTimeout(r, retryMs));
          }
          report.acknowledged += 1;
          onAck(report.acknowledged);
        }
    }),
  );
  return report;
}

export interface StreamState {
  total: number;
  byStatus: Record<string, number>;
  rows: Array<{ connection_id: string; seq: number; status: string; attempts: number; processed_at: string | null; detail: string | null }>;
  units: Array<{ property: string; unit: string; sqft: number; status: string }>;
}

/** The inbox and the units as the database has them now (null while the database is down). */
export async function readState(web: { deps: Pick<PlatformDeps, 'database'> }, tag: string): Promise<StreamState | null> {
  try {
    const db = web.deps.database.db;
    const events = await db.execute(sql`
      select connection_id, seq::float8 as seq, status, attempts, processed_at::text as processed_at, detail from webhook_events
      where connection_id like ${`${tag}-%`} and seq is not null order by connection_id, seq`);
    const units = await db.execute(sql`
      select l.pms_property_id as property, u.pms_unit_id as unit, u.sqft::float8 as sqft, u.status
      from pms_units u join pms_property_links l on l.property_id = u.property_id where l.connection_id like ${`${tag}-%`}`);
    const rows = (events as unknown as { rows: StreamState['rows'] }).rows;
    const byStatus: Record<string, number> = {};
    for (const r of rows) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
    return { total: rows.length, byStatus, rows, units: (units as unknown as { rows: StreamState['units'] }).rows };
  } catch (err) {
    if (isDatabaseUnavailable(err)) return null;
    throw err;
  }
}

/** Polls until every event is processed (none pending) or the time is up; returns the last state. */
export async function waitForApplied(
  web: { deps: Pick<PlatformDeps, 'database'> },
  tag: string,
  expected: number,
  timeoutMs: number,
  tick?: () => Promise<void>,
): Promise<StreamState> {
  const deadline = Date.now() + timeoutMs;
  let state: StreamState | null = null;
  for (;;) {
    state = (await readState(web, tag)) ?? state;
    if (state && state.total === expected && !state.byStatus.pending) return state;
    if (Date.now() > deadline) throw new Error(`not applied within ${timeoutMs} ms: ${JSON.stringify(state?.byStatus)} of ${expected}`);
    if (tick) await tick().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * The same events with some updates sent after the same unit's next update, as a provider whose
 * deliveries overtake each other would: in each connection, the updates of versions 1 and 5 of
 * every unit go out after versions 2 and 6. Returns the reordered streams and how many events are
 * now older than one already received (each must be logged `ignored`, `stale`).
 */
export function overtakeSomeUpdates(streams: StreamEvent[][]): { streams: StreamEvent[][]; stale: number } {
  let stale = 0;
  const reordered = streams.map((events) => {
    const out = [...events];
    for (let e = 0; e + UNITS_PER_PROPERTY < events.length; e++) {
      const version = Math.floor(e / UNITS_PER_PROPERTY);
      if (version % 4 !== 1) continue;
      [out[e], out[e + UNITS_PER_PROPERTY]] = [events[e + UNITS_PER_PROPERTY], events[e]];
      stale += 1;
    }
    return out;
  });
  return { streams: reordered, stale };
}

/**
 * Every event applied once and in order; the final unit states are each unit's newest event (by
 * timestamp: `original` is the stream in timestamp order when `streams` was reordered), and exactly
 * `stale` events were older than one already applied, so logged `ignored` (`stale`).
 */
export function checkState(state: StreamState, streams: StreamEvent[][], { original = streams, stale = 0 } = {}): void {
  const problems: string[] = [];
  const expectedTotal = streams.reduce((n, s) => n + s.length, 0);
  if (state.total !== expectedTotal) problems.push(`${state.total} events stored, ${expectedTotal} sent`);
  let staleSeen = 0;
  for (const r of state.rows) {
    if (r.status === 'ignored' && r.detail === 'stale' && r.attempts === 1) {
      staleSeen += 1;
      continue;
    }
    // An event applied after a later one of its unit would be `ignored` (stale); one applied twice would have 2 attempts.
    if (r.status !== 'success' || r.attempts !== 1)
      problems.push(`${r.connection_id}#${r.seq}: ${r.status}, ${r.attempts} attempts (${r.detail})`);
  }
  if (staleSeen !== stale) problems.push(`${staleSeen} events ignored as stale, ${stale} expected`);
  const byConnection = new Map<string, StreamState['rows']>();
  for (const r of state.rows) byConnection.set(r.connection_id, [...(byConnection.get(r.connection_id) ?? []), r]);
  for (const [conn, rows] of byConnection) {
    for (let i = 1; i < rows.length; i++) {
      if ((rows[i].processed_at ?? '') < (rows[i - 1].processed_at ?? ''))
        problems.push(`${conn}: #${rows[i].seq} processed before #${rows[i - 1].seq}`);
    }
  }
  const expected = new Map<string, StreamEvent>();
  for (const stream of original) for (const e of stream) expected.set(`${e.property}/${e.unit}`, e);
  const actual = new Map(state.units.map((u) => [`${u.property}/${u.unit}`, u]));
  for (const [key, e] of expected) {
    const u = actual.get(key);
    if (!u || u.sqft !== e.sqft || u.status !== e.status)
      problems.push(`${key}: ${JSON.stringify(u)} instead of sqft ${e.sqft} ${e.status}`);
  }
  if (problems.length > 0) throw new Error(`${problems.length} problems:\n${problems.slice(0, 20).join('\n')}`);
}
