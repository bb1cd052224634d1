import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { rowsOf } from '../../platform/db/errors';
import { monthStartDate, type MonthIndex } from './months';
import { toFreshness, type Freshness, type FreshnessRow, type PropertyMark } from './repository';

/**
 * The statements of an owner's recompute, set-based SQL over the owner's bills and properties.
 * Every function takes the recompute's transaction. A scope of null means every property of the
 * owner; otherwise the listed properties (with their marked months, for the rollups).
 *
 * The recompute holds the owner's lock from its first statement to its commit, and each round
 * trip to the database lasts as long as the web process's event loop takes to send the next
 * statement, which under load is longer than the statement itself. So the steps that need no
 * JavaScript in between share a statement (data-modifying CTEs, or a function where a read must
 * follow a lock): lock, settings, freshness and marks; rollups and the metrics inputs read back
 * from them; metrics, the owner's sums, its snapshot and clearing the marks. Five round trips
 * with BEGIN and COMMIT, where separate statements took fourteen.
 */

export type PropertyScope = string[] | null;

/** The properties whose rollups and metrics a recompute rebuilds: their marks (with the months to rebuild), or null for all of them, every month. */
export type MarkedScope = PropertyMark[] | null;

/** Month index of a date column or expression, in SQL. */
const monthIndexSql = (d: SQL) => sql`(extract(year from ${d})::int * 12 + extract(month from ${d})::int - 1)`;
const monthOfIndexSql = (i: SQL) => sql`make_date(${i} / 12, ${i} % 12 + 1, 1)`;
/** The last day of the month of an index, in SQL. */
const monthEndOfIndexSql = (i: SQL) => sql`(${monthOfIndexSql(sql`(${i} + 1)`)} - 1)`;

/**
 * ownerSums' columns `<name>_cents` and `<name>_quantity`: a ratio's cost and quantity summed over
 * the properties of `p` that have both (quantity > 0). Column names only, never input.
 */
const ratioSumsSql = (cost: string, quantity: string, name: string): SQL => sql.raw(`
  (select coalesce(sum(${cost}), 0) from p where ${cost} is not null and ${quantity} > 0)::text as ${name}_cents,
  (select coalesce(sum(${quantity}), 0) from p where ${cost} is not null and ${quantity} > 0)::text as ${name}_quantity`);

/** Between the values of a text parameter split into an array (a property id never holds it). */
const ID_SEPARATOR = '\u001f';

/*
 * Plan stability. These statements run prepared, under the owner's lock, and planning one costs
 * about as much as running it. PostgreSQL plans a prepared statement for its actual parameters
 * (a custom plan) and keeps doing so on every call when the plan it would make for any
 * parameters (the generic plan) looks dearer: it did, once the tables had statistics, since a
 * custom plan knows how many ids are in scope and how many properties the owner has. So every
 * parameter a row estimate could depend on is passed as a scalar subquery (`opaque`), whose value
 * no plan knows: custom and generic plans then estimate alike, and PostgreSQL settles on the
 * generic plan after its first five calls. The rows of the properties in scope are read by
 * per-property probes (LATERAL, kept from being flattened into a join by OFFSET 0), index
 * lookups whatever the tables' sizes were when the plan was made.
 */

/** A parameter as a value no plan knows (an initplan), cast to `type`. */
const opaque = (value: unknown, type: string): SQL => sql`(select ${value}::${sql.raw(type)})`;

/** A list of values as an opaque array parameter of `type` ('' stands for null, so text values must not be empty). */
const opaqueArray = (values: Array<string | number | null>, type: string): SQL =>
  sql`(select string_to_array(${values.map((v) => v ?? '').join(ID_SEPARATOR)}, ${ID_SEPARATOR}, '')::${sql.raw(type)}[])`;

/** `column` is one of the ids in scope (an index condition, the list opaque to the planner). */
function inScope(column: SQL, scope: PropertyScope): SQL {
  if (scope === null) return sql`true`;
  return sql`${column} = any(${opaqueArray(scope, 'text')}::text[])`; // the cast: ANY((select ...)) alone reads as ANY over a subquery's rows
}

