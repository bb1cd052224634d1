import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { rowsOf } from '../../platform/db/errors';
import { viewOfAuditFindings } from '../audit/public';
import { viewOfPortfolios } from '../portfolios/public';
import { viewOfProperties } from '../properties/public';
import { monthStartDate, type MonthIndex } from './months';
import {
  analyticsDirtyProperties,
  analyticsMonthlyRollups,
  analyticsOwnerSnapshots,
  analyticsPropertyMetrics,
  type StoredUtilityCost,
} from './tables';
import type { ExposureFields } from './exposure';
import { toFreshness, type Freshness, type FreshnessRow, type PropertyMark } from './repository';
import {
  billsInScopeSql,
  deleteRollupsSql,
  inScope,
  insertRollupsSql,
  metricsInputsSql,
  param,
  type BillRow,
  type MetricsInputRow,
  type PropertyScope,
  type RebuildScope,
  type RollupRow,
} from './rollups-sql';

export type { BillRow, MetricsInputRow, PropertyScope, RebuildScope, RebuildWindow, RollupRow } from './rollups-sql';

/**
 * The statements of an owner's recompute. Every function takes the recompute's transaction. A
 * scope of null means every property of the owner; otherwise the listed properties (with their
 * windows of months, for the rollups). The calendarisation itself is calendarise.calc.ts's, in
 * recompute.ts: these statements read the bills, store the months and read them back.
 */

/**
 * ownerSums' columns `<name>_cents` and `<name>_quantity`: a ratio's cost and quantity summed over
 * the properties of `p` that have both (quantity > 0). Column names only, never input.
 */
const ratioSumsSql = (cost: string, quantity: string, name: string): SQL =>
  sql.raw(`
  (select coalesce(sum(${cost}), 0) from p where ${cost} is not null and ${quantity} > 0)::text as ${name}_cents,
  (select coalesce(sum(${quantity}), 0) from p where ${cost} is not null and ${quantity} > 0)::text as ${name}_quantity`);

export interface MetricsRow extends ExposureFields {
  property_id: string;
  annual_cost_cents: number | null;
  annual_kwh_milli: number | null;
  basis: string | null;
  annual_by_utility: StoredUtilityCost[];
  savings_cents: number | null;
  current_tariff_id: string | null;
  recommended_tariff_id: string | null;
  health_score: number;
  health_status: string;
  health_issues: string[];
}

/** Rollup rows written per statement (one array parameter per column). */
const ROLLUP_BATCH = 20000;

/** Metrics rows written per statement (one jsonb parameter). */
const METRICS_BATCH = 5000;

/** Metrics rows as a relation, from one jsonb parameter. */
const metricsRecordsSql = (rows: MetricsRow[]): SQL => sql`
  select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(property_id text, annual_cost_cents bigint,
    annual_kwh_milli bigint, basis text, annual_by_utility jsonb, savings_cents bigint, current_tariff_id text, recommended_tariff_id text,
    health_score int, health_status text, health_issues jsonb, emissions_year int, emissions_kg bigint, penalty_period text,
    penalty_cents bigint, penalty_alerts int)`;

/** Writes the rows of the CTE `fresh` as the metrics of their properties. */
const upsertMetricsSql = (ownerId: string): SQL => sql`
  insert into ${analyticsPropertyMetrics} (property_id, owner_id, annual_cost_cents, annual_kwh_milli, basis, annual_by_utility,
    savings_cents, current_tariff_id, recommended_tariff_id, health_score, health_status, health_issues, emissions_year, emissions_kg,
    penalty_period, penalty_cents, penalty_alerts)
  select f.property_id, ${ownerId}, f.annual_cost_cents, f.annual_kwh_milli, f.basis, f.annual_by_utility, f.savings_cents,
    f.current_tariff_id, f.recommended_tariff_id, f.health_score, f.health_status, f.health_issues, f.emissions_year, f.emissions_kg,
    f.penalty_period, f.penalty_cents, f.penalty_alerts
  from fresh f
  on conflict (property_id) do update set owner_id = excluded.owner_id, annual_cost_cents = excluded.annual_cost_cents,
    annual_kwh_milli = excluded.annual_kwh_milli, basis = excluded.basis, annual_by_utility = excluded.annual_by_utility,
    savings_cents = excluded.savings_cents,
    current_tariff_id = excluded.current_tariff_id, recommended_tariff_id = excluded.recommended_tariff_id,
    health_score = excluded.health_score, health_status = excluded.health_status, health_issues = excluded.health_issues,
    emissions_year = excluded.emissions_year, emissions_kg = excluded.emissions_kg, penalty_period = excluded.penalty_period,
    penalty_cents = excluded.penalty_cents, penalty_alerts = excluded.penalty_alerts`;

/** What an owner's stored snapshot is of: the data version read, the month it is as of, the emissions year summed, when. */
export interface SnapshotStamp {
  version: number;
  month: MonthIndex;
  emissionsYear: number;
  now: Date;
}

