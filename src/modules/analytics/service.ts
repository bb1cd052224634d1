import type { Db, Executor } from '../../platform/db/client';
import type { NewNotification } from '../notifications/public';
import type { Logger } from '../../platform/logger';
import type { PortfolioAnnualCost, PortfolioService } from '../portfolios/service';
import type { PropertyAnnualCost } from '../properties/service';
import { utilityFigure, type MeterUtilityType } from '../meters/units';
import { createDueDiligence, type DueDiligenceDeps } from './due-diligence';
import { monthsEndingWith } from './months';
import { createRecomputer, type RecomputeResult } from './recompute';
import { emissionsYearOf } from './exposure';
import { createAnalyticsRepository } from './repository';
import type { BenchmarksQuery, CostTrendQuery, HealthQuery } from './schemas';
import type { DashboardStatsBase } from './snapshot.calc';
import type { RecoveryStats } from '../audit/disputes/present';
import { createFreshAnswers, type OnRecompute } from './fresh-answers';
import { pageOfList } from '../../platform/http/pagination';
import type { CostRollupJob, RecomputeRequests } from './recompute-requests';
import {
  benchmarksAnswer,
  costTrendAnswer,
  globalAnswer,
  healthAnswer,
  portfolioAnnualSums,
  portfolioAnswer,
  statsAnswer,
} from './dashboard-answers';

export type { OnRecompute, RecomputeTiming } from './fresh-answers';
export type { CostRollupJob, CostRollupSweep } from './recompute-requests';

export interface AnalyticsServiceDeps extends Omit<DueDiligenceDeps, 'repo'> {
  db: Db;
  now: () => Date;
  logger: Logger;
  portfolios: Pick<PortfolioService, 'requireOwned'>;
  /** Queues recomputes after writes and from the sweeps (built before every service that writes). */
  requests: RecomputeRequests;
  /** The money claimed, recovered and written off in bill-audit disputes (audit README "Disputes and recovered money"). */
  auditRecovery(ownerId: string): Promise<RecoveryStats>;
  /** The user's unread notifications (alerts_unread), counted when asked. */
  unreadNotifications(userId: string): Promise<number>;
  /** Creates notifications in the recompute's transaction (a projected building-performance penalty that appears). */
  notifyMany(list: NewNotification[], executor: Executor): Promise<void>;
}

/** Months of portfolio analytics. */
const PORTFOLIO_MONTHS = 12;

async function aggregatesOf(repo: ReturnType<typeof createAnalyticsRepository>, ownerId: string) {
  const found = await repo.aggregates(ownerId);
  if (!found) throw new Error(`analytics snapshot of ${ownerId} missing after recompute`);
  return found;
}

type PropertyAnnualRow = NonNullable<Awaited<ReturnType<ReturnType<typeof createAnalyticsRepository>['propertyAnnual']>>>;

/** A property's one annual cost per utility type from its precomputed row; null without one. */
function propertyAnnualOf(row: PropertyAnnualRow): PropertyAnnualCost | null {
  if (row.annual_cost_cents === null || row.basis === null) return null;
  return {
    cents: row.annual_cost_cents,
    basis: row.basis,
    byUtility: row.annual_by_utility.map(([type, cents, usageMilli, basis]) => ({
      ...utilityFigure(type as MeterUtilityType, cents, usageMilli),
      basis,
    })),
  };
}

