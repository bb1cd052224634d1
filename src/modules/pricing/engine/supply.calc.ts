import type { Tariff } from '../../tariffs/tariff.model';
import type { BillBuilder } from './builder';
import type { BillResult } from './types';
import { amountCents, formatMilli, toPrice } from './money';

/** "12000.5" -> "12,000.5": the supply line reads as a supplier's invoice does. */
const grouped = (text: string) => text.replace(/^(-?\d+)/, (whole) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ','));

/** A price with at least 4 decimals ("0.085" -> "0.0850"), more when it is published finer. */
function priceText(text: string): string {
  const [whole, frac = ''] = text.split('.');
  return `${whole}.${frac.padEnd(4, '0')}`;
}

/**
 * Supply on a delivery-only tariff: the customer buys energy from a retail supplier at
 * `supplyRatePerKwh`, billed on the month's kWh as one energy line ("Supply 12,000 kWh x
 * $0.0850"). A bundled or supply-only tariff already prices supply, so the rate is not applied
 * there (the assumptions say so); without a rate, a delivery-only bill says supply is not included.
 */
export function priceSupply(
  b: BillBuilder,
  serviceType: string,
  usageMilli: number,
  supplyRatePerKwh: number | null | undefined,
  supplyTariff: Tariff | null = null,
): void {
  const given = supplyRatePerKwh !== undefined && supplyRatePerKwh !== null;
  if (supplyTariff) {
    if (serviceType === 'delivery_only' && given)
      b.assumptions.push(`supply_rate_per_kwh not applied: the supply tariff ${supplyTariff.name} prices supply`);
    else if (serviceType !== 'delivery_only') {
      b.assumptions.push(
        `supply tariff ${supplyTariff.name} not applied: this ${serviceType === 'bundled' ? 'bundled tariff already prices supply' : 'tariff is supply only'}`,
      );
    }
    return;
  }
  if (serviceType !== 'delivery_only') {
    if (given)
      b.assumptions.push(
        `supply_rate_per_kwh not applied: this ${serviceType === 'bundled' ? 'bundled tariff already prices supply' : 'tariff is supply only'}`,
      );
    return;
  }
  if (!given) {
    b.assumptions.push(
      'delivery-only tariff: supply (energy bought from a retail supplier) is not included; send supply_rate_per_kwh to price it',
    );
    return;
  }
  const price = toPrice(supplyRatePerKwh);
  b.add('energy', `Supply ${grouped(formatMilli(usageMilli))} kWh x $${priceText(price.text)}`, amountCents(usageMilli, price));
}

/**
 * A delivery-only bill with the customer's supply tariff's bill for the same usage: the supply
 * bill's line items follow the delivery ones, each named "Supply: <its name>", in their
 * categories, and every sum is the sum of the two bills' (each line is already exact to the cent).
 */
export function addSupplyBill(b: BillBuilder, supply: BillResult): void {
  for (const item of supply.lineItems) b.add(item.category, `Supply: ${item.name}`, Math.round(item.amount * 100));
  for (const a of supply.assumptions) b.assumptions.push(`supply tariff ${supply.tariffName}: ${a}`);
}
