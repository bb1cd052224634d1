import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { propertyOccupancyAreas, propertyUseAreas } from './tables';
import type { OccupancyGroup } from './occupancy';
import type { OccupancyArea } from './ll97.periods';
import type { PropertyType, PropertyUseArea } from './property-types';

type FloorAreaTable = typeof propertyOccupancyAreas | typeof propertyUseAreas;

/**
 * A property's floor area per kind, in a table `floorAreasByKind` built (tables.ts): read in the
 * kinds' order, and replaced as a whole in one transaction, as its PUT route says. `kind` is the
 * table's kind column; `area` and `row` turn a stored kind and area into the caller's shape and back.
 */
function floorAreasIn<A extends { sqft: number }>(
  db: Db,
  table: FloorAreaTable,
  kind: typeof propertyOccupancyAreas.occupancyGroup | typeof propertyUseAreas.propertyType,
  area: (kind: string, sqft: number) => A,
  row: (propertyId: string, area: A) => FloorAreaTable['$inferInsert'],
) {
  return {
    async of(propertyId: string): Promise<A[]> {
      const rows = await db
        .select({ kind, sqft: table.grossFloorArea })
        .from(table)
        .where(eq(table.propertyId, propertyId))
        .orderBy(asc(kind));
      return rows.map((r) => area(r.kind, r.sqft));
    },
    async replace(propertyId: string, areas: A[]): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(table).where(eq(table.propertyId, propertyId));
        if (areas.length) await tx.insert(table).values(areas.map((a) => row(propertyId, a)));
      });
    },
  };
}

/** A property's New York City occupancy groups and their gross floor areas (table `property_occupancy_areas`). */
export const occupancyAreas = (db: Db) =>
  floorAreasIn<OccupancyArea>(
    db,
    propertyOccupancyAreas,
    propertyOccupancyAreas.occupancyGroup,
    (group, sqft) => ({ group: group as OccupancyGroup, sqft }),
    (propertyId, a) => ({ propertyId, occupancyGroup: a.group, grossFloorArea: a.sqft }),
  );

/** A property's ENERGY STAR Portfolio Manager property uses and their gross floor areas (table `property_use_areas`). */
export const propertyUses = (db: Db) =>
  floorAreasIn<PropertyUseArea>(
    db,
    propertyUseAreas,
    propertyUseAreas.propertyType,
    (type, sqft) => ({ type: type as PropertyType, sqft }),
    (propertyId, u) => ({ propertyId, propertyType: u.type, grossFloorArea: u.sqft }),
  );
