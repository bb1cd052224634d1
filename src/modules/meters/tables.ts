import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { properties } from '../properties/tables';
import { METER_UTILITY_TYPES, unitPairsSql } from './units';

/** What a meter measures (README "What a meter covers"): the whole building, its common areas, or one tenant's space. */
export const METER_COVERS = ['whole_building', 'common_area', 'tenant'] as const;
export type MeterCovers = (typeof METER_COVERS)[number];

/**
 * A property's meters. Bills belong to a meter; a bill sent without one goes to the property's
 * default meter of its utility type (`is_default`, at most one per type, created on first use).
 * `tariff_id` is a URDB label checked by the service, not a foreign key (as on properties).
 */
export const meters = pgTable(
  'meters',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    propertyId: text('property_id').notNull().references(() => properties.id, { onDelete: 'cascade' }),
    utilityType: text('utility_type').notNull(),
    unit: text('unit').notNull(),
    name: text('name').notNull(),
    accountNumber: text('account_number'),
    meterNumber: text('meter_number'),
    tariffId: text('tariff_id'),
    /** A supply-only custom tariff priced beside a delivery-only tariff_id. */
    supplyTariffId: text('supply_tariff_id'),
    /** What the meter measures; whole_building (the meters made before it was asked) until said otherwise. */
    covers: text('covers').notNull().default('whole_building'),
    isActive: boolean('is_active').notNull().default(true),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // The target of the bills' (meter_id, property_id, utility_type) foreign key: a bill's property
    // and utility type are its meter's.
    unique('meters_id_property_type_key').on(t.id, t.propertyId, t.utilityType),
    uniqueIndex('meters_one_default_per_type').on(t.propertyId, t.utilityType).where(sql`${t.isDefault}`),
    index('meters_property_idx').on(t.propertyId, t.createdAt),
    check('meters_type_check', sql`${t.utilityType} in (${sql.raw(METER_UTILITY_TYPES.map((v) => `'${v}'`).join(', '))})`),
    check('meters_unit_check', sql.raw(unitPairsSql('utility_type', 'unit'))),
    check('meters_covers_check', sql`${t.covers} in (${sql.raw(METER_COVERS.map((v) => `'${v}'`).join(', '))})`),
  ],
);
