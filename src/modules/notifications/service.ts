import type { Db } from '../../platform/db/client';
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
    async notify(n: NewNotification) {
      const row = await repo.insert(n, deps.now());
      return present(row);
    },

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
