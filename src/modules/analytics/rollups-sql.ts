import { sql, type SQL } from 'drizzle-orm';
import { monthStartDate, type MonthIndex } from './months';
import type { PropertyMark } from './repository';

/** A scope of null means every property of the owner; otherwise the listed properties. */
export type PropertyScope = string[] | null;

/** The properties whose rollups and metrics a recompute rebuilds: their marks (with the months to rebuild), or null for all of them, every month. */
export type MarkedScope = PropertyMark[] | null;

/** Month index of a date column or expression, in SQL. */
export const monthIndexSql = (d: SQL) => sql`(extract(year from ${d})::int * 12 + extract(month from ${d})::int - 1)`;
export const monthOfIndexSql = (i: SQL) => sql`make_date(${i} / 12, ${i} % 12 + 1, 1)`;
/** The last day of the month of an index, in SQL. */
export const monthEndOfIndexSql = (i: SQL) => sql`(${monthOfIndexSql(sql`(${i} + 1)`)} - 1)`;

/** Between the values of a text parameter split into an array (a property id never holds it). */
const ID_SEPARATOR = '\u001f';

/** A parameter cast to `type`. */
export const param = (value: unknown, type: string): SQL => sql`${value}::${sql.raw(type)}`;

/** A list of values as one array parameter of `type` ('' stands for null, so text values must not be empty). */
export const arrayParam = (values: Array<string | number | null>, type: string): SQL =>
  sql`string_to_array(${values.map((v) => v ?? '').join(ID_SEPARATOR)}, ${ID_SEPARATOR}, '')::${sql.raw(type)}[]`;

/** `column` is one of the ids in scope. */
export function inScope(column: SQL, scope: PropertyScope): SQL {
  if (scope === null) return sql`true`;
  return sql`${column} = any(${arrayParam(scope, 'text')})`;
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

/**
 * rebuildRollups' statement: calendarisation (calendarise.calc.ts's rule) of the bills of the
 * properties in scope into monthly rollups, and the metrics inputs read back from them.
 */
export function rebuildRollupsSql(ownerId: string, scope: MarkedScope, from: MonthIndex, to: MonthIndex, metricsFrom: MonthIndex): SQL {
  const full = scope === null;
  const owner = param(ownerId, 'text');
  const metricsFromDate = param(monthStartDate(metricsFrom), 'date');
  const ids = full ? null : scope.map((m) => m.id);
  const marked = (column: SQL) => inScope(column, ids);
  // Per property in scope, the months to rebuild (f..t; none when f is null or f > t).
  const scopeSql = full
    ? sql`select p.id, ${param(from, 'int')} as f, ${param(to, 'int')} as t from properties p where p.owner_id = ${owner}`
    : sql`select m.id, greatest(m.f, ${param(from, 'int')}) as f, least(m.t, ${param(to, 'int')}) as t
        from unnest(${arrayParam(scope.map((m) => m.id), 'text')}, ${arrayParam(scope.map((m) => m.rollupFrom), 'int')},
          ${arrayParam(scope.map((m) => m.rollupTo), 'int')}) as m(id, f, t)`;
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
