import crypto from 'node:crypto';
import http from 'node:http';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from 'pg';
import type { BenchContext, CustomScenario, Scenario } from '../types';
import { BENCH_WEBHOOK_SECRET, pmsProviderPort } from '../server';
import { FakePmsProvider, fakeUnit } from '../../test/helpers/fake-pms';
import { waitUntil } from '../../test/helpers/eventually';
import { linkThroughProvider } from '../../test/helpers/pms-link';
import { inParallel, newUser, seedProperties } from './seed';
import { cpuPer, sampleCpu } from '../process-cpu';
import { percentileOf } from '../load';
import type { SenderResult } from '../webhook-sender';

const execFileAsync = promisify(execFile);

/*
 * Issue 11's figures, on the Procfile roles (web, worker, scheduler) with PostgreSQL and Redis:
 * webhook acknowledgment latency at a steady 500 events/s, events applied end to end across 100
 * connections, and a sync.complete refresh of 10,000 units across 100 properties. A fake PMS
 * provider answers the imports on the port the processes were given.
 */

const ACK_RATE = 500;
const ACK_SECONDS = 10;
/** Issue 11, on the Procfile roles with PostgreSQL and Redis. */
const ACK_P99_TARGET_MS = 50;
/** Issue 46 item 9, on the embedded default: web, jobs and the database share one process. */
const ACK_P99_TARGET_EMBEDDED_MS = 250;
const THROUGHPUT_CONNECTIONS = 100;
const THROUGHPUT_PER_CONNECTION = 200;
const THROUGHPUT_TARGET = 2000;
const SYNC_PROPERTIES = 100;
const SYNC_UNITS_PER_PROPERTY = 100;
const SYNC_TARGET_S = 10;

export const sign = (body: string) => `sha256=${crypto.createHmac('sha256', BENCH_WEBHOOK_SECRET).update(body).digest('hex')}`;

export function unitEvent(connectionId: string, pmsPropertyId: string, unit: number, version: number, at: number): string {
  return JSON.stringify({
    event: version === 0 ? 'data.new' : 'data.update',
    timestamp: new Date(at).toISOString(),
    connection_id: connectionId,
    resource_type: 'unit',
    data: fakeUnit(unit, pmsPropertyId, { sqft: 500 + version, status: version % 2 ? 'vacant' : 'occupied', current_lease: null }),
  });
}

/** Keep-alive connections for the senders: node:http costs the load generator a fraction of what fetch does. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export function deliver(baseUrl: string, body: string): Promise<void> {
  const url = new URL('/api/webhooks/pms', baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST', agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-pms-signature': sign(body) },
    }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`webhook answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs `fn` with a database client and the fake PMS provider listening where the processes look for it. */
export async function withStack<T>(ctx: BenchContext | undefined, fn: (ctx: BenchContext, db: Client, provider: FakePmsProvider) => Promise<T>): Promise<T> {
  if (!ctx?.databaseUrl || !ctx.redis) throw new Error('needs the Procfile roles on PostgreSQL and Redis');
  return withProvider(ctx, async (provider) => {
    const db = new Client({ connectionString: ctx.databaseUrl });
    await db.connect();
    try {
      return await fn(ctx, db, provider);
    } finally {
      await db.end();
    }
  });
}

/** Runs `fn` with the fake PMS provider listening where the server's processes look for it (either mode). */
async function withProvider<T>(ctx: BenchContext, fn: (provider: FakePmsProvider) => Promise<T>): Promise<T> {
  const provider = new FakePmsProvider();
  await provider.start(pmsProviderPort(Number(new URL(ctx.url).port)));
  try {
    return await fn(provider);
  } finally {
    await provider.stop();
  }
}

/**
 * `count` properties of a new user, property i linked to PMS property `P${i}` on connection
 * `${prefix}c${i}` (or all on `${prefix}c0` with `oneConnection`), each connection bound through
 * the fake `provider` (a link session completed there); returns once the imports the links queued
 * are done, so they do not share the machine with the measurement.
 */
export async function linkedProperties(ctx: BenchContext, db: Client | null, provider: FakePmsProvider, prefix: string, count: number, oneConnection = false): Promise<void> {
  const connection = (i: number) => `${prefix}c${oneConnection ? 0 : i}`;
  const tag = prefix.replace(/[^a-z]/g, '');
  const { auth } = await newUser(ctx, tag);
  const ids = await seedProperties(ctx, auth, count, (i) => ({
    name: `${tag} ${i}`, address: `${i} Main St`, city: 'Gladstone', state: 'MI', zip_code: '49837', property_type: 'residential', unit_count: 100,
  }));
  await inParallel(ids.length, 16, async (i) => {
    await linkThroughProvider((method, path, body) => ctx.call(method, path, body, auth), provider, ids[i], { connection_id: connection(i), pms_property_id: `P${i}` });
  });
  if (db) await importsDone(db, prefix, count);
  else await importsDoneOverApi(ctx, auth, ids);
}

