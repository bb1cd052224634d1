/**
 * What other modules may use of notifications' tables and repository (the lint rule lets them
 * import nothing else of them): the shape of a notification to create, which they hand to the
 * notification service, and a read-only view of each user's unread count.
 */
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { notificationUnreadCounts } from './tables';

export type { NewNotification } from './repository';

/** Each user's unread notifications counted, as a subquery named `alias`: read, never written. */
export const viewOfUnreadCounts = <A extends string>(alias: A) => new QueryBuilder()
  .select({ userId: notificationUnreadCounts.userId, unread: notificationUnreadCounts.unread })
  .from(notificationUnreadCounts)
  .as(alias);
