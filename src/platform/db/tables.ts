import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Small key/value facts the platform keeps about itself (e.g. when reference data was last imported). */
export const systemState = pgTable('system_state', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
