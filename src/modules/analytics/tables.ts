import { bigint, date, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { cascadingRef, timestamptz } from '../../platform/db/columns';
import { users } from '../accounts/tables';
import type { StoredSums } from './snapshot.calc';

/**
 * Per owner, bumped by database triggers (custom migration) on every change analytics show:
 * properties, utility bills, portfolios, rate analyses. Whoever writes (API, job, CSV
 * import, raw SQL) moves it, so a precomputed row carrying an older version is stale.
 */
export const ownerDataVersions = pgTable('owner_data_versions', {
  ownerId: cascadingRef('owner_id', () => users.id).primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  changedAt: timestamptz('changed_at').notNull().defaultNow(),
});

/**
 * Properties whose metrics must be recomputed, marked by the same triggers with the owner's
 * version of the change; a recompute at version V clears the marks up to V. `rollup_from` ..
 * `rollup_to` (month indexes, year x 12 + month - 1) are the months whose rollups the change
 * touched: a bill's period, widened to cover every change marked since; null when none did (a
 * property's estimate, a rate analysis). So a bill added to a property with years of history
 * rebuilds one month of it, not the whole window.
 * No foreign keys: the row of a property (or user) being deleted must not block the delete.
 */
export const analyticsDirtyProperties = pgTable(
  'analytics_dirty_properties',
  {
    ownerId: text('owner_id').notNull(),
    propertyId: text('property_id').notNull(),
    markedVersion: bigint('marked_version', { mode: 'number' }).notNull(),
    rollupFrom: integer('rollup_from'),
    rollupTo: integer('rollup_to'),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.propertyId] })],
);

/*
 * Rollups and metrics have no foreign key to properties: a recompute inserts ~10^5 rows, and a
 * key check per row would cost more than the rest; the properties delete trigger (migration
 * analytics_data_version_triggers) deletes a removed property's rows instead.
 */

/**
 * Calendarised actual bills per property, utility type and calendar month, for the 36 months
 * ending with the owner snapshot's month. `usage_milli` is in thousandths of the type's common
 * unit (Wh for electric; meters/units.ts). `billed_days` counts the days of the month covered by
 * at least one bill of the type; `bill_count` the bills whose period overlaps the month.
 */
export const analyticsMonthlyRollups = pgTable(
  'analytics_monthly_rollups',
  {
    propertyId: text('property_id').notNull(),
    ownerId: text('owner_id').notNull(),
    utilityType: text('utility_type').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    costCents: bigint('cost_cents', { mode: 'number' }).notNull(),
    usageMilli: bigint('usage_milli', { mode: 'number' }).notNull(),
    billedDays: integer('billed_days').notNull(),
    billCount: integer('bill_count').notNull(),
  },
  // Not unique: rows are only written by the owner's recompute (under its lock, deleted before they
  // are inserted again), and a unique key would check every insert against the dead rows of the
  // previous run. The owner's months for its reads; a property's months for a recompute of the
  // properties a change marked (through the owner's index, it read every property's rows).
  (t) => [
    index('analytics_monthly_rollups_owner_month_idx').on(t.ownerId, t.month, t.propertyId),
    index('analytics_monthly_rollups_property_month_idx').on(t.propertyId, t.month),
  ],
);

/** A utility type's annual cost of a property as stored: [utility type, cents, usage milli or null, basis]. */
export type StoredUtilityCost = [string, number, number | null, 'actual' | 'estimate'];

/**
 * Per property, computed from its rollups, estimate and latest rate analysis: the one annual cost
 * (per utility type in `annual_by_utility`, summed in `annual_cost_cents`, electric kWh in
 * `annual_kwh_milli`, with its basis), the savings on offer, the health score.
 */
export const analyticsPropertyMetrics = pgTable(
  'analytics_property_metrics',
  {
    propertyId: text('property_id').primaryKey(),
    ownerId: text('owner_id').notNull(),
    annualCostCents: bigint('annual_cost_cents', { mode: 'number' }),
    annualKwhMilli: bigint('annual_kwh_milli', { mode: 'number' }),
    annualByUtility: jsonb('annual_by_utility').$type<StoredUtilityCost[]>().notNull().default([]),
    /** `actual` or `estimate`; null when the property has neither enough bills nor an estimate. */
    basis: text('basis'),
    savingsCents: bigint('savings_cents', { mode: 'number' }),
    currentTariffId: text('current_tariff_id'),
    recommendedTariffId: text('recommended_tariff_id'),
    healthScore: integer('health_score').notNull(),
    healthStatus: text('health_status').notNull(),
    healthIssues: jsonb('health_issues').$type<string[]>().notNull(),
    /**
     * Emissions and building-performance exposure of the latest complete calendar year (`emissions_year`,
     * the year before the snapshot's month): location-based kilograms CO2e (emissions module, from the
     * year's rollups), and the projected penalty of the standard's compliance period (`penalty_period`,
     * null where none is computed). `penalty_alerts` counts the notifications raised for the property,
     * one each time its projected penalty went from none to above zero (README "Emissions and
     * building-performance exposure").
     */
    emissionsYear: integer('emissions_year'),
    emissionsKg: bigint('emissions_kg', { mode: 'number' }),
    penaltyPeriod: text('penalty_period'),
    penaltyCents: bigint('penalty_cents', { mode: 'number' }),
    penaltyAlerts: integer('penalty_alerts').notNull().default(0),
  },
  (t) => [index('analytics_property_metrics_owner_idx').on(t.ownerId)],
);

/**
 * One row per owner: the data version and UTC month it was computed at, and the integer sums the
 * owner-wide aggregates (dashboard stats and global analytics) are computed from on reading (so
 * the recompute stores them in the statement that sums them). Stale when either differs from now.
 */
export const analyticsOwnerSnapshots = pgTable('analytics_owner_snapshots', {
  ownerId: cascadingRef('owner_id', () => users.id).primaryKey(),
  dataVersion: bigint('data_version', { mode: 'number' }).notNull(),
  asOfMonth: date('as_of_month', { mode: 'string' }).notNull(),
  computedAt: timestamptz('computed_at').notNull(),
  sums: jsonb('sums').$type<StoredSums>().notNull(),
});

/**
 * The ZIP codes an account asked due diligence for (POST /pm/due-diligence), with the last time: their
 * utilities are among those the catalog refresh keeps current (tariffs README, "Refreshing tariffs").
 */
export const dueDiligenceZipCodes = pgTable(
  'due_diligence_zip_codes',
  {
    ownerId: cascadingRef('owner_id', () => users.id),
    zipCode: text('zip_code').notNull(),
    lastUsedAt: timestamptz('last_used_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.zipCode] }), index('due_diligence_zip_codes_used_idx').on(t.lastUsedAt)],
);
