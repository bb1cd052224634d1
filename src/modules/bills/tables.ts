import { sql } from 'drizzle-orm';
import { check, date, numeric, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { properties } from '../properties/tables';
import { UTILITY_TYPES } from './utility-types';

/** Actual billed amounts of a property (cost trend, health score, dashboard); one bill per property, utility type and period. */
export const utilityBills = pgTable(
  'utility_bills',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    propertyId: text('property_id').notNull().references(() => properties.id, { onDelete: 'cascade' }),
    utilityType: text('utility_type').notNull(),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    amount: numeric('amount', { precision: 14, scale: 2, mode: 'number' }).notNull(),
    usageKwh: numeric('usage_kwh', { precision: 14, scale: 3, mode: 'number' }),
    demandKw: numeric('demand_kw', { precision: 14, scale: 3, mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // Key order (property, period, type) also serves "a property's bills, newest period first":
    // a backward scan of this one index, so imports maintain two indexes, not three.
    unique('utility_bills_property_period_type_key').on(t.propertyId, t.periodStart, t.periodEnd, t.utilityType),
    check('utility_bills_type_check', sql`${t.utilityType} in (${sql.raw(UTILITY_TYPES.map((v) => `'${v}'`).join(', '))})`),
    check('utility_bills_period_check', sql`${t.periodEnd} >= ${t.periodStart}`),
    // Credits down to -1,000,000 (bill-rules.ts; the API and the import also bound the rest).
    check(
      'utility_bills_amount_usage_check',
      sql`${t.amount} >= -1000000 and coalesce(${t.usageKwh}, 0) >= 0 and coalesce(${t.demandKw}, 0) >= 0`,
    ),
  ],
);
