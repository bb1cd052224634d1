import type { DemandTier, EnergyTier, EnergyTierUnit } from './tariff.model';
import { UrdbRecordError, type UrdbTier } from './urdb.record';

/**
 * Tier rules of the importer. URDB tier `max` values are cumulative upper bounds
 * within the billing period; the last tier has none. Upstream entry errors are
 * resolved by these written rules, each reported as a warning:
 *
 * 1. A tier without `rate` has rate 0 (URDB omits zero keys); its price is then
 *    `adj` alone.
 * 2. A tier before the last without `max` is unbounded as written, so usage
 *    never reaches the tiers after it: those tiers are dropped.
 * 3. A tier whose `max` is not greater than the previous kept tier's `max` in
 *    the same unit covers no usage as written: it is dropped. Bounds in
 *    different units (kWh then kWh/kW "hours-use" tiers) are not comparable and
 *    are kept as published.
 * 4. A bounded last tier becomes unbounded: usage above its bound is billed at
 *    its rate, as SAM and URDB's own calculator do.
 *
 * Price per unit = rate + adj, added in decimal (no binary float residue).
 */

const ENERGY_UNITS: readonly EnergyTierUnit[] = ['kWh', 'kWh daily', 'kWh/kW', 'kWh/kVA'];

/** Sum of two published decimal prices without float residue (0.1 + 0.02 = 0.12). */
export function addPrices(a: number, b: number): number {
  return Number((a + b).toFixed(12));
}

interface BoundedTier {
  max: number | null;
  unit: string;
  price: number;
  sell: number | null;
}

function cleanTiers(raw: UrdbTier[], where: string, defaultUnit: string, warnings: string[]): BoundedTier[] {
  if (raw.length === 0) throw new UrdbRecordError(`${where} has no tiers`);
  const kept: BoundedTier[] = [];
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i];
    const n = i + 1;
    for (const key of ['rate', 'adj', 'max', 'sell'] as const) {
      const v = t[key];
      if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v)))
        throw new UrdbRecordError(`${where} tier ${n} has a non-numeric ${key}`);
    }
    if (t.rate === undefined) warnings.push(`${where} tier ${n}: no rate, taken as 0 (price = adj ${t.adj ?? 0})`);
    const tier: BoundedTier = {
      max: t.max ?? null,
      unit: t.unit ?? defaultUnit,
      price: addPrices(t.rate ?? 0, t.adj ?? 0),
      sell: t.sell ?? null,
    };
    const prev = kept[kept.length - 1];
    if (prev && prev.unit === tier.unit && prev.max !== null && tier.max !== null && tier.max <= prev.max) {
      warnings.push(
        `${where} tier ${n}: bound ${tier.max} not above the previous bound ${prev.max} (${tier.unit}); zero-width tier dropped`,
      );
      continue;
    }
    kept.push(tier);
    const isLast = i === raw.length - 1;
    if (!isLast && tier.max === null) {
      const dropped = n + 1 === raw.length ? `tier ${raw.length} is` : `tiers ${n + 1}-${raw.length} are`;
      warnings.push(`${where} tier ${n}: no bound before the last tier; ${dropped} unreachable and dropped`);
      break;
    }
  }
  const last = kept[kept.length - 1];
  if (last.max !== null) {
    warnings.push(`${where}: last tier bounded at ${last.max}; usage above it is billed at its rate`);
    last.max = null;
  }
  return kept;
}

export function energyTiers(raw: UrdbTier[], where: string, warnings: string[]): EnergyTier[] {
  return cleanTiers(raw, where, 'kWh', warnings).map((t) => {
    if (!ENERGY_UNITS.includes(t.unit as EnergyTierUnit)) throw new UrdbRecordError(`${where} has unknown tier unit "${t.unit}"`);
    return { max: t.max, unit: t.unit as EnergyTierUnit, rate: t.price, sell: t.sell };
  });
}

export function demandTiers(raw: UrdbTier[], where: string, warnings: string[]): DemandTier[] {
  return cleanTiers(raw, where, 'kW', warnings).map((t) => ({ max: t.max, rate: t.price }));
}
