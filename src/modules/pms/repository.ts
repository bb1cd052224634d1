import { and, asc, eq, inArray, isNotNull, lt, or, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { pageOfRows, rowWhere } from '../../platform/db/rows';
import { rowsOf } from '../../platform/db/errors';
import { propertyView } from '../properties/public';
import { pmsConnections, pmsPropertyLinks, pmsUnits } from './tables';
import type { RubsFactors, UnitRecord } from './unit-data';
import { latestBelievable } from '../webhooks/clock-skew';

export type LinkRow = typeof pmsPropertyLinks.$inferSelect;
export type UnitRow = typeof pmsUnits.$inferSelect;

/** A linked property as webhook processing needs it. */
export interface LinkedProperty {
  propertyId: string;
  propertyName: string;
  ownerId: string;
}

/** A unit's stored RUBS factors and the time (microseconds since the epoch) of what wrote it last. */
export interface StoredUnitState extends RubsFactors {
  propertyId: string;
  pmsUnitId: string;
  writtenAt: bigint | null;
}

/** A unit an import rewrote, with its factors before (null for a new unit). */
export interface ImportedUnit extends RubsFactors {
  pms_unit_id: string;
  unit_number: string;
  before: RubsFactors | null;
}

const UNIT_COLUMNS = sql`(property_id, pms_unit_id, unit_number, sqft, bedrooms, bathrooms, status, resident_name,
  occupant_count, lease_start, lease_end, source_updated_at, updated_at)`;

/**
 * Overwrites a unit unless the stored record is newer than what is written (the stale guard). A
 * stored time past `latestBelievable(now)` is no event's real time (a future-dated event taken
 * before such events were refused): it guards nothing, so whatever comes next replaces it.
 */
const unitUpsert = (now: Date) => sql`on conflict (property_id, pms_unit_id) do update set
  unit_number = excluded.unit_number, sqft = excluded.sqft, bedrooms = excluded.bedrooms,
  bathrooms = excluded.bathrooms, status = excluded.status, resident_name = excluded.resident_name,
  occupant_count = excluded.occupant_count, lease_start = excluded.lease_start, lease_end = excluded.lease_end,
  source_updated_at = excluded.source_updated_at, updated_at = excluded.updated_at
  where ${pmsUnits}.source_updated_at is null or ${pmsUnits}.source_updated_at <= excluded.source_updated_at
    or ${pmsUnits}.source_updated_at > ${latestBelievable(now).toISOString()}::timestamptz`;

export function createPmsRepository(db: Executor) {
  return { ...connectionQueries(db), ...linkQueries(db), ...syncQueries(db), ...eventUnitQueries(db), ...importUnitQueries(db) };
}

/** The provider connections: who they are bound to, and their locks. */
function connectionQueries(db: Executor) {
  /** The owner of a connection, as a row (none: unbound); binding, locking and asking read it alike. */
  const ownerOf = (connectionId: string) =>
    db.select({ ownerId: pmsConnections.ownerId }).from(pmsConnections).where(eq(pmsConnections.connectionId, connectionId));

  return {
    /**
     * Binds an unbound connection to `ownerId` (the caller has the provider's proof that this account
     * authorised it); returns the connection's owner: `ownerId`, or whoever bound it first (the
     * primary key decides between two accounts binding it at once).
     */
    async bindConnection(connectionId: string, ownerId: string, now: Date): Promise<string> {
      await db.insert(pmsConnections).values({ connectionId, ownerId, createdAt: now }).onConflictDoNothing();
      const [row] = await ownerOf(connectionId);
      return row!.ownerId;
    },
    /**
     * The connection's owner (null: unbound), its row locked until the transaction ends: `share`
     * while a property is linked to it, `update` while unlinking may free it, so a link never lands
     * on a connection being freed.
     */
    async lockConnection(connectionId: string, mode: 'share' | 'update'): Promise<string | null> {
      const [row] = await ownerOf(connectionId).for(mode);
      return row?.ownerId ?? null;
    },
    /** Frees a connection no property links to any more (its owner must bind it again through the provider). */
    async freeConnectionIfUnlinked(connectionId: string): Promise<boolean> {
      const freed = await db
        .delete(pmsConnections)
        .where(
          and(
            eq(pmsConnections.connectionId, connectionId),
            sql`not exists (select 1 from ${pmsPropertyLinks} l where l.connection_id = ${connectionId})`,
          ),
        )
        .returning({ id: pmsConnections.connectionId });
      return freed.length > 0;
    },
    async connectionsOfOwner(ownerId: string): Promise<string[]> {
      const rows = await db.select({ id: pmsConnections.connectionId }).from(pmsConnections).where(eq(pmsConnections.ownerId, ownerId));
      return rows.map((r) => r.id);
    },
    async connectionOwner(connectionId: string): Promise<string | null> {
      const [row] = await ownerOf(connectionId);
      return row?.ownerId ?? null;
    },
  };
}

/** The links of properties to PMS properties. */
function linkQueries(db: Executor) {
  return {
    async findLink(propertyId: string, forUpdate = false): Promise<LinkRow | null> {
      const query = db.select().from(pmsPropertyLinks).where(eq(pmsPropertyLinks.propertyId, propertyId));
      const [row] = forUpdate ? await query.for('update') : await query;
      return row ?? null;
    },
    async findLinkByPmsProperty(connectionId: string, pmsPropertyId: string): Promise<LinkRow | null> {
      return rowWhere(
        db,
        pmsPropertyLinks,
        and(eq(pmsPropertyLinks.connectionId, connectionId), eq(pmsPropertyLinks.pmsPropertyId, pmsPropertyId)),
      );
    },
    /**
     * For many (connection, PMS property) pairs in one read: per pair, the connection's owner
     * (null: not registered) and the linked local property (null: not linked). A pair with an
     * empty PMS property id asks for the owner only.
     */
    async connectionsAndLinks(
      pairs: Array<{ conn: string; prop: string }>,
    ): Promise<Array<{ conn: string; prop: string; ownerId: string | null; link: LinkedProperty | null }>> {
      if (pairs.length === 0) return [];
      const result = await db.execute(sql`
        select w.conn, w.prop, c.owner_id, l.property_id, ${propertyView.name} as property_name
        from jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as w(conn text, prop text)
        left join ${pmsConnections} c on c.connection_id = w.conn
        left join ${pmsPropertyLinks} l on l.connection_id = w.conn and l.pms_property_id = w.prop
        left join ${propertyView} on ${propertyView.id} = l.property_id`);
      type Row = { conn: string; prop: string; owner_id: string | null; property_id: string | null; property_name: string | null };
      return rowsOf<Row>(result).map((r) => ({
        conn: r.conn,
        prop: r.prop,
        ownerId: r.owner_id,
        link: r.property_id && r.owner_id ? { propertyId: r.property_id, propertyName: r.property_name!, ownerId: r.owner_id } : null,
      }));
    },
    async propertyIdsOfConnection(connectionId: string): Promise<string[]> {
      const rows = await db
        .select({ id: pmsPropertyLinks.propertyId })
        .from(pmsPropertyLinks)
        .where(eq(pmsPropertyLinks.connectionId, connectionId));
      return rows.map((r) => r.id);
    },
    async upsertLink(propertyId: string, connectionId: string, pmsPropertyId: string, now: Date): Promise<LinkRow> {
      const [row] = await db
        .insert(pmsPropertyLinks)
        .values({ propertyId, connectionId, pmsPropertyId, linkedAt: now, syncRequestedAt: now })
        .onConflictDoUpdate({
          target: pmsPropertyLinks.propertyId,
          set: { connectionId, pmsPropertyId, linkedAt: now, syncRequestedAt: now, lastSyncedAt: null, lastSyncError: null },
        })
        .returning();
      return row!;
    },
    async deleteLink(propertyId: string): Promise<void> {
      await db.delete(pmsPropertyLinks).where(eq(pmsPropertyLinks.propertyId, propertyId));
    },
  };
}

/** The imports owed to linked properties, and their outcomes. */
function syncQueries(db: Executor) {
  return {
    /** Marks imports owed; returns the properties still linked (an unlinked one is skipped). */
    async requestSyncs(propertyIds: string[], now: Date): Promise<string[]> {
      if (propertyIds.length === 0) return [];
      const rows = await db
        .update(pmsPropertyLinks)
        .set({ syncRequestedAt: now })
        .where(inArray(pmsPropertyLinks.propertyId, propertyIds))
        .returning({ id: pmsPropertyLinks.propertyId });
      return rows.map((r) => r.id);
    },
    /** An import of the data as of `fetchedAt` is stored (an older import finishing late does not move it back). */
    async markSynced(propertyId: string, fetchedAt: Date): Promise<void> {
      await db
        .update(pmsPropertyLinks)
        .set({
          lastSyncedAt: sql`greatest(${pmsPropertyLinks.lastSyncedAt}, ${fetchedAt.toISOString()}::timestamptz)`,
          lastSyncError: null,
        })
        .where(eq(pmsPropertyLinks.propertyId, propertyId));
    },
    async recordSyncError(propertyId: string, error: string): Promise<void> {
      await db.update(pmsPropertyLinks).set({ lastSyncError: error }).where(eq(pmsPropertyLinks.propertyId, propertyId));
    },
    /** Links whose requested import has not happened since a time before `requestedBefore`. */
    async owedSyncs(requestedBefore: Date, limit: number): Promise<Array<{ propertyId: string; requestedAt: Date }>> {
      const rows = await db
        .select({ propertyId: pmsPropertyLinks.propertyId, requestedAt: pmsPropertyLinks.syncRequestedAt })
        .from(pmsPropertyLinks)
        .where(
          and(
            isNotNull(pmsPropertyLinks.syncRequestedAt),
            lt(pmsPropertyLinks.syncRequestedAt, requestedBefore),
            or(isNull(pmsPropertyLinks.lastSyncedAt), lt(pmsPropertyLinks.lastSyncedAt, pmsPropertyLinks.syncRequestedAt)),
          ),
        )
        .orderBy(asc(pmsPropertyLinks.syncRequestedAt))
        .limit(limit);
      return rows.map((r) => ({ propertyId: r.propertyId, requestedAt: r.requestedAt! }));
    },
  };
}

/** The units as webhook events write them: locked, then written in one statement. */
function eventUnitQueries(db: Executor) {
  return {
    /**
     * Locks and reads the stored state of units (those that exist), with the time of the event or
     * import that wrote each, in microseconds since the epoch (null: never written by one).
     */
    async lockUnits(keys: Array<{ property_id: string; pms_unit_id: string }>): Promise<StoredUnitState[]> {
      if (keys.length === 0) return [];
      const result = await db.execute(sql`
        select u.property_id, u.pms_unit_id, u.status, u.occupant_count, u.sqft::float8 as sqft,
          (extract(epoch from u.source_updated_at) * 1000000)::bigint::text as written_at
        from ${pmsUnits} u
        join jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k(property_id text, pms_unit_id text)
          on u.property_id = k.property_id and u.pms_unit_id = k.pms_unit_id
        order by u.property_id, u.pms_unit_id
        for update of u`);
      type Row = {
        property_id: string;
        pms_unit_id: string;
        status: string;
        occupant_count: number | null;
        sqft: number | null;
        written_at: string | null;
      };
      return rowsOf<Row>(result).map((r) => ({
        propertyId: r.property_id,
        pmsUnitId: r.pms_unit_id,
        status: r.status,
        occupant_count: r.occupant_count,
        sqft: r.sqft,
        writtenAt: r.written_at === null ? null : BigInt(r.written_at),
      }));
    },
    /**
     * Writes units in one statement, each as of its event's time `at` (ISO 8601), unless the stored
     * record comes from a later event or import (the stale guard again, for an import that wrote
     * a unit new to this batch in the meantime).
     */
    async writeUnits(units: Array<UnitRecord & { property_id: string; at: string }>, now: Date): Promise<void> {
      if (units.length === 0) return;
      await db.execute(sql`
        insert into ${pmsUnits} ${UNIT_COLUMNS}
        select property_id, pms_unit_id, unit_number, sqft, bedrooms, bathrooms, status, resident_name, occupant_count,
          lease_start, lease_end, at, ${now.toISOString()}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(units)}::jsonb) as r(property_id text, pms_unit_id text, unit_number text,
          sqft numeric, bedrooms integer, bathrooms numeric, status text, resident_name text, occupant_count integer,
          lease_start date, lease_end date, at timestamptz)
        order by property_id, pms_unit_id
        ${unitUpsert(now)}`);
    },
  };
}

/** The units as an import writes them, and their list. */
function importUnitQueries(db: Executor) {
  return {
    async listUnits(propertyId: string, limit: number, offset: number) {
      const where = eq(pmsUnits.propertyId, propertyId);
      const list = db.select().from(pmsUnits).where(where).orderBy(asc(pmsUnits.unitNumber), asc(pmsUnits.id));
      return pageOfRows(db, list, { table: pmsUnits, where }, limit, offset);
    },
    async deleteUnits(propertyId: string): Promise<void> {
      await db.delete(pmsUnits).where(eq(pmsUnits.propertyId, propertyId));
    },
    /**
     * An import: every listed unit is written as of `fetchedAt` (units an event changed later are
     * kept), and units the provider no longer lists are removed unless an event wrote them later.
     * "Later" is only a believable time (up to `latestBelievable(now)`): the import replaces a
     * record stamped further ahead, which no real event can have written.
     */
    async importUnits(
      propertyId: string,
      units: UnitRecord[],
      fetchedAt: Date,
      now: Date,
    ): Promise<{ written: ImportedUnit[]; removed: number }> {
      const at = fetchedAt.toISOString();
      const result = await db.execute(sql`
        with incoming as (
          select * from jsonb_to_recordset(${JSON.stringify(units)}::jsonb) as r(pms_unit_id text, unit_number text,
            sqft numeric, bedrooms integer, bathrooms numeric, status text, resident_name text, occupant_count integer,
            lease_start date, lease_end date)
        ), before as (
          select pms_unit_id, status, occupant_count, sqft::float8 as sqft from ${pmsUnits} where property_id = ${propertyId}
        ), up as (
          insert into ${pmsUnits} ${UNIT_COLUMNS}
          select ${propertyId}, pms_unit_id, unit_number, sqft, bedrooms, bathrooms, status, resident_name, occupant_count,
            lease_start, lease_end, ${at}::timestamptz, ${now.toISOString()}::timestamptz
          from incoming
          order by pms_unit_id
          ${unitUpsert(now)}
          returning pms_unit_id, unit_number, status, occupant_count, sqft::float8 as sqft
        )
        select up.*, b.pms_unit_id is not null as existed, b.status as before_status,
          b.occupant_count as before_occupant_count, b.sqft as before_sqft
        from up left join before b using (pms_unit_id)`);
      const removed = await db.execute(sql`
        delete from ${pmsUnits} u where u.property_id = ${propertyId}
          and (u.source_updated_at is null or u.source_updated_at <= ${at}::timestamptz
            or u.source_updated_at > ${latestBelievable(now).toISOString()}::timestamptz)
          and not exists (select 1 from jsonb_array_elements_text(${JSON.stringify(units.map((x) => x.pms_unit_id))}::jsonb) ids(id)
            where ids.id = u.pms_unit_id)
        returning 1`);
      type Row = RubsFactors & {
        pms_unit_id: string;
        unit_number: string;
        existed: boolean;
        before_status: string | null;
        before_occupant_count: number | null;
        before_sqft: number | null;
      };
      const written = rowsOf<Row>(result).map((r) => ({
        pms_unit_id: r.pms_unit_id,
        unit_number: r.unit_number,
        status: r.status,
        occupant_count: r.occupant_count,
        sqft: r.sqft,
        before: r.existed ? { status: r.before_status!, occupant_count: r.before_occupant_count, sqft: r.before_sqft } : null,
      }));
      return { written, removed: rowsOf(removed).length };
    },
  };
}

export type PmsRepository = ReturnType<typeof createPmsRepository>;
