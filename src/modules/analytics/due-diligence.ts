import { utcDay } from '../../platform/dates';
import { notFound, unprocessable } from '../../platform/http/errors';
import type { LoadShapeSet } from '../pricing/engine';
import type { MonthlyBillTotal } from '../properties/energy-cost';
import { isExpired, tariffNotices } from '../tariffs/tariff-notices';
import type { Tariff } from '../tariffs/tariff.model';
import { stateOfZip } from '../utilities/zip-states';
import {
  isTexasWiresUtility, nationalAverageRate, retailSupplyRate, servingUtilityRate, stateAverageRate, type AverageRatesTable,
} from './average-rates';
import type { ServingArea } from './due-diligence.repository';
import { belowHalfAverage } from './plausible-price';
import type { DueDiligenceInput } from './schemas';
import {
  annualBillCents, annualConsumption, averageRateAnnualCents, cheapestAndMedian, comparableSqftRange, comparableUnitRange,
  eligibilityLoad, estimatedCosts, latestEndDate, latestRevisions, monthlyUsage, noiImpact, tariffExclusion,
  type Consumption, type MonthShape, type MonthUsage, type PricedTariff, type TariffExclusion,
} from './due-diligence.calc';
import {
  choiceReason, consumptionNotes, EXCLUSION_WORDS, kwhText, plural, predecessorNotes, type UtilityChoice,
} from './due-diligence.notes';
import { residentialUsage, type ResidentialUsage, type ResidentialUsageTable } from './residential-usage';

export interface DueDiligenceDeps {
  /** Residential comparables (unit_count). */
  repo: { comparableCount(state: string, propertyType: string, lo: number, hi: number): Promise<number> };
  /** Commercial, industrial and mixed-use comparables (sqft). */
  comparableCountBySqft(state: string, propertyType: string, lo: number, hi: number): Promise<number>;
  now: () => Date;
  /** The utilities serving a ZIP code in a state, primary first (GET /utilities/by-zip's order). */
  servingUtilities(zipCode: string, state: string): Promise<ServingArea>;
  /**
   * One utility's tariffs in a state and sector, current and expired: the catalog's, then the
   * caller's own tariffs of that utility in force today.
   */
  utilityTariffs(utilityId: string, sector: DueDiligenceSector, state: string, ownerId: string | null): Promise<Tariff[]>;
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

/** The building as billed by the serving utility: residential consumption depends on the utility's average customer. */
export interface Model {
  consumption: Consumption;
  usage: ResidentialUsage | null;
  months: MonthUsage[];
  load: { monthlyKwh: number; peakKw: number };
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
    if (zipState && zipState !== input.state) {
      areaNotes.push(`ZIP code ${input.zip_code} is in ${zipState}, not ${input.state}: the utilities, tariffs and rates are those of ${zipState}`);
    }

    // The serving utility: the ZIP code's primary utility, never another one.
    const area = await deps.servingUtilities(input.zip_code, state);
    const primary = area.utilities[0];
    if (!primary) throw notFound(NO_UTILITY);
    const utilityName = primary.name ?? `EIA utility ${primary.id}`;

    // The building as the primary utility bills it (residential: its average customer).
    const shapes = deps.loadShapes();
    const shapeId = shapes.defaults[sector];
    const shape = shapeId ? (shapes.shapes[shapeId] as ShapeWithShares | undefined) : undefined;
    const hours: MonthShape[] | undefined = shape?.weekday.map((weekday, m) => ({ weekday, weekend: shape.weekend[m]! }));
    const usage = sector === 'residential' ? residentialUsage(deps.residentialUsage(), primary.id, state) : null;
    const consumption = annualConsumption({
      propertyType: input.property_type, unitCount: input.unit_count, sqft, residentialKwhPerCustomer: usage?.kwhPerCustomer ?? 0,
    });
    const months = monthlyUsage(consumption.perMeterMilli, shape?.monthly_share_of_annual, hours);
    const model: Model = { consumption, usage, months, load: eligibilityLoad(months) };
    const assumptions = [...consumptionNotes({ input, sqft, state, sector, shapeId }, model, utilityName), ...areaNotes];

