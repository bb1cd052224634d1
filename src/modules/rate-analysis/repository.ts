import crypto from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { rateAnalyses } from './tables';
import { recommendationSavingsCents, type RateAnalysis } from './rate-analysis.calc';

export type RateAnalysisRow = typeof rateAnalyses.$inferSelect;

export function createRateAnalysisRepository(db: Executor) {
  return {
    async insert(ownerId: string, analysis: RateAnalysis): Promise<RateAnalysisRow> {
      const savingsCents = recommendationSavingsCents(analysis);
      const [row] = await db
        .insert(rateAnalyses)
        .values({
          id: crypto.randomUUID(),
          propertyId: analysis.property_id,
          ownerId,
          currentTariffId: analysis.current_tariff?.id ?? null,
          currentMonthlyCost: analysis.current_tariff?.estimated_monthly_cost ?? null,
          recommendedTariffId: analysis.recommendation,
          monthlySavings: savingsCents === null ? null : savingsCents / 100,
          annualSavings: savingsCents === null ? null : (12 * savingsCents) / 100,
          result: analysis,
          analyzedAt: new Date(analysis.analyzed_at),
        })
        .returning();
      return row!;
    },

    async latestForProperty(propertyId: string): Promise<RateAnalysisRow | null> {
      const [row] = await db
        .select()
        .from(rateAnalyses)
        .where(eq(rateAnalyses.propertyId, propertyId))
        .orderBy(desc(rateAnalyses.analyzedAt), desc(rateAnalyses.id))
        .limit(1);
      return row ?? null;
    },

    /** The newest analysis of each of the owner's analysed properties (one DISTINCT ON scan). */
    async latestForOwner(ownerId: string): Promise<RateAnalysisRow[]> {
      return db
        .selectDistinctOn([rateAnalyses.propertyId])
        .from(rateAnalyses)
        .where(eq(rateAnalyses.ownerId, ownerId))
        .orderBy(rateAnalyses.propertyId, desc(rateAnalyses.analyzedAt), desc(sql`${rateAnalyses.id}`));
    },
  };
}
