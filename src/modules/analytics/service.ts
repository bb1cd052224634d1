import type { z } from 'zod';
import type { Db } from '../../platform/db/client';
import type { Logger } from '../../platform/logger';
import { roundDiv } from '../../platform/money';
import { VersionedCache } from '../../platform/versioned-cache';
import { deepFreeze } from '../../platform/deep-freeze';
import type { PortfolioService } from '../portfolios/service';
import { fromScaled, metricValue, rankBenchmarks } from './benchmarks.calc';
import { createDueDiligence, type DueDiligenceDeps } from './due-diligence';
import type { costRollupJobPayload, costRollupSweepPayload } from './job-payload';
import { monthEndDate, monthIndexOf, monthKey, monthStartDate, monthsEndingWith, type MonthIndex } from './months';
import { createRecomputer, type RecomputeResult } from './recompute';
import { createAnalyticsRepository, type Freshness } from './repository';
import type { BenchmarksQuery, CostTrendQuery, HealthQuery } from './schemas';
import { meanCents, trendDirection } from './trend.calc';
import type { DashboardStatsBase } from './snapshot.calc';

export type CostRollupJob = z.output<typeof costRollupJobPayload>;
export type CostRollupSweep = z.output<typeof costRollupSweepPayload>;

export interface AnalyticsServiceDeps extends Omit<DueDiligenceDeps, 'repo'> {
  db: Db;
  now: () => Date;
  logger: Logger;
  portfolios: Pick<PortfolioService, 'requireOwned'>;
  enqueue(job: CostRollupJob, opts: { jobId: string; orderingKey: string }): Promise<unknown>;
  /**
   * Embedded database only (Database.listenInProcess): notifications delivered before the notifying
   * write resolves, which lets reads skip the per-request freshness query while nothing changed.
   */
  listenInProcess?(channel: string, onNotify: (payload: string) => void): Promise<void>;
}

/** Answers kept per process, keyed by owner, data version and month: a write moves the version. */
const CACHE_ENTRIES = 2_000;
const CACHE_TTL_MS = 10 * 60_000;
/** Writes queue the owner's job at most this often (per process), so a burst of writes is one recompute. */
const WRITE_DEBOUNCE_MS = 1000;
/** Months of portfolio analytics. */
const PORTFOLIO_MONTHS = 12;

/**
 * What a read that found its precomputed data stale waited for: milliseconds, and the properties the
 * recompute rebuilt (`all`, a count, or `none` when another caller's recompute had done the work).
 */
export interface RecomputeTiming {
  ms: number;
  properties: number | 'all' | 'none';
}
export type OnRecompute = (timing: RecomputeTiming) => void;

/** Job ids and ordering keys avoid ':' (BullMQ reserves it). */
const orderingKeyOf = (ownerId: string) => `cost-rollup.owner.${ownerId}`;

