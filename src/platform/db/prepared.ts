import { Pool } from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import type { Db } from './client';

/**
 * Runs a hot statement as a named prepared statement on PostgreSQL: parsed and planned once per
 * connection instead of on every call (for a statement of several CTEs, planning costs as much
 * as running it). `text` uses $1, $2... placeholders. PGlite runs it as is (one in-process
 * connection, nothing to save).
 */
export async function queryPrepared<T>(db: Db, name: string, text: string, params: unknown[]): Promise<T[]> {
  const client = (db as unknown as { $client?: Pool | PGlite }).$client;
  if (!client) throw new Error('queryPrepared runs on the database, not inside a transaction');
  if (client instanceof Pool) return (await client.query({ name, text, values: params })).rows as T[];
  return (await client.query<T>(text, params)).rows;
}
