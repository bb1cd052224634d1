import crypto from 'node:crypto';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { pageOfRows, rowWhere } from '../../platform/db/rows';
import { properties, propertyOwnerCounts } from './tables';

export type PropertyRow = typeof properties.$inferSelect;
export type PropertyValues = Omit<typeof properties.$inferInsert, 'id' | 'ownerId' | 'createdAt' | 'updatedAt'>;

export interface PropertyFilters {
  portfolioId?: string;
  state?: string;
  city?: string;
  propertyType?: string;
}

/** The columns of a property list item; other modules' view of properties is these and the owner (public.ts). */
export const listColumns = {
  id: properties.id,
  name: properties.name,
  address: properties.address,
  city: properties.city,
  state: properties.state,
  zipCode: properties.zipCode,
  propertyType: properties.propertyType,
  sqft: properties.sqft,
  unitCount: properties.unitCount,
  monthlyUsageKwh: properties.monthlyUsageKwh,
  portfolioId: properties.portfolioId,
};

export type PropertyListRow = { [K in keyof typeof listColumns]: PropertyRow[K] };

/** The list's order: newest first, id breaking ties so pages never overlap. */
const newestFirst = [desc(properties.createdAt), desc(properties.id)];

type CostsOf = { id: string } & Pick<PropertyValues, 'monthlyEnergyCost' | 'annualEnergyCost'>;

/** Writes engines' estimates (and what depends on them) of several properties in one statement, without touching updated_at. */
async function setCostsMany(db: Executor, list: CostsOf[]): Promise<void> {
  if (list.length === 0) return;
  const values = sql.join(
    list.map((c) => sql`(${c.id}, ${c.monthlyEnergyCost ?? null}::numeric, ${c.annualEnergyCost ?? null}::numeric)`),
    sql`, `,
  );
  await db.execute(sql`update ${properties} set monthly_energy_cost = v.monthly, annual_energy_cost = v.annual
    from (values ${values}) as v(id, monthly, annual) where ${properties.id} = v.id`);
}

/** The owner's properties that pass the filters: the owner's condition first, then one per filter given. */
function filterConditions(ownerId: string, f: PropertyFilters): SQL[] {
  const conditions: SQL[] = [eq(properties.ownerId, ownerId)];
  if (f.portfolioId !== undefined) conditions.push(eq(properties.portfolioId, f.portfolioId));
  if (f.state !== undefined) conditions.push(eq(properties.state, f.state));
  if (f.city !== undefined) conditions.push(sql`lower(${properties.city}) = lower(${f.city})`);
  if (f.propertyType !== undefined) conditions.push(eq(properties.propertyType, f.propertyType));
  return conditions;
}

export function createPropertyRepository(db: Executor) {
  // The calls every GET /pm/properties makes, as named prepared statements: built once instead of
  // per request, and parsed once per connection by PostgreSQL.
  const ownerListState = db
    .select({ count: propertyOwnerCounts.propertyCount })
    .from(propertyOwnerCounts)
    .where(eq(propertyOwnerCounts.ownerId, sql.placeholder('ownerId')))
    .prepare('properties_owner_list_state');
  const ownerPage = db
    .select(listColumns)
    .from(properties)
    .where(eq(properties.ownerId, sql.placeholder('ownerId')))
    .orderBy(...newestFirst)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('properties_owner_page');

  return {
    async insert(ownerId: string, values: PropertyValues, now: Date): Promise<PropertyRow> {
      const [row] = await db
        .insert(properties)
        .values({ ...values, id: crypto.randomUUID(), ownerId, createdAt: now, updatedAt: now })
        .returning();
      return row!;
    },

    async update(id: string, values: Partial<PropertyValues>, now: Date): Promise<PropertyRow> {
      const [row] = await db
        .update(properties)
        .set({ ...values, updatedAt: now })
        .where(eq(properties.id, id))
        .returning();
      return row!;
    },

    /** Writes engines' estimates (and what depends on them) of several properties in one statement, without touching updated_at. */
    setCostsMany: (list: CostsOf[]) => setCostsMany(db, list),

    /** The owner's property, or null when it does not exist or is someone else's. */
    async findOwned(ownerId: string, id: string): Promise<PropertyRow | null> {
      return rowWhere(db, properties, and(eq(properties.id, id), eq(properties.ownerId, ownerId)));
    },

    async findById(id: string): Promise<PropertyRow | null> {
      const [row] = await db.select().from(properties).where(eq(properties.id, id));
      return row ?? null;
    },

    async rowsOfOwner(ownerId: string): Promise<PropertyRow[]> {
      return db.select().from(properties).where(eq(properties.ownerId, ownerId)).orderBy(properties.id);
    },

    async ownersWithProperties(): Promise<string[]> {
      const rows = await db.selectDistinct({ ownerId: properties.ownerId }).from(properties);
      return rows.map((r) => r.ownerId);
    },

    /** The owner's property count (kept by a trigger), so an unfiltered list needs no count query. */
    async listState(ownerId: string): Promise<{ count: number }> {
      const [row] = await ownerListState.execute({ ownerId });
      return row ?? { count: 0 };
    },

    /** One page, newest first; `knownTotal` (the owner's count) spares the count of an unfiltered list. */
    async list(ownerId: string, f: PropertyFilters, limit: number, offset: number, knownTotal: number) {
      const conditions = filterConditions(ownerId, f);
      if (conditions.length === 1) {
        const rows = offset < knownTotal ? await ownerPage.execute({ ownerId, limit, offset }) : [];
        return { rows: rows as PropertyListRow[], total: knownTotal };
      }
      const where = and(...conditions);
      const list = db
        .select(listColumns)
        .from(properties)
        .where(where)
        .orderBy(...newestFirst);
      const { rows, total } = await pageOfRows(db, list, { table: properties, where }, limit, offset);
      return { rows: rows as PropertyListRow[], total };
    },
  };
}