export interface MetricsInputRow {
  id: string;
  tariff_id: string | null;
  /** The expiration date of the property's tariff (null: none, or no tariff). */
  tariff_expiration_date: string | null;
  monthly_usage_kwh: string | null;
  sqft: number | null;
  annual_energy_cost: string | null;
  /** [month index, cents, Wh, billed days] ascending, or null without rollups in range. */
  series: Array<[number, number, number, number]> | null;
  annual_savings: string | null;
  current_tariff_id: string | null;
  recommended_tariff_id: string | null;
}

export interface MetricsRow {
  property_id: string;
  annual_cost_cents: number | null;
  annual_kwh_milli: number | null;
  basis: string | null;
  savings_cents: number | null;
  current_tariff_id: string | null;
  recommended_tariff_id: string | null;
  health_score: number;
  health_status: string;
  health_issues: string[];
}

/** Metrics rows written per statement (one jsonb parameter). */
const METRICS_BATCH = 5000;

/** Metrics rows as a relation, from one jsonb parameter. */
const metricsRecordsSql = (rows: MetricsRow[]): SQL => sql`
  select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(property_id text, annual_cost_cents bigint,
    annual_kwh_milli bigint, basis text, savings_cents bigint, current_tariff_id text, recommended_tariff_id text,
    health_score int, health_status text, health_issues jsonb)`;

/** Writes the rows of the CTE `fresh` as the metrics of their properties. */
const upsertMetricsSql = (ownerId: string): SQL => sql`
  insert into analytics_property_metrics (property_id, owner_id, annual_cost_cents, annual_kwh_milli, basis, savings_cents,
    current_tariff_id, recommended_tariff_id, health_score, health_status, health_issues)
  select f.property_id, ${ownerId}, f.annual_cost_cents, f.annual_kwh_milli, f.basis, f.savings_cents,
    f.current_tariff_id, f.recommended_tariff_id, f.health_score, f.health_status, f.health_issues
  from fresh f
  on conflict (property_id) do update set owner_id = excluded.owner_id, annual_cost_cents = excluded.annual_cost_cents,
    annual_kwh_milli = excluded.annual_kwh_milli, basis = excluded.basis, savings_cents = excluded.savings_cents,
    current_tariff_id = excluded.current_tariff_id, recommended_tariff_id = excluded.recommended_tariff_id,
    health_score = excluded.health_score, health_status = excluded.health_status, health_issues = excluded.health_issues`;

