/**
 * What other modules may use of notifications' tables and repository (the lint rule lets them
 * import nothing else of them): the shape of a notification to create, which they hand to the
 * notification service, and a read-only view of whom a notification went to under which key (the
 * audit's reminders look there for the ones already sent).
 */
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { notifications } from './tables';

export type { NewNotification } from './repository';

/** A notification's user and dedupe key, as a subquery named `alias`: read, never written. In raw SQL its columns keep their database names (`n.dedupe_key`). */
export const viewOfNotifications = <A extends string>(alias: A) =>
  new QueryBuilder()
    .select({ id: notifications.id, userId: notifications.userId, dedupeKey: notifications.dedupeKey })
    .from(notifications)
    .as(alias);
