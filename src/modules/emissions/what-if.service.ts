/**
 * POST /pm/properties/{id}/what-if (README "What-if"): the year's energy, emissions, building-
 * performance exposure and cost of a property before and after the changes a user names.
 */
import type { Db } from '../../platform/db/client';
import { dayNumber, isoDateOfDay } from '../../platform/dates';
import { fromCents } from '../../platform/money';
import { unprocessable } from '../../platform/http/errors';
import { isFuelOil, METER_UTILITY_TYPES, UNIT_FAMILIES, usageMilliOf } from '../meters/units';
import { createIntervalReader, type IntervalReader } from '../meters/public';
import { tariffReadsOnce } from '../pricing';
import type { PropertyService } from '../properties/service';
import type { PropertyRow } from '../properties/public';
import { bundledEgrid, type EgridReference } from './egrid';
import { energyByType, roundTons, tonsOf, yearInventory, type IntervalMonth, type InventoryBill } from './emissions.calc';
import { intervalMonthsOfProperties } from './interval-months';
import { buildingPerformance, jurisdictionAt, placeOf, type OccupancyArea } from './building-performance';
import type { EnergyByType } from './ll97.calc';
import { createEmissionsRepository } from './repository';
import { occupancyAreas, propertyUses } from './floor-areas.repository';
import type { PropertyUseArea } from './property-types';
import { defaultYear, gridOfZip, hubFactorsOf } from './service';
import { applyChanges, kwhPerTherm, readingsAfter, WHAT_IF_NOTES, type ChangedBill, type WhatIfChange } from './what-if.calc';
import { billCost, yearShare, type CostDeps } from './what-if.cost';
import { createWhatIfRepository, type WhatIfMeterRow } from './what-if.repository';
import { bundledZipCounties } from './zip-counties';
import type { WhatIfAnswer, WhatIfBody } from './what-if.schemas';

/** Bills up to a quarter either side of the year: a load electrified from one may fall on a bill reaching into the year. */
const MARGIN_DAYS = 92;

const NOT_ENERGY = new Set(['water', 'sewer', 'trash']);

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places + 0;

/** Resolves each change's meters against the property's (422 naming the field otherwise). */
function resolveChanges(body: WhatIfBody, meters: WhatIfMeterRow[]): WhatIfChange[] {
  const electric = meters.filter((m) => m.utilityType === 'electric');
  return body.changes.map((c, i) => {
    if (c.kind === 'cut') return { kind: 'cut', utilityType: c.utility_type, percent: c.percent };
    const gas = meters.find((m) => m.id === c.meter_id);
    if (!gas || (gas.utilityType !== 'gas' && !isFuelOil(gas.utilityType)))
      throw unprocessable(`meter ${c.meter_id} is not a gas or fuel oil meter of this property`, `changes.${i}.meter_id`);
    let to: WhatIfMeterRow | undefined;
    if (c.to_meter_id !== undefined) {
      to = electric.find((m) => m.id === c.to_meter_id);
      if (!to) throw unprocessable(`meter ${c.to_meter_id} is not an electric meter of this property`, `changes.${i}.to_meter_id`);
    } else if (electric.length !== 1) {
      throw unprocessable(
        electric.length
          ? `the property has ${electric.length} electric meters: name the one that takes the load (to_meter_id)`
          : 'the property has no electric meter to take the load: add one first',
        `changes.${i}.to_meter_id`,
      );
    } else to = electric[0];
    return {
      kind: 'electrify',
      meterId: gas.id,
      toMeterId: to!.id,
      gasEfficiency: c.gas_efficiency,
      electricEfficiency: c.electric_efficiency,
      kbtuPerUnit: UNIT_FAMILIES[gas.utilityType].kbtuPerCommon!,
      addedDemandKw: c.added_demand_kw ?? 0,
    };
  });
}

function describeChange(c: WhatIfChange, meters: WhatIfMeterRow[]): WhatIfAnswer['changes'][number] {
  const name = (id: string) => meters.find((m) => m.id === id)!.name;
  if (c.kind === 'cut')
    return {
      kind: 'cut',
      description: `${c.utilityType} usage cut by ${c.percent} %`,
      meter_id: null,
      to_meter_id: null,
      kwh_per_therm: null,
      added_demand_kw: null,
    };
  const k = kwhPerTherm(c.gasEfficiency, c.electricEfficiency);
  const from = meters.find((m) => m.id === c.meterId)!.utilityType;
  const fuel = from === 'gas' ? 'gas' : `fuel oil (${from})`;
  return {
    kind: 'electrify',
    description:
      `${fuel} meter ${name(c.meterId)} electrified onto ${name(c.toMeterId)}: ${from === 'gas' ? 'gas' : 'oil'} equipment ` +
      `${c.gasEfficiency}, electric ${c.electricEfficiency}, ${round(k, 6)} kWh per therm${from === 'gas' ? '' : ' (100 kBtu) of oil'}`,
    meter_id: c.meterId,
    to_meter_id: c.toMeterId,
    kwh_per_therm: round(k, 6),
    added_demand_kw: c.addedDemandKw ?? 0,
  };
}

