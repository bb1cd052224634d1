/**
 * What a meter's bill is priced on and from (README "Re-pricing", "Interval data"): the bill audit prices
 * each bill with it, and what-if prices a year's bills as the audit does (../emissions/what-if.cost.ts).
 */
import type { BillRow } from '../bills/public';
import type { MeterRow, PeriodIntervals } from '../meters/public';
import { FUEL_OIL_NOT_TARIFFED, isFuelOil } from '../meters/units';
import type { PeriodToPrice } from '../pricing';
import type { PropertyRow } from '../properties/public';

/** The tariff and supply contract a bill is priced on, and its period and usage as pricing takes them; or why none prices it. */
export type PricingRequest =
  { tariffId: string; supplyTariffId: string | null; inputs: Omit<PeriodToPrice, 'spans' | 'supplyTariff'> } | { reason: string };

/**
 * What prices a bill on its meter's tariff (an electric meter without one takes its property's), with the
 * supply contract, if any; or why nothing can. An electric bill whose period `covered` covers is priced from
 * those interval readings, any other from its usage and demand (`covered` null: from the bill).
 */
export function billPricingRequest(
  bill: Pick<BillRow, 'periodStart' | 'periodEnd' | 'usage' | 'usageKwh' | 'unit' | 'heatContent' | 'demandKw'>,
  meter: Pick<MeterRow, 'utilityType' | 'tariffId' | 'supplyTariffId'>,
  property: Pick<PropertyRow, 'tariffId' | 'supplyTariffId' | 'supplyRatePerKwh'>,
  covered: PeriodIntervals | null,
): PricingRequest {
  const electric = meter.utilityType === 'electric';
  const tariffId = meter.tariffId ?? (electric ? property.tariffId : null);
  if (isFuelOil(meter.utilityType)) return { reason: FUEL_OIL_NOT_TARIFFED };
  if (!tariffId)
    return { reason: electric ? 'neither the meter nor its property has a tariff' : `the ${meter.utilityType} meter has no tariff` };
  const supplyTariffId = meter.supplyTariffId ?? (electric ? property.supplyTariffId : null);
  const period = { start: bill.periodStart, end: bill.periodEnd };
  // Readings covering the period are the usage and demand: the kWh of each interval in its time-of-use period, the peaks measured.
  if (electric && covered?.ok) {
    return {
      tariffId,
      supplyTariffId,
      inputs: { period, usage: {}, intervals: covered.data, supplyRatePerKwh: property.supplyRatePerKwh },
    };
  }
  if (bill.usage === null) return { reason: 'the bill has no usage' };
  const inputs = electric
    ? { period, usage: { kwh: bill.usageKwh ?? bill.usage }, demandKw: bill.demandKw, supplyRatePerKwh: property.supplyRatePerKwh }
    : // Gas, water and sewer price with the meter's supply contract (a marketer's) as electric does (issue 47).
      // A gas volume becomes therms with the heat content the bill prints (README "Re-pricing").
      { period, usage: { quantity: bill.usage, unit: bill.unit, heatContent: bill.heatContent } };
  return { tariffId, supplyTariffId, inputs };
}
