import { sql, type SQL } from 'drizzle-orm';
import { viewOfAuditFindings } from '../audit/public';
import { viewOfBills } from '../bills/public';
import { viewOfMeters } from '../meters/public';
import { viewOfProperties } from '../properties/public';
import { viewOfRateAnalyses } from '../rate-analysis/public';
import { viewOfOwnTariffVersions, viewOfTariffs } from '../tariffs/public';
import type { CalendarMonth } from './calendarise.calc';
import { monthStartDate, type MonthIndex } from './months';
import { viewOfOccupancyAreas, viewOfPropertyUses } from '../emissions/public';
import { analyticsMonthlyRollups, analyticsPropertyMetrics } from './tables';

/** A scope of null means every property of the owner; otherwise the listed properties. */
export type PropertyScope = string[] | null;

/** Per property, the months of its rollups a recompute rebuilds (from..to, included). */
export interface RebuildWindow {
  id: string;
  from: MonthIndex;
  to: MonthIndex;
}

/** The windows a recompute rebuilds: null for every property of the owner over the whole range. */
export type RebuildScope = RebuildWindow[] | null;

const monthOfIndexSql = (i: SQL) => sql`make_date(${i} / 12, ${i} % 12 + 1, 1)`;
/** The last day of the month of an index, in SQL. */
const monthEndOfIndexSql = (i: SQL) => sql`(${monthOfIndexSql(sql`(${i} + 1)`)} - 1)`;

/** Between the values of a text parameter split into an array (a property id never holds it). */
const ID_SEPARATOR = '\u001f';

/** A parameter cast to `type`. */
export const param = (value: unknown, type: string): SQL => sql`${value}::${sql.raw(type)}`;

/** A list of values as one array parameter of `type` ('' stands for null, so text values must not be empty). */
const arrayParam = (values: Array<string | number | null>, type: string): SQL =>
  sql`string_to_array(${values.map((v) => v ?? '').join(ID_SEPARATOR)}, ${ID_SEPARATOR}, '')::${sql.raw(type)}[]`;

/** `column` is one of the ids in scope. */
export function inScope(column: SQL, scope: PropertyScope): SQL {
  if (scope === null) return sql`true`;
  return sql`${column} = any(${arrayParam(scope, 'text')})`;
}

/** Rows as one array parameter per column, each [field, SQL type], for `unnest(...)`. */
function columnArrays<T>(rows: T[], columns: ReadonlyArray<readonly [keyof T, string]>): SQL {
  return sql.join(
    columns.map(([field, type]) =>
      arrayParam(
        rows.map((r) => r[field] as string | number | null),
        type,
      ),
    ),
    sql`, `,
  );
}

/** The columns of a window, in the order of the relation's (their SQL types). */
const WINDOW_COLUMNS = [
  ['id', 'text'],
  ['from', 'int'],
  ['to', 'int'],
] as const satisfies ReadonlyArray<readonly [keyof RebuildWindow, string]>;

/** Windows as a relation (id, f, t). */
const windowsSql = (windows: RebuildWindow[]): SQL =>
  sql`select w.id, w.f, w.t from unnest(${columnArrays(windows, WINDOW_COLUMNS)}) as w(id, f, t)`;

export interface BillRow {
  property_id: string;
  utility_type: string;
  period_start: string;
  period_end: string;
  /** The amount in cents, as a decimal string (int8). */
  cents: string;
  /** The usage as stored (numeric(14, 3) as text) in `unit`; null when the bill gives none. */
  usage: string | null;
  unit: string;
}

/** The bills of the owner's properties in scope that overlap their windows. */
export function billsInScopeSql(ownerId: string, scope: RebuildScope, from: MonthIndex, to: MonthIndex): SQL {
  return sql`
    with w as (${
      scope === null
        ? sql`select p.id, ${param(from, 'int')} as f, ${param(to, 'int')} as t from ${viewOfProperties('p')} where p.owner_id = ${param(ownerId, 'text')}`
        : windowsSql(scope)
    })
    select ub.property_id, ub.utility_type, ub.period_start::text as period_start, ub.period_end::text as period_end,
      (ub.amount * 100)::bigint::text as cents, ub.usage::text as usage, ub.unit
    from w
    join ${viewOfProperties('p')} on p.id = w.id and p.owner_id = ${param(ownerId, 'text')}
    join ${viewOfBills('ub')} on ub.property_id = w.id
      and ub.period_end >= ${monthOfIndexSql(sql`w.f`)} and ub.period_start <= ${monthEndOfIndexSql(sql`w.t`)}`;
}

