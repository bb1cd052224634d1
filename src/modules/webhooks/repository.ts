import { desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { rowsOf } from '../../platform/db/errors';
import { pageOfRows } from '../../platform/db/rows';
import { offsetOf, type PageQuery } from '../../platform/http/pagination';
import { webhookCursors, webhookEvents, webhookStreams, type WebhookStatus } from './tables';

export type WebhookEventRow = typeof webhookEvents.$inferSelect;

export interface ArrivalRecord {
  id: string;
  sha256: string;
  rawBody: Buffer | null;
  bodyBytes: number;
  receivedAt: Date;
  connectionId: string | null;
  event: string | null;
  resourceType: string | null;
}

/** An event that enters its connection's stream. */
export interface StreamArrival extends ArrivalRecord {
  connectionId: string;
  event: string;
  /** ISO 8601 with a zone. */
  eventTimestamp: string;
}

/** One stream's cursor and next events, as the drain of several streams reads them. */
export interface StreamBatch {
  connectionId: string;
  appliedSeq: number;
  lastSeq: number;
  events: PendingEvent[];
}

/** A stream event as the appliers read it. */
export type PendingEvent = Pick<WebhookEventRow, 'id' | 'seq' | 'rawBody' | 'attempts' | 'nextAttemptAt'>;

export interface ProcessedEvent {
  id: string;
  status: Exclude<WebhookStatus, 'pending'>;
  detail: string | null;
}

/** A stream event as the appliers' raw statements read it. */
type EventRow = { id: string; seq: number; raw_body: Uint8Array | null; attempts: number; next_attempt_at: Date | string | null };

const toPendingEvent = (r: EventRow): PendingEvent => ({
  id: r.id,
  seq: r.seq,
  rawBody: r.raw_body ? Buffer.from(r.raw_body) : null,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at === null ? null : new Date(r.next_attempt_at),
});

/**
 * The inbox's statement (see appendToStreams). Bodies received before are found by a lookup per
 * arrival on webhook_events_body_sha256_key.
 */
const appendToStreamsSql = (rowsJson: string) => sql`
  with input as (
    select * from jsonb_to_recordset(${rowsJson}::jsonb) as t(ord int, id text, sha text, raw text, bytes int,
      received_at timestamptz, conn text, event text, rtype text, ts timestamptz)
  ), fresh as (
    select distinct on (sha) * from input i
    where (select e.id from ${webhookEvents} e where e.body_sha256 = i.sha) is null
    order by sha, ord
  ), counts as (
    select conn, count(*)::bigint as n from fresh group by conn
  ), bumped as (
    insert into ${webhookStreams} (connection_id, last_seq)
    select conn, n from counts order by conn
    on conflict (connection_id) do update set last_seq = ${webhookStreams}.last_seq + excluded.last_seq
    -- xmax = 0: this statement inserted the row (a new stream), it did not update it
    returning connection_id, last_seq, xmax = 0 as created
  ), cursors as (
    insert into ${webhookCursors} (connection_id, applied_seq)
    select connection_id, 0 from bumped where created
    on conflict (connection_id) do nothing
  ), numbered as (
    select f.*, b.last_seq - c.n + row_number() over (partition by f.conn order by f.ord) as seq
    from fresh f join counts c on c.conn = f.conn join bumped b on b.connection_id = f.conn
  )
  insert into ${webhookEvents} (id, body_sha256, raw_body, body_bytes, received_at, connection_id, event, resource_type,
    event_timestamp, seq, status)
  select id, sha, decode(raw, 'base64'), bytes, received_at, conn, event, rtype, ts, seq, 'pending' from numbered
  on conflict (body_sha256) do nothing
  returning id, seq::float8 as seq`;

/** The inbox: events appended to their streams, bodies logged final, lookups by hash and id. */
function inboxQueries(db: Executor) {
  return {
    /**
     * Stores events at the ends of their connections' streams, in one statement (one commit for
     * the batch). Each connection's stream row is created or its `last_seq` moved on by the number
     * of its new events (the row lock orders concurrent writers of a connection; rows are locked in
     * connection order, so two writers never deadlock), and its events take the numbers in batch
     * order. Bodies received before, in an earlier batch or earlier in this one, are not stored
     * and not in the result. A copy arriving in another writer's batch at the same instant can
     * leave a number unused: appliers skip such a gap.
     */
    async appendToStreams(batch: StreamArrival[]): Promise<Array<{ id: string; seq: number }>> {
      if (batch.length === 0) return [];
      const rows = batch.map((a, ord) => ({
        ord,
        id: a.id,
        sha: a.sha256,
        raw: a.rawBody ? a.rawBody.toString('base64') : null,
        bytes: a.bodyBytes,
        received_at: a.receivedAt.toISOString(),
        conn: a.connectionId,
        event: a.event,
        rtype: a.resourceType,
        ts: a.eventTimestamp,
      }));
      return rowsOf<{ id: string; seq: number }>(await db.execute(appendToStreamsSql(JSON.stringify(rows))));
    },

    /** The ids under which bodies were stored (for answering duplicates). */
    async idsBySha(sha256s: string[]): Promise<Map<string, string>> {
      if (sha256s.length === 0) return new Map();
      const rows = await db
        .select({ id: webhookEvents.id, sha: webhookEvents.bodySha256 })
        .from(webhookEvents)
        .where(inArray(webhookEvents.bodySha256, sha256s));
      return new Map(rows.map((r) => [r.sha, r.id]));
    },

    /** Stores an event that is final on arrival (ping, unknown type, malformed); false when received before. */
    async insertFinal(a: ArrivalRecord, status: Exclude<WebhookStatus, 'pending'>, detail: string | null): Promise<boolean> {
      const rows = await db
        .insert(webhookEvents)
        .values({
          id: a.id,
          bodySha256: a.sha256,
          rawBody: a.rawBody,
          bodyBytes: a.bodyBytes,
          receivedAt: a.receivedAt,
          connectionId: a.connectionId,
          event: a.event,
          resourceType: a.resourceType,
          status,
          detail,
          processedAt: a.receivedAt,
        })
        .onConflictDoNothing()
        .returning({ id: webhookEvents.id });
      return rows.length > 0;
    },

    async findBySha(sha256: string): Promise<WebhookEventRow | null> {
      const [row] = await db.select().from(webhookEvents).where(eq(webhookEvents.bodySha256, sha256));
      return row ?? null;
    },

    async findById(id: string, forUpdate = false): Promise<WebhookEventRow | null> {
      const query = db.select().from(webhookEvents).where(eq(webhookEvents.id, id));
      const [row] = forUpdate ? await query.for('update') : await query;
      return row ?? null;
    },
  };
}

/** The streams' pointers and the pending events read under their locks, completed in batches. */
function streamQueries(db: Executor) {
  return {
    /** Locks the connection's cursor (serialising its appliers; created at 0 on first use) and returns its pointer. */
    async lockStream(connectionId: string): Promise<number> {
      const locked = () =>
        db
          .select({ appliedSeq: webhookCursors.appliedSeq })
          .from(webhookCursors)
          .where(eq(webhookCursors.connectionId, connectionId))
          .for('update');
      let [row] = await locked();
      if (!row) {
        await db.insert(webhookCursors).values({ connectionId, appliedSeq: 0 }).onConflictDoNothing();
        [row] = await locked();
      }
      return row!.appliedSeq;
    },

    async advancePointer(connectionId: string, seq: number): Promise<void> {
      await db
        .update(webhookCursors)
        .set({ appliedSeq: sql`greatest(${webhookCursors.appliedSeq}, ${seq})` })
        .where(eq(webhookCursors.connectionId, connectionId));
    },

    /**
     * Locks the connection's cursor and reads the events after its pointer, in sequence order, in
     * one statement (the applier's hot path).
     */
    async lockAndRead(connectionId: string, limit: number): Promise<PendingEvent[]> {
      const result = await db.execute(sql`
        with cursor as (select applied_seq from ${webhookCursors} where connection_id = ${connectionId} for update)
        select e.id, e.seq::float8 as seq, e.raw_body, e.attempts, e.next_attempt_at from ${webhookEvents} e, cursor
        where e.connection_id = ${connectionId} and e.seq > cursor.applied_seq order by e.seq limit ${limit}`);
      return rowsOf<EventRow>(result).map(toPendingEvent);
    },

    /** Streams with events after their cursor (of any age), for the drain of every stream. */
    /** Streams with numbers past their cursor, and how many (events, or gaps a raced copy left). */
    async pendingStreams(limit: number): Promise<Array<{ connectionId: string; pending: number }>> {
      const result = await db.execute(sql`
        select s.connection_id, (s.last_seq - c.applied_seq)::float8 as pending
        from ${webhookStreams} s join ${webhookCursors} c on c.connection_id = s.connection_id
        where c.applied_seq < s.last_seq order by s.connection_id limit ${limit}`);
      return rowsOf<{ connection_id: string; pending: number }>(result).map((r) => ({ connectionId: r.connection_id, pending: r.pending }));
    },

    /**
     * Locks the cursors of several streams (skipping those another applier holds) and reads, in
     * one statement, up to each stream's `limit` of events after its cursor, in sequence order,
     * with the stream's `last_seq` as of the same snapshot.
     */
    async lockAndReadMany(streams: Array<{ connectionId: string; limit: number }>): Promise<StreamBatch[]> {
      const wanted = JSON.stringify(streams.map((w) => ({ conn: w.connectionId, lim: w.limit })));
      const result = await db.execute(sql`
        with locked as (
          select c.connection_id, c.applied_seq, s.last_seq, w.lim from ${webhookCursors} c
          join ${webhookStreams} s on s.connection_id = c.connection_id
          join jsonb_to_recordset(${wanted}::jsonb) as w(conn text, lim int) on w.conn = c.connection_id
          order by c.connection_id
          for update of c skip locked
        )
        select l.connection_id, l.applied_seq::float8 as applied_seq, l.last_seq::float8 as last_seq,
          e.id, e.seq, e.raw_body, e.attempts, e.next_attempt_at
        from locked l left join lateral (
          select id, seq::float8 as seq, raw_body, attempts, next_attempt_at from ${webhookEvents}
          where connection_id = l.connection_id and seq > l.applied_seq order by seq limit l.lim
        ) e on true
        order by l.connection_id, e.seq`);
      // The left join gives a stream without events one row whose event columns are all null.
      type Row = { connection_id: string; applied_seq: number; last_seq: number } & (EventRow | { id: null });
      const batches = new Map<string, StreamBatch>();
      for (const r of rowsOf<Row>(result)) {
        let b = batches.get(r.connection_id);
        if (!b)
          batches.set(r.connection_id, (b = { connectionId: r.connection_id, appliedSeq: r.applied_seq, lastSeq: r.last_seq, events: [] }));
        if (r.id !== null) b.events.push(toPendingEvent(r));
      }
      return [...batches.values()];
    },

    /** Records processed events and moves cursors forward, in one statement. */
    async completeMany(events: ProcessedEvent[], cursors: Array<{ conn: string; seq: number }>, now: Date): Promise<void> {
      if (events.length === 0 && cursors.length === 0) return;
      await db.execute(sql`
        with marked as (
          update ${webhookEvents} e set status = v.status, detail = v.detail, processed_at = ${now.toISOString()}::timestamptz,
            attempts = e.attempts + 1, next_attempt_at = null
          from jsonb_to_recordset(${JSON.stringify(events)}::jsonb) as v(id text, status text, detail text)
          where e.id = v.id
        )
        update ${webhookCursors} c set applied_seq = greatest(c.applied_seq, v.seq)
        from jsonb_to_recordset(${JSON.stringify(cursors)}::jsonb) as v(conn text, seq bigint)
        where c.connection_id = v.conn`);
    },
  };
}

/** Retries, dead letters, replays, the sweep, and the log. */
function outcomeQueries(db: Executor) {
  return {
    /** A failed attempt that will be retried at `retryAt`; the event stays pending at the head of its stream. */
    async recordRetry(id: string, attempts: number, detail: string, retryAt: Date): Promise<void> {
      await db.update(webhookEvents).set({ attempts, detail, nextAttemptAt: retryAt }).where(eq(webhookEvents.id, id));
    },

    /** The last attempt failed: the event is logged failed and kept in the dead-letter list. */
    async deadLetter(id: string, attempts: number, detail: string, now: Date): Promise<void> {
      await db
        .update(webhookEvents)
        .set({ status: 'failed', attempts, detail, processedAt: now, deadLetteredAt: now, nextAttemptAt: null })
        .where(eq(webhookEvents.id, id));
    },

    /** After a replay: the new outcome; a success leaves the dead-letter list. */
    async recordReplay(id: string, outcome: ProcessedEvent, attempts: number, now: Date): Promise<void> {
      await db
        .update(webhookEvents)
        .set({
          status: outcome.status,
          detail: outcome.detail,
          attempts,
          processedAt: now,
          ...(outcome.status === 'failed' ? {} : { deadLetteredAt: null }),
        })
        .where(eq(webhookEvents.id, id));
    },

    /**
     * Connections whose next event to apply was received before `receivedBefore` (the sweeper's
     * work list): streams whose cursor is behind, checked at the cursor's next event.
     */
    async connectionsWithPending(receivedBefore: Date, limit: number): Promise<string[]> {
      const result = await db.execute(sql`
        select s.connection_id from ${webhookStreams} s join ${webhookCursors} c on c.connection_id = s.connection_id
        where c.applied_seq < s.last_seq and exists (
          select 1 from ${webhookEvents} e
          where e.connection_id = s.connection_id and e.seq > c.applied_seq and e.received_at < ${receivedBefore.toISOString()}::timestamptz)
        limit ${limit}`);
      return rowsOf<{ connection_id: string }>(result).map((r) => r.connection_id);
    },

    /** The log of some connections, newest first. */
    async logOf(connectionIds: string[], q: PageQuery): Promise<{ rows: WebhookEventRow[]; total: number }> {
      if (connectionIds.length === 0) return { rows: [], total: 0 };
      const where = inArray(webhookEvents.connectionId, connectionIds);
      const list = db.select().from(webhookEvents).where(where).orderBy(desc(webhookEvents.receivedAt), desc(webhookEvents.id));
      return pageOfRows(db, list, { table: webhookEvents, where }, q.per_page, offsetOf(q));
    },

    async deadLetters(q: PageQuery): Promise<{ rows: WebhookEventRow[]; total: number }> {
      const where = isNotNull(webhookEvents.deadLetteredAt);
      const list = db.select().from(webhookEvents).where(where).orderBy(desc(webhookEvents.deadLetteredAt), desc(webhookEvents.id));
      return pageOfRows(db, list, { table: webhookEvents, where }, q.per_page, offsetOf(q));
    },
  };
}

export function createWebhookRepository(db: Executor) {
  return { ...inboxQueries(db), ...streamQueries(db), ...outcomeQueries(db) };
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
