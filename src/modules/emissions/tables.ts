import { sql } from 'drizzle-orm';
import { check, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { cascadingRef, quoted } from '../../platform/db/columns';
import { properties } from '../properties/tables';
import { OCCUPANCY_GROUPS } from './occupancy';
import { PROPERTY_TYPES } from './property-types';

/**
 * A property's gross floor area per New York City Building Code occupancy group (what Local Law 97
 * sets its limits on; a mixed-use building has several). Replaced as a whole by PUT
 * /pm/properties/{id}/occupancy; gone with its property.
 */
export const propertyOccupancyAreas = pgTable(
  'property_occupancy_areas',
  {
    propertyId: cascadingRef('property_id', () => properties.id),
    occupancyGroup: text('occupancy_group').notNull(),
    grossFloorArea: integer('gross_floor_area').notNull(),
  },
  (t) => [
    primaryKey({ name: 'property_occupancy_areas_pkey', columns: [t.propertyId, t.occupancyGroup] }),
    check('property_occupancy_areas_group_check', sql`${t.occupancyGroup} in (${quoted(OCCUPANCY_GROUPS)})`),
    check('property_occupancy_areas_area_check', sql`${t.grossFloorArea} > 0`),
  ],
);

/**
 * A property's gross floor area per ENERGY STAR Portfolio Manager property type (what Energize
 * Denver, BERDO 2.0 and, from 2026, New York City's Department of Buildings set their numbers on;
 * a mixed-use building has several). Replaced as a whole by PUT /pm/properties/{id}/property-uses;
 * gone with its property.
 */
export const propertyUseAreas = pgTable(
  'property_use_areas',
  {
    propertyId: cascadingRef('property_id', () => properties.id),
    propertyType: text('property_type').notNull(),
    grossFloorArea: integer('gross_floor_area').notNull(),
  },
  (t) => [
    primaryKey({ name: 'property_use_areas_pkey', columns: [t.propertyId, t.propertyType] }),
    check('property_use_areas_type_check', sql`${t.propertyType} in (${quoted(PROPERTY_TYPES)})`),
    check('property_use_areas_area_check', sql`${t.grossFloorArea} > 0`),
  ],
);
