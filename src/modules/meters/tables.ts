import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, primaryKey, smallint, text, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { cascadingRef, createdAt, generatedId, updatedAt, quoted } from '../../platform/db/columns';
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
    id: generatedId(),
    propertyId: cascadingRef('property_id', () => properties.id),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The target of the bills' (meter_id, property_id, utility_type) foreign key: a bill's property
    // and utility type are its meter's.
    unique('meters_id_property_type_key').on(t.id, t.propertyId, t.utilityType),
    uniqueIndex('meters_one_default_per_type')
      .on(t.propertyId, t.utilityType)
      .where(sql`${t.isDefault}`),
    index('meters_property_idx').on(t.propertyId, t.createdAt),
    check('meters_type_check', sql`${t.utilityType} in (${quoted(METER_UTILITY_TYPES)})`),
    check('meters_unit_check', sql.raw(unitPairsSql('utility_type', 'unit'))),
    check('meters_covers_check', sql`${t.covers} in (${quoted(METER_COVERS)})`),
  ],
);

/** The interval lengths a meter's readings may have, in minutes (a divisor of a day). */
export const INTERVAL_MINUTES = [5, 15, 30, 60] as const;

/**
 * A meter's interval readings (README "Interval data", decision 0017): one row per meter and UTC
 * day, the day's readings as an array of watt-hours, slot i starting i x interval_minutes after
 * 00:00 UTC; a slot without a reading is NULL. 96 slots for 15-minute data.
 */
export const meterIntervalDays = pgTable(
  'meter_interval_days',
  {
    meterId: cascadingRef('meter_id', () => meters.id),
    day: date('day', { mode: 'string' }).notNull(),
    intervalMinutes: smallint('interval_minutes').notNull(),
    wh: integer('wh').array().notNull(),
  },
  (t) => [
    primaryKey({ name: 'meter_interval_days_pkey', columns: [t.meterId, t.day] }),
    check('meter_interval_days_minutes_check', sql`${t.intervalMinutes} in (${sql.raw(INTERVAL_MINUTES.join(', '))})`),
    check('meter_interval_days_slots_check', sql`cardinality(${t.wh}) = 1440 / ${t.intervalMinutes}`),
  ],
);
