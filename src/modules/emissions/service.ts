import type { Db } from '../../platform/db/client';
import { usageMilliOf } from '../meters/units';
import type { PropertyService } from '../properties/service';
import type { PropertyRow } from '../properties/public';
import { bundledEgrid, type EgridReference } from './egrid';
import { energyByType, roundTons, yearInventory, type IntervalMonth, type YearInventory } from './emissions.calc';
import { createIntervalReader, type IntervalReader } from '../meters/public';
import { gridOfZip, hubFactorsOf, type FactorUsed } from './factors-used';
import { intervalMonthsOfProperties, intervalsNote } from './interval-months';
import { createEmissionsRepository, type EmissionsBillRow, type EmissionsMeterRow, type EmissionsRepository } from './repository';
import type { BuildingPerformanceQuery, EmissionsQuery, OccupancyBody, PortfolioEmissionsQuery, PropertyUsesBody } from './schemas';
import type { PropertyUseArea } from './property-types';
import { occupancyAreas, propertyUses } from './floor-areas.repository';
import type { OccupancyGroup } from './occupancy';
import type { PortfolioService } from '../portfolios/service';
import { buildingPerformance, jurisdictionAt, placeOf } from './building-performance';
import { bundledZipCounties } from './zip-counties';

export { FUEL_OIL_FACTORS, GAS_FACTOR, gridOfZip, hubFactorsOf, STEAM_FACTOR, type FactorUsed } from './factors-used';

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places + 0;

/** The year an answer is of when the request names none (README): that of the latest bill period end, this year without bills. */
export const defaultYear = (latestPeriodEnd: string | null, now: Date) => Number((latestPeriodEnd ?? now.toISOString()).slice(0, 4));

const CALENDAR_NOTE =
  'Bills are spread over calendar months by days (calendarised), as ENERGY STAR Portfolio Manager does; ' +
  "usage is converted to each type's common unit with Portfolio Manager's conversions (1 ccf = 1.026 therms).";

const PORTFOLIO_NOTE =
  "kg_co2e_per_sqft of the whole is the tons of the properties with sqft over their sqft; each property's " +
  'figures are its own GET /pm/properties/{id}/emissions total.';

/**
 * The answer's notes: the calendarisation, and the interval rule when a meter has readings
 * (`withReadings`: how many of the property's electric meters have any).
 */
function inventoryNotes(inv: YearInventory, withReadings: number): string[] {
  if (withReadings === 0) return [CALENDAR_NOTE];
  const fromIntervals = inv.meters.reduce((sum, m) => sum + m.monthsFromIntervals, 0);
  return [CALENDAR_NOTE, intervalsNote(inv.year, fromIntervals, "meters[].months[].basis 'intervals'")];
}

export function presentInventory(property: PropertyRow, inv: YearInventory, factors: FactorUsed[], withReadings = 0) {
  return {
    property_id: property.id,
    year: inv.year,
    method: 'location-based' as const,
    unit: 'metric tons CO2e' as const,
    total_tco2e: inv.tco2e,
    sqft: property.sqft,
    kg_co2e_per_sqft: property.sqft ? round((inv.tco2e * 1000) / property.sqft, 3) : null,
    months: inv.months,
    meters: inv.meters.map((m) => ({
      meter_id: m.meterId,
      name: m.name,
      utility_type: m.utilityType,
      counted: m.counted,
      reason: m.reason,
      usage: round(m.usage, 3),
      usage_unit: m.unit,
      tco2e: m.tco2e,
      bills_without_usage: m.billsWithoutUsage,
      months_from_intervals: m.monthsFromIntervals,
      months: m.months.map((x) => ({ month: x.month, usage: round(x.usage, 3), tco2e: x.tco2e, basis: x.basis })),
    })),
    factors,
    notes: inventoryNotes(inv, withReadings),
  };
}

export type EmissionsAnswer = ReturnType<typeof presentInventory>;

function presentOccupancy(propertyId: string, areas: Array<{ group: OccupancyGroup; sqft: number }>) {
  return {
    property_id: propertyId,
    areas: areas.map((a) => ({ occupancy_group: a.group, gross_floor_area: a.sqft })),
    gross_floor_area: areas.reduce((sum, a) => sum + a.sqft, 0),
  };
}

