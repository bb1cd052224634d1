import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, numeric, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { cascadingRef, createdAt, money, quoted, timestamptz } from '../../platform/db/columns';
import { properties } from '../properties/tables';
import { UTILITY_TYPES } from '../bills/utility-types';
import { ALLOCATION_METHODS, CALCULATION_SOURCES, ROUNDING_MODES, VACANCY_POLICIES } from './rubs.types';

const percent = (name: string) => numeric(name, { precision: 9, scale: 4, mode: 'number' });

/** Calculation statuses: a re-bill supersedes, a void is explicit (README "Re-bills and voids"). */
export const CALCULATION_STATUSES = ['active', 'superseded', 'void'] as const;
export type CalculationStatus = (typeof CALCULATION_STATUSES)[number];
/** A charge line's posting to the PMS ledger (README "Posting to the PMS ledger"). */
export const POSTING_ACTIONS = ['post', 'reverse'] as const;
export const POSTING_STATUSES = ['pending', 'posted', 'failed', 'unknown'] as const;

/**
 * How a property's master-metered bills are split (README "Billing configuration"). At most
 * one active configuration per property: the partial unique index holds it even for two
 * creates at the same moment.
 */
export const billingConfigs = pgTable(
  'billing_configs',
  {
    id: text('id').primaryKey(),
    propertyId: cascadingRef('property_id', () => properties.id),
    method: text('method').notNull(),
    utilityTypes: text('utility_types').array().notNull(),
    commonAreaPercent: percent('common_area_percent').notNull().default(0),
    adminFeePercent: percent('admin_fee_percent').notNull().default(0),
    billingDay: integer('billing_day').notNull().default(1),
    isActive: boolean('is_active').notNull().default(true),
    vacancyPolicy: text('vacancy_policy').notNull().default('redistribute'),
    rounding: text('rounding').notNull().default('per_unit'),
    sqftWeightPercent: percent('sqft_weight_percent').notNull().default(50),
    /** utility type -> method, overriding `method` for that utility ({} when none). */
    methodsByUtility: jsonb('methods_by_utility').$type<Record<string, string>>().notNull().default({}),
    /** Head count -> factor ({"1": 1, "2": 1.6}), or null: the occupant method counts people linearly. */
    occupantFactors: jsonb('occupant_factors').$type<Record<string, number>>(),
    maxCharge: money('max_charge'),
    minCharge: money('min_charge'),
    billingFee: money('billing_fee').notNull().default(0),
    /** 1 when created; each PATCH that changes a term adds one (billing_config_versions keeps every version). */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at'),
  },
  (t) => [
    uniqueIndex('billing_configs_one_active_per_property')
      .on(t.propertyId)
      .where(sql`${t.isActive}`),
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
    check(
      'billing_configs_charges_check',
      sql`${t.billingFee} >= 0 and coalesce(${t.minCharge}, 0) >= 0
        and (${t.maxCharge} is null or ${t.maxCharge} >= coalesce(${t.minCharge}, 0))`,
    ),
  ],
);

/** Every version of a configuration as it was answered (the terms a calculation of that version used). */
export const billingConfigVersions = pgTable(
  'billing_config_versions',
  {
    configId: cascadingRef('config_id', () => billingConfigs.id),
    version: integer('version').notNull(),
    terms: jsonb('terms').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.configId, t.version] })],
);

/**
 * One stored RUBS calculation, written in one statement: the history columns, and `result`, the
 * whole answer as plain JSON whose unit bills are rows of values (stored.ts StoredCalculation;
 * rows stored before issue 28 have them deflated, read by legacy-deflated.ts). Text, not json or
 * jsonb: the service alone reads it, whole, and jsonb would reorder its keys. Its storage is
 * EXTERNAL (out of line, uncompressed: migrations 0006 and 0010).
 */
