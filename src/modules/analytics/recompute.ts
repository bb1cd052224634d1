import type { Db } from '../../platform/db/client';
import type { Logger } from '../../platform/logger';
import { annualCost, type MonthTotals } from './annual-cost.calc';
import { ANOMALY_TRAILING_MONTHS, HEALTH_WINDOW_MONTHS, healthScore } from './health-score.calc';
import { calendariseMonths, type BillAmounts } from './calendarise.calc';
import { monthIndexOf, monthKey, type MonthIndex } from './months';
import {
  createRecomputeRepository, type BillRow, type MetricsInputRow, type MetricsRow, type RebuildScope, type RollupRow,
} from './recompute-repository';
import type { PropertyMark } from './repository';
import { MAX_TREND_MONTHS } from './schemas';

/** Months kept in the rollup table: the longest trend ending with the current month. */
const ROLLUP_MONTHS = MAX_TREND_MONTHS;
/** Months the metrics read: the 12 of the health window plus the 6 before its first month (the anomaly's trailing months). */
const METRICS_MONTHS = HEALTH_WINDOW_MONTHS + ANOMALY_TRAILING_MONTHS;
/**
 * Marked properties up to which a recompute rebuilds only those; past it (a bulk import), the
 * whole owner, whose bills and rollups are then read and replaced by owner instead of by a list
 * of thousands of property ids.
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

/** The rollup windows of the marked properties: the months each mark names inside from..to (a mark without months rebuilds none). */
function rebuildWindows(marks: PropertyMark[], from: MonthIndex, to: MonthIndex): RebuildScope {
  return marks.flatMap((m) => {
    if (m.rollupFrom === null || m.rollupTo === null) return [];
    const window = { id: m.id, from: Math.max(m.rollupFrom, from), to: Math.min(m.rollupTo, to) };
    return window.from <= window.to ? [window] : [];
  });
}

/** The monthly rollups of the bills read for a rebuild: calendarise.calc.ts's months of each property, inside its window. */
function rollupsOf(bills: BillRow[], scope: RebuildScope, from: MonthIndex, to: MonthIndex): RollupRow[] {
  const byProperty = new Map<string, BillAmounts[]>();
  for (const b of bills) {
    const amounts = { periodStart: b.period_start, periodEnd: b.period_end, cents: Number(b.cents), kwhMilli: Number(b.kwh_milli) };
    const list = byProperty.get(b.property_id);
    if (list) list.push(amounts);
    else byProperty.set(b.property_id, [amounts]);
  }
  const windows = new Map((scope ?? []).map((w) => [w.id, w]));
  const rows: RollupRow[] = [];
  for (const [propertyId, list] of byProperty) {
    const window = windows.get(propertyId) ?? { from, to };
    for (const m of calendariseMonths(list, window)) rows.push({ propertyId, ...m });
  }
  return rows;
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
        const from = month - ROLLUP_MONTHS + 1;
        const windows = marks === null ? null : rebuildWindows(marks, from, month);
        if (windows === null || windows.length > 0) {
          const bills = await statements.readBills(ownerId, windows, from, month);
          await statements.replaceRollups(ownerId, windows, rollupsOf(bills, windows, from, month));
        }
        const inputs = scope === null || scope.length > 0 ? await statements.readMetricsInputs(ownerId, scope, month - METRICS_MONTHS + 1) : [];
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