/** What a side's standards and factors need of the property's place. */
interface Place {
  grid: ReturnType<typeof gridOfZip>['grid'];
  factor: ReturnType<typeof gridOfZip>['factor'];
  jurisdiction: ReturnType<typeof jurisdictionAt>;
  where: string;
  sqft: number | null;
  areas: OccupancyArea[];
  uses: PropertyUseArea[];
  limit: number | null;
}

/** One side: energy, location-based emissions and the building-performance exposure of the year's bills. */
function sideOf(place: Place, year: number, meters: WhatIfMeterRow[], bills: InventoryBill[], readings: readonly IntervalMonth[]) {
  const { grid, factor } = place;
  const inv = yearInventory(year, meters, bills, grid, readings);
  const energy = energyByType(inv);
  const bp = buildingPerformance(place.jurisdiction, year, energy, place.sqft, place.where, place.areas, place.limit, place.uses);
  // Water, sewer and trash are not energy (factors.ts UNSUPPORTED_REASONS): left out of the energy listed.
  const types = (Object.keys(energy) as Array<keyof EnergyByType>)
    .filter((t) => !NOT_ENERGY.has(t))
    .sort((a, b) => METER_UTILITY_TYPES.indexOf(a) - METER_UTILITY_TYPES.indexOf(b));
  const emissions = types.flatMap((t) => {
    const r = tonsOf(t, energy[t]!, grid);
    return 'tco2e' in r ? [{ utility_type: t, tco2e: roundTons(r.tco2e) }] : [];
  });
  return {
    factorsUsed: [...(factor && energy.electric ? [factor] : []), ...hubFactorsOf({ has: (t) => Boolean(energy[t]) })],
    side: {
      energy: types.map((t) => ({ utility_type: t, usage: round(energy[t]!, 3), unit: UNIT_FAMILIES[t].common })),
      total_tco2e: inv.tco2e,
      emissions,
      building_performance: {
        jurisdiction: bp.jurisdiction,
        applies: bp.applies,
        periods: bp.standards.flatMap((s) => [
          ...s.periods.map((p) => ({
            standard: s.standard,
            period: p.period,
            status: p.status,
            emissions_tco2e: p.emissions_tco2e,
            limit_tco2e: p.limit_tco2e,
            excess_tco2e: p.excess_tco2e,
            projected_penalty: p.projected_penalty,
          })),
          // Boston: BERDO's year, its alternative compliance payment as the penalty.
          ...(s.berdo
            ? [
                {
                  standard: s.standard,
                  period: s.berdo.period ?? String(year),
                  status: s.berdo.status,
                  emissions_tco2e: s.berdo.emissions_tco2e,
                  limit_tco2e: s.berdo.limit_tco2e,
                  excess_tco2e: s.berdo.excess_tco2e,
                  projected_penalty: s.berdo.alternative_compliance_payment,
                },
              ]
            : []),
        ]),
      },
    },
  };
}