function presentPropertyUses(propertyId: string, uses: PropertyUseArea[]) {
  return {
    property_id: propertyId,
    uses: uses.map((u) => ({ property_type: u.type, gross_floor_area: u.sqft })),
    gross_floor_area: uses.reduce((sum, u) => sum + u.sqft, 0),
  };
}

/** A year's inventory of one property's meters, bills and months covered by interval readings, and the factors it used. */
function inventoryOf(
  egrid: EgridReference,
  zipCode: string,
  year: number,
  meters: EmissionsMeterRow[],
  bills: EmissionsBillRow[],
  readings: readonly IntervalMonth[],
) {
  const { grid, factor } = gridOfZip(egrid, zipCode);
  const inv = yearInventory(
    year,
    meters,
    bills.map((b) => ({
      meterId: b.meterId,
      periodStart: b.periodStart,
      periodEnd: b.periodEnd,
      usageMilli: b.usage === null ? null : usageMilliOf(b.utilityType, b.usage, b.unit),
    })),
    grid,
    readings,
  );
  const used = new Set(inv.meters.filter((m) => m.counted).map((m) => m.utilityType));
  const factors = [...(factor && used.has('electric') ? [factor] : []), ...hubFactorsOf(used)];
  return { inv, factors };
}

/** Each property's total and intensity for the year, their sum, and the intensity over the properties with sqft. */
function portfolioAnswer(
  egrid: () => EgridReference,
  y: number,
  props: Awaited<ReturnType<EmissionsRepository['ownedProperties']>>,
  meters: EmissionsMeterRow[],
  bills: EmissionsBillRow[],
  readings: { months: IntervalMonth[]; metersWithReadings: Set<string> },
) {
  const factors = new Map<string, FactorUsed>();
  let fromIntervals = 0;
  let total = 0;
  let withSqftKg = 0;
  let withSqft = 0;
  const properties = props.map((p) => {
    const { inv, factors: used } = inventoryOf(
      egrid(),
      p.zipCode,
      y,
      meters.filter((m) => m.propertyId === p.id),
      bills.filter((b) => b.propertyId === p.id),
      readings.months,
    );
    const meterMonthsFromIntervals = inv.meters.reduce((sum, m) => sum + m.monthsFromIntervals, 0);
    fromIntervals += meterMonthsFromIntervals;
    for (const f of used) factors.set(`${f.utility_type}|${f.subregion}`, f);
    total += inv.tco2e;
    if (p.sqft) {
      withSqftKg += inv.tco2e * 1000;
      withSqft += p.sqft;
    }
    return {
      property_id: p.id,
      name: p.name,
      tco2e: inv.tco2e,
      sqft: p.sqft,
      kg_co2e_per_sqft: p.sqft ? round((inv.tco2e * 1000) / p.sqft, 3) : null,
      meters_not_counted: inv.meters.filter((m) => !m.counted).length,
      meter_months_from_intervals: meterMonthsFromIntervals,
    };
  });
  const notes = [CALENDAR_NOTE, PORTFOLIO_NOTE];
  if (readings.metersWithReadings.size > 0) notes.push(intervalsNote(y, fromIntervals, 'properties[].meter_months_from_intervals'));
  return {
    year: y,
    method: 'location-based' as const,
    unit: 'metric tons CO2e' as const,
    total_tco2e: roundTons(total),
    kg_co2e_per_sqft: withSqft ? round(withSqftKg / withSqft, 3) : null,
    properties,
    factors: [...factors.values()],
    notes,
  };
}

