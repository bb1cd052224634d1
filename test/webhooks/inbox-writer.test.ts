import crypto from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { createTestDatabase } from '../helpers/app';
import { createLogger } from '../../src/platform/logger';
import type { Database, Db } from '../../src/platform/db/client';
import { createInboxWriter, type AppendOutcome } from '../../src/modules/webhooks/inbox-writer';
import { createWebhookRepository, type StreamArrival } from '../../src/modules/webhooks/repository';
import { createWebhookService } from '../../src/modules/webhooks/service';

const sha = (body: Buffer) => crypto.createHash('sha256').update(body).digest('hex');
const APPEND = 'as t(ord int, id text';

/** An event as the receiver hands it to the writer (here bypassing the envelope's checks). */
function arrival(connectionId: string, over: Partial<StreamArrival> = {}): StreamArrival {
  const body = Buffer.from(JSON.stringify({ event: 'data.update', n: crypto.randomUUID() }));
  return {
    id: crypto.randomUUID(),
    sha256: sha(body),
    rawBody: body,
    bodyBytes: body.length,
    receivedAt: new Date(),
    connectionId,
    event: 'data.update',
    resourceType: 'unit',
    eventTimestamp: '2026-01-01T00:00:00Z',
    ...over,
  };
}

/** The database, its raw statements (db.execute, as the append runs) seen (and possibly failed) by `intercept`. */
function wrapped(db: Db, intercept: (text: string, rows: number, params?: unknown[]) => Error | null | Promise<void>): Db {
  const dialect = new PgDialect();
  const execute = async (query: SQL) => {
    const { sql: text, params } = dialect.sqlToQuery(query);
    const rows = text.includes(APPEND) ? (JSON.parse(String(params[0])) as unknown[]).length : 0;
    const verdict = intercept(text, rows, params);
    if (verdict instanceof Error) throw verdict;
    await verdict; // a held statement: sent once the test lets it go
    return db.execute(query);
  };
  // The query builder's statements keep the real database; raw statements go through `execute`.
  return Object.create(db, { execute: { value: execute } }) as Db;
}

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'ERROR' });