/**
 * The last statement of replaceMetricsAndStoreSnapshot: writes `rows` (the last batch), deletes the metrics of
 * properties gone, stores the snapshot and clears the marks (exported for the plan tests).
 */
export function storeMetricsAndSnapshotSql(ownerId: string, scope: PropertyScope, rows: MetricsRow[], snapshot: SnapshotStamp): SQL {
  const owner = param(ownerId, 'text');
  return sql`
    with fresh as (${metricsRecordsSql(rows)}),
    removed as (
      delete from ${analyticsPropertyMetrics} m where m.owner_id = ${owner} and ${inScope(sql`m.property_id`, scope)}
        and not exists (select 1 from ${viewOfProperties('p')} where p.id = m.property_id and p.owner_id = ${owner})
        and m.property_id not in (select property_id from fresh) -- one sub-statement per row
    ),
    written as (${upsertMetricsSql(ownerId)}),
    p as (
      select p.id, p.state, p.property_type, p.sqft,
        case when f.property_id is null then m.annual_cost_cents else f.annual_cost_cents end as annual_cost_cents,
        case when f.property_id is null then m.annual_kwh_milli else f.annual_kwh_milli end as annual_kwh_milli,
        case when f.property_id is null then m.annual_by_utility else f.annual_by_utility end as by_utility,
        case when f.property_id is null then m.savings_cents else f.savings_cents end as savings_cents,
        case when f.property_id is null then m.emissions_kg else f.emissions_kg end as emissions_kg,
        case when f.property_id is null then m.penalty_cents else f.penalty_cents end as penalty_cents
      from ${viewOfProperties('p')}
      left join fresh f on f.property_id = p.id
      left join ${analyticsPropertyMetrics} m on m.property_id = p.id
      where p.owner_id = ${owner}
    ),
    -- Each property's annual figure per utility type: [type, cents, usage milli or null, basis].
    u as (
      select p.id, e->>0 as utility_type, (e->>1)::bigint as cents, (e->>2)::bigint as usage_milli, e->>3 as basis
      from p cross join lateral jsonb_array_elements(coalesce(p.by_utility, '[]'::jsonb)) e
    ),
    electric as (select id, cents from u where utility_type = 'electric'),
    sums as (
      select
        (select count(*) from p)::int as property_count,
        (select count(*) from ${viewOfPortfolios('pf')} where owner_id = ${owner})::int as portfolio_count,
        (select coalesce(sum(sqft), 0) from p)::text as total_sqft,
        (select coalesce(sum(annual_cost_cents), 0) from p)::text as annual_cents,
        (select coalesce(sum(annual_kwh_milli), 0) from p)::text as annual_milli,
        ${ratioSumsSql('annual_cost_cents', 'sqft', 'annual_sqft')},
        (select coalesce(sum(e.cents), 0) from p join electric e on e.id = p.id where p.annual_kwh_milli > 0)::text as electric_kwh_cents,
        (select coalesce(sum(p.annual_kwh_milli), 0) from p join electric e on e.id = p.id where p.annual_kwh_milli > 0)::text as electric_kwh_quantity,
        (select coalesce(json_agg(json_build_array(utility_type, cents::text, usage_milli::text, actual, n)), '[]'::json) from (
          select utility_type, sum(cents) as cents, sum(usage_milli) as usage_milli,
            count(*) filter (where basis = 'actual')::int as actual, count(*)::int as n
          from u group by utility_type) g) as by_utility,
        (select count(*) from p where savings_cents > 0)::int as savings_count,
        (select coalesce(sum(savings_cents), 0) from p where savings_cents > 0)::text as savings_cents,
        -- Emissions of the latest complete year: every property's kg, and over the properties with sqft (as GET /pm/emissions).
        ${param(snapshot.emissionsYear, 'int')} as emissions_year,
        (select coalesce(sum(emissions_kg), 0) from p)::text as emissions_kg,
        (select coalesce(sum(emissions_kg), 0) from p where sqft > 0)::text as emissions_sqft_kg,
        (select coalesce(sum(sqft), 0) from p where sqft > 0)::text as emissions_sqft_quantity,
        (select count(*) from p where penalty_cents > 0)::int as penalty_count,
        (select coalesce(sum(penalty_cents), 0) from p where penalty_cents > 0)::text as penalty_cents,
        (select coalesce(sum(bill_count), 0) from ${analyticsMonthlyRollups}
          where owner_id = ${owner} and month = ${param(monthStartDate(snapshot.month), 'date')})::int as bills_this_month,
        (select coalesce(json_agg(json_build_array(state, cents::text, n)), '[]'::json) from (
          select state, coalesce(sum(annual_cost_cents), 0) as cents, count(*) as n from p group by state) s) as by_state,
        (select coalesce(json_agg(json_build_array(property_type, cents::text, n)), '[]'::json) from (
          select property_type, coalesce(sum(annual_cost_cents), 0) as cents, count(*) as n from p group by property_type) t) as by_type,
        -- Open bill-audit findings, and the dollars at issue: per bill the largest of its findings' (audit README); a
        -- likely unit error is never summed (its bill's price is not audited until the usage is corrected).
        (select count(*) from ${viewOfAuditFindings('af')} where owner_id = ${owner} and status = 'open')::int as audit_open,
        (select coalesce(sum(cents), 0) from (
          select max(abs(amount_cents)) as cents from ${viewOfAuditFindings('af')} where owner_id = ${owner} and status = 'open'
            and reason <> 'likely_unit_error' group by bill_id) f)::text as audit_cents
    ),
    cleared as (
      delete from ${analyticsDirtyProperties} where owner_id = ${owner} and marked_version <= ${param(snapshot.version, 'bigint')}
    )
    insert into ${analyticsOwnerSnapshots} (owner_id, data_version, as_of_month, computed_at, sums)
    select ${ownerId}, ${snapshot.version}, ${monthStartDate(snapshot.month)}::date, ${snapshot.now.toISOString()}::timestamptz, to_jsonb(sums)
    from sums
    on conflict (owner_id) do update set data_version = excluded.data_version, as_of_month = excluded.as_of_month,
      computed_at = excluded.computed_at, sums = excluded.sums`;
}