/** rebuildRollups' statement (exported for the plan tests). */
export function rebuildRollupsSql(ownerId: string, scope: MarkedScope, from: MonthIndex, to: MonthIndex, metricsFrom: MonthIndex): SQL {
  const full = scope === null;
  const owner = opaque(ownerId, 'text');
  const metricsFromDate = opaque(monthStartDate(metricsFrom), 'date');
  const ids = full ? null : scope.map((m) => m.id);
  const marked = (column: SQL) => inScope(column, ids);
  // Per property in scope, the months to rebuild (f..t; none when f is null or f > t).
  const scopeSql = full
    ? sql`select p.id, ${opaque(from, 'int')} as f, ${opaque(to, 'int')} as t from properties p where p.owner_id = ${owner}`
    : sql`select m.id, greatest(m.f, ${opaque(from, 'int')}) as f, least(m.t, ${opaque(to, 'int')}) as t
        from unnest(${opaqueArray(scope.map((m) => m.id), 'text')}, ${opaqueArray(scope.map((m) => m.rollupFrom), 'int')},
          ${opaqueArray(scope.map((m) => m.rollupTo), 'int')}) as m(id, f, t)`;
  return sql`
    with scope as (${scopeSql}),
    removed as (
      ${full
        ? sql`delete from analytics_monthly_rollups where owner_id = ${owner}`
        : sql`delete from analytics_monthly_rollups r using scope s
            where r.property_id = s.id and r.owner_id = ${owner} and r.month between ${monthOfIndexSql(sql`s.f`)} and ${monthOfIndexSql(sql`s.t`)}`}
    ),
    b as (
      select ub.property_id, p.owner_id, ub.period_start as s, ub.period_end as e, sc.f, sc.t,
        ${monthOfIndexSql(sql`sc.f`)} as f_start, ${monthEndOfIndexSql(sql`sc.t`)} as t_end,
        (ub.amount * 100)::bigint as cents, coalesce((ub.usage_kwh * 1000)::bigint, 0) as milli,
        (ub.period_end - ub.period_start + 1) as days,
        ${monthIndexSql(sql`ub.period_start`)} as smi, ${monthIndexSql(sql`ub.period_end`)} as emi
      from scope sc
      join properties p on p.id = sc.id and p.owner_id = ${owner}
      cross join lateral (
        select * from utility_bills ub
        where ub.property_id = sc.id and ub.period_end >= ${monthOfIndexSql(sql`sc.f`)} and ub.period_start <= ${monthEndOfIndexSql(sql`sc.t`)}
        offset 0
      ) ub
      where sc.f <= sc.t
    ),
    parts as (
      select b.property_id, b.owner_id, b.s, b.e, b.cents, b.milli, b.days, ${monthOfIndexSql(sql`g.mi`)} as month
      from b cross join lateral generate_series(greatest(b.smi, b.f), least(b.emi, b.t)) as g(mi)
    ),
    spans as (
      select property_id, owner_id, month, cents, milli, days,
        greatest(s, month) - s as before, least(e, (month + interval '1 month')::date - 1) - s + 1 as through
      from parts
    ),
    money as (
      select property_id, owner_id, month, count(*) as n, sum(c) as c, sum(k) as k from (
        -- bigint while 2 x units x days fits (cents <= 10^13, Wh <= 10^14: periods up to 40,000 days), else numeric
        select property_id, owner_id, month,
          case when days <= 40000
            then (2 * cents * through + days) / (2 * days) - (2 * cents * before + days) / (2 * days)
            else (div(2 * cents::numeric * through + days, 2 * days) - div(2 * cents::numeric * before + days, 2 * days))::bigint
          end as c,
          case when days <= 40000
            then (2 * milli * through + days) / (2 * days) - (2 * milli * before + days) / (2 * days)
            else (div(2 * milli::numeric * through + days, 2 * days) - div(2 * milli::numeric * before + days, 2 * days))::bigint
          end as k
        from spans
      ) shares group by property_id, owner_id, month
    ),
    clipped as (
      select property_id, greatest(s, f_start) as s, least(e, t_end) as e from b
    ),
    ordered as (
      select property_id, s, e,
        max(e) over (partition by property_id order by s, e rows between unbounded preceding and 1 preceding) as prev_end
      from clipped
    ),
    islands as (
      select property_id, s, e,
        sum(case when prev_end is null or s > prev_end + 1 then 1 else 0 end)
          over (partition by property_id order by s, e rows unbounded preceding) as grp
      from ordered
    ),
    merged as (
      select property_id, min(s) as s, max(e) as e from islands group by property_id, grp
    ),
    covered as (
      select m.property_id, ${monthOfIndexSql(sql`g.mi`)} as month, m.s, m.e
      from merged m cross join lateral generate_series(${monthIndexSql(sql`m.s`)}, ${monthIndexSql(sql`m.e`)}) as g(mi)
    ),
    days as (
      select property_id, month, sum(least(e, (month + interval '1 month')::date - 1) - greatest(s, month) + 1) as billed
      from covered group by property_id, month
    ),
    inserted as (
      insert into analytics_monthly_rollups (property_id, owner_id, month, cost_cents, kwh_milli, billed_days, bill_count)
      select money.property_id, money.owner_id, money.month, money.c, money.k, days.billed, money.n
      from money join days on days.property_id = money.property_id and days.month = money.month
      returning property_id, month, cost_cents, kwh_milli, billed_days
    ),
    series as (
      select property_id, month, cost_cents, kwh_milli, billed_days from inserted where month >= ${metricsFromDate}
      ${full ? sql`` : sql`
      union all
      -- the months not rebuilt, as stored (the statement sees the table as it was before its delete)
      select r.property_id, r.month, r.cost_cents, r.kwh_milli, r.billed_days
      from scope s cross join lateral (
        select * from analytics_monthly_rollups r
        where r.property_id = s.id and r.owner_id = ${owner} and r.month >= ${metricsFromDate}
          and coalesce(not r.month between ${monthOfIndexSql(sql`s.f`)} and ${monthOfIndexSql(sql`s.t`)}, true)
        offset 0
      ) r`}
    )
    select p.id, p.tariff_id, (select t.expiration_date::text from tariffs t where t.id = p.tariff_id) as tariff_expiration_date,
      p.monthly_usage_kwh::text, p.sqft, p.annual_energy_cost::text, r.series,
      ra.annual_savings::text, ra.current_tariff_id, ra.recommended_tariff_id
    from properties p
    left join (
      select property_id,
        json_agg(json_build_array(${monthIndexSql(sql`month`)}, cost_cents, kwh_milli, billed_days) order by month) as series
      from series
      group by property_id
    ) r on r.property_id = p.id
    left join lateral (
      select annual_savings, current_tariff_id, recommended_tariff_id
      from rate_analyses
      where property_id = p.id and owner_id = ${owner}
      order by analyzed_at desc, id desc
      limit 1
    ) ra on true
    where p.owner_id = ${owner} and ${marked(sql`p.id`)}`;
}

