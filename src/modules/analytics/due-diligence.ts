import { utcDay } from '../../platform/dates';
import { notFound, unprocessable } from '../../platform/http/errors';
import { stateOfZip } from '../utilities/zip-states';
import { averageRateAnswer } from './due-diligence.average-rate';
import {
  annualConsumption,
  comparableSqftRange,
  comparableUnitRange,
  eligibilityLoad,
  estimatedCosts,
  monthlyUsage,
  noiImpact,
  type MonthShape,
} from './due-diligence.calc';
import {
  NO_UTILITY,
  sectorOf,
  type AnswerFields,
  type Candidates,
  type DueDiligenceDeps,
  type DueDiligenceSector,
  type Estimate,
  type Model,
} from './due-diligence.model';
import { consumptionNotes, type UtilityChoice } from './due-diligence.notes';
import { candidateTariffs, priceOnTariffs } from './due-diligence.tariffs';
import { residentialUsage } from './residential-usage';
import type { DueDiligenceInput } from './schemas';

export {
  NO_UTILITY,
  URDB_SOURCE,
  type DueDiligenceBasis,
  type DueDiligenceDeps,
  type DueDiligenceSector,
  type Model,
} from './due-diligence.model';

interface ShapeWithShares {
  weekday: number[][];
  weekend: number[][];
  monthly_share_of_annual?: number[];
}

export function createDueDiligence(deps: DueDiligenceDeps) {
  return async function dueDiligence(input: DueDiligenceInput, ownerId: string | null = null) {
    const est = await situate(deps, input);
    // A ZIP code with a serving utility: its utilities join those the catalog refresh keeps current.
    if (ownerId !== null) await deps.rememberZip?.(ownerId, input.zip_code, deps.now());
    const candidates = await candidateTariffs(deps, est, ownerId);
    const { fields, outcome } = priceOnTariffs(deps, est, candidates);
    return answer(deps, est, candidates, fields ?? averageRateAnswer(est, candidates, outcome));
  };
}

/** The request checked, the building's state and serving utility, and the building as that utility bills it. */
async function situate(deps: DueDiligenceDeps, input: DueDiligenceInput): Promise<Estimate> {
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
    areaNotes.push(
      `ZIP code ${input.zip_code} is in ${zipState}, not ${input.state}: the utilities, tariffs and rates are those of ${zipState}`,
    );
  }

  // The serving utility: the ZIP code's primary utility, never another one.
  const area = await deps.servingUtilities(input.zip_code, state);
  const primary = area.utilities[0];
  if (!primary) throw notFound(NO_UTILITY);
  const utilityName = primary.name ?? `EIA utility ${primary.id}`;

  const { model, shapeId } = buildingModel(deps, input, sqft, sector, state, primary.id);
  const assumptions = [...consumptionNotes({ input, sqft, state, sector, shapeId }, model, utilityName), ...areaNotes];
  const choice: UtilityChoice = { zipCode: input.zip_code, state, county: area.county, utilities: area.utilities };
  return { input, sqft, today, sector, state, rates, primary, utilityName, model, choice, assumptions };
}

/** The building as the primary utility bills it (residential: its average customer). */
function buildingModel(
  deps: DueDiligenceDeps,
  input: DueDiligenceInput,
  sqft: number | null,
  sector: DueDiligenceSector,
  state: string,
  utilityId: string,
): { model: Model; shapeId: string | null | undefined } {
  const shapes = deps.loadShapes();
  const shapeId = shapes.defaults[sector];
  const shape = shapeId ? (shapes.shapes[shapeId] as ShapeWithShares | undefined) : undefined;
  const hours: MonthShape[] | undefined = shape?.weekday.map((weekday, m) => ({ weekday, weekend: shape.weekend[m]! }));
  const usage = sector === 'residential' ? residentialUsage(deps.residentialUsage(), utilityId, state) : null;
  const consumption = annualConsumption({
    propertyType: input.property_type,
    unitCount: input.unit_count,
    sqft,
    residentialKwhPerCustomer: usage?.kwhPerCustomer ?? 0,
  });
  const months = monthlyUsage(consumption.perMeterMilli, shape?.monthly_share_of_annual, hours);
  return { model: { consumption, usage, months, load: eligibilityLoad(months) }, shapeId };
}

async function answer(deps: DueDiligenceDeps, est: Estimate, c: Candidates, r: AnswerFields) {
  const { input, sqft } = est;
  const comparable =
    input.property_type === 'residential' || sqft === null
      ? await deps.repo.comparableCount(input.state, input.property_type, ...comparableUnitRange(input.unit_count))
      : await deps.comparableCountBySqft(input.state, input.property_type, ...comparableSqftRange(sqft));
  return {
    property_summary: {
      address: input.address,
      city: input.city,
      state: input.state,
      zip_code: input.zip_code,
      unit_count: input.unit_count,
      sqft,
    },
    serving_utility: { id: Number(est.primary.id), name: est.utilityName },
    utility_choice: r.reason,
    catalog_current: c.catalogCurrent,
    latest_tariff_end_date: c.latestEndDate,
    estimated_costs: estimatedCosts(r.annualCents, input.unit_count, sqft),
    comparable_properties: comparable,
    available_tariffs: r.availableTariffs,
    best_tariff: r.bestTariff,
    noi_impact: noiImpact(r.annualCents, input.annual_revenue ?? null),
    basis: r.basis,
    assumptions: est.assumptions,
  };
}