export function createWhatIfService(deps: {
  db: Db;
  now: () => Date;
  properties: Pick<PropertyService, 'requireOwned'>;
  pricing: CostDeps['pricing'];
  loadShapes: CostDeps['loadShapes'];
  egrid?: () => EgridReference;
  intervals?: Pick<IntervalReader, 'metersWithReadings' | 'overPeriods'>;
}) {
  const repo = createWhatIfRepository(deps.db);
  const intervals = deps.intervals ?? createIntervalReader(deps.db);
  const emissionsRepo = createEmissionsRepository(deps.db);
  const occupancyRepo = occupancyAreas(deps.db);
  const usesRepo = propertyUses(deps.db);
  const egrid = deps.egrid ?? (() => bundledEgrid());

  return {
    async whatIf(ownerId: string, propertyId: string, body: WhatIfBody): Promise<WhatIfAnswer> {
      const property = await deps.properties.requireOwned(ownerId, propertyId);
      const year = body.year ?? defaultYear(await emissionsRepo.latestPeriodEnd([propertyId]), deps.now());
      const meters = await repo.meters(propertyId);
      const changes = resolveChanges(body, meters);
      const from = isoDateOfDay(dayNumber(`${year}-01-01`) - MARGIN_DAYS);
      const rows = await repo.bills(propertyId, from, isoDateOfDay(dayNumber(`${year}-12-31`) + MARGIN_DAYS));
      const result = applyChanges(
        rows.map((b) => ({ ...b, usageMilli: b.usage === null ? null : usageMilliOf(b.utilityType, b.usage, b.unit) })),
        changes,
        year,
      );
      const place: Place = {
        ...gridOfZip(egrid(), property.zipCode),
        jurisdiction: jurisdictionAt(property, bundledZipCounties()),
        where: placeOf(property),
        sqft: property.sqft,
        areas: await occupancyRepo.of(property.id),
        uses: await usesRepo.of(property.id),
        limit: body.limit_tco2e ?? null,
      };
      // Months covered by interval readings count as GET .../emissions counts them (README, rule 2).
      const { months: readings } = await intervalMonthsOfProperties(
        intervals,
        year,
        meters.map((m) => ({ propertyId: property.id, id: m.id, utilityType: m.utilityType })),
        [property],
      );
      const before = sideOf(place, year, meters, result.bills, readings);
      const afterBills: InventoryBill[] = [
        ...result.bills.map((b) => ({ ...b, usageMilli: b.afterMilli === null ? null : b.afterMilli - b.addedWh })),
        ...result.loads.map((l) => ({ meterId: l.meterId, periodStart: l.periodStart, periodEnd: l.periodEnd, usageMilli: l.wh })),
      ];
      const after = sideOf(place, year, meters, afterBills, readingsAfter(readings, changes, result.loads, year));
      const cost = await costOf(deps, property, year, meters, rows, result.bills);
      const penalties = before.side.building_performance.periods.map((p, i) => {
        const a = after.side.building_performance.periods[i]!;
        const both = p.projected_penalty !== null && a.projected_penalty !== null;
        return {
          standard: p.standard,
          period: p.period,
          projected_penalty: both ? fromCents(Math.round(a.projected_penalty! * 100) - Math.round(p.projected_penalty! * 100)) : null,
        };
      });
      const factors = new Map([...before.factorsUsed, ...after.factorsUsed].map((f) => [f.utility_type, f]));
      return {
        property_id: property.id,
        year,
        changes: changes.map((c) => describeChange(c, meters)),
        before: { ...before.side, energy_cost: fromCents(cost.beforeCents) },
        after: { ...after.side, energy_cost: fromCents(cost.afterCents) },
        delta: {
          total_tco2e: roundTons(after.side.total_tco2e - before.side.total_tco2e),
          energy_cost: fromCents(cost.afterCents - cost.beforeCents),
          projected_penalty: penalties,
        },
        meters: cost.meters,
        unpriced_kwh: round((result.unpricedWh + cost.unpricedWh) / 1000, 3),
        factors: [...factors.values()],
        notes: WHAT_IF_NOTES,
      };
    },
  };
}

/** The year's cost of the electric, gas and fuel oil meters, before and after, per meter and in all. */
async function costOf(
  deps: CostDeps,
  property: PropertyRow,
  year: number,
  meters: WhatIfMeterRow[],
  rows: Awaited<ReturnType<ReturnType<typeof createWhatIfRepository>['bills']>>,
  changed: ChangedBill[],
) {
  const yearFrom = `${year}-01-01`;
  const yearTo = `${year}-12-31`;
  let beforeCents = 0;
  let afterCents = 0;
  let unpricedWh = 0;
  const out: WhatIfAnswer['meters'] = [];
  const priceDeps = { loadShapes: deps.loadShapes, tariffs: tariffReadsOnce(deps.pricing) };
  for (const meter of meters.filter((m) => m.utilityType === 'electric' || m.utilityType === 'gas' || isFuelOil(m.utilityType))) {
    const m = { billed: 0, before: 0, after: 0, usageBefore: 0, usageAfter: 0, priced: 0, scaled: 0, reasons: new Set<string>() };
    for (const [i, row] of rows.entries()) {
      if (row.meterId !== meter.id || row.periodEnd < yearFrom || row.periodStart > yearTo) continue;
      const c = changed[i]!;
      const cost = await billCost(priceDeps, property, meter, row, c);
      if (cost.scaledBecause === null) m.priced += 1;
      else {
        m.scaled += 1;
        m.reasons.add(cost.scaledBecause);
      }
      m.billed += yearShare(row, year, cost.billedCents).cents;
      m.before += yearShare(row, year, cost.beforeCents).cents;
      m.after += yearShare(row, year, cost.afterCents).cents;
      m.usageBefore += yearShare(row, year, 0, c.usageMilli ?? 0).usageMilli;
      m.usageAfter += yearShare(row, year, 0, c.afterMilli ?? 0).usageMilli;
      unpricedWh += yearShare(row, year, 0, cost.unpricedWh).usageMilli;
    }
    beforeCents += m.before;
    afterCents += m.after;
    out.push({
      meter_id: meter.id,
      name: meter.name,
      utility_type: meter.utilityType,
      unit: UNIT_FAMILIES[meter.utilityType].common,
      tariff_id: meter.tariffId ?? (meter.utilityType === 'electric' ? property.tariffId : null),
      cost_basis: m.priced && m.scaled ? 'mixed' : m.priced ? 'tariff' : m.scaled ? 'scaled_from_billed' : 'none',
      reasons: [...m.reasons],
      usage_before: m.usageBefore / 1000,
      usage_after: m.usageAfter / 1000,
      billed: fromCents(m.billed),
      cost_before: fromCents(m.before),
      cost_after: fromCents(m.after),
    });
  }
  return { beforeCents, afterCents, unpricedWh, meters: out };
}
export type WhatIfService = ReturnType<typeof createWhatIfService>;