export function createRecomputeRepository(db: Executor, opts: { metricsBatch?: number } = {}) {
  const metricsBatch = opts.metricsBatch ?? METRICS_BATCH;
  return {
    /**
     * Takes the owner's lock, which serialises its recomputes across processes until the
     * transaction ends, sets the transaction up, and reads the owner's freshness and the properties
     * marked up to its version, in one round trip (the function analytics_lock_owner_and_read,
     * migration 0019: the read sees what the previous holder of the lock committed). (Plans stay
     * PostgreSQL's choice: a generic plan forced here would be fixed when the connection first runs
     * the rollup statement, on a new database a sequential scan of bills that stays as the table grows.)
     */
    async lockOwnerAndReadMarks(ownerId: string): Promise<Freshness & { dirty: PropertyMark[] }> {
      const [row] = rowsOf<FreshnessRow & { dirty: Array<[string, number | null, number | null]> }>(
        await db.execute(sql`
        select version, snapshot_version as "snapshotVersion", snapshot_month as "snapshotMonth", dirty
        from analytics_lock_owner_and_read(${ownerId})`),
      );
      return { ...toFreshness(row), dirty: (row?.dirty ?? []).map(([id, rollupFrom, rollupTo]) => ({ id, rollupFrom, rollupTo })) };
    },

    /** The bills of the properties in scope that overlap their windows (calendarise.calc.ts makes them rollups). */
    async readBills(ownerId: string, scope: RebuildScope, from: MonthIndex, to: MonthIndex): Promise<BillRow[]> {
      return rowsOf<BillRow>(await db.execute(billsInScopeSql(ownerId, scope, from, to)));
    },

    /** Replaces the rollups in the windows (every rollup of the owner, for a full scope) with `rows`. */
    async replaceRollups(ownerId: string, scope: RebuildScope, rows: RollupRow[]): Promise<void> {
      await db.execute(deleteRollupsSql(ownerId, scope));
      for (let i = 0; i < rows.length; i += ROLLUP_BATCH) await db.execute(insertRollupsSql(ownerId, rows.slice(i, i + ROLLUP_BATCH)));
    },

    /** What the metrics of the properties in scope are computed from: their rollups from `metricsFrom` on, meters, recent bills, estimate and latest rate analysis. */
    async readMetricsInputs(ownerId: string, scope: PropertyScope, metricsFrom: MonthIndex, billsFrom: string): Promise<MetricsInputRow[]> {
      return rowsOf<MetricsInputRow>(await db.execute(metricsInputsSql(ownerId, scope, metricsFrom, billsFrom)));
    },

    /**
     * Writes the metrics of the properties in scope (`rows`, computed from readMetricsInputs' rows;
     * rows of properties in scope that no longer exist are deleted), stores the owner's snapshot at
     * `version`: the integer sums of the dashboard stats and global analytics (StoredSums), `month`
     * being the current one, and clears the marks it covers, all in one statement: the last before
     * the commit, so the owner's lock is held for one round trip fewer. The sums read the new rows
     * from the statement's parameter and the rest from the table, since a statement does not see
     * its own writes. Past `metricsBatch` rows, the earlier batches are written first, each in a
     * statement of its own (a parameter of ~300 bytes a row).
     */
    async replaceMetricsAndStoreSnapshot(
      ownerId: string,
      scope: PropertyScope,
      rows: MetricsRow[],
      snapshot: SnapshotStamp,
    ): Promise<void> {
      let last = 0;
      for (; rows.length - last > metricsBatch; last += metricsBatch) {
        await db.execute(sql`
          with fresh as (${metricsRecordsSql(rows.slice(last, last + metricsBatch))})
          ${upsertMetricsSql(ownerId)}`);
      }
      await db.execute(storeMetricsAndSnapshotSql(ownerId, scope, rows.slice(last), snapshot));
    },
  };
}
