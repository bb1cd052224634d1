import type { Db, Executor } from '../../platform/db/client';
import { notFound } from '../../platform/http/errors';
import { offsetOf, toPage } from '../../platform/http/pagination';
import { createNotificationRepository, type NewNotification, type NotificationRow } from './repository';
import type { NotificationListQuery } from './schemas';

function present(n: NotificationRow) {
  return {
    id: n.id,
    type: n.type,
    property_id: n.propertyId,
    message: n.message,
    created_at: n.createdAt.toISOString(),
    read_at: n.readAt ? n.readAt.toISOString() : null,
  };
}

/**
 * The notification store. Other features (PMS webhooks, rate analysis) call `notify`;
 * pass a `dedupeKey` from job code so a retried job does not notify twice.
 */
export function createNotificationService(deps: { db: Db; now: () => Date }) {
  const repo = createNotificationRepository(deps.db);

  return {
    /** `executor`: a transaction, so the notification commits (or not) with the change it reports. */
    async notify(n: NewNotification, executor?: Executor) {
      const row = await (executor ? createNotificationRepository(executor) : repo).insert(n, deps.now());
      return present(row);
    },

    /**
     * Several notifications in one statement; one whose dedupe key exists already is skipped.
     * `executor`: a transaction (a batch of webhook events), so they commit with what they report.
     */
    notifyMany: (list: NewNotification[], executor?: Executor) =>
      (executor ? createNotificationRepository(executor) : repo).insertMany(list, deps.now()),

    async list(userId: string, q: NotificationListQuery) {
      const { rows, total } = await repo.list(userId, q.unread ?? false, q.per_page, offsetOf(q));
      return toPage(rows.map(present), total, q);
    },

    countUnread: (userId: string) => repo.countUnread(userId),

    async markRead(userId: string, id: string) {
      const row = await repo.markRead(userId, id, deps.now());
      if (!row) throw notFound('Notification not found');
      return present(row);
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
