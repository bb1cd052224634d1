import { and, asc, count, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/client';
import { lockUser } from '../../accounts/public';
import { viewOfMeters } from '../../meters/public';
import { viewOfProperties } from '../../properties/public';
import { customTariffs, customTariffVersions } from './tables';

export type CustomTariffRow = typeof customTariffs.$inferSelect;
export type VersionRow = typeof customTariffVersions.$inferSelect;
export type NewCustomTariff = Omit<typeof customTariffs.$inferInsert, 'createdAt' | 'updatedAt' | 'retiredAt'>;
export type NewVersion = Omit<typeof customTariffVersions.$inferInsert, 'createdAt'>;

/** A custom tariff with its versions, oldest first. */
export interface StoredCustomTariff {
  row: CustomTariffRow;
  versions: VersionRow[];
}

const properties = viewOfProperties('property_view');
const meters = viewOfMeters('meter_view');

/** Each tariff with its versions, oldest first. */
async function withVersions(db: Db, rows: CustomTariffRow[]): Promise<StoredCustomTariff[]> {
  if (rows.length === 0) return [];
  const versions = await db
    .select()
    .from(customTariffVersions)
    .where(
      inArray(
        customTariffVersions.tariffId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(customTariffVersions.tariffId), asc(customTariffVersions.effectiveDate));
  const byTariff = new Map<string, VersionRow[]>();
  for (const v of versions) {
    const list = byTariff.get(v.tariffId) ?? [];
    list.push(v);
    byTariff.set(v.tariffId, list);
  }
  return rows.map((row) => ({ row, versions: byTariff.get(row.id) ?? [] }));
}

/** The owner's tariffs that are not retired. */
const live = (ownerId: string) => and(eq(customTariffs.ownerId, ownerId), isNull(customTariffs.retiredAt));

/**
 * A new tariff and its first version, unless the owner already has `max` tariffs: the count and
 * the insert run under a lock on the owner's row, so concurrent creates cannot pass the limit.
 */
async function insertTariff(
  db: Db,
  t: NewCustomTariff,
  first: Omit<NewVersion, 'tariffId'>,
  max: number,
): Promise<StoredCustomTariff | 'limit'> {
  return db.transaction(async (tx) => {
    await lockUser(tx, t.ownerId);
    const [{ n }] = await tx.select({ n: count() }).from(customTariffs).where(live(t.ownerId));
    if (n >= max) return 'limit';
    const [row] = await tx.insert(customTariffs).values(t).returning();
    const [version] = await tx
      .insert(customTariffVersions)
      .values({ ...first, tariffId: row.id })
      .returning();
    return { row, versions: [version] };
  });
}

/** A version more, unless the tariff has `max` or one on that date (the tariff's row is locked meanwhile). */
async function insertVersion(db: Db, v: NewVersion, max: number, at: Date): Promise<'ok' | 'limit' | 'exists'> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from ${customTariffs} where id = ${v.tariffId} for update`);
    const [{ n }] = await tx.select({ n: count() }).from(customTariffVersions).where(eq(customTariffVersions.tariffId, v.tariffId));
    if (n >= max) return 'limit';
    const inserted = await tx
      .insert(customTariffVersions)
      .values(v)
      .onConflictDoNothing()
      .returning({ d: customTariffVersions.effectiveDate });
    if (inserted.length === 0) return 'exists';
    await tx.update(customTariffs).set({ updatedAt: at }).where(eq(customTariffs.id, v.tariffId));
    return 'ok';
  });
}

/** The owner's properties and meters that price on the tariff (as their tariff or their supply tariff). */
async function usersOf(
  db: Db,
  ownerId: string,
  id: string,
): Promise<{ properties: Array<{ id: string; name: string }>; meters: Array<{ id: string; name: string }> }> {
  const uses = (table: typeof properties | typeof meters) => or(eq(table.tariffId, id), eq(table.supplyTariffId, id));
  const props = await db
    .select({ id: properties.id, name: properties.name })
    .from(properties)
    .where(and(eq(properties.ownerId, ownerId), uses(properties)))
    .orderBy(asc(properties.name), asc(properties.id));
  const ms = await db
    .select({ id: meters.id, name: meters.name })
    .from(meters)
    .innerJoin(properties, eq(properties.id, meters.propertyId))
    .where(and(eq(properties.ownerId, ownerId), uses(meters)))
    .orderBy(asc(meters.name), asc(meters.id));
  return { properties: props, meters: ms };
}

export function createCustomTariffRepository(db: Db) {
  return {
    /**
     * A new tariff and its first version, unless the owner already has `max` tariffs: the count and
     * the insert run under a lock on the owner's row, so concurrent creates cannot pass the limit.
     */
    insert: (t: NewCustomTariff, first: Omit<NewVersion, 'tariffId'>, max: number): Promise<StoredCustomTariff | 'limit'> =>
      insertTariff(db, t, first, max),

    /** A version more, unless the tariff has `max` or one on that date (the tariff's row is locked meanwhile). */
    insertVersion: (v: NewVersion, max: number, at: Date): Promise<'ok' | 'limit' | 'exists'> => insertVersion(db, v, max, at),

    /** The owner's tariff (not retired) with its versions. */
    async findOwned(ownerId: string, id: string): Promise<StoredCustomTariff | null> {
      const rows = await db
        .select()
        .from(customTariffs)
        .where(and(eq(customTariffs.id, id), live(ownerId)));
      const [found] = await withVersions(db, rows);
      return found ?? null;
    },

    /** The owner's tariffs, oldest first, one page. */
    async page(ownerId: string, offset: number, limit: number): Promise<{ items: StoredCustomTariff[]; total: number }> {
      const [{ total }] = await db.select({ total: count() }).from(customTariffs).where(live(ownerId));
      const rows =
        total === 0
          ? []
          : await db
              .select()
              .from(customTariffs)
              .where(live(ownerId))
              .orderBy(asc(customTariffs.createdAt), asc(customTariffs.id))
              .limit(limit)
              .offset(offset);
      return { items: await withVersions(db, rows), total };
    },

    /** Every tariff of the owner (at most the account limit), for search and the alternatives of analyses. */
    async allOfOwner(ownerId: string): Promise<StoredCustomTariff[]> {
      return withVersions(
        db,
        await db.select().from(customTariffs).where(live(ownerId)).orderBy(asc(customTariffs.createdAt), asc(customTariffs.id)),
      );
    },

    async update(id: string, changes: Partial<Pick<CustomTariffRow, 'name' | 'description' | 'sourceUrl'>>, at: Date): Promise<void> {
      await db
        .update(customTariffs)
        .set({ ...changes, updatedAt: at })
        .where(eq(customTariffs.id, id));
    },

    async retire(id: string, at: Date): Promise<void> {
      await db.update(customTariffs).set({ retiredAt: at, updatedAt: at }).where(eq(customTariffs.id, id));
    },

    /** The owner's properties and meters that price on the tariff (as their tariff or their supply tariff). */
    users: (ownerId: string, id: string) => usersOf(db, ownerId, id),
  };
}

export type CustomTariffRepository = ReturnType<typeof createCustomTariffRepository>;
