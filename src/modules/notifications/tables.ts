import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { cascadingRef, createdAt, timestamptz } from '../../platform/db/columns';
import { users } from '../accounts/tables';
import { properties } from '../properties/tables';

/**
 * Messages for a user (RUBS-relevant PMS changes, savings found by rate analysis, ...).
 * `dedupe_key`, when given, makes creation idempotent per user: a retried job
 * that creates the same notification again adds nothing.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    userId: cascadingRef('user_id', () => users.id),
    type: text('type').notNull(),
    propertyId: text('property_id').references(() => properties.id, { onDelete: 'cascade' }),
    message: text('message').notNull(),
    dedupeKey: text('dedupe_key'),
    createdAt: createdAt(),
    readAt: timestamptz('read_at'),
  },
  (t) => [
    index('notifications_user_created_idx').on(t.userId, t.createdAt.desc(), t.id),
    // A user's unread notifications: the unread list, and their count (dashboard stats' alerts_unread).
    index('notifications_user_unread_idx')
      .on(t.userId, t.createdAt.desc())
      .where(sql`${t.readAt} is null`),
    uniqueIndex('notifications_user_dedupe_key').on(t.userId, t.dedupeKey),
    check('notifications_type_check', sql`length(${t.type}) > 0`),
  ],
);
