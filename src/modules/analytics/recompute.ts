import type { Db } from '../../platform/db/client';
import { utcDay } from '../../platform/dates';
import type { Logger } from '../../platform/logger';
import { usageMilliOf, type MeterUtilityType } from '../meters/units';
import { annualCosts, type UtilityMonth } from './annual-cost.calc';
import { HEALTH_HISTORY_MONTHS, healthScore, historyStart, type MeterBill, type MeterHistory, type TariffAge } from './health-score.calc';
import { isStale } from '../tariffs/tariff-notices';
import { calendariseMonths, type BillAmounts, type MonthTotals } from './calendarise.calc';
import { monthIndexOfDate, type MonthIndex } from './months';
import {
  createRecomputeRepository,
  type BillRow,
  type MetricsInputRow,
  type MetricsRow,
  type RebuildScope,
  type RollupRow,
} from './recompute-repository';
import type { PropertyMark } from './repository';
import { emissionsYearOf, propertyExposure, type ExposureFields } from './exposure';
import type { Executor } from '../../platform/db/client';
import type { NewNotification } from '../notifications/public';
import { MAX_TREND_MONTHS } from './schemas';

/** Months kept in the rollup table: the longest trend ending with the current month. */
const ROLLUP_MONTHS = MAX_TREND_MONTHS;
/** Months the metrics read: the health score's history (24 complete months and the current one), which holds the annual cost's 12. */
const METRICS_MONTHS = HEALTH_HISTORY_MONTHS;
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

/** The months of a property's series, by utility type. */
function utilityMonths(row: MetricsInputRow): UtilityMonth[] {
  return (row.series ?? []).map(([month, utilityType, cents, usageMilli, billedDays]) => ({
    month,
    utilityType: utilityType as MeterUtilityType,
    cents: Number(cents),
    usageMilli: Number(usageMilli),
    billedDays: Number(billedDays),
  }));
}

/** A tariff's age as the health score judges it on `today`: expired before it, or stale (null without a tariff). */
function tariffAge(id: string | null, expiration: string | null, effective: string | null, today: string): TariffAge | null {
  if (id === null) return null;
  const expiredOn = expiration !== null && expiration < today ? expiration : null;
  return { id, expiredOn, stale: isStale({ effectiveDate: effective }, today) };
}

/** The property's meters with their recent bills (usage in the type's common unit). */
function meterHistories(row: MetricsInputRow, today: string): MeterHistory[] {
  const meters = row.meters ?? [];
  const typeOf = new Map(meters.map(([id, , type]) => [id, type as MeterUtilityType]));
  const billsOf = new Map<string, MeterBill[]>();
  for (const [meterId, periodStart, periodEnd, cents, usage, unit, isEstimated] of row.bills ?? []) {
    const usageMilli = usage === null ? null : usageMilliOf(typeOf.get(meterId)!, usage, unit);
    const list = billsOf.get(meterId);
    const bill = { periodStart, periodEnd, cents: Number(cents), usageMilli, isEstimated };
    if (list) list.push(bill);
    else billsOf.set(meterId, [bill]);
  }
  return meters.map(([id, name, , isActive, tariffId, expiration, effective]) => ({
    name,
    isActive,
    tariff: tariffAge(tariffId, expiration, effective, today),
    bills: billsOf.get(id) ?? [],
  }));
}

/** The metrics row of one property: annual cost per utility type and basis, savings, health score. */
function propertyMetrics(row: MetricsInputRow, asOf: MonthIndex, today: string): Omit<MetricsRow, keyof ExposureFields> {
  const months = utilityMonths(row);
  const estimateCents = unitsOrNull(row.annual_energy_cost, 2);
  const monthlyUsageMilli = unitsOrNull(row.monthly_usage_kwh, 3);
  const savingsCents = unitsOrNull(row.annual_savings, 2);
  const annual = annualCosts({ months, asOf, estimateCents, monthlyUsageMilli });
  const health = healthScore({
    asOf,
    today,
    tariff: tariffAge(row.tariff_id, row.tariff_expiration_date, row.tariff_effective_date, today),
    hasUsage: monthlyUsageMilli !== null,
    hasSqft: row.sqft !== null && row.sqft > 0,
    months: propertyTotals(months),
    meters: meterHistories(row, today),
    savingsCents,
    estimateCents,
    auditHigh: { open: row.audit_high_open ?? 0, amountCents: Number(row.audit_high_cents ?? 0) },
  });
  return {
    property_id: row.id,
    annual_cost_cents: annual.cents,
    annual_kwh_milli: annual.kwhMilli,
    basis: annual.basis,
    annual_by_utility: annual.byUtility.map((u) => [u.utilityType, u.cents, u.usageMilli, u.basis]),
    savings_cents: savingsCents,
    current_tariff_id: row.current_tariff_id,
    recommended_tariff_id: row.recommended_tariff_id,
    health_score: health.score,
    health_status: health.status,
    health_issues: health.issues,
  };
}

