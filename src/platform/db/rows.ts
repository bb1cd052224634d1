import { count, type SQL } from 'drizzle-orm';
import type { PgSelect, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './client';
import { offsetOf, toPage, type Page, type PageQuery } from '../http/pagination';

/** The row of `table` where `where` holds (an id and its owner), or null when there is none. */
export async function rowWhere<T extends PgTable>(db: Executor, table: T, where: SQL | undefined): Promise<T['$inferSelect'] | null> {
  const [row] = await db
    .select()
    .from(table as PgTable)
    .where(where);
  return (row as T['$inferSelect'] | undefined) ?? null;
}

/**
 * One page of a list and the count of the whole list, read together: `list` is the list's ordered
 * query, `counted` the table and condition it reads. What a repository's list returns for toPage
 * (platform/http/pagination).
 */
export async function pageOfRows<Q extends PgSelect>(
  db: Executor,
  list: { $dynamic(): Q },
  counted: { table: PgTable; where: SQL | undefined },
  limit: number,
  offset: number,
): Promise<{ rows: Awaited<Q>; total: number }> {
  const [page, [total]] = await Promise.all([
    list.$dynamic().limit(limit).offset(offset),
    db.select({ n: count() }).from(counted.table).where(counted.where),
  ]);
  return { rows: page as Awaited<Q>, total: total?.n ?? 0 };
}

/** Page `q` of a list whose count is known already (`total`): a page past the end reads nothing. */
export async function pageAfterCount<Q extends PgSelect>(
  list: { $dynamic(): Q },
  total: number,
  q: PageQuery,
): Promise<Page<Awaited<Q>[number]>> {
  const rows = total === 0 || offsetOf(q) >= total ? [] : await list.$dynamic().limit(q.per_page).offset(offsetOf(q));
  return toPage(rows as Awaited<Q>[number][], total, q);
}