    // Its tariffs: the current ones; without any, the latest known revision of each schedule.
    const all = (await deps.utilityTariffs(primary.id, sector, state, ownerId)).filter((t) => t.state === state);
    const current = all.filter((t) => !isExpired(t, today));
    // Current means current *and* one the building could take (rate analysis's rule): a utility whose only current records
    // are special-purpose or restricted (a school rate, a cogeneration rate) has nothing current for this building, and its
    // latest known general revisions are priced.
    const exclusionOf = (t: Tariff) => tariffExclusion(t, sector, model.load.monthlyKwh, model.load.peakKw);
    const currentUsable = current.filter((t) => { const why = exclusionOf(t); return why === null || why === 'review'; });
    const expired = all.filter((t) => isExpired(t, today));
    // With no expired record either, the catalog is current and simply holds nothing this building could take.
    const catalogCurrent = currentUsable.length > 0 || (current.length > 0 && expired.length === 0);
    const endDate = catalogCurrent ? null : latestEndDate(expired);
    const candidates = catalogCurrent ? current : latestRevisions(all);
    const which = catalogCurrent ? 'current' : 'latest known revisions (none current)';
    if (!catalogCurrent && all.length > 0) {
      const none = current.length > 0
        ? `in the catalog (URDB) that this building could take (its ${plural(current.length, 'current one')} ${current.length === 1 ? 'is' : 'are'} special-purpose or restricted)`
        : 'in the catalog (URDB)';
      assumptions.push(`${utilityName} has no current ${sector} tariff in ${state} ${none}: its ${plural(expired.length, current.length > 0 ? 'other tariff' : 'tariff')} `
        + `expired by ${endDate}, so the latest known revision of each of its ${plural(candidates.length, 'schedule')} is priced; its rates today may differ`);
    }

    const eligible = { bundled: [] as Tariff[], deliveryOnly: [] as Tariff[] };
    const excluded = new Map<TariffExclusion, number>();
    for (const t of candidates) {
      const reason = exclusionOf(t);
      if (reason) excluded.set(reason, (excluded.get(reason) ?? 0) + 1);
      else (t.serviceType === 'bundled' ? eligible.bundled : eligible.deliveryOnly).push(t);
    }
    if (excluded.size > 0) {
      const total = [...excluded.values()].reduce((s, n) => s + n, 0);
      const parts = (Object.keys(EXCLUSION_WORDS) as TariffExclusion[]).filter((k) => excluded.has(k)).map((k) => `${excluded.get(k)} ${EXCLUSION_WORDS[k]}`);
      assumptions.push(`Not eligible: ${plural(total, `${catalogCurrent ? 'current ' : ''}${sector} tariff`)} of ${utilityName} in ${state} (${parts.join('; ')})`);
    }

    // An analyst's plausibility check (plausible-price.ts, the rule rate analysis uses too): a tariff that prices the
    // building below half the utility's own average rate leaves a part of the bill out: it is not quoted.
    const utilityRate = servingUtilityRate(rates, { utilityId: primary.id, state, zipCode: input.zip_code, sector });
    const perMeterKwh = model.consumption.perMeterMilli / 1000;
    let implausibleTotal = 0;
    const price = (list: Tariff[], supplyRatePerKwh: number | null) => {
      const priced: PricedTariff[] = [];
      const byId = new Map<string, Tariff>();
      let implausible = 0;
      for (const tariff of list) {
        const perMeter = annualBillCents(model.months, (m) => deps.monthlyBill(tariff, {
          usageKwh: m.usageMilli / 1000, demandKw: m.demandMilli / 1000, month: m.month, supplyRatePerKwh,
        }));
        if (perMeter === null) continue;
        if (belowHalfAverage(perMeter, perMeterKwh, utilityRate)) {
          implausible += 1;
          continue;
        }
        priced.push({ id: tariff.id, name: tariff.name, annualCents: perMeter * model.consumption.meters });
        byId.set(tariff.id, tariff);
      }
      return { priced, byId, implausible };
    };