export function createAnalyticsService(deps: AnalyticsServiceDeps) {
  const repo = createAnalyticsRepository(deps.db);
  const recomputer = createRecomputer(deps);
  const cache = new VersionedCache<unknown>(CACHE_TTL_MS, CACHE_ENTRIES);
  const inflight = new Map<string, Promise<RecomputeResult>>();
  const dueDiligence = createDueDiligence({ ...deps, repo });
  const debounced = new Map<string, NodeJS.Timeout>();

  /*
   * Embedded database only: the owner's data version and unread count known to be current, each
   * dropped by the triggers' NOTIFY (analytics_owner_changed / analytics_alerts_changed), which
   * the in-process database delivers before the write that caused it resolves. A value read from
   * the database is trusted only if no notification for that owner arrived meanwhile (generation).
   */
  let live = false;
  const trustedVersions = new Map<string, { version: number; month: MonthIndex }>();
  const trustedUnread = new Map<string, number>();
  const versionGenerations = new Map<string, number>();
  const alertGenerations = new Map<string, number>();
  const bump = (gens: Map<string, number>, key: string) => gens.set(key, (gens.get(key) ?? 0) + 1);
  if (deps.listenInProcess) {
    Promise.all([
      deps.listenInProcess('analytics_owner_changed', (ownerId) => {
        bump(versionGenerations, ownerId);
        trustedVersions.delete(ownerId);
      }),
      deps.listenInProcess('analytics_alerts_changed', (userId) => {
        bump(alertGenerations, userId);
        trustedUnread.delete(userId);
      }),
    ]).then(() => { live = true; }, (err: unknown) => deps.logger.warn({ err }, 'analytics: no in-process notifications, reads query freshness'));
  }

  /** Queues the owner's cost-rollup job, keyed by the data version it is queued for. */
  function enqueueVersion(ownerId: string, version: number): Promise<unknown> {
    return deps.enqueue({ owner_id: ownerId, version }, {
      jobId: `cost-rollup.owner.${ownerId}.v${version}`, orderingKey: orderingKeyOf(ownerId),
    });
  }

  /** Queues the owner's cost-rollup job for its current data version. */
  async function enqueueRecompute(ownerId: string): Promise<void> {
    try {
      await enqueueVersion(ownerId, (await repo.freshness(ownerId)).version);
    } catch (err) {
      // The write is saved; reads recompute on their own and the scheduler sweeps changed owners.
      deps.logger.warn({ err, ownerId }, 'could not queue analytics recompute');
    }
  }

  /**
   * One recompute of an owner at a time per process; callers arriving meanwhile share it (and
   * check that it covered the version they need). `atLeast`: see Recomputer.recompute.
   */
  function recomputeShared(ownerId: string, atLeast?: number): Promise<RecomputeResult> {
    let running = inflight.get(ownerId);
    if (!running) {
      running = recomputer.recompute(ownerId, { atLeast }).finally(() => inflight.delete(ownerId));
      inflight.set(ownerId, running);
    }
    return running;
  }

  /**
   * Read-your-writes: a snapshot older than the owner's data version (or of another month) is
   * recomputed before answering. A shared recompute that read an older version than this
   * caller saw is not enough, so it recomputes again until one covers what the caller saw.
   */
  async function freshVersion(ownerId: string, seen: Freshness, onRecompute?: OnRecompute): Promise<{ version: number; month: MonthIndex }> {
    const month = monthIndexOf(deps.now());
    if (seen.snapshotVersion === seen.version && seen.snapshotMonth === month) return { version: seen.version, month };
    const started = performance.now();
    for (;;) {
      const done = await recomputeShared(ownerId, seen.version);
      if (done.version >= seen.version && done.month >= month) {
        onRecompute?.({
          ms: Math.round(performance.now() - started),
          properties: !done.recomputed ? 'none' : done.scope === null ? 'all' : done.scope.length,
        });
        return { version: done.version, month: done.month };
      }
    }
  }

  /** The owner's fresh data version and month: trusted in-process when possible, else checked (and recomputed). */
  async function currentVersion(ownerId: string, onRecompute?: OnRecompute): Promise<{ version: number; month: MonthIndex }> {
    const month = monthIndexOf(deps.now());
    const trust = live;
    const generation = versionGenerations.get(ownerId) ?? 0;
    const known = trust ? trustedVersions.get(ownerId) : undefined;
    if (known && known.month === month) return known;
    const fresh = await freshVersion(ownerId, await repo.freshness(ownerId), onRecompute);
    if (trust && (versionGenerations.get(ownerId) ?? 0) === generation) trustedVersions.set(ownerId, fresh);
    return fresh;
  }

  /** An answer of the owner's data at (version, month), cached until a newer version's answer replaces it. */
  async function cached<T>(ownerId: string, version: number, month: MonthIndex, key: string, build: () => Promise<T>): Promise<T> {
    const hit = cache.get(key) as T | undefined;
    if (hit !== undefined) return hit;
    // Frozen: the same object answers many requests.
    const value = deepFreeze(await build());
    cache.set(ownerId, month * 2 ** 32 + version, key, value);
    return value;
  }

  /** Fresh version plus a cached answer; `portfolioId` is checked to be the owner's (404) on a miss. */
  async function answer<T>(
    ownerId: string, kind: string, params: unknown[], portfolioId: string | null, onRecompute: OnRecompute | undefined,
    build: (month: MonthIndex) => Promise<T>,
  ): Promise<T> {
    const { version, month } = await currentVersion(ownerId, onRecompute);
    // A cached answer for a portfolio implies it was the owner's at this version; deleting or
    // moving a portfolio moves the version.
    return cached(ownerId, version, month, JSON.stringify([kind, ownerId, version, month, portfolioId, ...params]), async () => {
      if (portfolioId !== null) await deps.portfolios.requireOwned(ownerId, portfolioId);
      return build(month);
    });
  }

  async function aggregates(ownerId: string) {
    const found = await repo.aggregates(ownerId);
    if (!found) throw new Error(`analytics snapshot of ${ownerId} missing after recompute`);
    return found;
  }

  return {
    /** GET /pm/dashboard/stats: the precomputed stats, with the unread alerts counted live. */
    async stats(ownerId: string, onRecompute?: OnRecompute) {
      const month = monthIndexOf(deps.now());
      const trust = live;
      const generation = versionGenerations.get(ownerId) ?? 0;
      const alertGeneration = alertGenerations.get(ownerId) ?? 0;
      let known = trust ? trustedVersions.get(ownerId) : undefined;
      let unread = trust ? trustedUnread.get(ownerId) : undefined;
      if (!known || known.month !== month || unread === undefined) {
        const seen = await repo.freshnessAndUnread(ownerId);
        unread = seen.unread;
        if (trust && (alertGenerations.get(ownerId) ?? 0) === alertGeneration) trustedUnread.set(ownerId, unread);
        known = await freshVersion(ownerId, seen, onRecompute);
        if (trust && (versionGenerations.get(ownerId) ?? 0) === generation) trustedVersions.set(ownerId, known);
      }
      const { version } = known;
      const asOf = known.month;
      // The answer is cached per version and unread count.
      return cached(ownerId, version, asOf, JSON.stringify(['stats-answer', ownerId, version, asOf, unread]), async () => {
        const base = await cached<DashboardStatsBase>(ownerId, version, asOf, JSON.stringify(['stats', ownerId, version, asOf]),
          async () => (await aggregates(ownerId)).stats);
        return {
          total_properties: base.total_properties,
          total_portfolios: base.total_portfolios,
          total_sqft: base.total_sqft,
          total_monthly_cost: base.total_monthly_cost,
          total_annual_cost: base.total_annual_cost,
          avg_cost_per_sqft: base.avg_cost_per_sqft,
          avg_cost_per_kwh: base.avg_cost_per_kwh,
          properties_with_savings: base.properties_with_savings,
          total_potential_savings: base.total_potential_savings,
          alerts_unread: unread,
          bills_this_month: base.bills_this_month,
        };
      });
    },

    /** GET /pm/dashboard/cost-trend: actual calendarised cost of the N months ending with this one. */
    costTrend(ownerId: string, q: CostTrendQuery, onRecompute?: OnRecompute) {
      const portfolioId = q.portfolio_id ?? null;
      return answer(ownerId, 'trend', [q.months], portfolioId, onRecompute, async (month) => {
        const window = monthsEndingWith(month, q.months);
        const rows = new Map((await repo.monthlyTotals(ownerId, window[0]!, month, portfolioId)).map((r) => [r.month, r]));
        const months = window.map((m, x) => ({ x, m, row: rows.get(m) }));
        const billed = months.filter((p) => (p.row?.properties ?? 0) > 0).map((p) => ({ x: p.x, y: p.row!.cents }));
        return {
          months: months.map(({ m, row }) => ({
            month: monthKey(m),
            total_cost: (row?.cents ?? 0) / 100,
            total_kwh: (row?.kwhMilli ?? 0) / 1000,
            property_count: row?.properties ?? 0,
          })),
          trend_direction: trendDirection(billed),
          avg_monthly_cost: meanCents(billed) / 100,
        };
      });
    },

    /** GET /pm/dashboard/global-analytics. */
    globalAnalytics(ownerId: string, onRecompute?: OnRecompute) {
      return answer(ownerId, 'global', [], null, onRecompute, async () => {
        // Stored as jsonb (which orders keys its own way): presented in the documented order.
        const g = (await aggregates(ownerId)).global;
        return {
          total_properties: g.total_properties,
          total_portfolios: g.total_portfolios,
          total_annual_cost: g.total_annual_cost,
          total_annual_kwh: g.total_annual_kwh,
          avg_cost_per_kwh: g.avg_cost_per_kwh,
          avg_cost_per_sqft: g.avg_cost_per_sqft,
          cost_by_state: g.cost_by_state.map((c) => ({ state: c.state, annual_cost: c.annual_cost, property_count: c.property_count })),
          cost_by_property_type: g.cost_by_property_type.map((c) => ({
            type: c.type, annual_cost: c.annual_cost, property_count: c.property_count,
          })),
          total_potential_savings: g.total_potential_savings,
          properties_with_savings: g.properties_with_savings,
        };
      });
    },

    /** GET /pm/portfolios/{id}/analytics: actual cost of the 12 months ending with this one, and savings on offer. */
    async portfolioAnalytics(ownerId: string, portfolioId: string, onRecompute?: OnRecompute) {
      // 404 before anything else: another owner's portfolio is not found, cached or not. Checked
      // here, so the portfolio is a key of the answer (params) rather than checked again on a miss.
      await deps.portfolios.requireOwned(ownerId, portfolioId);
      return answer(ownerId, 'portfolio', [portfolioId], null, onRecompute, async (month) => {
        const window = monthsEndingWith(month, PORTFOLIO_MONTHS);
        const from = window[0]!;
        const [totals, props] = await Promise.all([
          repo.monthlyTotals(ownerId, from, month, portfolioId),
          repo.portfolioProperties(ownerId, portfolioId, from, month),
        ]);
        const byMonth = new Map(totals.map((r) => [r.month, r]));
        const cents = totals.reduce((s, r) => s + r.cents, 0);
        const milli = totals.reduce((s, r) => s + r.kwhMilli, 0);
        const withSavings = props.filter((p) => (p.savings_cents ?? 0) > 0);
        const top = withSavings.reduce<(typeof props)[number] | null>(
          (best, p) => (best === null || p.savings_cents! > best.savings_cents! ? p : best), null,
        );
        return {
          portfolio_id: portfolioId,
          period: `${monthStartDate(from)}/${monthEndDate(month)}`,
          total_cost: cents / 100,
          total_usage_kwh: milli / 1000,
          // $/kWh to 4 decimals: cents x 10^5 / Wh ten-thousandths; 0 without kWh (as portfolio detail)
          avg_rate_per_kwh: milli === 0 ? 0 : roundDiv(BigInt(cents) * 100_000n, milli) / 10_000,
          cost_by_month: window.map((m) => ({
            month: monthKey(m), cost: (byMonth.get(m)?.cents ?? 0) / 100, usage_kwh: (byMonth.get(m)?.kwhMilli ?? 0) / 1000,
          })),
          cost_by_property: [...props]
            .sort((a, b) => b.cents - a.cents)
            .map((p) => ({ property_id: p.property_id, name: p.name, annual_cost: p.cents / 100 })),
          potential_savings: {
            total_annual: withSavings.reduce((s, p) => s + p.savings_cents!, 0) / 100,
            properties_with_savings: withSavings.length,
            top_opportunity: top === null ? null : {
              property_id: top.property_id,
              current_tariff: top.current_tariff_id,
              recommended_tariff: top.recommended_tariff_id!,
              annual_savings: top.savings_cents! / 100,
            },
          },
        };
      });
    },

    /** GET /pm/properties/health: summary over the scope (owner or portfolio), properties filtered by status. */
    health(ownerId: string, q: HealthQuery, onRecompute?: OnRecompute) {
      const portfolioId = q.portfolio_id ?? null;
      return answer(ownerId, 'health', [q.status ?? null], portfolioId, onRecompute, async () => {
        const rows = await repo.healthRows(ownerId, portfolioId);
        const summary = { green: 0, yellow: 0, red: 0, total: rows.length };
        for (const r of rows) summary[r.status]++;
        const listed = q.status ? rows.filter((r) => r.status === q.status) : rows;
        return {
          summary,
          properties: listed.map((r) => ({
            property_id: r.property_id, name: r.name, status: r.status, score: r.score, issues: r.issues,
          })),
        };
      });
    },

    /** GET /pm/analytics/benchmarks (tier checked by the route). */
    benchmarks(ownerId: string, q: BenchmarksQuery, onRecompute?: OnRecompute) {
      const portfolioId = q.portfolio_id ?? null;
      return answer(ownerId, 'benchmarks', [q.metric], portfolioId, onRecompute, async () => {
        const rows = await repo.benchmarkRows(ownerId, portfolioId);
        const items = rows.flatMap((r) => {
          const value = metricValue(q.metric, {
            annualCents: r.annual_cost_cents, annualKwhMilli: r.annual_kwh_milli, sqft: r.sqft, unitCount: r.unit_count,
          });
          return value === null || r.basis === null ? [] : [{ item: r, value }];
        });
        const ranked = rankBenchmarks(items);
        const scaled = (v: number | null) => (v === null ? null : fromScaled(v));
        return {
          metric: q.metric,
          portfolio_avg: scaled(ranked.average),
          portfolio_median: scaled(ranked.median),
          rankings: ranked.rankings.map((r) => ({
            property_id: r.item.property_id,
            name: r.item.name,
            value: fromScaled(r.value),
            percentile: r.percentile,
            outlier: r.outlier,
            basis: r.item.basis!,
          })),
          outlier_threshold: scaled(ranked.outlierThreshold),
          outlier_count: ranked.outlierCount,
        };
      });
    },

    /** POST /pm/due-diligence (tier checked by the route). */
    dueDiligence,

    /**
     * After a write that changes what analytics show: queue the owner's recompute. Debounced per
     * owner and process (trailing edge): the job is queued once a second at most, with the data
     * version read when it is queued, so it covers every write before it.
     */
    async requestRecompute(ownerId: string): Promise<void> {
      if (debounced.has(ownerId)) return;
      const timer = setTimeout(() => {
        debounced.delete(ownerId);
        void enqueueRecompute(ownerId);
      }, WRITE_DEBOUNCE_MS);
      // Never keeps a process alive: a write whose job is lost to a shutdown is caught by the next sweep.
      timer.unref();
      debounced.set(ownerId, timer);
    },

    /** The cost-rollup job. */
    async processRollup(job: CostRollupJob): Promise<RecomputeResult | null> {
      if (job.full) return recomputer.recompute(job.owner_id, { full: true });
      if (job.version !== undefined) {
        const { version } = await repo.freshness(job.owner_id);
        // A newer write queued its own job behind this one (same ordering key).
        if (version > job.version) return null;
      }
      return recomputeShared(job.owner_id, job.version);
    },

    /** The cost-rollup-sweep job: queues the owners whose data changed, or (nightly) every owner. */
    async sweep(job: CostRollupSweep): Promise<number> {
      const owners = job.scope === 'changed' ? await repo.changedOwners() : await repo.allOwners();
      for (const { ownerId, version } of owners) {
        if (job.scope === 'changed') {
          await enqueueVersion(ownerId, version);
        } else {
          await deps.enqueue({ owner_id: ownerId, full: true }, {
            jobId: `cost-rollup.owner.${ownerId}.full.${job.day.replace(/-/g, '')}`, orderingKey: orderingKeyOf(ownerId),
          });
        }
      }
      if (owners.length > 0) deps.logger.info({ scope: job.scope, owners: owners.length }, 'queued analytics recomputes');
      return owners.length;
    },

    /** Recomputes now (tests, bench and operators; jobs go through processRollup). */
    recompute: (ownerId: string, opts?: { full?: boolean; atLeast?: number }) => recomputer.recompute(ownerId, opts),
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
