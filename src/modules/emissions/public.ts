/**
 * What other modules may use of emissions (the lint rule lets them import nothing of its tables and
 * repository): a property's emissions and building-performance exposure for a year from its energy
 * (the analytics recompute stores it), and read-only views of the recorded occupancy areas and
 * Portfolio Manager property uses.
 */
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { propertyOccupancyAreas, propertyUseAreas } from './tables';

export {
  annualExposure,
  bundledReferences,
  COUNTED_UTILITY_TYPES,
  type AnnualExposure,
  type ExposureProperty,
  type ExposureReferences,
  type ProjectedPenalty,
} from './exposure';
export type { OccupancyArea } from './building-performance';
export type { OccupancyGroup } from './occupancy';
export type { PropertyType, PropertyUseArea } from './property-types';
export type { EnergyByType } from './ll97.calc';

/**
 * A property's occupancy groups and gross floor areas, as a subquery named `alias`: read, never
 * written. In raw SQL its columns keep their database names (`o.property_id`, `o.occupancy_group`,
 * `o.gross_floor_area`).
 */
export const viewOfOccupancyAreas = <A extends string>(alias: A) =>
  new QueryBuilder()
    .select({
      propertyId: propertyOccupancyAreas.propertyId,
      occupancyGroup: propertyOccupancyAreas.occupancyGroup,
      grossFloorArea: propertyOccupancyAreas.grossFloorArea,
    })
    .from(propertyOccupancyAreas)
    .as(alias);

/**
 * A property's Portfolio Manager property uses and gross floor areas, as a subquery named `alias`:
 * read, never written. In raw SQL its columns keep their database names (`u.property_id`,
 * `u.property_type`, `u.gross_floor_area`).
 */
export const viewOfPropertyUses = <A extends string>(alias: A) =>
  new QueryBuilder()
    .select({
      propertyId: propertyUseAreas.propertyId,
      propertyType: propertyUseAreas.propertyType,
      grossFloorArea: propertyUseAreas.grossFloorArea,
    })
    .from(propertyUseAreas)
    .as(alias);