    const choice: UtilityChoice = { zipCode: input.zip_code, state, county: area.county, utilities: area.utilities };
    const supply = retailSupplyRate(rates, state, sector);
    const unpriced: string[] = [];
    let deliveryWithoutSupply = false;
    // 1. Tariffs: its eligible bundled tariffs, else its delivery-only ones with a supply price.
    for (const serviceType of ['bundled', 'delivery_only'] as const) {
      const list = serviceType === 'bundled' ? eligible.bundled : eligible.deliveryOnly;
      if (list.length === 0) continue;
      if (serviceType === 'delivery_only' && !supply) {
        deliveryWithoutSupply = true;
        break;
      }
      const { priced, byId, implausible } = price(list, serviceType === 'delivery_only' ? supply!.ratePerKwh : null);
      implausibleTotal += implausible;
      if (implausible > 0) {
        unpriced.push(`${plural(implausible, 'eligible tariff')} of ${utilityName} left out: priced below half its average ${sector} rate, `
          + `$${utilityRate!.ratePerKwh}/kWh (${utilityRate!.source}, ${utilityRate!.year}), a record missing part of the bill`);
      }
      if (list.length > priced.length + implausible) {
        unpriced.push(`${plural(list.length - priced.length - implausible, 'eligible tariff')} of ${utilityName} the bill engine cannot price`);
      }
      const picked = cheapestAndMedian(priced);
      if (!picked) continue;
      const median = byId.get(picked.median.id)!;
      const cheapest = byId.get(picked.cheapest.id)!;
      const kind = serviceType === 'bundled' ? 'bundled' : 'delivery-only';
      assumptions.push(
        `Priced on the ${plural(priced.length, `eligible ${kind} ${sector} tariff`)} of ${utilityName} in ${state} (${which}, general purpose, `
        + `secondary or unstated voltage, applicability admitting ${kwhText(model.load.monthlyKwh)} kWh a month and a `
        + `${kwhText(model.load.peakKw)} kW peak per meter), month by month by the bill engine: estimated_costs use the median `
        + `"${median.name}", best_tariff the cheapest "${cheapest.name}"`,
      );
      const inherited = predecessorNotes([...byId.values()], utilityName);
      assumptions.push(...inherited.notes);
      if (serviceType === 'delivery_only') {
        assumptions.push(`Supply: the tariffs are delivery only, so each month's kWh is added at $${supply!.ratePerKwh}/kWh, `
          + `the ${state} ${sector} average of ${supply!.source} (${supply!.year}): a retail supplier's average price`);
      } else if (eligible.deliveryOnly.length > 0) {
        assumptions.push(`${plural(eligible.deliveryOnly.length, 'eligible delivery-only tariff')} of ${utilityName} not priced: bundled tariffs preferred`);
      }
      assumptions.push(...unpriced);
      for (const [label, t] of median.id === cheapest.id ? [['Median and cheapest', median] as const] : [['Median', median] as const, ['Cheapest', cheapest] as const]) {
        for (const note of tariffNotices(t, today)) assumptions.push(`${label} tariff "${t.name}": ${note}`);
      }
      const basisNote = (catalogCurrent ? `its ${kind} ${sector} tariffs are priced` : `its latest known ${kind} ${sector} tariff revisions are priced (none is current)`)
        + inherited.reason;
      return answer(input, sqft, {
        utility: { id: primary.id, name: utilityName },
        reason: choiceReason(choice, basisNote),
        catalogCurrent,
        latestEndDate: endDate,
        annualCents: picked.median.annualCents,
        availableTariffs: priced.length,
        bestTariff: { name: cheapest.name, estimated_annual_cost: picked.cheapest.annualCents / 100 },
        basis: {
          kind: 'tariffs', source: URDB_SOURCE, year: median.effectiveDate ? Number(median.effectiveDate.slice(0, 4)) : null,
          service_type: serviceType, rate_per_kwh: null,
          supply: serviceType === 'delivery_only' ? { rate_per_kwh: supply!.ratePerKwh, source: supply!.source, year: supply!.year } : null,
        },
        assumptions,
      });
    }

