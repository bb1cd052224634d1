import { utcDay } from '../../platform/dates';
import { notFound, unprocessable } from '../../platform/http/errors';
import type { LoadShapeSet } from '../pricing/engine';
import type { MonthlyBillTotal } from '../properties/energy-cost';
import { tariffNotices } from '../tariffs/tariff-notices';
import type { Tariff } from '../tariffs/tariff.model';
import { stateOfZip } from '../utilities/zip-states';
import {
  isTexasWiresUtility, listedWithRateForZip, nationalAverageRate, retailSupplyRate, servingUtilityRate, stateAverageRate,
  utilityCustomersInState, type AverageRate, type AverageRatesTable,
} from './average-rates';
import type { ServingUtility } from './due-diligence.repository';
import type { AnalyticsRepository } from './repository';
import type { DueDiligenceInput } from './schemas';
import {
  annualBillCents, annualConsumption, averageRateAnnualCents, cheapestAndMedian, comparableSqftRange, comparableUnitRange,
  eligibilityLoad, estimatedCosts, monthlyUsage, noiImpact, pickTariffUtility, rankAverageRateUtilities, tariffExclusion,
  type Consumption, type MonthShape, type MonthUsage, type PricedTariff, type TariffExclusion,
} from './due-diligence.calc';
import { consumptionNotes, EXCLUSION_WORDS, kwhText, plural } from './due-diligence.notes';
import { residentialUsage, type ResidentialUsage, type ResidentialUsageTable } from './residential-usage';

export interface DueDiligenceDeps {
  /** Residential comparables (unit_count). */
  repo: Pick<AnalyticsRepository, 'comparableCount'>;
  /** Commercial, industrial and mixed-use comparables (sqft). */
  comparableCountBySqft(state: string, propertyType: string, lo: number, hi: number): Promise<number>;
  now: () => Date;
  /** The utilities the ZIP tables list for a ZIP code. */
  servingUtilities(zipCode: string): Promise<ServingUtility[]>;
  /**
   * Current tariffs of the utilities serving a ZIP code, in the ZIP code's state, in one sector: the
   * catalog's, then the caller's own tariffs of those utilities (a custom tariff of the serving utility counts).
   */
  areaTariffs(zipCode: string, sector: DueDiligenceSector, ownerId: string | null): Promise<Tariff[]>;
  /** One month's bill in cents; the supply price goes to the engine's supply line on delivery-only tariffs. */
  monthlyBill: MonthlyBillTotal;
  loadShapes: () => LoadShapeSet;
  residentialUsage: () => ResidentialUsageTable;
  averageRates: () => AverageRatesTable;
}

export type DueDiligenceSector = 'residential' | 'commercial';

/** Residential buildings are priced on residential rates per unit; every other type on commercial rates. */
const sectorOf = (propertyType: string): DueDiligenceSector => (propertyType === 'residential' ? 'residential' : 'commercial');

export const NO_UTILITY = 'No utilities found for ZIP code';

/** Where URDB tariffs come from, as the tariff search documents it. */
export const URDB_SOURCE = 'U.S. Utility Rate Database (URDB, OpenEI/NREL)';

/** What the estimate rests on (the response's `basis`). */
export interface DueDiligenceBasis {
  kind: 'tariffs' | 'average_rate';
  source: string;
  year: number | null;
  service_type: 'bundled' | 'delivery_only' | null;
  rate_per_kwh: number | null;
  supply: { rate_per_kwh: number; source: string; year: number } | null;
}

interface ShapeWithShares {
  weekday: number[][];
  weekend: number[][];
  monthly_share_of_annual?: number[];
}

/** The building as billed by one utility: residential consumption depends on the utility's average customer. */
export interface Model {
  consumption: Consumption;
  usage: ResidentialUsage | null;
  months: MonthUsage[];
  load: { monthlyKwh: number; peakKw: number };
}

interface Priced {
  priced: PricedTariff[];
  byId: Map<string, Tariff>;
}

