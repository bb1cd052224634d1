/**
 * What makes a record price a bill wrongly, read from the record itself (pure: no I/O). Bills say so in
 * `assumptions`; rate analysis and due diligence send such tariffs to review, never to a recommendation.
 *
 * - Charges its description names that its rates lack (missing-charges.ts).
 * - An energy price below zero: a tier whose $/kWh (URDB rate + adj) is negative and that credits no export
 *   (`sell`) is a credit against a price the record leaves out. Portland General Electric's "Rate 485"
 *   (cost-of-service opt-out, published as "Delivery with Standard Offer") is -$0.005926/kWh: priced as
 *   it stands, 876,000 kWh a year cost $20,779, about a quarter of the bill. 21 of the 14,000 bundled
 *   records have one (PacifiCorp Oregon's Schedules 730 and 748, PECO's GSA, SDG&E's A6-TOU Primary ...).
 */
import { chargesNamedButMissing } from './missing-charges';
import type { Tariff } from './tariff.model';

/** The first energy tier priced below zero without an export credit, as a sentence; null when none. */
export function energyPriceBelowZero(t: Pick<Tariff, 'structure'>): string | null {
  const periods = t.structure.energy?.periods ?? [];
  for (const [p, tiers] of periods.entries()) {
    for (const [i, tier] of tiers.entries()) {
      if (tier.rate < 0 && tier.sell === null) {
        return (
          `Its energy price is below zero ($${tier.rate}/kWh in period ${p + 1}${tiers.length > 1 ? `, tier ${i + 1}` : ''}): ` +
          'a credit against an energy price the record leaves out, so bills on it are too low'
        );
      }
    }
  }
  return null;
}

/** Every defect of the record that makes its bills wrong, each a sentence; empty when none. */
export function priceDefects(t: Pick<Tariff, 'description' | 'structure'>): string[] {
  const negative = energyPriceBelowZero(t);
  return [...chargesNamedButMissing(t), ...(negative ? [negative] : [])];
}
