import crypto from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { pageOfRows, rowWhere } from '../../platform/db/rows';
import { rowsOf } from '../../platform/db/errors';
import { eventDeliveries, eventDeliveryAttempts, eventEndpoints, events } from './tables';

export type EndpointRow = typeof eventEndpoints.$inferSelect;
export type EventRow = typeof events.$inferSelect;
export type DeliveryRow = typeof eventDeliveries.$inferSelect;
export type AttemptRow = typeof eventDeliveryAttempts.$inferSelect;

const newId = (prefix: string) => `${prefix}_${crypto.randomUUID().replaceAll('-', '')}`;
export const newEndpointId = () => newId('ep');

/** An event as the outbox stores it (the type is the caller's business: a catalogue type, or the test event). */
export interface OutboxEvent {
  ownerId: string;
  type: string;
  data: Record<string, unknown>;
  dedupeKey?: string | null;
}

/** A delivery due, with what sending it needs. */
export interface DueDelivery {
  delivery: DeliveryRow;
  event: EventRow;
  endpoint: EndpointRow;
}

/** The outbox: events and the deliveries they fan out to. */
function outboxQueries(db: Executor) {
  return {
    /**
     * Writes the events (one whose owner and dedupe key exist already is skipped) and, in the same
     * statement, a pending delivery to each enabled endpoint of the owner that subscribes to the type.
     */
    async emit(list: readonly OutboxEvent[], now: Date): Promise<void> {
      if (list.length === 0) return;
      const rows = list.map((e) => ({
        id: newId('evt'),
        owner_id: e.ownerId,
        type: e.type,
        data: e.data,
        dedupe_key: e.dedupeKey ?? null,
      }));
      const at = now.toISOString();
      await db.execute(sql`
        with written as (
          insert into ${events} (id, owner_id, type, data, dedupe_key, created_at)
          select r.id, r.owner_id, r.type, r.data, r.dedupe_key, ${at}::timestamptz
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, owner_id text, type text, data jsonb, dedupe_key text)
          on conflict do nothing
          returning id, owner_id, type
        )
        insert into ${eventDeliveries} (id, event_id, endpoint_id, status, attempts, next_attempt_at, created_at, updated_at)
        select 'dlv_' || replace(gen_random_uuid()::text, '-', ''), w.id, e.id, 'pending', 0, ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
        from written w join ${eventEndpoints} e on e.owner_id = w.owner_id and e.enabled and w.type = any(e.event_types)`);
    },

    /** One event, and its delivery to this endpoint only (the test event, a replay's new delivery). */
    async insertDelivery(d: { eventId: string; endpointId: string; replayOf: string | null }, now: Date): Promise<DeliveryRow> {
      const [row] = await db
        .insert(eventDeliveries)
        .values({
          id: newId('dlv'),
          eventId: d.eventId,
          endpointId: d.endpointId,
          replayOf: d.replayOf,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return row!;
    },

    async insertEvent(e: OutboxEvent, now: Date): Promise<EventRow> {
      const [row] = await db
        .insert(events)
        .values({
          id: newId('evt'),
          ownerId: e.ownerId,
          type: e.type,
          data: e.data,
          dedupeKey: e.dedupeKey ?? null,
          createdAt: now,
        })
        .returning();
      return row!;
    },
  };
}

/** Webhook endpoints: the owner's (owner-scoped) and the sender's (by id). */
function endpointQueries(db: Executor) {
  return {
    async insertEndpoint(row: typeof eventEndpoints.$inferInsert): Promise<EndpointRow> {
      const [created] = await db.insert(eventEndpoints).values(row).returning();
      return created!;
    },

    /** The owner's endpoint, null when it is not theirs (or gone). */
    async endpoint(ownerId: string, id: string): Promise<EndpointRow | null> {
      return rowWhere(db, eventEndpoints, and(eq(eventEndpoints.id, id), eq(eventEndpoints.ownerId, ownerId)));
    },

    async endpoints(ownerId: string, limit: number, offset: number) {
      const where = eq(eventEndpoints.ownerId, ownerId);
      const list = db.select().from(eventEndpoints).where(where).orderBy(desc(eventEndpoints.createdAt), desc(eventEndpoints.id));
      return pageOfRows(db, list, { table: eventEndpoints, where }, limit, offset);
    },

    async updateEndpoint(ownerId: string, id: string, set: Partial<typeof eventEndpoints.$inferInsert>): Promise<EndpointRow | null> {
      const [row] = await db
        .update(eventEndpoints)
        .set(set)
        .where(and(eq(eventEndpoints.id, id), eq(eventEndpoints.ownerId, ownerId)))
        .returning();
      return row ?? null;
    },

    async deleteEndpoint(ownerId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(eventEndpoints)
        .where(and(eq(eventEndpoints.id, id), eq(eventEndpoints.ownerId, ownerId)))
        .returning({ id: eventEndpoints.id });
      return rows.length > 0;
    },

    /** Locks the endpoint's row (the attempts of one endpoint record their outcome one at a time). */
    async lockEndpoint(id: string): Promise<EndpointRow | null> {
      const [row] = await db.select().from(eventEndpoints).where(eq(eventEndpoints.id, id)).for('update');
      return row ?? null;
    },

    async setEndpoint(id: string, set: Partial<typeof eventEndpoints.$inferInsert>): Promise<void> {
      await db.update(eventEndpoints).set(set).where(eq(eventEndpoints.id, id));
    },
  };
}

/** Deliveries and their attempt logs: the log read, the claim of those due, outcomes, pruning. */
function deliveryQueries(db: Executor) {
  /** Deliveries, each with its event's type: what the delivery log reads, a page or one of them. */
  const withEventType = () =>
    db
      .select({ delivery: eventDeliveries, eventType: events.type })
      .from(eventDeliveries)
      .innerJoin(events, eq(events.id, eventDeliveries.eventId));

  return {
    /** The endpoint's deliveries, newest first, each with its event's type. */
    async deliveries(endpointId: string, limit: number, offset: number) {
      const where = eq(eventDeliveries.endpointId, endpointId);
      const list = withEventType().where(where).orderBy(desc(eventDeliveries.createdAt), desc(eventDeliveries.id));
      return pageOfRows(db, list, { table: eventDeliveries, where }, limit, offset);
    },

    async attemptsOf(deliveryIds: readonly string[]): Promise<AttemptRow[]> {
      if (deliveryIds.length === 0) return [];
      return db
        .select()
        .from(eventDeliveryAttempts)
        .where(inArray(eventDeliveryAttempts.deliveryId, [...deliveryIds]))
        .orderBy(eventDeliveryAttempts.deliveryId, eventDeliveryAttempts.attempt);
    },

    async delivery(endpointId: string, id: string): Promise<{ delivery: DeliveryRow; eventType: string } | null> {
      const [row] = await withEventType().where(and(eq(eventDeliveries.id, id), eq(eventDeliveries.endpointId, endpointId)));
      return row ?? null;
    },

    /**
     * Claims up to `limit` deliveries due at `now` to enabled endpoints: their due time moves to
     * `leaseUntil`, so no other run sends them meanwhile (a run that dies leaves them due again then).
     */
    async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<DueDelivery[]> {
      const claimed = rowsOf<{ id: string }>(
        await db.execute(sql`
        update ${eventDeliveries} d set next_attempt_at = ${leaseUntil.toISOString()}::timestamptz, updated_at = ${now.toISOString()}::timestamptz
        where d.id in (
          select p.id from ${eventDeliveries} p join ${eventEndpoints} e on e.id = p.endpoint_id
          where p.status = 'pending' and p.next_attempt_at <= ${now.toISOString()}::timestamptz and e.enabled
          order by p.next_attempt_at, p.id limit ${limit}
          for update of p skip locked)
        returning d.id`),
      ).map((r) => r.id);
      if (claimed.length === 0) return [];
      return db
        .select({ delivery: eventDeliveries, event: events, endpoint: eventEndpoints })
        .from(eventDeliveries)
        .innerJoin(events, eq(events.id, eventDeliveries.eventId))
        .innerJoin(eventEndpoints, eq(eventEndpoints.id, eventDeliveries.endpointId))
        .where(inArray(eventDeliveries.id, claimed))
        .orderBy(eventDeliveries.nextAttemptAt, eventDeliveries.id);
    },

    async insertAttempt(a: Omit<typeof eventDeliveryAttempts.$inferInsert, 'id'>): Promise<void> {
      await db
        .insert(eventDeliveryAttempts)
        .values({ id: newId('att'), ...a })
        .onConflictDoNothing();
    },

    async updateDelivery(id: string, set: Partial<typeof eventDeliveries.$inferInsert>): Promise<void> {
      await db.update(eventDeliveries).set(set).where(eq(eventDeliveries.id, id));
    },

    /**
     * Deletes up to `limit` events created before `before` none of whose deliveries is still pending
     * (their deliveries and attempts go with them); returns how many went.
     */
    async prune(before: Date, limit: number): Promise<number> {
      const rows = rowsOf<{ id: string }>(
        await db.execute(sql`
        delete from ${events} where id in (
          select v.id from ${events} v
          where v.created_at < ${before.toISOString()}::timestamptz
            and not exists (select 1 from ${eventDeliveries} d where d.event_id = v.id and d.status = 'pending')
          order by v.created_at limit ${limit})
        returning id`),
      );
      return rows.length;
    },
  };
}

export function createEventRepository(db: Executor) {
  return { ...outboxQueries(db), ...endpointQueries(db), ...deliveryQueries(db) };
}

export type EventRepository = ReturnType<typeof createEventRepository>;
