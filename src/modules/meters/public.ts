/**
 * What other modules may use of meters' tables and repository (the lint rule lets them import
 * nothing else of them): the repository, which properties uses to read a property's meters, and a
 * read-only view of the table.
 */
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { meters } from './tables';

export { createMeterRepository, type MeterRow } from './repository';

/** A meter's identity, property, utility type and what it covers, as a subquery named `alias`: read, never written. */
export const viewOfMeters = <A extends string>(alias: A) => new QueryBuilder()
  .select({ id: meters.id, propertyId: meters.propertyId, name: meters.name, utilityType: meters.utilityType, covers: meters.covers })
  .from(meters)
  .as(alias);
