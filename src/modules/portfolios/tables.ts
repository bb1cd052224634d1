import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { cascadingRef, createdAt } from '../../platform/db/columns';
import { users } from '../accounts/tables';

export const portfolios = pgTable(
  'portfolios',
  {
    id: text('id').primaryKey(),
    ownerId: cascadingRef('owner_id', () => users.id),
    name: text('name').notNull(),
    description: text('description'),
    createdAt: createdAt(),
  },
  (t) => [index('portfolios_owner_created_idx').on(t.ownerId, t.createdAt, t.id)],
);
