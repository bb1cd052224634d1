import { eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { rowsOf } from '../../platform/db/errors';
import type { HealthStatus } from './health-score.calc';
import {
  analyticsMonthlyRollups,
  analyticsOwnerSnapshots,
  analyticsPropertyMetrics,
  ownerDataVersions,
  type StoredUtilityCost,
} from './tables';
import { viewOfUsers } from '../accounts/public';
import { viewOfBills } from '../bills/public';
import { viewOfMeters } from '../meters/public';
import { viewOfProperties } from '../properties/public';
import type { MeterUtilityType } from '../meters/units';
import { monthIndexOfDate, monthStartDate, type MonthIndex } from './months';
import { ownerAggregates, ownerSumsOf, type OwnerAggregates } from './snapshot.calc';
import type { PartialMeter } from './benchmark-coverage.calc';

/** The owner's data version against the precomputed snapshot's. */
export interface Freshness {
  version: number;
  snapshotVersion: number | null;
  snapshotMonth: MonthIndex | null;
}

/** A property's rollup of one utility type and month with billed days. */
export interface PropertyMonthRow {
  propertyId: string;
  utilityType: MeterUtilityType;
  month: MonthIndex;
  cents: number;
  /** Thousandths of the type's common unit. */
  usageMilli: number;
}

/** One month and utility type summed over properties. */
export interface MonthlyTotalsRow {
  month: MonthIndex;
  utilityType: MeterUtilityType;
  cents: number;
  usageMilli: number;
}

export interface HealthRow {
  property_id: string;
  name: string;
  status: HealthStatus;
  score: number;
  issues: string[];
}

export interface BenchmarkRow {
  property_id: string;
  name: string;
  sqft: number | null;
  unit_count: number | null;
  annual_cost_cents: number | null;
  annual_kwh_milli: number | null;
  basis: 'actual' | 'estimate' | null;
  annual_by_utility: StoredUtilityCost[];
  /** Its meters that cover part of the building, with bills in the annual figure's window (benchmark-coverage.calc.ts). */
  partial_meters: PartialMeter[];
  /** Location-based kg CO2e of the latest complete calendar year (0 before the property's first recompute). */
  emissions_kg: number;
}

export interface PortfolioPropertyRow {
  property_id: string;
  name: string;
  /** The property's one annual cost, null without one. */
  annual_cost_cents: number | null;
  /** Its electric kWh (Wh), null when unknown. */
  annual_kwh_milli: number | null;
  basis: 'actual' | 'estimate' | null;
  /** Its figures by utility type (empty without one). */
  annual_by_utility: StoredUtilityCost[];
  savings_cents: number | null;
  current_tariff_id: string | null;
  recommended_tariff_id: string | null;
}

// Other modules' tables, read through the views they publish, under the aliases the queries use.
const propertiesAsP = viewOfProperties('p');
const metersAsMt = viewOfMeters('mt');
const billsAsB = viewOfBills('b');
const usersAsU = viewOfUsers('u');

const portfolioFilter = (portfolioId: string | null): SQL => (portfolioId === null ? sql`true` : sql`p.portfolio_id = ${portfolioId}`);

/** FROM and WHERE of the owner's rollups `r` of from..to, of one portfolio's properties when given. */
const rollupsInRange = (ownerId: string, from: MonthIndex, to: MonthIndex, portfolioId: string | null): SQL => sql`
  from ${analyticsMonthlyRollups} r
  ${portfolioId === null ? sql`` : sql`join ${propertiesAsP} on p.id = r.property_id and ${portfolioFilter(portfolioId)}`}
  where r.owner_id = ${ownerId} and r.month between ${monthStartDate(from)}::date and ${monthStartDate(to)}::date`;

/**
 * A property marked for recompute: its metrics, and its rollups of the months `rollupFrom` ..
 * `rollupTo` (month indexes; null when the change touched no rollup).
 */
export interface PropertyMark {
  id: string;
  rollupFrom: number | null;
  rollupTo: number | null;
}

/** Freshness as the statements that read it return it (version numbers as float8, the month as text). */
export interface FreshnessRow {
  version: number;
  snapshotVersion: number | null;
  snapshotMonth: string | null;
}

/** Freshness from its row (missing when the owner does not exist: version 0, no snapshot). */
export const toFreshness = (r: FreshnessRow | undefined): Freshness => ({
  version: r?.version ?? 0,
  snapshotVersion: r?.snapshotVersion ?? null,
  snapshotMonth: r?.snapshotMonth ? monthIndexOfDate(r.snapshotMonth) : null,
});

/** Reads of the per-property metrics: annual costs, health, benchmarks, a portfolio's properties, comparables. */
function propertyQueries(db: Executor) {
  return {
    /** A property's one annual cost as its metrics store it (null: not computed yet, or gone). */
    async propertyAnnual(
      ownerId: string,
      propertyId: string,
    ): Promise<Pick<BenchmarkRow, 'annual_cost_cents' | 'basis' | 'annual_by_utility'> | null> {
      const result = await db.execute(sql`
        select m.annual_cost_cents::float8 as annual_cost_cents, m.basis, m.annual_by_utility
        from ${analyticsPropertyMetrics} m where m.property_id = ${propertyId} and m.owner_id = ${ownerId}`);
      return rowsOf<Pick<BenchmarkRow, 'annual_cost_cents' | 'basis' | 'annual_by_utility'>>(result)[0] ?? null;
    },

    /** Every scored property of the owner (or of one portfolio), worst score first, then name. */
    async healthRows(ownerId: string, portfolioId: string | null): Promise<HealthRow[]> {
      const result = await db.execute(sql`
        select m.property_id, p.name, m.health_status as status, m.health_score as score, m.health_issues as issues
        from ${analyticsPropertyMetrics} m join ${propertiesAsP} on p.id = m.property_id
        where m.owner_id = ${ownerId} and p.owner_id = ${ownerId} and ${portfolioFilter(portfolioId)}
        order by m.health_score, p.name, p.id`);
      return rowsOf<HealthRow>(result);
    },

    /** The owner's (or one portfolio's) properties with their annual cost and the inputs of each metric, by name. */
    async benchmarkRows(ownerId: string, portfolioId: string | null): Promise<BenchmarkRow[]> {
      const result = await db.execute(sql`
        select p.id as property_id, p.name, p.sqft, p.unit_count, m.annual_cost_cents::float8 as annual_cost_cents,
          m.annual_kwh_milli::float8 as annual_kwh_milli, m.basis, m.annual_by_utility, coalesce(m.emissions_kg, 0)::float8 as emissions_kg,
          -- Meters of part of the building with a bill ending in the snapshot's 12 months or after (what its figures sum).
          coalesce((
            select json_agg(json_build_object('meter_id', mt.id, 'name', mt.name, 'utility_type', mt.utility_type, 'covers', mt.covers)
              order by mt.name, mt.id)
            from ${metersAsMt}
            where mt.property_id = p.id and mt.covers <> 'whole_building'
              and exists (select 1 from ${billsAsB} where b.meter_id = mt.id and b.period_end >= coalesce(
                (select s.as_of_month - interval '12 months' from ${analyticsOwnerSnapshots} s where s.owner_id = ${ownerId}), '-infinity'))
          ), '[]'::json) as partial_meters
        from ${propertiesAsP} join ${analyticsPropertyMetrics} m on m.property_id = p.id
        where p.owner_id = ${ownerId} and ${portfolioFilter(portfolioId)}
        order by p.name, p.id`);
      return rowsOf<BenchmarkRow>(result);
    },

    /** A portfolio's properties: their one annual cost (by utility type), and the latest analysis's savings. */
    async portfolioProperties(ownerId: string, portfolioId: string): Promise<PortfolioPropertyRow[]> {
      const result = await db.execute(sql`
        select p.id as property_id, p.name, m.annual_cost_cents::float8 as annual_cost_cents,
          m.annual_kwh_milli::float8 as annual_kwh_milli, m.basis, coalesce(m.annual_by_utility, '[]'::jsonb) as annual_by_utility,
          m.savings_cents::float8 as savings_cents, m.current_tariff_id, m.recommended_tariff_id
        from ${propertiesAsP}
        left join ${analyticsPropertyMetrics} m on m.property_id = p.id
        where p.owner_id = ${ownerId} and p.portfolio_id = ${portfolioId}
        order by p.name, p.id`);
      return rowsOf<PortfolioPropertyRow>(result);
    },

    /** Properties of any owner in the state and type with unit_count in [lo, hi] (a count only). */
    async comparableCount(state: string, propertyType: string, lo: number, hi: number): Promise<number> {
      const result = await db.execute(sql`
        select count(*)::int as n from ${propertiesAsP}
        where state = ${state} and property_type = ${propertyType} and unit_count between ${lo} and ${hi}`);
      return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
    },
  };
}

/** The owners the recompute job visits. */
function ownerQueries(db: Executor) {
  return {
    /** Owners whose data version moved since their snapshot (or that have none yet). */
    async changedOwners(): Promise<Array<{ ownerId: string; version: number }>> {
      const result = await db.execute(sql`
        select v.owner_id, v.version::float8 as version from ${ownerDataVersions} v
        left join ${analyticsOwnerSnapshots} s on s.owner_id = v.owner_id
        where s.owner_id is null or s.data_version <> v.version
        order by v.owner_id`);
      return rowsOf<{ owner_id: string; version: number }>(result).map((r) => ({ ownerId: r.owner_id, version: r.version }));
    },

    /** Every owner that has analytics data (a data version). */
    async allOwners(): Promise<Array<{ ownerId: string; version: number }>> {
      const result = await db.execute(sql`select owner_id, version::float8 as version from ${ownerDataVersions} order by owner_id`);
      return rowsOf<{ owner_id: string; version: number }>(result).map((r) => ({ ownerId: r.owner_id, version: r.version }));
    },
  };
}

/** Reads of the precomputed analytics. */
export function createAnalyticsRepository(db: Executor) {
  // Every analytics read starts with the owner's freshness: one primary-key lookup per table
  // (bigints as float8 and the month as text, so the driver returns them ready to use).
  const freshnessSelect = sql`
    select coalesce(v.version, 0)::float8 as "version", s.data_version::float8 as "snapshotVersion",
      s.as_of_month::text as "snapshotMonth"`;
  const freshnessFrom = (ownerId: string) => sql`
    from ${usersAsU}
    left join ${ownerDataVersions} v on v.owner_id = u.id
    left join ${analyticsOwnerSnapshots} s on s.owner_id = u.id
    where u.id = ${ownerId}`;
  const freshnessOf = async (ownerId: string) => rowsOf<FreshnessRow>(await db.execute(sql`${freshnessSelect} ${freshnessFrom(ownerId)}`));
  return {
    async freshness(ownerId: string): Promise<Freshness> {
      const [row] = await freshnessOf(ownerId);
      return toFreshness(row);
    },

    /** The owner's dashboard stats and global analytics, from the sums of its snapshot. */
    async aggregates(ownerId: string): Promise<OwnerAggregates | null> {
      const [row] = await db
        .select({ sums: analyticsOwnerSnapshots.sums })
        .from(analyticsOwnerSnapshots)
        .where(eq(analyticsOwnerSnapshots.ownerId, ownerId));
      return row ? ownerAggregates(ownerSumsOf(row.sums)) : null;
    },

    /** Per month of from..to and utility type: cost and usage, over the owner's (or one portfolio's) properties. */
    async monthlyTotals(ownerId: string, from: MonthIndex, to: MonthIndex, portfolioId: string | null): Promise<MonthlyTotalsRow[]> {
      const result = await db.execute(sql`
        select to_char(r.month, 'YYYY-MM') as month, r.utility_type, sum(r.cost_cents)::text as cents, sum(r.usage_milli)::text as milli
        ${rollupsInRange(ownerId, from, to, portfolioId)} group by r.month, r.utility_type`);
      return rowsOf<{ month: string; utility_type: string; cents: string; milli: string }>(result).map((r) => ({
        month: monthIndexOfDate(r.month),
        utilityType: r.utility_type as MeterUtilityType,
        cents: Number(r.cents),
        usageMilli: Number(r.milli),
      }));
    },

    /** Each property's rollups of from..to by utility type (those with billed days), over the owner's (or one portfolio's) properties. */
    async propertyMonths(ownerId: string, from: MonthIndex, to: MonthIndex, portfolioId: string | null): Promise<PropertyMonthRow[]> {
      const result = await db.execute(sql`
        select r.property_id, r.utility_type, to_char(r.month, 'YYYY-MM') as month, r.cost_cents::text as cents, r.usage_milli::text as milli
        ${rollupsInRange(ownerId, from, to, portfolioId)} and r.billed_days > 0`);
      return rowsOf<{ property_id: string; utility_type: string; month: string; cents: string; milli: string }>(result).map((r) => ({
        propertyId: r.property_id,
        utilityType: r.utility_type as MeterUtilityType,
        month: monthIndexOfDate(r.month),
        cents: Number(r.cents),
        usageMilli: Number(r.milli),
      }));
    },

    ...propertyQueries(db),
    ...ownerQueries(db),
  };
}

export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;
