import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, numeric, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { properties } from '../properties/tables';
import { UTILITY_TYPES } from '../bills/utility-types';
import { ALLOCATION_METHODS, ROUNDING_MODES, VACANCY_POLICIES } from './rubs.calc';

const quoted = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));
const percent = (name: string) => numeric(name, { precision: 9, scale: 4, mode: 'number' });

/**
 * How a property's master-metered bills are split (README "Billing configuration"). At most
 * one active configuration per property: the partial unique index holds it even for two
 * creates at the same moment.
 */
export const billingConfigs = pgTable(
  'billing_configs',
  {
    id: text('id').primaryKey(),
    propertyId: text('property_id').notNull().references(() => properties.id, { onDelete: 'cascade' }),
    method: text('method').notNull(),
    utilityTypes: text('utility_types').array().notNull(),
    commonAreaPercent: percent('common_area_percent').notNull().default(0),
    adminFeePercent: percent('admin_fee_percent').notNull().default(0),
    billingDay: integer('billing_day').notNull().default(1),
    isActive: boolean('is_active').notNull().default(true),
    vacancyPolicy: text('vacancy_policy').notNull().default('redistribute'),
    rounding: text('rounding').notNull().default('per_unit'),
    sqftWeightPercent: percent('sqft_weight_percent').notNull().default(50),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('billing_configs_one_active_per_property').on(t.propertyId).where(sql`${t.isActive}`),
    index('billing_configs_property_created_idx').on(t.propertyId, t.createdAt),
    check('billing_configs_method_check', sql`${t.method} in (${quoted(ALLOCATION_METHODS)})`),
    check('billing_configs_vacancy_policy_check', sql`${t.vacancyPolicy} in (${quoted(VACANCY_POLICIES)})`),
    check('billing_configs_rounding_check', sql`${t.rounding} in (${quoted(ROUNDING_MODES)})`),
    check(
      'billing_configs_utility_types_check',
      sql`cardinality(${t.utilityTypes}) >= 1 and ${t.utilityTypes} <@ array[${quoted(UTILITY_TYPES)}]::text[]`,
    ),
    check(
      'billing_configs_ranges_check',
      sql`${t.commonAreaPercent} between 0 and 50 and ${t.adminFeePercent} between 0 and 15
        and ${t.billingDay} between 1 and 28 and ${t.sqftWeightPercent} between 0 and 100`,
    ),
  ],
);

/**
 * One stored RUBS calculation, written in one statement: the history columns, and `result`, the
 * whole answer as plain JSON whose unit bills are rows of values (presenters.ts StoredCalculation;
 * rows stored before issue 28 have them deflated, read by legacy-deflated.ts). Text, not json or
 * jsonb: the service alone reads it, whole, and jsonb would reorder its keys. Its storage is
 * EXTERNAL (out of line, uncompressed: migrations 0006 and 0010).
 */
export const rubsCalculations = pgTable(
  'rubs_calculations',
  {
    id: text('id').primaryKey(),
    propertyId: text('property_id').notNull().references(() => properties.id, { onDelete: 'cascade' }),
    billingConfigId: text('billing_config_id').notNull().references(() => billingConfigs.id, { onDelete: 'cascade' }),
    source: text('source').notNull(),
    billingPeriodStart: date('billing_period_start', { mode: 'string' }).notNull(),
    billingPeriodEnd: date('billing_period_end', { mode: 'string' }).notNull(),
    utilityType: text('utility_type').notNull(),
    method: text('method').notNull(),
    totalAmount: numeric('total_amount', { precision: 14, scale: 2, mode: 'number' }).notNull(),
    unitsBilled: integer('units_billed').notNull(),
    unitsVacant: integer('units_vacant').notNull(),
    result: text('result').notNull(),
    calculatedAt: timestamp('calculated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    // The history page: a property's calculations, newest first, one index range scan.
    index('rubs_calculations_property_calculated_idx').on(t.propertyId, t.calculatedAt.desc(), t.id.desc()),
    index('rubs_calculations_config_idx').on(t.billingConfigId),
    check('rubs_calculations_source_check', sql`${t.source} in ('request', 'pms')`),
    check('rubs_calculations_utility_type_check', sql`${t.utilityType} in (${quoted(UTILITY_TYPES)})`),
    check('rubs_calculations_period_check', sql`${t.billingPeriodEnd} >= ${t.billingPeriodStart}`),
  ],
);

/**
 * Per property with calculations: its owner and how many calculations it has, kept by triggers
 * (db-functions.sql). GET /billing/history reads this one row by its key for the owner check and
 * the page count.
 */
export const rubsHistoryState = pgTable('rubs_history_state', {
  propertyId: text('property_id').primaryKey().references(() => properties.id, { onDelete: 'cascade' }),
  ownerId: text('owner_id').notNull(),
  calculations: integer('calculations').notNull().default(0),
});