/** The embedded database cannot be read from outside its process: each link's first import, as the API shows it. */
async function importsDoneOverApi(ctx: BenchContext, auth: Record<string, string>, propertyIds: string[]): Promise<void> {
  await waitUntil('imports', async () => {
    const links = await Promise.all(propertyIds.map((id) =>
      ctx.call<{ last_synced_at: string | null }>('GET', `/api/v1/pm/properties/${id}/pms`, undefined, auth)));
    return links.every((l) => l.last_synced_at !== null);
  }, 300_000, 500);
}

async function importsDone(db: Client, connectionPrefix: string, count: number, since = new Date(0)): Promise<void> {
  await waitUntil('imports', async () => {
    const { rows } = await db.query<{ n: string }>(
      'select count(*) as n from pms_property_links where connection_id like $1 and last_synced_at >= $2', [`${connectionPrefix}%`, since]);
    return Number(rows[0].n) === count;
  }, 300_000, 20);
}

export interface InboxCount { total: number; pending: number; wrong: number }

/** Events of connections named `${prefix}...`: stored, still pending, and not applied exactly once in order. */
export async function inbox(db: Client, prefix: string): Promise<InboxCount> {
  const { rows } = await db.query<{ total: string; pending: string; wrong: string }>(`
    select count(*) as total, count(*) filter (where status = 'pending') as pending,
      count(*) filter (where status <> 'pending' and (status <> 'success' or attempts <> 1)) as wrong
    from webhook_events where connection_id like $1`, [`${prefix}%`]);
  return { total: Number(rows[0].total), pending: Number(rows[0].pending), wrong: Number(rows[0].wrong) };
}

/** The sender's figures for `prefix`'s 100 linked connections, once what it sent is applied (when `db` can tell). */
async function measureAcks(ctx: BenchContext, db: Client | null, prefix: string) {
  // The sender runs in a process of its own (bench/webhook-sender.ts), away from this one's heap.
  const { stdout } = await execFileAsync(process.execPath, [
    '--import', 'tsx', 'bench/webhook-sender.ts',
    JSON.stringify({ url: ctx.url, prefix, rate: ACK_RATE, seconds: ACK_SECONDS, warmupSeconds: 2 }),
  ], { maxBuffer: 64 * 1024 * 1024 });
  const { latencies, loopP99Ms, loopMaxMs } = JSON.parse(stdout) as SenderResult;
  const senderDelay = `sender event-loop delay p99 ${loopP99Ms.toFixed(1)} ms, max ${loopMaxMs.toFixed(1)} ms`;
  if (db) await waitUntil('acknowledged events applied', async () => (await inbox(db, prefix)).pending === 0, 120_000, 20);
  const [p50, p99] = [percentileOf(latencies, 50), percentileOf(latencies, 99)];
  console.log(`[webhooks] ${ctx.mode} ack at ${ACK_RATE}/s: p50 ${p50} ms, p99 ${p99} ms (${latencies.length} events; ${senderDelay})`);
  return { p99, unit: `ms p99 (p50 ${p50} ms; ${latencies.length} events in ${ACK_SECONDS} s, open loop; ${senderDelay})` };
}

const ACK_NAME = `webhook acknowledgment: POST /api/webhooks/pms at ${ACK_RATE} events/s (100 connections, worker applying)`;

const ackLatency: CustomScenario = {
  kind: 'custom',
  name: ACK_NAME,
  issue: 11,
  perMode: true,
  modes: ['postgres'],
  run: (context) => withStack(context, async (ctx, db, provider) => {
    const prefix = `ack${Date.now().toString(36)}-`;
    await linkedProperties(ctx, db, provider, prefix, 100);
    const { p99, unit } = await measureAcks(ctx, db, prefix);
    return { value: p99, unit, target: `p99 < ${ACK_P99_TARGET_MS} ms at ${ACK_RATE} events/s`, met: p99 < ACK_P99_TARGET_MS };
  }),
};

const ackLatencyEmbedded: CustomScenario = {
  kind: 'custom',
  name: `${ACK_NAME.replace('worker applying', 'jobs applying in the same process')}, embedded`,
  issue: 46,
  perMode: true,
  modes: ['embedded'],
  run: (ctx) => {
    if (!ctx) throw new Error('runs against a server');
    return withProvider(ctx, async (provider) => {
      const prefix = `acke${Date.now().toString(36)}-`;
      await linkedProperties(ctx, null, provider, prefix, 100);
      const { p99, unit } = await measureAcks(ctx, null, prefix);
      return { value: p99, unit, target: `p99 < ${ACK_P99_TARGET_EMBEDDED_MS} ms at ${ACK_RATE} events/s`, met: p99 < ACK_P99_TARGET_EMBEDDED_MS };
    });
  },
};