export function createEmissionsService(deps: {
  db: Db;
  now: () => Date;
  properties: Pick<PropertyService, 'requireOwned'>;
  portfolios: Pick<PortfolioService, 'requireOwned'>;
  egrid?: () => EgridReference;
  intervals?: IntervalReader;
}) {
  const repo = createEmissionsRepository(deps.db);
  const intervals = deps.intervals ?? createIntervalReader(deps.db);
  const occupancyRepo = occupancyAreas(deps.db);
  const usesRepo = propertyUses(deps.db);
  const egrid = deps.egrid ?? (() => bundledEgrid());

  const yearOf = (latest: string | null) => defaultYear(latest, deps.now());

  /**
   * A year's inventory of an owned property (404 when not the caller's), and the factors it used;
   * `withReadings`: how many of its electric meters have interval readings.
   */
  async function inventory(ownerId: string, propertyId: string, year: number | undefined) {
    const property = await deps.properties.requireOwned(ownerId, propertyId);
    const y = year ?? yearOf(await repo.latestPeriodEnd([propertyId]));
    const [meters, bills] = await Promise.all([repo.meters([propertyId]), repo.bills([propertyId], `${y}-01-01`, `${y}-12-31`)]);
    const readings = await intervalMonthsOfProperties(intervals, y, meters, [property]);
    const withReadings = readings.metersWithReadings.size;
    return { property, withReadings, ...inventoryOf(egrid(), property.zipCode, y, meters, bills, readings.months) };
  }

  return {
    inventory,
    async propertyEmissions(ownerId: string, propertyId: string, query: EmissionsQuery): Promise<EmissionsAnswer> {
      const { property, inv, factors, withReadings } = await inventory(ownerId, propertyId, query.year);
      return presentInventory(property, inv, factors, withReadings);
    },

    /**
     * The owner's properties (of one portfolio when given) for a year: each property's total and
     * intensity, their sum, and the intensity over the properties with sqft (their tons / their sqft).
     */
    async portfolioEmissions(ownerId: string, query: PortfolioEmissionsQuery) {
      if (query.portfolio_id !== undefined) await deps.portfolios.requireOwned(ownerId, query.portfolio_id);
      const props = await repo.ownedProperties(ownerId, query.portfolio_id);
      const ids = props.map((p) => p.id);
      const y = query.year ?? yearOf(await repo.latestPeriodEnd(ids));
      const [meters, bills] = await Promise.all([repo.meters(ids), repo.bills(ids, `${y}-01-01`, `${y}-12-31`)]);
      return portfolioAnswer(egrid, y, props, meters, bills, await intervalMonthsOfProperties(intervals, y, meters, props));
    },

    /**
     * The building-performance standard of the property's place, for the year's energy: the same inventory as the
     * emissions answer (calendarised bills, and interval readings for the months they cover whole).
     */
    async buildingPerformance(ownerId: string, propertyId: string, query: BuildingPerformanceQuery) {
      const { property, inv } = await inventory(ownerId, propertyId, query.year);
      const energy = energyByType(inv);
      const where = placeOf(property);
      const jurisdiction = jurisdictionAt(property, bundledZipCounties());
      const [areas, uses] = await Promise.all([
        occupancyRepo.of(property.id),
        jurisdiction === null ? Promise.resolve([]) : usesRepo.of(property.id),
      ]);
      return {
        property_id: property.id,
        year: inv.year,
        ...buildingPerformance(jurisdiction, inv.year, energy, property.sqft, where, areas, query.limit_tco2e ?? null, uses),
      };
    },

    /** A property's occupancy groups with their gross floor areas (404 when not the caller's). */
    async occupancy(ownerId: string, propertyId: string) {
      await deps.properties.requireOwned(ownerId, propertyId);
      return presentOccupancy(propertyId, await occupancyRepo.of(propertyId));
    },

    /** Replaces a property's occupancy groups and areas (an empty list clears them). */
    async replaceOccupancy(ownerId: string, propertyId: string, body: OccupancyBody) {
      await deps.properties.requireOwned(ownerId, propertyId);
      const areas = body.areas.map((a) => ({ group: a.occupancy_group, sqft: a.gross_floor_area }));
      await occupancyRepo.replace(propertyId, areas);
      return presentOccupancy(propertyId, await occupancyRepo.of(propertyId));
    },

    /** A property's Portfolio Manager property uses with their gross floor areas (404 when not the caller's). */
    async propertyUses(ownerId: string, propertyId: string) {
      await deps.properties.requireOwned(ownerId, propertyId);
      return presentPropertyUses(propertyId, await usesRepo.of(propertyId));
    },

    /** Replaces a property's property uses and their areas (an empty list clears them). */
    async replacePropertyUses(ownerId: string, propertyId: string, body: PropertyUsesBody) {
      await deps.properties.requireOwned(ownerId, propertyId);
      await usesRepo.replace(
        propertyId,
        body.uses.map((u) => ({ type: u.property_type, sqft: u.gross_floor_area })),
      );
      return presentPropertyUses(propertyId, await usesRepo.of(propertyId));
    },
  };
}

export type EmissionsService = ReturnType<typeof createEmissionsService>;
