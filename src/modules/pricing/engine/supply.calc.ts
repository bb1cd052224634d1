import type { BillBuilder } from './builder';
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
  b: BillBuilder, serviceType: string, usageMilli: number, supplyRatePerKwh: number | null | undefined,
): void {
  const given = supplyRatePerKwh !== undefined && supplyRatePerKwh !== null;
  if (serviceType !== 'delivery_only') {
    if (given) b.assumptions.push(`supply_rate_per_kwh not applied: this ${serviceType === 'bundled' ? 'bundled tariff already prices supply' : 'tariff is supply only'}`);
    return;
  }
  if (!given) {
    b.assumptions.push('delivery-only tariff: supply (energy bought from a retail supplier) is not included; send supply_rate_per_kwh to price it');
    return;
  }
  const price = toPrice(supplyRatePerKwh);
  b.add('energy', `Supply ${grouped(formatMilli(usageMilli))} kWh x $${priceText(price.text)}`, amountCents(usageMilli, price));
}