export function createDueDiligence(deps: DueDiligenceDeps) {
  return async function dueDiligence(input: DueDiligenceInput, ownerId: string | null = null) {
    const sqft = input.sqft ?? null;
    if (input.property_type !== 'residential' && sqft === null) {
      throw unprocessable(`sqft required for ${input.property_type} properties`, 'sqft');
    }
    const today = utcDay(deps.now());
    const sector = sectorOf(input.property_type);
    const zipState = stateOfZip(input.zip_code);
    const state = zipState ?? input.state;
    const rates = deps.averageRates();
    // assumptions = consumption notes, then areaNotes, then the pricing notes
    const areaNotes: string[] = [];
    const assumptions: string[] = [];
    if (zipState && zipState !== input.state) {
      areaNotes.push(`ZIP code ${input.zip_code} is in ${zipState}, not ${input.state}: the utilities, tariffs and rates are those of ${zipState}`);
    }

    // The serving utilities in the ZIP code's state: those with current tariffs there, or that EIA-861 reports there.
    const tariffs = (await deps.areaTariffs(input.zip_code, sector, ownerId)).filter((t) => t.state === state);
    const withTariffs = new Set(tariffs.map((t) => t.utilityId));
    const utilities = (await deps.servingUtilities(input.zip_code)).filter((u) =>
      withTariffs.has(u.id) || u.state === state || utilityCustomersInState(rates, u.id, state) !== null);
    if (utilities.length === 0) throw notFound(NO_UTILITY);
    const nameOf = (id: string) =>
      utilities.find((u) => u.id === id)?.name ?? tariffs.find((t) => t.utilityId === id)?.utilityName ?? `EIA utility ${id}`;

    // Consumption and its months, per utility (residential: that utility's average customer).
    const shapes = deps.loadShapes();
    const shapeId = shapes.defaults[sector];
    const shape = shapeId ? (shapes.shapes[shapeId] as ShapeWithShares | undefined) : undefined;
    const hours: MonthShape[] | undefined = shape?.weekday.map((weekday, m) => ({ weekday, weekend: shape.weekend[m]! }));
    const models = new Map<string, Model>();
    const modelOf = (utilityId: string): Model => {
      let model = models.get(utilityId);
      if (!model) {
        const usage = sector === 'residential' ? residentialUsage(deps.residentialUsage(), utilityId, state) : null;
        const consumption = annualConsumption({
          propertyType: input.property_type, unitCount: input.unit_count, sqft, residentialKwhPerCustomer: usage?.kwhPerCustomer ?? 0,
        });
        const months = monthlyUsage(consumption.perMeterMilli, shape?.monthly_share_of_annual, hours);
        model = { consumption, usage, months, load: eligibilityLoad(months) };
        models.set(utilityId, model);
      }
      return model;
    };

    // Eligible tariffs per utility.
    const eligible = new Map<string, { bundled: Tariff[]; deliveryOnly: Tariff[] }>();
    const excluded = new Map<TariffExclusion, number>();
    for (const t of tariffs) {
      const { load } = modelOf(t.utilityId);
      const reason = tariffExclusion(t, sector, load.monthlyKwh, load.peakKw);
      if (reason) {
        excluded.set(reason, (excluded.get(reason) ?? 0) + 1);
        continue;
      }
      const lists = eligible.get(t.utilityId) ?? { bundled: [], deliveryOnly: [] };
      (t.serviceType === 'bundled' ? lists.bundled : lists.deliveryOnly).push(t);
      eligible.set(t.utilityId, lists);
    }
    if (excluded.size > 0) {
      const total = [...excluded.values()].reduce((s, n) => s + n, 0);
      const parts = (Object.keys(EXCLUSION_WORDS) as TariffExclusion[]).filter((k) => excluded.has(k))
        .map((k) => `${excluded.get(k)} ${EXCLUSION_WORDS[k]}`);
      areaNotes.push(`Not eligible: ${plural(total, `current ${sector} tariff`)} of the ZIP code's utilities in ${state} (${parts.join('; ')})`);
    }

    const price = (list: Tariff[], model: Model, supplyRatePerKwh: number | null): Priced => {
      const priced: PricedTariff[] = [];
      const byId = new Map<string, Tariff>();
      for (const tariff of list) {
        const perMeter = annualBillCents(model.months, (m) => deps.monthlyBill(tariff, {
          usageKwh: m.usageMilli / 1000, demandKw: m.demandMilli / 1000, month: m.month, supplyRatePerKwh,
        }));
        if (perMeter === null) continue;
        priced.push({ id: tariff.id, name: tariff.name, annualCents: perMeter * model.consumption.meters });
        byId.set(tariff.id, tariff);
      }
      return { priced, byId };
    };

    // 1. Tariffs: the most eligible bundled tariffs, else the most delivery-only ones (with a supply price).
    const supply = retailSupplyRate(rates, state, sector);
    const counts = [...eligible].map(([id, l]) => ({ id, bundled: l.bundled.length, deliveryOnly: l.deliveryOnly.length }));
    let deliveryWithoutSupply: string | null = null;
    const unpriced: string[] = [];
    for (let pick = pickTariffUtility(counts); pick; pick = pickTariffUtility(counts)) {
      const lists = eligible.get(pick.id)!;
      const count = counts.find((c) => c.id === pick!.id)!;
      if (pick.serviceType === 'delivery_only' && !supply) {
        deliveryWithoutSupply = pick.id;
        break;
      }
      const list = pick.serviceType === 'bundled' ? lists.bundled : lists.deliveryOnly;
      const model = modelOf(pick.id);
      const { priced, byId } = price(list, model, pick.serviceType === 'delivery_only' ? supply!.ratePerKwh : null);
      const picked = cheapestAndMedian(priced);
      if (list.length > priced.length) unpriced.push(`${plural(list.length - priced.length, 'eligible tariff')} of ${nameOf(pick.id)} the bill engine cannot price`);
      if (!picked) {
        if (pick.serviceType === 'bundled') count.bundled = 0;
        else count.deliveryOnly = 0;
        continue;
      }
      const median = byId.get(picked.median.id)!;
      const cheapest = byId.get(picked.cheapest.id)!;
      assumptions.push(...consumptionNotes({ input, sqft, state, sector, shapeId }, model, nameOf(pick.id)), ...areaNotes);
      assumptions.push(
        `Priced on the ${plural(priced.length, `eligible ${pick.serviceType === 'bundled' ? 'bundled' : 'delivery-only'} ${sector} tariff`)} `
        + `of ${nameOf(pick.id)} in ${state} (current, general purpose, secondary or unstated voltage, applicability admitting `
        + `${kwhText(model.load.monthlyKwh)} kWh a month and a ${kwhText(model.load.peakKw)} kW peak per meter), month by month by the bill engine: `
        + `estimated_costs use the median "${median.name}", best_tariff the cheapest "${cheapest.name}"`,
      );
      if (pick.serviceType === 'delivery_only') {
        assumptions.push(`Supply: the tariffs are delivery only, so each month's kWh is added at $${supply!.ratePerKwh}/kWh, `
          + `the ${state} ${sector} average of ${supply!.source} (${supply!.year}): a retail supplier's average price`);
      }
      if (pick.serviceType === 'bundled' && lists.deliveryOnly.length > 0) {
        assumptions.push(`${plural(lists.deliveryOnly.length, 'eligible delivery-only tariff')} of ${nameOf(pick.id)} not priced: bundled tariffs preferred`);
      }
      assumptions.push(...unpriced);
      for (const [label, t] of median.id === cheapest.id ? [['Median and cheapest', median] as const] : [['Median', median] as const, ['Cheapest', cheapest] as const]) {
        for (const note of tariffNotices(t, today)) assumptions.push(`${label} tariff "${t.name}": ${note}`);
      }
      const effectiveYear = median.effectiveDate ? Number(median.effectiveDate.slice(0, 4)) : null;
      return answer(input, sqft, {
        utility: { id: pick.id, name: nameOf(pick.id) },
        annualCents: picked.median.annualCents,
        availableTariffs: priced.length,
        bestTariff: { name: cheapest.name, estimated_annual_cost: picked.cheapest.annualCents / 100 },
        basis: {
          kind: 'tariffs', source: URDB_SOURCE, year: effectiveYear, service_type: pick.serviceType, rate_per_kwh: null,
          supply: pick.serviceType === 'delivery_only' ? { rate_per_kwh: supply!.ratePerKwh, source: supply!.source, year: supply!.year } : null,
        },
        assumptions,
      });
    }

    // 2. The average rate of a utility serving the ZIP code in its state.
    const candidates = rankAverageRateUtilities(utilities.map((u) => {
      const own = servingUtilityRate(rates, { utilityId: u.id, state, zipCode: input.zip_code, sector });
      return {
        id: u.id,
        ownRate: own !== null,
        listedForZip: listedWithRateForZip(rates, input.zip_code, u.id),
        customers: utilityCustomersInState(rates, u.id, state) ?? 0,
        rate: own,
      };
    }));
    const chosen = (deliveryWithoutSupply && candidates.find((c) => c.id === deliveryWithoutSupply && c.ownRate)) || candidates[0]!;
    let rate: AverageRate | null = chosen.rate;
    const rateNotes: string[] = [];
    if (isTexasWiresUtility(chosen.id, state)) {
      rateNotes.push(`${nameOf(chosen.id)} is a Texas (ERCOT) wires utility: its customers buy energy with delivery from retail providers, `
        + 'so the rate is what those providers charge on average');
    }
    if (!rate) {
      rate = stateAverageRate(rates, state, sector);
      if (rate) rateNotes.push(`${nameOf(chosen.id)} has no ${sector} average rate of its own: the ${state} average of every utility's bundled (part A) sales is used`);
    }
    if (!rate) {
      rate = nationalAverageRate(rates, sector);
      rateNotes.push(`neither ${nameOf(chosen.id)} nor ${state} has a ${sector} average rate: the national average of bundled (part A) sales is used`);
    }
    const model = modelOf(chosen.id);
    const why = deliveryWithoutSupply
      ? `the eligible ${sector} tariffs of ${nameOf(deliveryWithoutSupply)} are delivery only and EIA-861 2018 reports no energy-only (part B) sales in ${state} to price supply`
      : unpriced.length > 0
        ? `no eligible ${sector} tariff of the ZIP code's utilities could be priced by the bill engine`
        : `no utility serving ${input.zip_code} has an eligible ${sector} tariff in ${state} `
          + '(current, general purpose, secondary or unstated voltage, bundled or delivery only, applicability admitting the building)';
    const annualKwh = (model.consumption.perMeterMilli * model.consumption.meters) / 1000;
    assumptions.push(...consumptionNotes({ input, sqft, state, sector, shapeId }, model, nameOf(chosen.id)), ...areaNotes);
    assumptions.push(
      `Priced at ${nameOf(chosen.id)}'s average ${sector} rate, $${rate!.ratePerKwh}/kWh (${rate!.source}, ${rate!.year}) x ${kwhText(annualKwh)} kWh a year, because ${why}`,
      ...rateNotes,
      ...unpriced,
    );
    return answer(input, sqft, {
      utility: { id: chosen.id, name: nameOf(chosen.id) },
      annualCents: averageRateAnnualCents(model.consumption.perMeterMilli, model.consumption.meters, rate!.ratePerKwh),
      availableTariffs: 0,
      bestTariff: null,
      basis: { kind: 'average_rate', source: rate!.source, year: rate!.year, service_type: null, rate_per_kwh: rate!.ratePerKwh, supply: null },
      assumptions,
    });

  };

  async function answer(input: DueDiligenceInput, sqft: number | null, r: {
    utility: { id: string; name: string };
    annualCents: number;
    availableTariffs: number;
    bestTariff: { name: string; estimated_annual_cost: number } | null;
    basis: DueDiligenceBasis;
    assumptions: string[];
  }) {
    const comparable = input.property_type === 'residential' || sqft === null
      ? await deps.repo.comparableCount(input.state, input.property_type, ...comparableUnitRange(input.unit_count))
      : await deps.comparableCountBySqft(input.state, input.property_type, ...comparableSqftRange(sqft));
    return {
      property_summary: {
        address: input.address, city: input.city, state: input.state, zip_code: input.zip_code, unit_count: input.unit_count, sqft,
      },
      serving_utility: { id: Number(r.utility.id), name: r.utility.name },
      estimated_costs: estimatedCosts(r.annualCents, input.unit_count, sqft),
      comparable_properties: comparable,
      available_tariffs: r.availableTariffs,
      best_tariff: r.bestTariff,
      noi_impact: noiImpact(r.annualCents, input.annual_revenue ?? null),
      basis: r.basis,
      assumptions: r.assumptions,
    };
  }
}