export const rubsCalculations = pgTable(
  'rubs_calculations',
  {
    id: text('id').primaryKey(),
    propertyId: cascadingRef('property_id', () => properties.id),
    billingConfigId: cascadingRef('billing_config_id', () => billingConfigs.id),
    source: text('source').notNull(),
    billingPeriodStart: date('billing_period_start', { mode: 'string' }).notNull(),
    billingPeriodEnd: date('billing_period_end', { mode: 'string' }).notNull(),
    utilityType: text('utility_type').notNull(),
    method: text('method').notNull(),
    totalAmount: money('total_amount').notNull(),
    unitsBilled: integer('units_billed').notNull(),
    unitsVacant: integer('units_vacant').notNull(),
    result: text('result').notNull(),
    calculatedAt: timestamptz('calculated_at').notNull(),
    billingConfigVersion: integer('billing_config_version').notNull().default(1),
    status: text('status').notNull().default('active'),
    /** The earlier active calculations this one replaced (same property, utility type, overlapping period). */
    supersedes: text('supersedes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    supersededBy: text('superseded_by'),
    voidReason: text('void_reason'),
    voidedAt: timestamptz('voided_at'),
    /** The invoice number of the first unit line; line k has this + k (null for calculations stored before issue 30). */
    firstInvoiceNumber: integer('first_invoice_number'),
  },
  (t) => [
    // The history page: a property's calculations, newest first, one index range scan.
    index('rubs_calculations_property_calculated_idx').on(t.propertyId, t.calculatedAt.desc(), t.id.desc()),
    index('rubs_calculations_config_idx').on(t.billingConfigId),
    check('rubs_calculations_source_check', sql`${t.source} in (${quoted(CALCULATION_SOURCES)})`),
    check('rubs_calculations_utility_type_check', sql`${t.utilityType} in (${quoted(UTILITY_TYPES)})`),
    check('rubs_calculations_period_check', sql`${t.billingPeriodEnd} >= ${t.billingPeriodStart}`),
    check('rubs_calculations_status_check', sql`${t.status} in (${quoted(CALCULATION_STATUSES)})`),
    // A re-bill finds the active calculations it overlaps: one range scan.
    index('rubs_calculations_active_idx')
      .on(t.propertyId, t.utilityType, t.billingPeriodStart)
      .where(sql`${t.status} = 'active'`),
  ],
);

/** The last invoice number issued per property: statements are numbered 1, 2, ... per property. */
export const rubsInvoiceCounters = pgTable('rubs_invoice_counters', {
  propertyId: cascadingRef('property_id', () => properties.id).primaryKey(),
  lastNumber: integer('last_number').notNull(),
});

/**
 * One charge line of a calculation posted (or reversed) to the PMS ledger: the unit line, what was
 * sent, and what the provider answered. The key is the Idempotency-Key's: a line is posted once.
 */
export const rubsPostings = pgTable(
  'rubs_postings',
  {
    calculationId: cascadingRef('calculation_id', () => rubsCalculations.id),
    unitId: text('unit_id').notNull(),
    occupancy: integer('occupancy').notNull(),
    action: text('action').notNull(),
    amount: money('amount').notNull(),
    status: text('status').notNull(),
    providerChargeId: text('provider_charge_id'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.calculationId, t.unitId, t.occupancy, t.action] }),
    check('rubs_postings_action_check', sql`${t.action} in (${quoted(POSTING_ACTIONS)})`),
    check('rubs_postings_status_check', sql`${t.status} in (${quoted(POSTING_STATUSES)})`),
  ],
);

/**
 * Per property with calculations: its owner and how many calculations it has, kept by triggers
 * (db-functions.sql). GET /billing/history reads this one row by its key for the owner check and
 * the page count.
 */
export const rubsHistoryState = pgTable('rubs_history_state', {
  propertyId: cascadingRef('property_id', () => properties.id).primaryKey(),
  ownerId: text('owner_id').notNull(),
  calculations: integer('calculations').notNull().default(0),
});
