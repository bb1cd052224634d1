import { and, eq, type AnyColumn, type Subquery } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './client';

/** A read-only view of the things that have an owner (another module's public view: properties). */
type OwnedView = Subquery & { id: AnyColumn; ownerId: AnyColumn };

/**
 * The row of `table` with this id when the thing it belongs to (`of`: the view, joined on the
 * row's column `on`) is `ownerId`'s, else null (one of another owner's too): one query.
 */
export async function rowOfOwned<T extends PgTable & { id: AnyPgColumn }>(
  db: Executor,
  table: T,
  id: string,
  of: { view: OwnedView; on: AnyPgColumn; ownerId: string },
): Promise<T['$inferSelect'] | null> {
  const [found] = await db
    .select({ row: table as PgTable })
    .from(table as PgTable)
    .innerJoin(of.view, eq(of.view.id, of.on))
    .where(and(eq(table.id, id), eq(of.view.ownerId, of.ownerId)));
  return (found?.row as T['$inferSelect'] | undefined) ?? null;
}
