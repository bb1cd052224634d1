/**
 * What-if's cost (README "What-if"): each bill of the year re-priced with its usage before and after
 * the changes on its meter's tariff, as the bill audit prices it (pricing's pricePeriod over the
 * versions tariffOverPeriods finds, each tariff read once per request; an electric meter without a
 * tariff of its own takes the property's), or, where no tariff prices it, its billed amount scaled
 * linearly by usage.
 */
import { calendariseBill } from '../analytics/calendarise.calc';
import { toCents } from '../../platform/money';
import { pricePeriod, type LoadShapeSet, type PricingService, type TariffReads } from '../pricing';
import type { PropertyRow } from '../properties/public';
import { scaledCents, type ChangedBill } from './what-if.calc';
import type { WhatIfBillRow, WhatIfMeterRow } from './what-if.repository';
import { billPricingRequest } from '../audit/pricing-request';

export interface CostDeps {
  pricing: Pick<PricingService, 'tariffOverPeriods'>;
  loadShapes: () => LoadShapeSet;
}

export interface BillCost {
  billedCents: number;
  beforeCents: number;
  afterCents: number;
  /** null when priced on the tariff; else why it was scaled from the billed amount. */
  scaledBecause: string | null;
  /** Added Wh a bill without usage before could not carry (no price to scale). */
  unpricedWh: number;
}

/** One bill's cost before and after the changes (whole bill, not yet the year's share). */
export async function billCost(
  deps: Pick<CostDeps, 'loadShapes'> & { tariffs: TariffReads },
  property: PropertyRow,
  meter: WhatIfMeterRow,
  row: WhatIfBillRow,
  changed: ChangedBill,
): Promise<BillCost> {
  const billedCents = toCents(row.amount);
  const scaled = (why: string): BillCost => {
    const reason = changed.addedDemandKw > 0 ? `${why}; the demand added is not priced` : why;
    const noBase = changed.usageMilli === null || changed.usageMilli <= 0;
    return {
      billedCents,
      beforeCents: billedCents,
      afterCents: scaledCents(billedCents, changed.usageMilli, changed.afterMilli),
      scaledBecause: reason,
      unpricedWh: noBase ? changed.addedWh : 0,
    };
  };
  // Priced as the bill audit prices it, from the bill's usage and demand (not from interval readings).
  const request = billPricingRequest(row, meter, property, null);
  if ('reason' in request) return scaled(request.reason);
  const found = (await deps.tariffs(property.ownerId, request))(request.inputs.period);
  if (!found.ok) return scaled(found.error.message);
  const priced = pricePeriod({ ...request.inputs, spans: found.spans, supplyTariff: found.supplyTariff }, deps.loadShapes());
  if (!priced.ok) return scaled(priced.error.message);
  const before = changed.usageMilli ?? 0;
  const after = changed.afterMilli ?? 0;
  // Electric tariffs price kWh (the common unit); a gas tariff's unit may differ, and gas only falls: the same fraction of it.
  const usage = meter.utilityType === 'electric' ? after / 1000 : before > 0 ? (priced.period.usage * after) / before : 0;
  // Demand an electrification adds is on top of the bill's billed demand (none billed: the added kW alone).
  const demand = changed.addedDemandKw > 0 ? { demandKw: (row.demandKw ?? 0) + changed.addedDemandKw } : {};
  const afterCents =
    after === before && changed.addedDemandKw === 0
      ? priced.period.bill.totalCostCents
      : priced.period.totalCentsWith({ usage, ...demand });
  if (afterCents === null) return scaled(`tariff ${request.tariffId} cannot price the changed usage`);
  return { billedCents, beforeCents: priced.period.bill.totalCostCents, afterCents, scaledBecause: null, unpricedWh: 0 };
}

/** The share of `cents` (or of `usageMilli`) in the months of `year`, calendarised by days. */
export function yearShare(bill: { periodStart: string; periodEnd: string }, year: number, cents: number, usageMilli = 0) {
  const shares = calendariseBill({ ...bill, cents, usageMilli }, { from: year * 12, to: year * 12 + 11 });
  return {
    cents: shares.reduce((s, x) => s + x.cents, 0),
    usageMilli: shares.reduce((s, x) => s + x.usageMilli, 0),
  };
}
