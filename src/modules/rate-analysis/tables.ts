import { sql } from 'drizzle-orm';
import { check, index, jsonb, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../accounts/tables';
import { properties } from '../properties/tables';
import type { RateAnalysis } from './rate-analysis.calc';

const money = (name: string) => numeric(name, { precision: 14, scale: 2, mode: 'number' });

/**
 * Every rate analysis run (on request or by the rate-analysis queue). The newest row
 * per property is what dashboards read for savings instead of recomputing.
 */
export const rateAnalyses = pgTable(
  'rate_analyses',
  {
    id: text('id').primaryKey(),
    propertyId: text('property_id')
      .notNull()
      .references(() => properties.id, { onDelete: 'cascade' }),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    currentTariffId: text('current_tariff_id'),
    currentMonthlyCost: money('current_monthly_cost'),
    recommendedTariffId: text('recommended_tariff_id').notNull(),
    /** Savings of the recommendation over the current tariff; 0 when it is the current one, null without a current tariff. */
    monthlySavings: money('monthly_savings'),
    annualSavings: money('annual_savings'),
    result: jsonb('result').$type<RateAnalysis>().notNull(),
    analyzedAt: timestamp('analyzed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('rate_analyses_property_analyzed_idx').on(t.propertyId, t.analyzedAt.desc()),
    index('rate_analyses_owner_idx').on(t.ownerId),
    check('rate_analyses_savings_check', sql`coalesce(${t.monthlySavings}, 0) >= 0`),
  ],
);
