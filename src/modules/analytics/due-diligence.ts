import { badRequest, unprocessable } from '../../platform/http/errors';
import type { LoadShapeSet } from '../bills/engine';
import type { MonthlyBillTotal } from '../properties/energy-cost';
import type { Tariff } from '../tariffs/tariff.model';
import type { AnalyticsRepository } from './repository';
import type { DueDiligenceInput } from './schemas';
import {
  annualBillCents, annualConsumption, cheapestAndMedian, comparableUnitRange, estimatedCosts, monthlyUsage, noiImpact,
  type MonthShape, type PricedTariff,
} from './due-diligence.calc';
import { residentialUsage, type ResidentialUsageTable } from './residential-usage';

export interface DueDiligenceDeps {
  repo: Pick<AnalyticsRepository, 'comparableCount'>;
  /** Current tariffs of the utilities serving a ZIP code, in one sector. */
  areaTariffs(zipCode: string, sector: 'residential' | 'commercial'): Promise<Tariff[]>;
  monthlyBill: MonthlyBillTotal;
  loadShapes: () => LoadShapeSet;
  residentialUsage: () => ResidentialUsageTable;
}

/** Residential buildings are priced on residential rates per unit; every other type on commercial rates. */
const sectorOf = (propertyType: string) => (propertyType === 'residential' ? 'residential' : 'commercial') as 'residential' | 'commercial';

const NO_TARIFFS = 'No tariffs available for this service area';

/** The serving utility: the one with the most current tariffs in the sector (ties: the lowest EIA id). */
function servingUtility(tariffs: Tariff[]): { id: string; name: string; tariffs: Tariff[] } | null {
  const byUtility = new Map<string, Tariff[]>();
  for (const t of tariffs) {
    const list = byUtility.get(t.utilityId);
    if (list) list.push(t);
    else byUtility.set(t.utilityId, [t]);
  }
  let best: { id: string; name: string; tariffs: Tariff[] } | null = null;
  for (const [id, list] of byUtility) {
    if (!best || list.length > best.tariffs.length || (list.length === best.tariffs.length && Number(id) < Number(best.id))) {
      best = { id, name: list[0]!.utilityName, tariffs: list };
    }
  }
  return best;
}

interface ShapeWithShares {
  weekday: number[][];
  weekend: number[][];
  monthly_share_of_annual?: number[];
}

export function createDueDiligence(deps: DueDiligenceDeps) {
  return async function dueDiligence(input: DueDiligenceInput) {
    const sqft = input.sqft ?? null;
    if (input.property_type !== 'residential' && sqft === null) {
      throw unprocessable(`sqft required for ${input.property_type} properties`, 'sqft');
    }
    const sector = sectorOf(input.property_type);
    const utility = servingUtility(await deps.areaTariffs(input.zip_code, sector));
    if (!utility) throw badRequest(NO_TARIFFS);

    const usage = residentialUsage(deps.residentialUsage(), utility.id, input.state);
    const consumption = annualConsumption({
      propertyType: input.property_type, unitCount: input.unit_count, sqft, residentialKwhPerCustomer: usage.kwhPerCustomer,
    });
    const shapes = deps.loadShapes();
    const shapeId = shapes.defaults[sector];
    const shape = shapeId ? (shapes.shapes[shapeId] as ShapeWithShares | undefined) : undefined;
    const hours: MonthShape[] | undefined = shape?.weekday.map((weekday, m) => ({ weekday, weekend: shape.weekend[m]! }));
    const months = monthlyUsage(consumption.perMeterMilli, shape?.monthly_share_of_annual, hours);

    const priced: PricedTariff[] = [];
    for (const tariff of utility.tariffs) {
      const perMeter = annualBillCents(months, (m) =>
        deps.monthlyBill(tariff, { usageKwh: m.usageMilli / 1000, demandKw: m.demandMilli / 1000, month: m.month }));
      if (perMeter !== null) priced.push({ id: tariff.id, name: tariff.name, annualCents: perMeter * consumption.meters });
    }
    const picked = cheapestAndMedian(priced);
    if (!picked) throw badRequest(NO_TARIFFS);

    const [lo, hi] = comparableUnitRange(input.unit_count);
    const annualCents = picked.median.annualCents;
    return {
      property_summary: {
        address: input.address, city: input.city, state: input.state, zip_code: input.zip_code, unit_count: input.unit_count, sqft,
      },
      serving_utility: { id: Number(utility.id), name: utility.name },
      estimated_costs: estimatedCosts(annualCents, input.unit_count, sqft),
      comparable_properties: await deps.repo.comparableCount(input.state, input.property_type, lo, hi),
      available_tariffs: utility.tariffs.length,
      best_tariff: { name: picked.cheapest.name, estimated_annual_cost: picked.cheapest.annualCents / 100 },
      noi_impact: noiImpact(annualCents, input.annual_revenue ?? null),
    };
  };
}
