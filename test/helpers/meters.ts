import { sql } from 'drizzle-orm';
import type { Db } from '../../src/platform/db/client';
import { createMeterRepository, defaultMeterName } from '../../src/modules/meters/repository';
import { defaultUnit, type MeterUtilityType } from '../../src/modules/meters/units';

/**
 * Meters for bills that tests insert in raw SQL (the API finds or creates them itself): every bill
 * names its meter (meter_id) and a unit of its type.
 */

/** The property's default meter of a type, created as the API creates it on a bill's first use. */
export function defaultMeter(db: Db, propertyId: string, type: MeterUtilityType) {
  return createMeterRepository(db).defaultMeter(propertyId, type);
}

/** A new meter for one bill: tests that insert arbitrary, possibly overlapping periods give each bill its own. */
export async function ownMeter(db: Db, propertyId: string, type: MeterUtilityType) {
  return createMeterRepository(db).insert(propertyId, { utilityType: type, unit: defaultUnit(type), name: defaultMeterName(type) });
}

/** Gives every property of the database that lacks one a default meter of `type` (set-based raw-SQL inserts join it). */
export async function defaultMetersOfAll(db: Db, type: MeterUtilityType): Promise<void> {
  await db.execute(sql`insert into meters (property_id, utility_type, unit, name, is_default)
    select id, ${type}, ${defaultUnit(type)}, ${defaultMeterName(type)}, true from properties
    on conflict (property_id, utility_type) where is_default do nothing`);
}