const throughput: CustomScenario = {
  kind: 'custom',
  name: `webhook events applied end to end, in order, across ${THROUGHPUT_CONNECTIONS} connections`,
  issue: 11,
  perMode: true,
  modes: ['postgres'],
  run: (context) => withStack(context, async (ctx, db, provider) => {
    const prefix = `tp${Date.now().toString(36)}-`;
    await linkedProperties(ctx, db, provider, prefix, THROUGHPUT_CONNECTIONS);
    const total = THROUGHPUT_CONNECTIONS * THROUGHPUT_PER_CONNECTION;
    const base = Date.now();
    const cpuBefore = sampleCpu();
    const started = performance.now();
    // The provider's side of 100 streams: one sender per stream, each in order, all at once.
    await Promise.all(Array.from({ length: THROUGHPUT_CONNECTIONS }, async (_, c) => {
      for (let e = 0; e < THROUGHPUT_PER_CONNECTION; e++) {
        await deliver(ctx.url, unitEvent(`${prefix}c${c}`, `P${c}`, e % 5, Math.floor(e / 5), base + e));
      }
    }));
    const ackedAt = performance.now();
    let last: InboxCount = { total: 0, pending: 0, wrong: 0 };
    await waitUntil('events applied', async () => {
      last = await inbox(db, prefix);
      return last.total === total && last.pending === 0;
    }, 300_000, 20);
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuPer(cpuBefore, sampleCpu(), total);
    const rate = Math.round(total / seconds);
    const ingest = Math.round(total / ((ackedAt - started) / 1000));
    console.log(`[webhooks] end to end: ${total} events in ${seconds.toFixed(1)} s = ${rate}/s (acknowledged at ${ingest}/s), `
      + `${last.wrong} not applied once in order; CPU ms per event: ${cpu}`);
    return {
      value: rate,
      unit: `events/s (${total} events, first sent to last applied in ${seconds.toFixed(1)} s; acknowledged at ${ingest}/s; `
        + `${last.wrong} not applied exactly once in order; CPU ms per event: ${cpu})`,
      target: `>= ${THROUGHPUT_TARGET} events/s, in order`, met: rate >= THROUGHPUT_TARGET && last.wrong === 0,
    };
  }),
};

const syncRefresh: CustomScenario = {
  kind: 'custom',
  name: `webhook sync.complete: refresh of ${(SYNC_PROPERTIES * SYNC_UNITS_PER_PROPERTY).toLocaleString('en-US')} units across ${SYNC_PROPERTIES} properties`,
  issue: 11,
  perMode: true,
  modes: ['postgres'],
  run: (context) => withStack(context, async (ctx, db, provider) => {
    const prefix = `sync${Date.now().toString(36)}-`;
    const connectionId = `${prefix}c0`;
    const units = (i: number, round: number) => Array.from({ length: SYNC_UNITS_PER_PROPERTY }, (_, u) =>
      fakeUnit(u, `P${i}`, { sqft: 600 + round * 10 + u, status: (u + round) % 3 ? 'occupied' : 'vacant' }));
    provider.pageSize = 50;
    for (let i = 0; i < SYNC_PROPERTIES; i++) provider.setUnits(connectionId, `P${i}`, units(i, 0));
    await linkedProperties(ctx, db, provider, prefix, SYNC_PROPERTIES, true);
    for (let i = 0; i < SYNC_PROPERTIES; i++) provider.setUnits(connectionId, `P${i}`, units(i, 1));
    const sentAt = new Date();
    const started = performance.now();
    await deliver(ctx.url, JSON.stringify({
      event: 'sync.complete', timestamp: sentAt.toISOString(), connection_id: connectionId,
      data: { sync_id: 'bench', stats: { properties_synced: SYNC_PROPERTIES, units_synced: SYNC_PROPERTIES * SYNC_UNITS_PER_PROPERTY, leases_synced: 0, duration_seconds: 1, errors: 0 } },
    }));
    await importsDone(db, connectionId, SYNC_PROPERTIES, sentAt);
    const seconds = (performance.now() - started) / 1000;
    const { rows } = await db.query<{ n: string }>(
      `select count(*) as n from pms_units u join pms_property_links l on l.property_id = u.property_id
       where l.connection_id = $1 and u.sqft = 610 + substring(u.pms_unit_id from 2)::int`, [connectionId]);
    const refreshed = Number(rows[0].n);
    console.log(`[webhooks] sync.complete: ${refreshed} units refreshed in ${seconds.toFixed(2)} s`);
    return {
      value: Number(seconds.toFixed(2)), unit: `s (${refreshed} units refreshed, from the event sent to the last import stored)`,
      target: `< ${SYNC_TARGET_S} s`, met: seconds < SYNC_TARGET_S && refreshed === SYNC_PROPERTIES * SYNC_UNITS_PER_PROPERTY,
    };
  }),
};

export const webhookScenarios: Scenario[] = [ackLatency, ackLatencyEmbedded, throughput, syncRefresh];
