import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { cascadingRef, money, timestamptz } from '../../platform/db/columns';
import { users } from '../accounts/tables';
import { properties } from '../properties/tables';
import type { RateAnalysis } from './rate-analysis.calc';

/**
 * Every rate analysis run (on request or by the rate-analysis queue). The newest row
 * per property is what dashboards read for savings instead of recomputing.
 */
export const rateAnalyses = pgTable(
  'rate_analyses',
  {
    id: text('id').primaryKey(),
    propertyId: cascadingRef('property_id', () => properties.id),
    ownerId: cascadingRef('owner_id', () => users.id),
    currentTariffId: text('current_tariff_id'),
    currentMonthlyCost: money('current_monthly_cost'),
    recommendedTariffId: text('recommended_tariff_id').notNull(),
    /** Savings of the recommendation over the current tariff; 0 when it is the current one, null without a current tariff. */
    monthlySavings: money('monthly_savings'),
    annualSavings: money('annual_savings'),
    result: jsonb('result').$type<RateAnalysis>().notNull(),
    analyzedAt: timestamptz('analyzed_at').notNull().defaultNow(),
  },
  (t) => [
    index('rate_analyses_property_analyzed_idx').on(t.propertyId, t.analyzedAt.desc()),
    index('rate_analyses_owner_idx').on(t.ownerId),
    check('rate_analyses_savings_check', sql`coalesce(${t.monthlySavings}, 0) >= 0`),
  ],
);
