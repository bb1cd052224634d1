import { createHash } from 'node:crypto';
import { Pool } from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import type { Executor } from './client';
import { rowsOf } from './errors';

/**
 * Runs a hot statement as a named prepared statement on PostgreSQL: parsed and planned once per
 * connection instead of on every call (for a statement of several CTEs, planning costs as much
 * as running it). `text` uses $1, $2... placeholders (not inside string literals). Outside a
 * transaction it goes straight to the pool (no Drizzle session in between); inside one, on the
 * transaction's connection (onSession). PGlite runs it as is (one in-process connection, nothing
 * to save).
 */
export async function queryPrepared<T>(db: Executor, name: string, text: string, params: unknown[]): Promise<T[]> {
  const client = (db as unknown as { $client?: Pool | PGlite }).$client;
  if (!client) return onSession<T>(db, name, { sql: text, params });
  if (client instanceof Pool) return (await client.query({ name, text, values: params })).rows as T[];
  return (await client.query<T>(text, params)).rows;
}

/** What onSession uses of a Drizzle database or transaction (present on both, not in its types). */
interface DrizzleInternals {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: {
    prepareQuery(query: { sql: string; params: unknown[] }, fields: undefined, name: string, arrayMode: boolean): { execute(): Promise<unknown> };
  };
}

/** Statement names by text. Bounded: the texts are the code's own, a few dozen at most. */
const statementNames = new Map<string, string>();
const MAX_NAMED_TEXTS = 1000;

/**
 * A Drizzle `sql` statement run as a named prepared statement on PostgreSQL, also inside a
 * transaction (on the transaction's connection): parsed once per connection, and planned once
 * PostgreSQL has settled on a generic plan. For the analytics recompute, whose statements are a
 * few CTEs each and run on every dashboard read after a write, parsing and planning took about
 * three quarters of PostgreSQL's time. The name is derived from the text, so each distinct text
 * (a statement whose SQL varies, such as with or without a property filter) gets its own name,
 * as node-postgres requires, and the same text the same name on every connection. PGlite runs
 * it as a plain statement.
 */
export async function executePrepared<T>(db: Executor, query: SQL): Promise<T[]> {
  const built = (db as unknown as DrizzleInternals).dialect.sqlToQuery(query);
  let name = statementNames.get(built.sql);
  if (name === undefined) {
    name = `q_${createHash('sha1').update(built.sql).digest('hex').slice(0, 32)}`;
    if (statementNames.size < MAX_NAMED_TEXTS) statementNames.set(built.sql, name);
  }
  return onSession<T>(db, name, built);
}

/** A named statement through the Drizzle session of `db`: on PostgreSQL, prepared on its connection (a transaction's own). */
async function onSession<T>(db: Executor, name: string, query: { sql: string; params: unknown[] }): Promise<T[]> {
  return rowsOf<T>(await (db as unknown as DrizzleInternals).session.prepareQuery(query, undefined, name, false).execute());
}