/** A property's months over all its utility types: costs summed, a month's billed days those of its most-billed type. */
function propertyTotals(months: UtilityMonth[]): MonthTotals[] {
  const byMonth = new Map<MonthIndex, MonthTotals>();
  for (const m of months) {
    const t = byMonth.get(m.month);
    if (t) {
      t.cents += m.cents;
      t.billedDays = Math.max(t.billedDays, m.billedDays);
    } else byMonth.set(m.month, { month: m.month, cents: m.cents, usageMilli: 0, billedDays: m.billedDays });
  }
  return [...byMonth.values()].sort((a, b) => a.month - b.month);
}

/** The rollup windows of the marked properties: the months each mark names inside from..to (a mark without months rebuilds none). */
function rebuildWindows(marks: PropertyMark[], from: MonthIndex, to: MonthIndex): RebuildScope {
  return marks.flatMap((m) => {
    if (m.rollupFrom === null || m.rollupTo === null) return [];
    const window = { id: m.id, from: Math.max(m.rollupFrom, from), to: Math.min(m.rollupTo, to) };
    return window.from <= window.to ? [window] : [];
  });
}

/**
 * The monthly rollups of the bills read for a rebuild: calendarise.calc.ts's months of each
 * property and utility type, inside the property's window, usage in the type's common unit.
 */
function rollupsOf(bills: BillRow[], scope: RebuildScope, from: MonthIndex, to: MonthIndex): RollupRow[] {
  const groups = new Map<string, { propertyId: string; utilityType: MeterUtilityType; bills: BillAmounts[] }>();
  for (const b of bills) {
    const type = b.utility_type as MeterUtilityType;
    const usageMilli = b.usage === null ? 0 : usageMilliOf(type, b.usage, b.unit);
    const amounts = { periodStart: b.period_start, periodEnd: b.period_end, cents: Number(b.cents), usageMilli };
    const key = `${b.property_id}\u0000${type}`;
    const group = groups.get(key);
    if (group) group.bills.push(amounts);
    else groups.set(key, { propertyId: b.property_id, utilityType: type, bills: [amounts] });
  }
  const windows = new Map((scope ?? []).map((w) => [w.id, w]));
  const rows: RollupRow[] = [];
  for (const { propertyId, utilityType, bills: list } of groups.values()) {
    const window = windows.get(propertyId) ?? { from, to };
    for (const m of calendariseMonths(list, window)) rows.push({ propertyId, utilityType, ...m });
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

export interface RecomputerDeps {
  db: Db;
  now: () => Date;
  logger: Logger;
  metricsBatch?: number;
  /** Creates notifications (skipping those whose dedupe key exists) in the recompute's transaction. */
  notifyMany(list: NewNotification[], executor: Executor): Promise<void>;
}

export function createRecomputer(deps: RecomputerDeps): Recomputer {
  return {
    recompute: (ownerId, opts = {}) =>
      deps.db.transaction(async (tx) => {
        const statements = createRecomputeRepository(tx, { metricsBatch: deps.metricsBatch });
        const state = await statements.lockOwnerAndReadMarks(ownerId);
        const month = monthIndexOfDate(utcDay(deps.now()));
        if (
          !opts.full &&
          state.snapshotVersion !== null &&
          state.snapshotMonth === month &&
          state.snapshotVersion >= (opts.atLeast ?? state.version)
        ) {
          return { version: state.snapshotVersion, month, recomputed: false, scope: [] };
        }
        const started = performance.now();
        const full =
          opts.full === true || state.snapshotVersion === null || state.snapshotMonth !== month || state.dirty.length > MAX_SCOPED_MARKS;
        const marks = full ? null : state.dirty;
        const scope = marks === null ? null : marks.map((m) => m.id);
        const from = month - ROLLUP_MONTHS + 1;
        const windows = marks === null ? null : rebuildWindows(marks, from, month);
        if (windows === null || windows.length > 0) {
          const bills = await statements.readBills(ownerId, windows, from, month);
          await statements.replaceRollups(ownerId, windows, rollupsOf(bills, windows, from, month));
        }
        const inputs =
          scope === null || scope.length > 0
            ? await statements.readMetricsInputs(ownerId, scope, month - METRICS_MONTHS + 1, historyStart(month))
            : [];
        const today = utcDay(deps.now());
        const exposures = inputs.map((row) => propertyExposure(ownerId, row, month));
        await statements.replaceMetricsAndStoreSnapshot(
          ownerId,
          scope,
          inputs.map((row, i) => ({ ...propertyMetrics(row, month, today), ...exposures[i]!.fields })),
          { version: state.version, month, emissionsYear: emissionsYearOf(month), now: deps.now() },
        );
        // Committed with the exposure that raised them: a penalty that appears is notified once.
        await deps.notifyMany(
          exposures.flatMap((e) => (e.notification ? [e.notification] : [])),
          tx,
        );
        deps.logger.debug(
          {
            ownerId,
            version: state.version,
            properties: scope === null ? 'all' : scope.length,
            ms: Math.round(performance.now() - started),
          },
          'analytics recomputed',
        );
        return { version: state.version, month, recomputed: true, scope };
      }),
  };
}