/** Deletes the owner's rollups in the windows (all of them, for a full scope). */
export function deleteRollupsSql(ownerId: string, scope: RebuildScope): SQL {
  const owner = param(ownerId, 'text');
  if (scope === null) return sql`delete from ${analyticsMonthlyRollups} where owner_id = ${owner}`;
  return sql`
    delete from ${analyticsMonthlyRollups} r using (${windowsSql(scope)}) w
    where r.property_id = w.id and r.owner_id = ${owner} and r.month between ${monthOfIndexSql(sql`w.f`)} and ${monthOfIndexSql(sql`w.t`)}`;
}

/** A stored monthly rollup: calendarise.calc.ts's month of one property's bills of one utility type. */
export interface RollupRow extends CalendarMonth {
  propertyId: string;
  utilityType: string;
}

/** The columns of an inserted rollup, in the order of the insert's (their SQL types). */
const ROLLUP_COLUMNS = [
  ['propertyId', 'text'],
  ['utilityType', 'text'],
  ['month', 'int'],
  ['cents', 'bigint'],
  ['usageMilli', 'bigint'],
  ['billedDays', 'int'],
  ['billCount', 'int'],
] as const satisfies ReadonlyArray<readonly [keyof RollupRow, string]>;

/** Inserts rollups of the owner's properties (one array parameter per column). */
export function insertRollupsSql(ownerId: string, rows: RollupRow[]): SQL {
  return sql`
    insert into ${analyticsMonthlyRollups} (property_id, owner_id, utility_type, month, cost_cents, usage_milli, billed_days, bill_count)
    select r.id, ${param(ownerId, 'text')}, r.ut, ${monthOfIndexSql(sql`r.mi`)}, r.c, r.u, r.d, r.n
    from unnest(${columnArrays(rows, ROLLUP_COLUMNS)}) as r(id, ut, mi, c, u, d, n)`;
}

export interface MetricsInputRow {
  id: string;
  tariff_id: string | null;
  /** The expiration and effective dates of the property's tariff (null: none, or no tariff). */
  tariff_expiration_date: string | null;
  tariff_effective_date: string | null;
  monthly_usage_kwh: string | null;
  sqft: number | null;
  annual_energy_cost: string | null;
  /** [month index, utility type, cents, usage milli, billed days] by month, or null without rollups in range. */
  series: Array<[number, string, number, number, number]> | null;
  /** [meter id, name, utility type, is active, tariff id, its expiration date, its effective date], or null without meters. */
  meters: Array<[string, string, string, boolean, string | null, string | null, string | null]> | null;
  /** [meter id, period start, period end, cents (text), usage (text) or null, unit, is estimated] of the bills since the history start. */
  bills: Array<[string, string, string, string, string | null, string, boolean]> | null;
  annual_savings: string | null;
  current_tariff_id: string | null;
  recommended_tariff_id: string | null;
  /** Open high-severity audit findings of the property, and per bill the largest dollars at issue, summed (cents, text). */
  audit_high_open: number | null;
  audit_high_cents: string | null;
  /** What the emissions exposure needs: the property's name and place, its occupancy areas ([group, sqft]) and uses ([type, sqft]). */
  name: string;
  zip_code: string;
  state: string;
  city: string;
  occupancy: Array<[string, number]> | null;
  property_uses: Array<[string, number]> | null;
  /** The stored exposure (before this recompute): its penalty's period and cents, and the alerts raised so far. */
  stored_penalty_period: string | null;
  stored_penalty_cents: string | null;
  stored_penalty_alerts: number | null;
}

/** An own tariff's (custom_tariffs) latest effective date: its rates' age, as a catalog tariff's effective_date is. */
const ownTariffEffective = (tariffId: SQL) =>
  sql`(select max(v.effective_date) from ${viewOfOwnTariffVersions('v')} where v.tariff_id = ${tariffId})`;

/**
 * The recorded floor areas of the owner's properties in scope (a view aliased `a`: occupancy groups or
 * Portfolio Manager uses), one row per property with its [key, gross floor area] pairs as `label`.
 */
function areasOf(
  view: ReturnType<typeof viewOfOccupancyAreas<'a'>> | ReturnType<typeof viewOfPropertyUses<'a'>>,
  key: 'occupancy_group' | 'property_type',
  label: string,
  owner: SQL,
  scope: PropertyScope,
): SQL {
  const k = sql.raw(`a.${key}`);
  return sql`
      select a.property_id, json_agg(json_build_array(${k}, a.gross_floor_area) order by ${k}) as ${sql.raw(label)}
      from ${view}
      join ${viewOfProperties('ap')} on ap.id = a.property_id and ap.owner_id = ${owner}
      where ${inScope(sql`a.property_id`, scope)}
      group by a.property_id`;
}

