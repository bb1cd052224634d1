/**
 * What other modules may use of rate analysis' tables (the lint rule lets them import nothing else
 * of its tables or repository): a read-only view of the stored analyses' headline figures, which
 * analytics reads for the savings on its dashboards.
 */
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { rateAnalyses } from './tables';

/** An analysis' property, owner, time, tariffs and annual savings, as a subquery named `alias`: read, never written. In raw SQL its columns keep their database names (`ra.annual_savings`). */
export const viewOfRateAnalyses = <A extends string>(alias: A) =>
  new QueryBuilder()
    .select({
      id: rateAnalyses.id,
      propertyId: rateAnalyses.propertyId,
      ownerId: rateAnalyses.ownerId,
      analyzedAt: rateAnalyses.analyzedAt,
      currentTariffId: rateAnalyses.currentTariffId,
      recommendedTariffId: rateAnalyses.recommendedTariffId,
      annualSavings: rateAnalyses.annualSavings,
    })
    .from(rateAnalyses)
    .as(alias);
