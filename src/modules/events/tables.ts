import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { cascadingRef, quoted, timestamptz } from '../../platform/db/columns';
import { DELIVERY_STATUSES } from './retry-schedule';
import { users } from '../accounts/tables';

/**
 * An account's webhook endpoint (README "Endpoints"): where its events go, which types, and the
 * secret they are signed with (Standard Webhooks, `whsec_` + base64). A rotated secret keeps
 * signing beside the new one until `previous_secret_expires_at`. `failing_since` is the first
 * failed attempt since the last success; five days of it disable the endpoint.
 */
export const eventEndpoints = pgTable(
  'event_endpoints',
  {
    id: text('id').primaryKey(),
    ownerId: cascadingRef('owner_id', () => users.id),
    url: text('url').notNull(),
    description: text('description'),
    eventTypes: text('event_types').array().notNull(),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamptz('previous_secret_expires_at'),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    failingSince: timestamptz('failing_since'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    index('event_endpoints_owner_idx').on(t.ownerId, t.createdAt),
    check('event_endpoints_types_check', sql`cardinality(${t.eventTypes}) > 0`),
  ],
);

/**
 * The outbox: one row per event, written in the transaction of the change it reports. `dedupe_key`
 * makes emission idempotent per owner (a retried job emits nothing twice).
 */
export const events = pgTable(
  'events',
  {
    id: text('id').primaryKey(),
    ownerId: cascadingRef('owner_id', () => users.id),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    dedupeKey: text('dedupe_key'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('events_owner_dedupe_key').on(t.ownerId, t.dedupeKey),
    // The nightly prune of events past the retention (README "Retention").
    index('events_created_idx').on(t.createdAt),
  ],
);

/**
 * One event to one endpoint (fanned out when the event is written, or a replay): pending until an
 * attempt succeeds (`succeeded`) or the retry schedule is used up (`failed`). `next_attempt_at` is
 * when it is due; a delivery being sent has it moved past the send's time-out (its lease).
 */
export const eventDeliveries = pgTable(
  'event_deliveries',
  {
    id: text('id').primaryKey(),
    eventId: cascadingRef('event_id', () => events.id),
    endpointId: cascadingRef('endpoint_id', () => eventEndpoints.id),
    /** The delivery this one replays (POST .../replay), null for the first. */
    replayOf: text('replay_of'),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    check('event_deliveries_status_check', sql`${t.status} in (${quoted(DELIVERY_STATUSES)})`),
    index('event_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    index('event_deliveries_event_idx').on(t.eventId),
    index('event_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/** Every attempt of a delivery: the answer's status code (null: none came), how long it took, and what went wrong. */
export const eventDeliveryAttempts = pgTable(
  'event_delivery_attempts',
  {
    id: text('id').primaryKey(),
    deliveryId: cascadingRef('delivery_id', () => eventDeliveries.id),
    attempt: integer('attempt').notNull(),
    attemptedAt: timestamptz('attempted_at').notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
  },
  (t) => [unique('event_delivery_attempts_delivery_attempt_key').on(t.deliveryId, t.attempt)],
);