/**
 * The last statement of replaceMetricsAndStoreSnapshot: writes `rows` (the last batch), deletes the metrics of
 * properties gone, stores the snapshot and clears the marks (exported for the plan tests).
 */
export function storeMetricsAndSnapshotSql(
  ownerId: string, scope: PropertyScope, rows: MetricsRow[], snapshot: { version: number; month: MonthIndex; now: Date },
): SQL {
  const owner = opaque(ownerId, 'text');
  return sql`
    with fresh as (${metricsRecordsSql(rows)}),
    removed as (
      delete from analytics_property_metrics m where m.owner_id = ${owner} and ${inScope(sql`m.property_id`, scope)}
        and not exists (select 1 from properties p where p.id = m.property_id and p.owner_id = ${owner})
        and m.property_id not in (select property_id from fresh) -- one sub-statement per row
    ),
    written as (${upsertMetricsSql(ownerId)}),
    p as (
      select p.id, p.state, p.property_type, p.sqft, (p.annual_energy_cost * 100)::bigint as est_cents,
        (p.monthly_usage_kwh * 12000)::bigint as est_milli,
        case when f.property_id is null then m.annual_cost_cents else f.annual_cost_cents end as annual_cost_cents,
        case when f.property_id is null then m.annual_kwh_milli else f.annual_kwh_milli end as annual_kwh_milli,
        case when f.property_id is null then m.savings_cents else f.savings_cents end as savings_cents
      from properties p
      left join fresh f on f.property_id = p.id
      -- a probe per property: joined, a generic plan made for a large owner read the whole table for every owner
      left join lateral (
        select m.annual_cost_cents, m.annual_kwh_milli, m.savings_cents from analytics_property_metrics m where m.property_id = p.id offset 0
      ) m on true
      where p.owner_id = ${owner}
    ),
    sums as (
      select
        (select count(*) from p)::int as property_count,
        (select count(*) from portfolios where owner_id = ${owner})::int as portfolio_count,
        (select coalesce(sum(sqft), 0) from p)::text as total_sqft,
        (select coalesce(sum(est_cents), 0) from p)::text as est_cents,
        ${ratioSumsSql('est_cents', 'sqft', 'est_sqft')},
        ${ratioSumsSql('est_cents', 'est_milli', 'est_kwh')},
        (select coalesce(sum(annual_cost_cents), 0) from p)::text as annual_cents,
        (select coalesce(sum(annual_kwh_milli), 0) from p)::text as annual_milli,
        ${ratioSumsSql('annual_cost_cents', 'sqft', 'annual_sqft')},
        ${ratioSumsSql('annual_cost_cents', 'annual_kwh_milli', 'annual_kwh')},
        (select count(*) from p where savings_cents > 0)::int as savings_count,
        (select coalesce(sum(savings_cents), 0) from p where savings_cents > 0)::text as savings_cents,
        (select coalesce(sum(bill_count), 0) from analytics_monthly_rollups
          where owner_id = ${owner} and month = ${opaque(monthStartDate(snapshot.month), 'date')})::int as bills_this_month,
        (select coalesce(json_agg(json_build_array(state, cents::text, n)), '[]'::json) from (
          select state, coalesce(sum(annual_cost_cents), 0) as cents, count(*) as n from p group by state) s) as by_state,
        (select coalesce(json_agg(json_build_array(property_type, cents::text, n)), '[]'::json) from (
          select property_type, coalesce(sum(annual_cost_cents), 0) as cents, count(*) as n from p group by property_type) t) as by_type
    ),
    cleared as (
      delete from analytics_dirty_properties where owner_id = ${owner} and marked_version <= ${opaque(snapshot.version, 'bigint')}
    )
    insert into analytics_owner_snapshots (owner_id, data_version, as_of_month, computed_at, sums)
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
      const [row] = rowsOf<FreshnessRow & { dirty: Array<[string, number | null, number | null]> }>(await db.execute(sql`
        select version, snapshot_version as "snapshotVersion", snapshot_month as "snapshotMonth", dirty
        from analytics_lock_owner_and_read(${ownerId})`));
      return { ...toFreshness(row), dirty: (row?.dirty ?? []).map(([id, rollupFrom, rollupTo]) => ({ id, rollupFrom, rollupTo })) };
    },

    /**
     * Rebuilds the calendarised rollups of the properties in scope: every month of `from`..`to`
     * for a full scope (null), otherwise each marked property's months, clipped to that window.
     * calendarise.calc.ts's running-total shares (numeric, so no product can overflow) and the
     * days covered by the union of the bill periods (gaps-and-islands), per property and month: a
     * month's figures depend only on the bills overlapping it, so rebuilding some months leaves
     * the others exact. Returns what the metrics of the properties in scope are computed from:
     * their rollups from month `metricsFrom` on (the rebuilt months as inserted, since the
     * statement cannot read its own writes back, and the others as stored), their estimate and
     * their latest rate analysis.
     */
    async rebuildRollups(ownerId: string, scope: MarkedScope, from: MonthIndex, to: MonthIndex, metricsFrom: MonthIndex): Promise<MetricsInputRow[]> {
      return rowsOf<MetricsInputRow>(await db.execute(rebuildRollupsSql(ownerId, scope, from, to, metricsFrom)));
    },

    /**
     * Writes the metrics of the properties in scope (`rows`, computed from rebuildRollups' inputs;
     * rows of properties in scope that no longer exist are deleted), stores the owner's snapshot at
     * `version`: the integer sums of the dashboard stats and global analytics (StoredSums), `month`
     * being the current one, and clears the marks it covers, all in one statement: the last before
     * the commit, so the owner's lock is held for one round trip fewer. The sums read the new rows
     * from the statement's parameter and the rest from the table, since a statement does not see
     * its own writes. Past `metricsBatch` rows, the earlier batches are written first, each in a
     * statement of its own (a parameter of ~300 bytes a row).
     */
    async replaceMetricsAndStoreSnapshot(
      ownerId: string, scope: PropertyScope, rows: MetricsRow[], snapshot: { version: number; month: MonthIndex; now: Date },
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
