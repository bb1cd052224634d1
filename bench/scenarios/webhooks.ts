import crypto from 'node:crypto';
import http from 'node:http';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { TARGETS, type BenchContext, type CustomScenario, type Scenario } from '../types';
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
 * The PMS webhooks: acknowledgment latency at a steady 500 events/s and whether those events were
 * then applied in order (both modes); on the Procfile roles also events applied end to end across
 * 100 connections as fast as they are acknowledged, and a sync.complete refresh of 10,000 units
 * across 100 properties. A fake PMS provider answers the imports on the port the processes were given.
 */

const ACK_SECONDS = 10;
const ACK_WARMUP_SECONDS = 2;
/** The acknowledgment figure's streams: PMS properties P0..P99, each on a connection of its own, 5 units each. */
const ACK_CONNECTIONS = 100;
const ACK_UNITS = 5;
const THROUGHPUT_CONNECTIONS = 100;
const THROUGHPUT_PER_CONNECTION = 200;
const SYNC_PROPERTIES = 100;
const SYNC_UNITS_PER_PROPERTY = 100;

export const sign = (body: string) => `sha256=${crypto.createHmac('sha256', BENCH_WEBHOOK_SECRET).update(body).digest('hex')}`;

/** What version `version` of a unit says (each version a new sqft, the status alternating). */
function unitAt(version: number): { sqft: number; status: 'vacant' | 'occupied' } {
  return { sqft: 500 + version, status: version % 2 ? 'vacant' : 'occupied' };
}

export function unitEvent(connectionId: string, pmsPropertyId: string, unit: number, version: number, at: number): string {
  return JSON.stringify({
    event: version === 0 ? 'data.new' : 'data.update',
    timestamp: new Date(at).toISOString(),
    connection_id: connectionId,
    resource_type: 'unit',
    data: fakeUnit(unit, pmsPropertyId, { ...unitAt(version), current_lease: null }),
  });
}

/**
 * Event `i` of the acknowledgment figure's sender (bench/webhook-sender.ts): the streams take turns,
 * each stream's units in turn, and every unit gets a new version each round of all of them.
 */
export function ackEvent(i: number): { stream: number; unit: number; version: number } {
  return {
    stream: i % ACK_CONNECTIONS,
    unit: Math.floor(i / ACK_CONNECTIONS) % ACK_UNITS,
    version: Math.floor(i / (ACK_CONNECTIONS * ACK_UNITS)),
  };
}

/** A unit of a stream (its property's index and the unit's id in the PMS). */
const unitKey = (stream: number, pmsUnitId: string) => `${stream}/${pmsUnitId}`;

/**
 * How many units of the linked properties (stream i's property: `propertyIds[i]`) read, over the
 * API, as the last event sent for them says (`lastVersion`, by unitKey). A unit an older event
 * overwrote does not, nor one whose events are not all applied yet.
 */
async function unitsAtLastEvent(
  ctx: BenchContext,
  auth: Record<string, string>,
  propertyIds: string[],
  lastVersion: Map<string, number>,
): Promise<number> {
  let matching = 0;
  await inParallel(propertyIds.length, 8, async (i) => {
    const page = await ctx.call<{ items: Array<{ pms_unit_id: string; sqft: number | null; status: string }> }>(
      'GET',
      `/api/v1/pm/properties/${propertyIds[i]}/units?per_page=100`,
      undefined,
      auth,
    );
    for (const u of page.items) {
      const version = lastVersion.get(unitKey(i, u.pms_unit_id));
      if (version === undefined) continue;
      const expected = unitAt(version);
      if (u.sqft === expected.sqft && u.status === expected.status) matching++;
    }
  });
  return matching;
}

/**
 * Waits until every event sent is applied (PostgreSQL: none pending in the inbox; embedded, where
 * the database cannot be read from outside: until every unit reads as its last event, or 120 s),
 * then counts the units that read as their last event.
 */
async function appliedInOrder(
  ctx: BenchContext,
  db: Client | null,
  prefix: string,
  linked: Linked,
  lastVersion: Map<string, number>,
): Promise<number> {
  if (db) {
    await waitUntil('acknowledged events applied', async () => (await inbox(db, prefix)).pending === 0, 120_000, 20);
    return unitsAtLastEvent(ctx, linked.auth, linked.propertyIds, lastVersion);
  }
  let matching = 0;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    matching = await unitsAtLastEvent(ctx, linked.auth, linked.propertyIds, lastVersion);
    if (matching === lastVersion.size) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  return matching;
}

