import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { pageOfRows, rowWhere } from '../../platform/db/rows';
import { rowOfOwned } from '../../platform/db/owned-row';
import { propertyView } from '../properties/public';
import { meters } from './tables';
import { defaultUnit, type MeterUtilityType } from './units';

export type MeterRow = typeof meters.$inferSelect;
export type NewMeter = Pick<
  typeof meters.$inferInsert,
  'utilityType' | 'unit' | 'name' | 'accountNumber' | 'meterNumber' | 'tariffId' | 'supplyTariffId' | 'isActive' | 'covers'
>;
export type MeterChanges = Partial<Omit<NewMeter, 'utilityType'>>;

/** "Water meter": the name of a meter nobody named. */
/** Portfolio Manager's names of the fuel oil meter types. */
const FUEL_OIL_NAMES: Partial<Record<MeterUtilityType, string>> = {
  fuel_oil_2: 'Fuel oil (No. 2)',
  fuel_oil_4: 'Fuel oil (No. 4)',
  fuel_oil_5_6: 'Fuel oil (No. 5 and No. 6)',
};

export function defaultMeterName(type: MeterUtilityType): string {
  return `${FUEL_OIL_NAMES[type] ?? `${type[0]!.toUpperCase()}${type.slice(1)}`} meter`;
}

export function createMeterRepository(db: Executor) {
  const insertDefault = (propertyId: string, m: NewMeter) =>
    db
      .insert(meters)
      .values({ ...m, propertyId, isDefault: true })
      .onConflictDoNothing({ target: [meters.propertyId, meters.utilityType], where: sql`${meters.isDefault}` })
      .returning();

  return {
    /** A new meter; the first of its type on the property becomes the type's default. */
    async insert(propertyId: string, m: NewMeter): Promise<MeterRow> {
      const [asDefault] = await insertDefault(propertyId, m);
      if (asDefault) return asDefault;
      const [row] = await db
        .insert(meters)
        .values({ ...m, propertyId })
        .returning();
      return row!;
    },

    /** The property's default meter of a type, created (kWh, "Electric meter", ...) when it has none. */
    async defaultMeter(propertyId: string, type: MeterUtilityType): Promise<MeterRow> {
      const find = () =>
        db
          .select()
          .from(meters)
          .where(and(eq(meters.propertyId, propertyId), eq(meters.utilityType, type), eq(meters.isDefault, true)));
      const [found] = await find();
      if (found) return found;
      const [created] = await insertDefault(propertyId, { utilityType: type, unit: defaultUnit(type), name: defaultMeterName(type) });
      if (created) return created;
      const [raced] = await find(); // created by a concurrent request in between
      return raced!;
    },

    async findOwned(ownerId: string, meterId: string): Promise<MeterRow | null> {
      return rowOfOwned(db, meters, meterId, { view: propertyView, on: meters.propertyId, ownerId });
    },

    async findOfProperty(propertyId: string, meterId: string): Promise<MeterRow | null> {
      return rowWhere(db, meters, and(eq(meters.id, meterId), eq(meters.propertyId, propertyId)));
    },

    async ofProperty(propertyId: string): Promise<MeterRow[]> {
      return db.select().from(meters).where(eq(meters.propertyId, propertyId)).orderBy(asc(meters.createdAt), asc(meters.id));
    },

    /** The electric meters of these properties, by property (one query; none for an empty list). */
    async electricOf(propertyIds: string[]): Promise<Map<string, MeterRow[]>> {
      const byProperty = new Map<string, MeterRow[]>();
      if (propertyIds.length === 0) return byProperty;
      const rows = await db
        .select()
        .from(meters)
        .where(and(inArray(meters.propertyId, propertyIds), eq(meters.utilityType, 'electric')))
        .orderBy(asc(meters.createdAt), asc(meters.id));
      for (const m of rows) byProperty.set(m.propertyId, [...(byProperty.get(m.propertyId) ?? []), m]);
      return byProperty;
    },

    async list(propertyId: string, limit: number, offset: number) {
      const where = eq(meters.propertyId, propertyId);
      const list = db.select().from(meters).where(where).orderBy(asc(meters.createdAt), asc(meters.id));
      return pageOfRows(db, list, { table: meters, where }, limit, offset);
    },

    async update(meterId: string, changes: MeterChanges): Promise<MeterRow> {
      const [row] = await db
        .update(meters)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(eq(meters.id, meterId))
        .returning();
      return row!;
    },
  };
}
