import { sql } from 'drizzle-orm';
import { check, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { cascadingRef, quoted } from '../../platform/db/columns';
import { properties } from '../properties/tables';
import { OCCUPANCY_GROUPS } from './occupancy';
import { PROPERTY_TYPES } from './property-types';

const kindColumn = (name: string) => text(name).notNull();

/**
 * A property's gross floor area per kind of use, under one standard's list of kinds: a row per kind
 * (a mixed-use building has several), keyed by property and kind, its area above zero, gone with
 * its property. `kind` names the kind's key and column, its allowed values, and its check
 * (`<table>_<kind.checkSuffix>_check`).
 */
const floorAreasByKind = <TName extends string, TKind extends string>(
  name: TName,
  kind: { key: TKind; column: string; values: readonly string[]; checkSuffix: string },
) =>
  pgTable(
    name,
    {
      propertyId: cascadingRef('property_id', () => properties.id),
      // A computed key types as a string index; the cast names it, so the table's type has the kind's key.
      ...({ [kind.key]: kindColumn(kind.column) } as Record<TKind, ReturnType<typeof kindColumn>>),
      grossFloorArea: integer('gross_floor_area').notNull(),
    },
    (t) => [
      primaryKey({ name: `${name}_pkey`, columns: [t.propertyId, t[kind.key]] }),
      check(`${name}_${kind.checkSuffix}_check`, sql`${t[kind.key]} in (${quoted(kind.values)})`),
      check(`${name}_area_check`, sql`${t.grossFloorArea} > 0`),
    ],
  );

/**
 * A property's gross floor area per New York City Building Code occupancy group (what Local Law 97
 * sets its limits on). Replaced as a whole by PUT /pm/properties/{id}/occupancy.
 */
export const propertyOccupancyAreas = floorAreasByKind('property_occupancy_areas', {
  key: 'occupancyGroup',
  column: 'occupancy_group',
  values: OCCUPANCY_GROUPS,
  checkSuffix: 'group',
});

/**
 * A property's gross floor area per ENERGY STAR Portfolio Manager property type (what Energize
 * Denver, BERDO 2.0 and, from 2026, New York City's Department of Buildings set their numbers on).
 * Replaced as a whole by PUT /pm/properties/{id}/property-uses.
 */
export const propertyUseAreas = floorAreasByKind('property_use_areas', {
  key: 'propertyType',
  column: 'property_type',
  values: PROPERTY_TYPES,
  checkSuffix: 'type',
});
