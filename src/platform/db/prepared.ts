import { Pool } from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from './client';
import { rowsOf } from './errors';

/**
 * Runs a hot statement as a named prepared statement on PostgreSQL: parsed and planned once per
 * connection instead of on every call (for a statement of several CTEs, planning costs as much
 * as running it). `text` uses $1, $2... placeholders (not inside string literals). PGlite runs it
 * as is (one in-process connection, nothing to save); inside a transaction, whose connection
 * is the transaction's, it runs as a plain statement.
 */
export async function queryPrepared<T>(db: Executor, name: string, text: string, params: unknown[]): Promise<T[]> {
  const client = (db as unknown as { $client?: Pool | PGlite }).$client;
  if (!client) return rowsOf<T>(await db.execute(withParams(text, params)));
  if (client instanceof Pool) return (await client.query({ name, text, values: params })).rows as T[];
  return (await client.query<T>(text, params)).rows;
}

/** `text` with its $n placeholders bound to `params`, as a Drizzle statement. */
function withParams(text: string, params: unknown[]): SQL {
  // split with a capture group alternates text and placeholder numbers: [text, n, text, n, text]
  return sql.join(text.split(/\$(\d+)/).map((part, i) => (i % 2 ? sql`${params[Number(part) - 1]}` : sql.raw(part))));
}
