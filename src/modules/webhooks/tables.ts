import { sql } from 'drizzle-orm';
import { bigint, check, customType, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { quoted, timestamptz } from '../../platform/db/columns';

/** Raw bytes: a webhook body is stored as received (it may not even be UTF-8). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => Buffer.from(v),
});

export const WEBHOOK_STATUSES = ['pending', 'success', 'failed', 'ignored'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/**
 * One ordered stream of events per provider connection: `last_seq` is the sequence number
 * given to its latest received event (the receiver's row: its lock orders a connection's
 * concurrent arrivals).
 */
export const webhookStreams = pgTable('webhook_streams', {
  connectionId: text('connection_id').primaryKey(),
  lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
});

/**
 * The appliers' side of a stream: `applied_seq` is the "next to apply" pointer (every event up
 * to it has been processed), and the row is the lock that serialises a stream's appliers. Apart
 * from webhook_streams, so a long apply transaction never delays the receiver's commit.
 */
export const webhookCursors = pgTable('webhook_cursors', {
  connectionId: text('connection_id').primaryKey(),
  appliedSeq: bigint('applied_seq', { mode: 'number' }).notNull().default(0),
});

/**
 * The inbox and the webhook log in one table: every signed delivery, committed before it is
 * acknowledged. `body_sha256` is the idempotency key. Events that enter a stream carry `seq`
 * and stay `pending` until applied; the others are final on arrival (test.ping, unknown event
 * types, bad envelopes). `dead_lettered_at` marks an event that failed all its attempts.
 * No index covers the processing columns (status, detail, attempts, times), and the table keeps
 * free room in its pages (fillfactor, migration 0013), so marking an event processed is a HOT
 * update that touches no index.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    bodySha256: text('body_sha256').notNull(),
    /** Null when the body was over the size limit (only its hash and size are kept). */
    rawBody: bytea('raw_body'),
    bodyBytes: integer('body_bytes').notNull(),
    receivedAt: timestamptz('received_at').notNull(),
    connectionId: text('connection_id'),
    event: text('event'),
    resourceType: text('resource_type'),
    eventTimestamp: timestamptz('event_timestamp'),
    seq: bigint('seq', { mode: 'number' }),
    status: text('status').$type<WebhookStatus>().notNull(),
    detail: text('detail'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at'),
    processedAt: timestamptz('processed_at'),
    deadLetteredAt: timestamptz('dead_lettered_at'),
  },
  (t) => [
    uniqueIndex('webhook_events_body_sha256_key').on(t.bodySha256),
    uniqueIndex('webhook_events_connection_seq_key').on(t.connectionId, t.seq),
    index('webhook_events_connection_received_idx').on(t.connectionId, t.receivedAt.desc(), t.id.desc()),
    index('webhook_events_dead_letter_idx')
      .on(t.deadLetteredAt.desc())
      .where(sql`${t.deadLetteredAt} is not null`),
    check('webhook_events_status_check', sql`${t.status} in (${quoted(WEBHOOK_STATUSES)})`),
    // A pending event is always in a stream, so the sweeper and the appliers can find it.
    check('webhook_events_pending_seq_check', sql`${t.status} <> 'pending' or (${t.seq} is not null and ${t.connectionId} is not null)`),
  ],
);
