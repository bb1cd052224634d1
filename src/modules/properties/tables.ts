import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, numeric, pgTable, text } from 'drizzle-orm/pg-core';
import { cascadingRef, createdAt, money, quantity, quoted, updatedAt } from '../../platform/db/columns';
import { users } from '../accounts/tables';
import { portfolios } from '../portfolios/tables';
import { PROPERTY_TYPES, US_STATE_CODES } from './states';

/**
 * A user's property. `tariff_id` is a URDB label checked by the service, not a foreign
 * key: the tariff data is re-imported wholesale and must not be blocked by properties.
 * `annual_energy_cost` / `monthly_energy_cost` are the bill engine's estimate for the
 * tariff and usage, refreshed whenever those change (and by the rate-analysis queue
 * after a tariff re-import), so portfolio and dashboard totals are one SQL aggregate. They
 * are not checked non-negative: a tariff with credits can price below zero.
 */
export const properties = pgTable(
  'properties',
  {
    id: text('id').primaryKey(),
    ownerId: cascadingRef('owner_id', () => users.id),
    portfolioId: text('portfolio_id').references(() => portfolios.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    address: text('address').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zipCode: text('zip_code').notNull(),
    propertyType: text('property_type').notNull(),
    sqft: integer('sqft'),
    unitCount: integer('unit_count'),
    yearBuilt: integer('year_built'),
    utilityAccountNumber: text('utility_account_number'),
    meterNumber: text('meter_number'),
    tariffId: text('tariff_id'),
    monthlyUsageKwh: quantity('monthly_usage_kwh'),
    monthlyDemandKw: quantity('monthly_demand_kw'),
    /** The customer's retail supply price, $/kWh: priced on a delivery-only tariff (issue 26). */
    supplyRatePerKwh: numeric('supply_rate_per_kwh', { precision: 10, scale: 6, mode: 'number' }),
    /** The customer's supply contract, a supply-only custom tariff beside a delivery-only tariff_id (supersedes supplyRatePerKwh). */
    supplyTariffId: text('supply_tariff_id'),
    /** An IANA time zone the owner set; null: the one of the ZIP code (timezone.ts), presented as `timezone`. */
    timezone: text('timezone'),
    hasSolar: boolean('has_solar').notNull().default(false),
    solarCapacityKw: quantity('solar_capacity_kw'),
    annualRevenue: money('annual_revenue'),
    noi: money('noi'),
    monthlyEnergyCost: money('monthly_energy_cost'),
    annualEnergyCost: money('annual_energy_cost'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('properties_owner_created_idx').on(t.ownerId, t.createdAt, t.id),
    index('properties_portfolio_idx').on(t.portfolioId),
    check('properties_state_check', sql`${t.state} in (${quoted(US_STATE_CODES)})`),
    check('properties_zip_check', sql`${t.zipCode} ~ '^[0-9]{5}$'`),
    check('properties_type_check', sql`${t.propertyType} in (${quoted(PROPERTY_TYPES)})`),
    check(
      'properties_non_negative_check',
      sql`coalesce(${t.sqft}, 0) >= 0 and coalesce(${t.unitCount}, 0) >= 0 and coalesce(${t.yearBuilt}, 0) >= 0
        and coalesce(${t.monthlyUsageKwh}, 0) >= 0 and coalesce(${t.monthlyDemandKw}, 0) >= 0
        and coalesce(${t.supplyRatePerKwh}, 0) between 0 and 5
        and coalesce(${t.solarCapacityKw}, 0) >= 0 and coalesce(${t.annualRevenue}, 0) >= 0
        and coalesce(${t.noi}, 0) >= 0`,
    ),
  ],
);

/**
 * Per owner, kept by a trigger on `properties` whoever writes the table (db-functions.sql): the
 * number of properties, so the unfiltered GET /pm/properties total is one row read instead of a
 * count over every property.
 */
export const propertyOwnerCounts = pgTable('property_owner_counts', {
  ownerId: cascadingRef('owner_id', () => users.id).primaryKey(),
  propertyCount: integer('property_count').notNull().default(0),
});
