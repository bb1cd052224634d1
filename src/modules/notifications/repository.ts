import crypto from 'node:crypto';
import { and, count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { pageOfRows } from '../../platform/db/rows';
import { notifications } from './tables';

export type NotificationRow = typeof notifications.$inferSelect;

export interface NewNotification {
  userId: string;
  type: string;
  message: string;
  propertyId?: string | null;
  /** Makes creation idempotent per user: a second create with the same key adds nothing. */
  dedupeKey?: string | null;
}

/** The row a notification is stored as, with a new id. */
function rowOf(n: NewNotification, now: Date) {
  return {
    id: crypto.randomUUID(),
    userId: n.userId,
    type: n.type,
    message: n.message,
    propertyId: n.propertyId ?? null,
    dedupeKey: n.dedupeKey ?? null,
    createdAt: now,
  };
}

export function createNotificationRepository(db: Executor) {
  return {
    /** The new notification, or the existing one with the same dedupe key. */
    async insert(n: NewNotification, now: Date): Promise<NotificationRow> {
      const [row] = await db.insert(notifications).values(rowOf(n, now)).onConflictDoNothing().returning();
      if (row) return row;
      const [existing] = await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, n.userId), eq(notifications.dedupeKey, n.dedupeKey ?? '')));
      return existing!;
    },

    /**
     * Inserts in one statement; rows whose (user, dedupe key) exists already are skipped. The rows go
     * as one JSON parameter expanded by jsonb_to_recordset (as bill imports do): an audit notifies
     * thousands at a time, and a bind parameter per value would make thousands of them per statement.
     */
    async insertMany(list: NewNotification[], now: Date): Promise<void> {
      if (list.length === 0) return;
      const rows = list.map((n) => {
        const row = rowOf(n, now);
        return {
          id: row.id,
          user_id: row.userId,
          type: row.type,
          message: row.message,
          property_id: row.propertyId,
          dedupe_key: row.dedupeKey,
        };
      });
      await db.execute(sql`
        insert into ${notifications} (id, user_id, type, message, property_id, dedupe_key, created_at)
        select r.id, r.user_id, r.type, r.message, r.property_id, r.dedupe_key, ${now.toISOString()}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, user_id text, type text, message text, property_id text, dedupe_key text)
        on conflict do nothing`);
    },

    async list(userId: string, unreadOnly: boolean, limit: number, offset: number) {
      const conditions: SQL[] = [eq(notifications.userId, userId)];
      if (unreadOnly) conditions.push(isNull(notifications.readAt));
      const where = and(...conditions);
      const list = db.select().from(notifications).where(where).orderBy(desc(notifications.createdAt), desc(notifications.id));
      return pageOfRows(db, list, { table: notifications, where }, limit, offset);
    },

    /** The user's unread notifications, counted on the partial index of unread rows (notifications_user_unread_idx). */
    async countUnread(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
      return row?.n ?? 0;
    },

    /** Marks read (keeping the first read time); null when not the user's. */
    async markRead(userId: string, id: string, now: Date): Promise<NotificationRow | null> {
      const where = and(eq(notifications.id, id), eq(notifications.userId, userId));
      const [updated] = await db
        .update(notifications)
        .set({ readAt: now })
        .where(and(where, isNull(notifications.readAt)))
        .returning();
      if (updated) return updated;
      const [row] = await db.select().from(notifications).where(where);
      return row ?? null;
    },
  };
}
