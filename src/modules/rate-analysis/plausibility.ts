/**
 * Rate analysis's side of the plausibility check (analytics/plausible-price.ts, the rule due diligence applies): a tariff
 * whose whole bill for the property comes out below half its utility's average rate is a record missing part of the bill,
 * never a saving. Pure: the average-rate table comes from the caller.
 */
import type { AverageRatesTable } from '../analytics/average-rates';
import { implausiblePrice, implausiblePriceReason } from '../analytics/plausible-price';
import type { Tariff } from '../tariffs/tariff.model';

/**
 * Why `monthlyCents` for `monthlyKwh` on `t` is implausibly low, or null. A delivery-only tariff priced without a supply
 * price leaves supply out by design (the analysis says so): only a whole bill is held against the average.
 */
export function implausibleCost(
  table: AverageRatesTable,
  t: Pick<Tariff, 'utilityId' | 'utilityName' | 'state' | 'sector' | 'serviceType'>,
  where: { zipCode: string; supplyPriced: boolean },
  monthlyCents: number,
  monthlyKwh: number,
): string | null {
  if (t.serviceType === 'supply_only' || (t.serviceType === 'delivery_only' && !where.supplyPriced)) return null;
  const found = implausiblePrice(table, t, where.zipCode, monthlyCents, monthlyKwh);
  return found ? implausiblePriceReason(found, t.sector, t.utilityName) : null;
}
