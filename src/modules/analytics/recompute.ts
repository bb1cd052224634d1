import type { Db } from '../../platform/db/client';
import type { Logger } from '../../platform/logger';
import { annualCost, type MonthTotals } from './annual-cost.calc';
import { ANOMALY_TRAILING_MONTHS, HEALTH_WINDOW_MONTHS, healthScore } from './health-score.calc';
import { monthIndexOf, monthKey, type MonthIndex } from './months';
import { createRecomputeRepository, type MetricsInputRow, type MetricsRow } from './recompute-repository';
import { MAX_TREND_MONTHS } from './schemas';

/** Months kept in the rollup table: the longest trend ending with the current month. */
const ROLLUP_MONTHS = MAX_TREND_MONTHS;
/** Months the metrics read: the 12 of the health window plus the 6 before its first month (the anomaly's trailing months). */
const METRICS_MONTHS = HEALTH_WINDOW_MONTHS + ANOMALY_TRAILING_MONTHS;
/**
 * Marked properties up to which a recompute rebuilds only those; past it, the whole owner. The
 * statements' plans do not know how many properties are in scope (recompute-repository.ts: plan
 * stability) and are made for a few; a scope of thousands (a bulk import) on such a plan joined
 * every marked property with every row of the owner (minutes, for 10,000 properties).
 */
export const MAX_SCOPED_MARKS = 50;

/** An exact decimal string (a numeric column) as an integer count of 10^-places units. */
function decimalUnits(value: string, places: number): number {
  const [whole, fraction = ''] = value.split('.');
  const negative = whole!.startsWith('-');
  const units = BigInt(whole!.replace('-', '') + fraction.padEnd(places, '0').slice(0, places));
  return Number(negative ? -units : units);
}

const unitsOrNull = (v: string | null, places: number) => (v === null ? null : decimalUnits(v, places));

/** The metrics row of one property: annual cost and basis (benchmarks), savings, health score. */
function propertyMetrics(row: MetricsInputRow, asOf: MonthIndex): MetricsRow {
  const months: MonthTotals[] = (row.series ?? []).map(([month, cents, kwhMilli, billedDays]) => ({
    month, cents: Number(cents), kwhMilli: Number(kwhMilli), billedDays: Number(billedDays),
  }));
  const estimateCents = unitsOrNull(row.annual_energy_cost, 2);
  const monthlyUsageMilli = unitsOrNull(row.monthly_usage_kwh, 3);
  const savingsCents = unitsOrNull(row.annual_savings, 2);
  const annual = annualCost({ months, asOf, estimateCents, monthlyUsageMilli });
  const health = healthScore({
    asOf,
    hasTariff: row.tariff_id !== null,
    // Expired before the month the metrics are for (the metrics are recomputed at least once a month).
    tariffExpiredOn: row.tariff_expiration_date !== null && row.tariff_expiration_date < monthKey(asOf) ? row.tariff_expiration_date : null,
    hasUsage: monthlyUsageMilli !== null,
    hasSqft: row.sqft !== null && row.sqft > 0,
    months,
    savingsCents,
    estimateCents,
  });
  return {
    property_id: row.id,
    annual_cost_cents: annual?.cents ?? null,
    annual_kwh_milli: annual?.kwhMilli ?? null,
    basis: annual?.basis ?? null,
    savings_cents: savingsCents,
    current_tariff_id: row.current_tariff_id,
    recommended_tariff_id: row.recommended_tariff_id,
    health_score: health.score,
    health_status: health.status,
    health_issues: health.issues,
  };
}

export interface RecomputeResult {
  version: number;
  month: MonthIndex;
  /** False when the snapshot was already current (nothing written). */
  recomputed: boolean;
  /** Properties whose rollups and metrics were rebuilt; null for all of them. */
  scope: string[] | null;
}

export interface Recomputer {
  /**
   * Brings the owner's precomputed analytics up to the data version it reads, in one transaction
   * under a per-owner advisory lock (so two processes never recompute one owner at once, and a
   * second caller waits and then finds the work done). Incremental: only the properties marked
   * since the last run are rebuilt, and of their rollups only the months the marks name, unless
   * `full`, no snapshot exists yet or the month changed (the windows moved), when every month of
   * every property is.
   *
   * `atLeast`: the data version the caller needs covered (what it read before asking). A snapshot
   * of this month at that version or newer is enough, even if writes moved the owner's version on
   * since: another process's recompute, which this call waited for on the lock, then answers
   * instead of a second one right behind it. Without it the snapshot must be fully current.
   */
  recompute(ownerId: string, opts?: { full?: boolean; atLeast?: number }): Promise<RecomputeResult>;
}

export function createRecomputer(deps: { db: Db; now: () => Date; logger: Logger; metricsBatch?: number }): Recomputer {
  return {
    recompute: (ownerId, opts = {}) =>
      deps.db.transaction(async (tx) => {
        const statements = createRecomputeRepository(tx, { metricsBatch: deps.metricsBatch });
        const state = await statements.lockOwnerAndReadMarks(ownerId);
        const month = monthIndexOf(deps.now());
        if (!opts.full && state.snapshotVersion !== null && state.snapshotMonth === month
          && state.snapshotVersion >= (opts.atLeast ?? state.version)) {
          return { version: state.snapshotVersion, month, recomputed: false, scope: [] };
        }
        const started = performance.now();
        const full = opts.full === true || state.snapshotVersion === null || state.snapshotMonth !== month
          || state.dirty.length > MAX_SCOPED_MARKS;
        const marks = full ? null : state.dirty;
        const scope = marks === null ? null : marks.map((m) => m.id);
        const inputs = marks === null || marks.length > 0
          ? await statements.rebuildRollups(ownerId, marks, month - ROLLUP_MONTHS + 1, month, month - METRICS_MONTHS + 1)
          : [];
        await statements.replaceMetricsAndStoreSnapshot(ownerId, scope, inputs.map((row) => propertyMetrics(row, month)), {
          version: state.version, month, now: deps.now(),
        });
        deps.logger.debug(
          { ownerId, version: state.version, properties: scope === null ? 'all' : scope.length, ms: Math.round(performance.now() - started) },
          'analytics recomputed',
        );
        return { version: state.version, month, recomputed: true, scope };
      }),
  };
}