    // 2. Its average rate; without one of its own, its state's (every utility's), then the nation's: said so.
    let rate = utilityRate;
    const rateNotes: string[] = [];
    let others = '';
    if (rate && isTexasWiresUtility(primary.id, state)) {
      rateNotes.push(`${utilityName} is a Texas (ERCOT) wires utility: its customers buy energy with delivery from retail providers, `
        + 'so the rate is what those providers charge on average');
      others = `, the Texas retail providers' average (${utilityName} sells no energy)`;
    }
    if (!rate) {
      rate = stateAverageRate(rates, state, sector);
      if (rate) {
        rateNotes.push(`${utilityName} has no ${sector} average rate of its own: the ${state} average of every utility's bundled (part A) sales is used`);
        others = `, the ${state} average of every utility (${utilityName} has no rate of its own)`;
      }
    }
    if (!rate) {
      rate = nationalAverageRate(rates, sector)!;
      rateNotes.push(`neither ${utilityName} nor ${state} has a ${sector} average rate: the national average of bundled (part A) sales is used`);
      others = `, the national average of every utility (neither ${utilityName} nor ${state} has a rate)`;
    }
    const why = deliveryWithoutSupply
      ? `its eligible ${sector} tariffs are delivery only and EIA-861 2018 reports no energy-only (part B) sales in ${state} to price supply`
      : implausibleTotal > 0
        ? `its eligible ${sector} tariffs price the building below half its average rate (records missing part of the bill)`
      : unpriced.length > 0
        ? `no eligible ${sector} tariff of ${utilityName} could be priced by the bill engine`
        : all.length === 0
          ? `the catalog has no ${sector} tariff of ${utilityName} in ${state}`
          : `${utilityName} has no eligible ${sector} tariff in ${state} `
            + '(one the building is positively eligible for: general purpose, secondary or unstated voltage, bundled or delivery only, limits admitting the building, no restriction in its name or applicability text)';
    const annualKwh = (consumption.perMeterMilli * consumption.meters) / 1000;
    const annualCents = averageRateAnnualCents(consumption.perMeterMilli, consumption.meters, rate.ratePerKwh);
    assumptions.push(
      `Priced at ${utilityName}'s average ${sector} rate, $${rate.ratePerKwh}/kWh (${rate.source}, ${rate.year}) x ${kwhText(annualKwh)} kWh a year, because ${why}`,
      ...rateNotes,
      ...unpriced,
    );
    return answer(input, sqft, {
      utility: { id: primary.id, name: utilityName },
      reason: choiceReason(choice, `it is priced at an average rate${others} because ${why}`),
      catalogCurrent,
      latestEndDate: endDate,
      annualCents,
      availableTariffs: 0,
      bestTariff: {
        name: `No tariff priced: ${utilityName}'s average ${sector} rate, $${rate.ratePerKwh}/kWh (${rate.source}, ${rate.year})`,
        estimated_annual_cost: annualCents / 100,
      },
      basis: { kind: 'average_rate', source: rate.source, year: rate.year, service_type: null, rate_per_kwh: rate.ratePerKwh, supply: null },
      assumptions,
    });
  };

  async function answer(input: DueDiligenceInput, sqft: number | null, r: {
    utility: { id: string; name: string };
    reason: ReturnType<typeof choiceReason>;
    catalogCurrent: boolean;
    latestEndDate: string | null;
    annualCents: number;
    availableTariffs: number;
    bestTariff: { name: string; estimated_annual_cost: number };
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
      utility_choice: r.reason,
      catalog_current: r.catalogCurrent,
      latest_tariff_end_date: r.latestEndDate,
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

