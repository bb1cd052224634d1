/**
 * Column builders the tables of every module share, so a column kind is declared once (issue 48).
 * Each call makes a new builder. Kept apart from tables.ts: schema.ts re-exports that file whole,
 * and these are no tables.
 */
import { sql } from 'drizzle-orm';
import { numeric, text, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** An instant (timestamptz), read as a Date. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** When the row was made: the database's clock unless the insert says. */
export const createdAt = () => timestamptz('created_at').notNull().defaultNow();

/** When the row last changed: the database's clock unless the write says. */
export const updatedAt = () => timestamptz('updated_at').notNull().defaultNow();

/** A text primary key the database makes (a UUID as text) when the insert gives none. */
export const generatedId = () =>
  text('id')
    .primaryKey()
    .default(sql`gen_random_uuid()::text`);

/** A required reference to the row `target` names, deleted with that row. */
export const cascadingRef = (name: string, target: () => AnyPgColumn) => text(name).notNull().references(target, { onDelete: 'cascade' });

/** Dollars and cents: numeric(14, 2). */
export const money = (name: string) => numeric(name, { precision: 14, scale: 2, mode: 'number' });

/** A measured amount to the thousandth (usage, demand, area): numeric(14, 3). */
export const quantity = (name: string) => numeric(name, { precision: 14, scale: 3, mode: 'number' });

/** The values as quoted SQL literals, for a check's `in (...)`. */
export const quoted = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));