describe('inbox writer', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('an event the database refuses, written in one batch with valid ones, fails alone: the others are stored in order', async () => {
    const batches: number[] = [];
    const writer = createInboxWriter({ db: wrapped(database.db, (text, rows) => (text.includes(APPEND) && batches.push(rows), null)) });
    // Appended in one turn of the event loop, the nine are tried as one statement (issue 46 item 9
    // replaced "the first two are written at once, the rest together": a write starts once a turn's events are queued).
    const first = [arrival('ib-0a'), arrival('ib-0b')];
    const batch = [
      arrival('ib-1'),
      arrival('ib-1', { eventTimestamp: '0000-01-01T00:00:00Z' }),
      arrival('ib-2'),
      arrival('ib-1\ud800'),
      arrival('ib-1'),
      arrival('ib-2\u0000'),
      arrival('ib-2'),
    ];
    const outcomes = await Promise.all([...first, ...batch].map((a) => writer.append(a)));
    expect(batches[0]).toBe(9); // then one by one, in order
    expect(batches.slice(1)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1]);
    const [a, b, c, bad1, d, bad2, e, bad3, f] = outcomes;
    expect([a, b, c, d, e, f]).toEqual<AppendOutcome[]>([
      { kind: 'stored', id: first[0].id, seq: 1 },
      { kind: 'stored', id: first[1].id, seq: 1 },
      { kind: 'stored', id: batch[0].id, seq: 1 },
      { kind: 'stored', id: batch[2].id, seq: 1 },
      { kind: 'stored', id: batch[4].id, seq: 2 },
      { kind: 'stored', id: batch[6].id, seq: 2 },
    ]);
    expect(bad1).toEqual({ kind: 'refused', reason: expect.stringMatching(/date\/time field value out of range/) });
    expect(bad2).toEqual({ kind: 'refused', reason: expect.stringMatching(/json/i) });
    expect(bad3).toEqual({ kind: 'refused', reason: expect.stringMatching(/Unicode/i) });
    const repo = createWebhookRepository(database.db);
    for (const refused of [batch[1], batch[3], batch[5]]) expect(await repo.findBySha(refused.sha256)).toBeNull();
    expect(await repo.findBySha(batch[6].sha256)).toMatchObject({ status: 'pending', connectionId: 'ib-2', seq: 2 });
  });

  it("a connection's events are numbered in arrival order: its next write waits for the one in flight, other connections do not", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const written: string[][] = [];
    const writer = createInboxWriter({
      db: wrapped(database.db, (text, _rows, params) => {
        if (!text.includes(APPEND)) return null;
        written.push((JSON.parse(String(params![0])) as Array<{ conn: string }>).map((r) => r.conn));
        return written.length === 1 ? held : null; // the first write stays in flight until released
      }),
    });
    const [x1, x2, y1, x3] = [arrival('ib-order-x'), arrival('ib-order-x'), arrival('ib-order-y'), arrival('ib-order-x')];
    const first = writer.append(x1);
    await new Promise(setImmediate); // x1's write starts at the end of this turn, and is held
    const later = [x2, y1, x3].map((a) => writer.append(a));
    // y1's write runs beside the held one; x2 and x3 wait for x1's to commit.
    expect(await later[1]).toEqual({ kind: 'stored', id: y1.id, seq: 1 });
    expect(written).toEqual([['ib-order-x'], ['ib-order-y']]);
    release();
    expect(await first).toEqual({ kind: 'stored', id: x1.id, seq: 1 });
    expect(await later[0]).toEqual({ kind: 'stored', id: x2.id, seq: 2 });
    expect(await later[2]).toEqual({ kind: 'stored', id: x3.id, seq: 3 });
    expect(written).toEqual([['ib-order-x'], ['ib-order-y'], ['ib-order-x', 'ib-order-x']]);
  });

  it('the database unavailable: every caller of the batch gets the error (the 503 path), none is written one by one', async () => {
    const down = pgError('57P01', 'terminating connection due to administrator command');
    const calls: number[] = [];
    const writer = createInboxWriter({ db: wrapped(database.db, (_text, rows) => (calls.push(rows), down)) });
    const connections = ['ib-down-1', 'ib-down-2', 'ib-down-3', 'ib-down-3', 'ib-down-3'];
    const results = await Promise.allSettled(connections.map((c) => writer.append(arrival(c))));
    expect(results.map((r) => r.status === 'rejected' && r.reason)).toEqual([down, down, down, down, down]);
    // One statement for the five appended in one turn (issue 46 item 9 replaced two writes of one, then three).
    expect(calls).toEqual([5]);
  });

  it('an error the event did not cause (disk full) is not taken for a refusal: its callers get it', async () => {
    const full = pgError('53100', 'could not extend file: No space left on device');
    const writer = createInboxWriter({ db: wrapped(database.db, () => full) });
    const results = await Promise.allSettled([1, 2, 3, 4].map(() => writer.append(arrival('ib-full'))));
    expect(results.map((r) => r.status === 'rejected' && r.reason)).toEqual([full, full, full, full]);
  });

  it('the receiver logs an event the database refuses anyway as failed, answered 200', async () => {
    const refusing = wrapped(database.db, (text) =>
      text.includes(APPEND) ? pgError('22008', 'date/time field value out of range: "x"') : null,
    );
    const logger = createLogger('silent');
    const warn = jest.spyOn(logger, 'warn');
    const service = createWebhookService({
      db: refusing,
      now: () => new Date(),
      logger,
      handler: () => {
        throw new Error('not applied here');
      },
      enqueue: async () => undefined,
      connectionsOf: async () => [],
      requeueOwedSyncs: async () => 0,
    });
    const body = Buffer.from(
      JSON.stringify({
        event: 'data.update',
        timestamp: '2026-01-01T00:00:00Z',
        connection_id: 'ib-svc',
        resource_type: 'unit',
        data: { id: 'u1' },
      }),
    );
    const answer = await service.receive({ rawBody: body, bodyBytes: body.length, sha256: sha(body) });
    expect(answer).toEqual({
      status: 'failed',
      id: expect.any(String),
      detail: 'event cannot be stored: date/time field value out of range: "x"',
    });
    expect(await createWebhookRepository(database.db).findBySha(sha(body))).toMatchObject({
      status: 'failed',
      seq: null,
      connectionId: 'ib-svc',
      event: 'data.update',
      detail: answer.status === 'failed' && answer.detail,
    });
    expect(warn).toHaveBeenCalled();
    expect(await service.receive({ rawBody: body, bodyBytes: body.length, sha256: sha(body) })).toEqual({
      status: 'duplicate',
      id: (answer as { id: string }).id,
    });
  });
});