/** Dashboards, cost trend, health, benchmarks and due diligence, over the owner's precomputed data. */
export function createAnalyticsService(deps: AnalyticsServiceDeps) {
  const repo = createAnalyticsRepository(deps.db);
  const recomputer = createRecomputer(deps);
  const fresh = createFreshAnswers({ now: deps.now, repo, recomputer, portfolios: deps.portfolios });

  const aggregates = (ownerId: string) => aggregatesOf(repo, ownerId);

  return {
    /**
     * GET /pm/dashboard/stats: the precomputed stats (the open audit findings among them: a finding
     * written or resolved changes the owner's data version), with the unread alerts counted live
     * and the money of the audit's disputes (a dispute's transition also changes the data version).
     */
    async stats(ownerId: string, onRecompute?: OnRecompute) {
      const [at, unread] = await Promise.all([fresh.freshAt(ownerId, onRecompute), deps.unreadNotifications(ownerId)]);
      return fresh.cached(JSON.stringify(['stats-answer', ownerId, at.version, at.month, unread]), async () => {
        const base = await fresh.cached<DashboardStatsBase>(
          JSON.stringify(['stats', ownerId, at.version, at.month]),
          async () => (await aggregates(ownerId)).stats,
        );
        return { ...statsAnswer(base, unread), ...(await deps.auditRecovery(ownerId)) };
      });
    },

    /** GET /pm/dashboard/cost-trend: actual calendarised cost of the N months ending with this one. */
    costTrend(ownerId: string, q: CostTrendQuery, onRecompute?: OnRecompute) {
      const portfolioId = q.portfolio_id ?? null;
      return fresh.answer(ownerId, 'trend', [q.months], portfolioId, onRecompute, async (month) => {
        const window = monthsEndingWith(month, q.months);
        return costTrendAnswer(window, await repo.propertyMonths(ownerId, window[0]!, month, portfolioId));
      });
    },

    /** GET /pm/dashboard/global-analytics. */
    globalAnalytics(ownerId: string, onRecompute?: OnRecompute) {
      return fresh.answer(ownerId, 'global', [], null, onRecompute, async () => globalAnswer((await aggregates(ownerId)).global));
    },

    /** GET /pm/portfolios/{id}/analytics: actual cost of the 12 months ending with this one, and savings on offer. */
    async portfolioAnalytics(ownerId: string, portfolioId: string, onRecompute?: OnRecompute) {
      // 404 before anything else: another owner's portfolio is not found, cached or not. Checked
      // here, so the portfolio is a key of the answer (params) rather than checked again on a miss.
      await deps.portfolios.requireOwned(ownerId, portfolioId);
      return fresh.answer(ownerId, 'portfolio', [portfolioId], null, onRecompute, async (month) => {
        const window = monthsEndingWith(month, PORTFOLIO_MONTHS);
        const [totals, props] = await Promise.all([
          repo.monthlyTotals(ownerId, window[0]!, month, portfolioId),
          repo.portfolioProperties(ownerId, portfolioId),
        ]);
        return portfolioAnswer(portfolioId, window, totals, props);
      });
    },

    /**
     * A portfolio's one annual cost, summed as portfolio analytics sums it (portfolio detail's
     * summary). The caller has checked that the portfolio is the owner's.
     */
    portfolioAnnualCost(ownerId: string, portfolioId: string): Promise<PortfolioAnnualCost> {
      return fresh.answer(ownerId, 'portfolio-annual', [portfolioId], null, undefined, async () => {
        const sums = portfolioAnnualSums(await repo.portfolioProperties(ownerId, portfolioId));
        return { cents: Number(sums.cents), perKwh: sums.perKwh };
      });
    },

    /** GET /pm/properties/health: summary over the scope (owner or portfolio), properties filtered by status. */
    async health(ownerId: string, q: HealthQuery, onRecompute?: OnRecompute) {
      const portfolioId = q.portfolio_id ?? null;
      const whole = await fresh.answer(ownerId, 'health', [q.status ?? null], portfolioId, onRecompute, async () =>
        healthAnswer(await repo.healthRows(ownerId, portfolioId), q.status),
      );
      const { items, ...page } = pageOfList(whole.properties, q);
      return { ...whole, properties: items, ...page };
    },

    /** GET /pm/analytics/benchmarks (tier checked by the route). */
    async benchmarks(ownerId: string, q: BenchmarksQuery, onRecompute?: OnRecompute) {
      const portfolioId = q.portfolio_id ?? null;
      const whole = await fresh.answer(ownerId, 'benchmarks', [q.metric], portfolioId, onRecompute, async (month) =>
        benchmarksAnswer(q.metric, await repo.benchmarkRows(ownerId, portfolioId), emissionsYearOf(month)),
      );
      const { items, ...page } = pageOfList(whole.rankings, q);
      return { ...whole, rankings: items, ...page };
    },

    /** A property's one annual cost per utility type (property detail, energy_pct_of_noi); null without one. */
    propertyAnnualCost(ownerId: string, propertyId: string): Promise<PropertyAnnualCost | null> {
      return fresh.answer(ownerId, 'property-annual', [propertyId], null, undefined, async () => {
        const row = await repo.propertyAnnual(ownerId, propertyId);
        return row === null ? null : propertyAnnualOf(row);
      });
    },

    /** POST /pm/due-diligence (tier checked by the route). */
    dueDiligence: createDueDiligence({ ...deps, repo }),

    requestRecompute: deps.requests.requestRecompute,
    sweep: deps.requests.sweep,

    /** The cost-rollup job. */
    async processRollup(job: CostRollupJob): Promise<RecomputeResult | null> {
      if (job.full) return recomputer.recompute(job.owner_id, { full: true });
      if (job.version !== undefined) {
        const { version } = await repo.freshness(job.owner_id);
        // A newer write queued its own job behind this one (same ordering key).
        if (version > job.version) return null;
      }
      return fresh.recomputeShared(job.owner_id, job.version);
    },

    /** Recomputes now (tests, bench and operators; jobs go through processRollup). */
    recompute: (ownerId: string, opts?: { full?: boolean; atLeast?: number }) => recomputer.recompute(ownerId, opts),
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