/**
 * What the metrics of the owner's properties in scope are computed from: rollups from `metricsFrom` on,
 * meters and their bills ending on or after `billsFrom` (YYYY-MM-DD), estimate, latest rate analysis.
 */
export function metricsInputsSql(ownerId: string, scope: PropertyScope, metricsFrom: MonthIndex, billsFrom: string): SQL {
  const owner = param(ownerId, 'text');
  return sql`
    select p.id, p.tariff_id, pt.expiration_date::text as tariff_expiration_date,
      coalesce(pt.effective_date, ${ownTariffEffective(sql`p.tariff_id`)})::text as tariff_effective_date,
      p.monthly_usage_kwh::text, p.sqft, p.annual_energy_cost::text, r.series, mt.meters, bl.bills,
      ra.annual_savings::text, ra.current_tariff_id, ra.recommended_tariff_id, af.open as audit_high_open, af.cents::text as audit_high_cents,
      p.name, p.zip_code, p.state, p.city, oc.occupancy, pu.property_uses, sm.penalty_period as stored_penalty_period,
      sm.penalty_cents::text as stored_penalty_cents, sm.penalty_alerts as stored_penalty_alerts
    from ${viewOfProperties('p')}
    left join ${analyticsPropertyMetrics} sm on sm.property_id = p.id
    left join (${areasOf(viewOfOccupancyAreas('a'), 'occupancy_group', 'occupancy', owner, scope)}) oc on oc.property_id = p.id
    left join (${areasOf(viewOfPropertyUses('a'), 'property_type', 'property_uses', owner, scope)}) pu on pu.property_id = p.id
    left join ${viewOfTariffs('pt')} on pt.id = p.tariff_id
    -- One pass over the owner's rollups, bills and meters each, grouped (not a lookup per property: the
    -- rollups were just written, and the table's statistics may still say it is empty).
    left join (
      select property_id,
        json_agg(json_build_array(analytics_month_index(month), utility_type, cost_cents, usage_milli, billed_days)
          order by month, utility_type) as series
      from ${analyticsMonthlyRollups}
      where owner_id = ${owner} and month >= ${param(monthStartDate(metricsFrom), 'date')} and ${inScope(sql`property_id`, scope)}
      group by property_id
    ) r on r.property_id = p.id
    left join (
      select m.property_id,
        json_agg(json_build_array(m.id, m.name, m.utility_type, m.is_active, m.tariff_id, t.expiration_date::text,
          coalesce(t.effective_date, ${ownTariffEffective(sql`m.tariff_id`)})::text)
          order by m.created_at, m.id) as meters
      from ${viewOfMeters('m')}
      join ${viewOfProperties('o')} on o.id = m.property_id and o.owner_id = ${owner}
      left join ${viewOfTariffs('t')} on t.id = m.tariff_id
      where ${inScope(sql`m.property_id`, scope)}
      group by m.property_id
    ) mt on mt.property_id = p.id
    left join (
      select b.property_id,
        json_agg(json_build_array(b.meter_id, b.period_start::text, b.period_end::text, (b.amount * 100)::bigint::text, b.usage::text,
          b.unit, b.is_estimated)) as bills
      from ${viewOfBills('b')}
      join ${viewOfProperties('o')} on o.id = b.property_id and o.owner_id = ${owner}
      where b.period_end >= ${param(billsFrom, 'date')} and ${inScope(sql`b.property_id`, scope)}
      group by b.property_id
    ) bl on bl.property_id = p.id
    left join lateral (
      select annual_savings, current_tariff_id, recommended_tariff_id
      from ${viewOfRateAnalyses('a')}
      where property_id = p.id and owner_id = ${owner}
      order by analyzed_at desc, id desc
      limit 1
    ) ra on true
    left join (
      select property_id, sum(n)::int as open, sum(cents) as cents from (
        select f.property_id, count(*) as n, coalesce(max(abs(f.amount_cents)), 0) as cents
        from ${viewOfAuditFindings('f')}
        -- A likely unit error is never summed (audit README), whatever its severity.
        where f.owner_id = ${owner} and f.status = 'open' and f.severity = 'high' and f.reason <> 'likely_unit_error'
          and ${inScope(sql`f.property_id`, scope)}
        group by f.property_id, f.bill_id
      ) per_bill
      group by property_id
    ) af on af.property_id = p.id
    where p.owner_id = ${owner} and ${inScope(sql`p.id`, scope)}`;
}
