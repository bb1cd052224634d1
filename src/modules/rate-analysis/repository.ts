import crypto from 'node:crypto';
import { and, asc, desc, eq, gte, inArray, isNotNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import { viewOfBills } from '../bills/public';
import { viewOfMeters } from '../meters/public';
import type { Executor } from '../../platform/db/client';
import { rateAnalyses } from './tables';
import { recommendationSavingsCents, type RateAnalysis } from './rate-analysis.calc';

const bills = viewOfBills('bill_view');
const meters = viewOfMeters('meter_view');

export type RateAnalysisRow = typeof rateAnalyses.$inferSelect;

/** An electric bill with usage, and its meter's tariffs: what a rate analysis from bills re-prices. */
export interface AnalysedBill {
  meterId: string;
  meterName: string;
  meterTariffId: string | null;
  meterSupplyTariffId: string | null;
  periodStart: string;
  periodEnd: string;
  usageKwh: number;
  demandKw: number | null;
}

/** Analyses kept per property: the latest (what dashboards read) and a short history; older ones are deleted. */
export const ANALYSES_KEPT_PER_PROPERTY = 10;

export function createRateAnalysisRepository(db: Executor) {
  /** The newest analysis of each of the owner's analysed properties, of those `also` admits (one DISTINCT ON scan). */
  const latestOfOwner = (ownerId: string, also?: SQL) =>
    db
      .selectDistinctOn([rateAnalyses.propertyId])
      .from(rateAnalyses)
      .where(and(eq(rateAnalyses.ownerId, ownerId), also))
      .orderBy(rateAnalyses.propertyId, desc(rateAnalyses.analyzedAt), desc(sql`${rateAnalyses.id}`));

  return {
    /**
     * Stores analyses (one statement) and deletes each analysed property's analyses beyond the
     * newest ANALYSES_KEPT_PER_PROPERTY (one more).
     */
    async insertMany(list: Array<{ ownerId: string; analysis: RateAnalysis }>): Promise<void> {
      if (list.length === 0) return;
      await db.insert(rateAnalyses).values(
        list.map(({ ownerId, analysis }) => {
          const savingsCents = recommendationSavingsCents(analysis);
          return {
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
          };
        }),
      );
      const ids = [...new Set(list.map((a) => a.analysis.property_id))];
      await db.execute(sql`delete from ${rateAnalyses} where ${rateAnalyses.id} in (
        select id from (
          select id, row_number() over (partition by property_id order by analyzed_at desc, id desc) as n
          from ${rateAnalyses} where ${inArray(rateAnalyses.propertyId, ids)}
        ) ranked where n > ${ANALYSES_KEPT_PER_PROPERTY})`);
    },

    /** The property's electric bills with kWh whose period ends in [from, to], by meter and period. */
    async electricBills(propertyId: string, from: string, to: string): Promise<AnalysedBill[]> {
      const rows = await db
        .select({
          meterId: bills.meterId,
          meterName: meters.name,
          meterTariffId: meters.tariffId,
          meterSupplyTariffId: meters.supplyTariffId,
          periodStart: bills.periodStart,
          periodEnd: bills.periodEnd,
          usageKwh: bills.usageKwh,
          demandKw: bills.demandKw,
        })
        .from(bills)
        .innerJoin(meters, eq(meters.id, bills.meterId))
        .where(
          and(
            eq(bills.propertyId, propertyId),
            eq(bills.utilityType, 'electric'),
            isNotNull(bills.usageKwh),
            gte(bills.periodEnd, from),
            lte(bills.periodEnd, to),
          ),
        )
        .orderBy(asc(bills.meterId), asc(bills.periodStart));
      return rows.map((r) => ({ ...r, usageKwh: r.usageKwh! }));
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

    /** The newest analysis made before `before` of each of the owner's analysed properties (the advice before a tariff refresh). */
    async latestForOwnerBefore(ownerId: string, before: Date): Promise<RateAnalysisRow[]> {
      return latestOfOwner(ownerId, lt(rateAnalyses.analyzedAt, before));
    },

    /** The newest analysis of each of the owner's analysed properties (one DISTINCT ON scan). */
    async latestForOwner(ownerId: string): Promise<RateAnalysisRow[]> {
      return latestOfOwner(ownerId);
    },
  };
}
