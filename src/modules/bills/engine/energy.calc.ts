import type { EnergyTierPlan, MonthPlan, PeriodPlan, TariffPlan } from './plan';
import { amountCents, formatMilli } from './money';
import type { BillBuilder } from './builder';

/**
 * Upper bound of a tier in Wh for this bill: kWh as published, "kWh daily" x
 * the days of the month, "kWh/kW" (and kWh/kVA) x the bill's demand.
 */
function boundMilli(tier: EnergyTierPlan, days: number, demandMilli: number): number {
  if (tier.max === null) return Infinity;
  switch (tier.unit) {
    case 'kWh daily':
      return Math.round(tier.max * days * 1000);
    case 'kWh/kW':
    case 'kWh/kVA':
      return Math.round(tier.max * demandMilli);
    default:
      return Math.round(tier.max * 1000);
  }
}

/**
 * Energy line items of one period: its kWh run through the period's own tiers.
 * Tiers are cumulative bands within the period's own kWh of the month (not the
 * month's total across periods); a bound not above the one before it (possible
 * when published units differ) leaves its tier empty.
 */
export function priceEnergyPeriod(
  b: BillBuilder, plan: TariffPlan, period: PeriodPlan<EnergyTierPlan>, mp: MonthPlan, qMilli: number, demandMilli: number,
): void {
  if (qMilli <= 0) return;
  const tiers = period.tiers;
  const label = plan.realTime ? `Real-time energy at the published rate (no hourly price series) ${period.name}` : `Energy ${period.name}`;
  let lower = 0;
  for (let t = 0; t < tiers.length && lower < qMilli; t++) {
    const tier = tiers[t];
    const upper = t === tiers.length - 1 ? Infinity : boundMilli(tier, mp.days, demandMilli);
    if (upper <= lower) continue;
    const inTier = (upper < qMilli ? upper : qMilli) - lower;
    lower += inTier;
    if (tier.price.int === 0) continue;
    const name = tiers.length > 1
      ? `${label} tier ${t + 1}: ${formatMilli(inTier)} kWh x $${tier.price.text}/kWh`
      : `${label}: ${formatMilli(inTier)} kWh x $${tier.price.text}/kWh`;
    b.add('energy', name, amountCents(inTier, tier.price));
  }
}

/** Energy line items for the kWh of each active period of the month (`quantities` parallel to mp.energyPeriods). */
export function priceEnergy(b: BillBuilder, plan: TariffPlan, mp: MonthPlan, quantities: number[], demandMilli: number): void {
  if (!plan.energy) return;
  for (let i = 0; i < mp.energyPeriods.length; i++) {
    priceEnergyPeriod(b, plan, plan.energy[mp.energyPeriods[i]], mp, quantities[i], demandMilli);
  }
}