/** Keep-alive connections for the senders: node:http costs the load generator a fraction of what fetch does. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export function deliver(baseUrl: string, body: string): Promise<void> {
  const url = new URL('/api/webhooks/pms', baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-pms-signature': sign(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`webhook answered ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs `fn` with a database client and the fake PMS provider listening where the processes look for it. */
export async function withStack<T>(
  ctx: BenchContext | undefined,
  fn: (ctx: BenchContext, db: Client, provider: FakePmsProvider) => Promise<T>,
): Promise<T> {
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

/** The linked properties' owner and their ids, property i's at i. */
export interface Linked {
  auth: Record<string, string>;
  propertyIds: string[];
}

/**
 * `count` properties of a new user, property i linked to PMS property `P${i}` on connection
 * `${prefix}c${i}` (or all on `${prefix}c0` with `oneConnection`), each connection bound through
 * the fake `provider` (a link session completed there); returns once the imports the links queued
 * are done, so they do not share the machine with the measurement.
 */
export async function linkedProperties(
  ctx: BenchContext,
  db: Client | null,
  provider: FakePmsProvider,
  prefix: string,
  count: number,
  oneConnection = false,
): Promise<Linked> {
  const connection = (i: number) => `${prefix}c${oneConnection ? 0 : i}`;
  const tag = prefix.replace(/[^a-z]/g, '');
  const { auth } = await newUser(ctx, tag);
  const ids = await seedProperties(ctx, auth, count, (i) => ({
    name: `${tag} ${i}`,
    address: `${i} Main St`,
    city: 'Gladstone',
    state: 'MI',
    zip_code: '49837',
    property_type: 'residential',
    unit_count: 100,
  }));
  await inParallel(ids.length, 16, async (i) => {
    await linkThroughProvider((method, path, body) => ctx.call(method, path, body, auth), provider, ids[i], {
      connection_id: connection(i),
      pms_property_id: `P${i}`,
    });
  });
  if (db) await importsDone(db, prefix, count);
  else await importsDoneOverApi(ctx, auth, ids);
  return { auth, propertyIds: ids };
}

/** The embedded database cannot be read from outside its process: each link's first import, as the API shows it. */
async function importsDoneOverApi(ctx: BenchContext, auth: Record<string, string>, propertyIds: string[]): Promise<void> {
  await waitUntil(
    'imports',
    async () => {
      const links = await Promise.all(
        propertyIds.map((id) => ctx.call<{ last_synced_at: string | null }>('GET', `/api/v1/pm/properties/${id}/pms`, undefined, auth)),
      );
      return links.every((l) => l.last_synced_at !== null);
    },
    300_000,
    500,
  );
}

async function importsDone(db: Client, connectionPrefix: string, count: number, since = new Date(0)): Promise<void> {
  await waitUntil(
    'imports',
    async () => {
      const { rows } = await db.query<{ n: string }>(
        'select count(*) as n from pms_property_links where connection_id like $1 and last_synced_at >= $2',
        [`${connectionPrefix}%`, since],
      );
      return Number(rows[0].n) === count;
    },
    300_000,
    20,
  );
}

export interface InboxCount {
  total: number;
  pending: number;
  wrong: number;
}

/** Events of connections named `${prefix}...`: stored, still pending, and not applied exactly once in order. */
export async function inbox(db: Client, prefix: string): Promise<InboxCount> {
  const { rows } = await db.query<{ total: string; pending: string; wrong: string }>(
    `
    select count(*) as total, count(*) filter (where status = 'pending') as pending,
      count(*) filter (where status <> 'pending' and (status <> 'success' or attempts <> 1)) as wrong
    from webhook_events where connection_id like $1`,
    [`${prefix}%`],
  );
  return { total: Number(rows[0].total), pending: Number(rows[0].pending), wrong: Number(rows[0].wrong) };
}

/** The last version the sender sent of each unit, by unitKey, after `sent` events (ackEvent). */
function lastVersionsSent(sent: number): Map<string, number> {
  const last = new Map<string, number>();
  for (let i = 0; i < sent; i++) {
    const e = ackEvent(i);
    last.set(unitKey(e.stream, `u${e.unit}`), e.version);
  }
  return last;
}

const ackLatency: CustomScenario = {
  kind: 'custom',
  name:
    `webhooks: POST /api/webhooks/pms at ${TARGETS.webhookRate} events/s over ${ACK_CONNECTIONS} connections (open loop), ` +
    `acknowledged, then applied in order (every unit reads as the last event sent for it)`,
  perMode: true,
  run: (context) => {
    if (!context) throw new Error('runs against a server');
    return withProvider(context, async (provider) => {
      const ctx = context;
      // The embedded database cannot be read from outside its process: there the API tells what was applied.
      const db = ctx.databaseUrl ? new Client({ connectionString: ctx.databaseUrl }) : null;
      await db?.connect();
      try {
        const prefix = `ack${Date.now().toString(36)}-`;
        const linked = await linkedProperties(ctx, db, provider, prefix, ACK_CONNECTIONS);
        // The sender runs in a process of its own (bench/webhook-sender.ts), away from this one's heap.
        const { stdout } = await execFileAsync(
          process.execPath,
          [
            '--import',
            'tsx',
            'bench/webhook-sender.ts',
            JSON.stringify({ url: ctx.url, prefix, rate: TARGETS.webhookRate, seconds: ACK_SECONDS, warmupSeconds: ACK_WARMUP_SECONDS }),
          ],
          { maxBuffer: 64 * 1024 * 1024 },
        );
        const { latencies, sent, loopP99Ms, loopMaxMs } = JSON.parse(stdout) as SenderResult;
        const [p50, p99] = [percentileOf(latencies, 50), percentileOf(latencies, 99)];
        const lastVersion = lastVersionsSent(sent);
        const atLast = await appliedInOrder(ctx, db, prefix, linked, lastVersion);
        const senderDelay = `sender event-loop delay p99 ${loopP99Ms.toFixed(1)} ms, max ${loopMaxMs.toFixed(1)} ms`;
        console.log(
          `[webhooks] ${ctx.mode} ack at ${TARGETS.webhookRate}/s: p50 ${p50} ms, p99 ${p99} ms (${latencies.length} events; ${senderDelay}); ` +
            `${atLast} of ${lastVersion.size} units at their last event`,
        );
        return {
          value: p99,
          unit:
            `ms p99 acknowledgment (p50 ${p50} ms; ${latencies.length} events in ${ACK_SECONDS} s after ${sent - latencies.length} unmeasured; ` +
            `${senderDelay}); applied in order: ${atLast} of ${lastVersion.size} units read as the last event sent for them`,
          target: `p99 < ${TARGETS.webhookAckP99Ms} ms at ${TARGETS.webhookRate} events/s, every unit at its last event`,
          met: p99 < TARGETS.webhookAckP99Ms && atLast === lastVersion.size,
        };
      } finally {
        await db?.end();
      }
    });
  },
};

const throughput: CustomScenario = {
  kind: 'custom',
  name: `webhook events applied end to end, in order, across ${THROUGHPUT_CONNECTIONS} connections`,
  perMode: true,
  modes: ['postgres'],
  run: (context) =>
    withStack(context, async (ctx, db, provider) => {
      const prefix = `tp${Date.now().toString(36)}-`;
      const linked = await linkedProperties(ctx, db, provider, prefix, THROUGHPUT_CONNECTIONS);
      const total = THROUGHPUT_CONNECTIONS * THROUGHPUT_PER_CONNECTION;
      const base = Date.now();
      const cpuBefore = sampleCpu();
      const started = performance.now();
      // The provider's side of 100 streams: one sender per stream, each in order, all at once.
      await Promise.all(
        Array.from({ length: THROUGHPUT_CONNECTIONS }, async (_, c) => {
          for (let e = 0; e < THROUGHPUT_PER_CONNECTION; e++) {
            await deliver(ctx.url, unitEvent(`${prefix}c${c}`, `P${c}`, e % ACK_UNITS, Math.floor(e / ACK_UNITS), base + e));
          }
        }),
      );
      const ackedAt = performance.now();
      let last: InboxCount = { total: 0, pending: 0, wrong: 0 };
      await waitUntil(
        'events applied',
        async () => {
          last = await inbox(db, prefix);
          return last.total === total && last.pending === 0;
        },
        300_000,
        20,
      );
      const seconds = (performance.now() - started) / 1000;
      const cpu = cpuPer(cpuBefore, sampleCpu(), total);
      const rate = Math.round(total / seconds);
      const ingest = Math.round(total / ((ackedAt - started) / 1000));
      // Each stream sent every unit's versions in order: the last is the same for all of them.
      const lastVersion = new Map<string, number>();
      for (let c = 0; c < THROUGHPUT_CONNECTIONS; c++) {
        for (let u = 0; u < ACK_UNITS; u++) lastVersion.set(unitKey(c, `u${u}`), THROUGHPUT_PER_CONNECTION / ACK_UNITS - 1);
      }
      const atLast = await unitsAtLastEvent(ctx, linked.auth, linked.propertyIds, lastVersion);
      console.log(
        `[webhooks] end to end: ${total} events in ${seconds.toFixed(1)} s = ${rate}/s (acknowledged at ${ingest}/s), ` +
          `${last.wrong} not applied exactly once, ${atLast} of ${lastVersion.size} units at their last event; CPU ms per event: ${cpu}`,
      );
      return {
        value: rate,
        unit:
          `events/s (${total} events, first sent to last applied in ${seconds.toFixed(1)} s; acknowledged at ${ingest}/s; ` +
          `${last.wrong} not applied exactly once; ${atLast} of ${lastVersion.size} units read as the last event sent for them; CPU ms per event: ${cpu})`,
      };
    }),
};

const syncRefresh: CustomScenario = {
  kind: 'custom',
  name: `webhook sync.complete: refresh of ${(SYNC_PROPERTIES * SYNC_UNITS_PER_PROPERTY).toLocaleString('en-US')} units across ${SYNC_PROPERTIES} properties`,
  perMode: true,
  modes: ['postgres'],
  run: (context) =>
    withStack(context, async (ctx, db, provider) => {
      const prefix = `sync${Date.now().toString(36)}-`;
      const connectionId = `${prefix}c0`;
      const units = (i: number, round: number) =>
        Array.from({ length: SYNC_UNITS_PER_PROPERTY }, (_, u) =>
          fakeUnit(u, `P${i}`, { sqft: 600 + round * 10 + u, status: (u + round) % 3 ? 'occupied' : 'vacant' }),
        );
      provider.pageSize = 50;
      for (let i = 0; i < SYNC_PROPERTIES; i++) provider.setUnits(connectionId, `P${i}`, units(i, 0));
      await linkedProperties(ctx, db, provider, prefix, SYNC_PROPERTIES, true);
      for (let i = 0; i < SYNC_PROPERTIES; i++) provider.setUnits(connectionId, `P${i}`, units(i, 1));
      const sentAt = new Date();
      const started = performance.now();
      await deliver(
        ctx.url,
        JSON.stringify({
          event: 'sync.complete',
          timestamp: sentAt.toISOString(),
          connection_id: connectionId,
          data: {
            sync_id: 'bench',
            stats: {
              properties_synced: SYNC_PROPERTIES,
              units_synced: SYNC_PROPERTIES * SYNC_UNITS_PER_PROPERTY,
              leases_synced: 0,
              duration_seconds: 1,
              errors: 0,
            },
          },
        }),
      );
      await importsDone(db, connectionId, SYNC_PROPERTIES, sentAt);
      const seconds = (performance.now() - started) / 1000;
      const { rows } = await db.query<{ n: string }>(
        `select count(*) as n from pms_units u join pms_property_links l on l.property_id = u.property_id
       where l.connection_id = $1 and u.sqft = 610 + substring(u.pms_unit_id from 2)::int`,
        [connectionId],
      );
      const refreshed = Number(rows[0].n);
      console.log(`[webhooks] sync.complete: ${refreshed} units refreshed in ${seconds.toFixed(2)} s`);
      return {
        value: Number(seconds.toFixed(2)),
        unit: `s (${refreshed} of ${SYNC_PROPERTIES * SYNC_UNITS_PER_PROPERTY} units refreshed, from the event sent to the last import stored)`,
      };
    }),
};

export const webhookScenarios: Scenario[] = [ackLatency, throughput, syncRefresh];
