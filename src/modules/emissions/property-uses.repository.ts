import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { propertyUseAreas } from './tables';
import type { PropertyType, PropertyUseArea } from './property-types';

/** A property's recorded ENERGY STAR Portfolio Manager property uses (table `property_use_areas`). */
export function createPropertyUsesRepository(db: Db) {
  return {
    /** A property's property uses and their gross floor areas, by type. */
    async propertyUses(propertyId: string): Promise<PropertyUseArea[]> {
      const rows = await db
        .select({ type: propertyUseAreas.propertyType, sqft: propertyUseAreas.grossFloorArea })
        .from(propertyUseAreas)
        .where(eq(propertyUseAreas.propertyId, propertyId))
        .orderBy(asc(propertyUseAreas.propertyType));
      return rows.map((r) => ({ type: r.type as PropertyType, sqft: r.sqft }));
    },

    /** Replaces a property's property uses with `uses` in one transaction. */
    async replacePropertyUses(propertyId: string, uses: PropertyUseArea[]): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(propertyUseAreas).where(eq(propertyUseAreas.propertyId, propertyId));
        if (uses.length) {
          await tx.insert(propertyUseAreas).values(uses.map((u) => ({ propertyId, propertyType: u.type, grossFloorArea: u.sqft })));
        }
      });
    },
  };
}
