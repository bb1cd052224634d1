import { sql } from 'drizzle-orm';
import { boolean, check, date, foreignKey, index, jsonb, numeric, pgTable, text } from 'drizzle-orm/pg-core';
import { cascadingRef, createdAt, generatedId, money, quantity, quoted } from '../../platform/db/columns';
import { properties } from '../properties/tables';
import { meters } from '../meters/tables';
import { METER_UTILITY_TYPES, unitPairsSql } from '../meters/units';

/**
 * Actual bills of a property's meters (cost trend, health score, dashboard). Two bills of one meter
 * never overlap (both ends of a period are billed days): the exclusion constraint
 * utility_bills_no_overlap, `EXCLUDE USING gist (meter_id WITH =, daterange(period_start,
 * period_end, '[]') WITH &&)` (migration 0048, btree_gist; drizzle cannot declare it). `usage` is
 * in `unit`; `usage_kwh` equals it on electric bills.
 */
export const bills = pgTable(
  'utility_bills',
  {
    id: generatedId(),
    propertyId: cascadingRef('property_id', () => properties.id),
    meterId: text('meter_id').notNull(),
    utilityType: text('utility_type').notNull(),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    amount: money('amount').notNull(),
    usage: quantity('usage'),
    unit: text('unit').notNull(),
    usageKwh: quantity('usage_kwh'),
    demandKw: quantity('demand_kw'),
    isEstimated: boolean('is_estimated').notNull().default(false),
    /** Therms per ccf as a gas bill prints it (its therm or BTU factor); the audit converts a volume to therms with it. */
    heatContent: numeric('heat_content', { precision: 6, scale: 4, mode: 'number' }),
    /** The bill's lines as the utility printed them (category, description, amount), when sent; the audit compares them. */
    lineItems: jsonb('line_items').$type<Array<{ category: string; description: string; amount: number }>>(),
    createdAt: createdAt(),
  },
  (t) => [
    // A bill's property and utility type are its meter's.
    foreignKey({
      name: 'utility_bills_meter_fk',
      columns: [t.meterId, t.propertyId, t.utilityType],
      foreignColumns: [meters.id, meters.propertyId, meters.utilityType],
    }).onDelete('cascade'),
    // "A property's bills, newest period first": a backward scan of this index.
    index('utility_bills_property_period_idx').on(t.propertyId, t.periodStart, t.periodEnd),
    // A meter's bills in period order (the bill audit reads them so).
    index('utility_bills_meter_period_idx').on(t.meterId, t.periodStart, t.periodEnd),
    check('utility_bills_type_check', sql`${t.utilityType} in (${quoted(METER_UTILITY_TYPES)})`),
    check('utility_bills_unit_check', sql.raw(unitPairsSql('utility_type', 'unit'))),
    check('utility_bills_period_check', sql`${t.periodEnd} >= ${t.periodStart}`),
    // Gas bills only (bill-rules.ts bounds it further, to what bills print).
    check('utility_bills_heat_content_check', sql`${t.heatContent} is null or (${t.utilityType} = 'gas' and ${t.heatContent} > 0)`),
    // Credits down to -1,000,000 (bill-rules.ts; the API and the import also bound the rest).
    check(
      'utility_bills_amount_usage_check',
      sql`${t.amount} >= -1000000 and coalesce(${t.usage}, 0) >= 0 and coalesce(${t.usageKwh}, 0) >= 0 and coalesce(${t.demandKw}, 0) >= 0`,
    ),
  ],
);
