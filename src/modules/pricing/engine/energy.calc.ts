import type { EnergyTierPlan, MonthPlan, PeriodPlan, TariffPlan } from './plan';
import { amountCents, formatMilli } from './money';
import { apportion } from './load-shape';
import type { BillBuilder } from './builder';

/**
 * Energy charges. URDB tier bounds are cumulative kWh of the month, so tiers
 * apply to the month's total kWh across its periods (as NREL SAM's
 * utilityrate5 bills them): the month's kWh fill the tiers from the bottom,
 * and each tier's kWh are shared among the month's periods in proportion to
 * their kWh; each period's piece of a tier is priced at that period's rate
 * for the tier. Quantities are Wh integers and every period's pieces add up
 * exactly to its kWh.
 */

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

/** "Energy summer" on electric tariffs, "Usage winter" on gas, water and sewer ones. */
function periodLabel(plan: TariffPlan, period: PeriodPlan<EnergyTierPlan>): string {
  if (plan.realTime) return `Real-time energy at the published rate (no hourly price series) ${period.name}`;
  return `${plan.unit === 'kWh' ? 'Energy' : 'Usage'} ${period.name}`;
}

/**
 * "(share of the month's first 3500 kWh)", "(... kWh 3500-15000)", "(... kWh above 15000)": the band of the month's
 * total usage a tier covers, in the tariff's unit.
 */
function bandText(lower: number, upper: number, unit: string): string {
  if (upper === Infinity) return ` (share of the month's ${unit} above ${formatMilli(lower)})`;
  if (lower === 0) return ` (share of the month's first ${formatMilli(upper)} ${unit})`;
  return ` (share of the month's ${unit} ${formatMilli(lower)}-${formatMilli(upper)})`;
}

function addPiece(
  b: BillBuilder, plan: TariffPlan, label: string, tiers: EnergyTierPlan[], t: number, band: string, qMilli: number,
): void {
  const tier = tiers[t];
  if (qMilli <= 0 || tier.price.int === 0) return;
  const u = plan.unit;
  const name = tiers.length > 1
    ? `${label} tier ${t + 1}${band}: ${formatMilli(qMilli)} ${u} x $${tier.price.text}/${u}`
    : `${label}: ${formatMilli(qMilli)} ${u} x $${tier.price.text}/${u}`;
  b.add('energy', name, amountCents(qMilli, tier.price));
}

/**
 * The month's only period: its kWh (the month's total) through its tiers. A
 * bound not above the one before it (possible when published units differ)
 * leaves its tier empty; usage above the last bound is billed at the last tier.
 */
function priceSinglePeriod(
  b: BillBuilder, plan: TariffPlan, period: PeriodPlan<EnergyTierPlan>, mp: MonthPlan, qMilli: number, demandMilli: number,
): void {
  const tiers = period.tiers;
  const label = periodLabel(plan, period);
  let lower = 0;
  for (let t = 0; t < tiers.length && lower < qMilli; t++) {
    const upper = t === tiers.length - 1 ? Infinity : boundMilli(tiers[t], mp.days, demandMilli);
    if (upper <= lower) continue;
    const inTier = (upper < qMilli ? upper : qMilli) - lower;
    lower += inTier;
    addPiece(b, plan, label, tiers, t, '', inTier);
  }
}

// Scratch space of the shared-tier split (the engine is synchronous, so one set serves every bill).
const row: number[] = [];
/** below[t * n + i]: period i's kWh (Wh) below the upper bound of tier t. */
const below: number[] = [];
const bands: string[] = [];

/**
 * Periods with the same tier bounds: the month's bands [lower, upper) are cut
 * from the month's total, and the kWh below each upper bound are split over the
 * periods with one house-monotone apportionment (`weights`, whose
 * apportionment of the total is `quantities`). A period's piece of a tier is
 * the difference of two such splits, so the pieces are never negative, add up
 * to its kWh, each tier's pieces add up to the tier's kWh of the month, and no
 * piece shrinks when usage grows. Line items go period by period, tier by tier.
 */
function priceSharedTiers(
  b: BillBuilder, plan: TariffPlan, energy: PeriodPlan<EnergyTierPlan>[], mp: MonthPlan,
  quantities: number[], weights: ArrayLike<number>, total: number, demandMilli: number,
): void {
  const n = mp.energyPeriods.length;
  const bounds = energy[mp.energyPeriods[0]].tiers;
  const last = bounds.length - 1;
  let lower = 0;
  let used = 0;
  for (let t = 0; t <= last; t++) {
    const upper = t === last ? Infinity : boundMilli(bounds[t], mp.days, demandMilli);
    const base = t * n;
    if (upper <= lower) {
      // Empty tier (a bound not above the one before it): nothing below it that the previous tier does not hold.
      for (let i = 0; i < n; i++) below[base + i] = t === 0 ? 0 : below[base - n + i];
      continue;
    }
    used = t + 1;
    bands[t] = last > 0 ? bandText(lower, upper, plan.unit) : '';
    if (upper >= total) {
      for (let i = 0; i < n; i++) below[base + i] = quantities[i];
      break;
    }
    apportion(upper, weights, row);
    for (let i = 0; i < n; i++) below[base + i] = row[i];
    lower = upper;
  }
  for (let i = 0; i < n; i++) {
    const period = energy[mp.energyPeriods[i]];
    const label = periodLabel(plan, period);
    for (let t = 0; t < used; t++) {
      const piece = below[t * n + i] - (t === 0 ? 0 : below[(t - 1) * n + i]);
      if (piece > 0) addPiece(b, plan, label, period.tiers, t, bands[t], piece);
    }
  }
}

/**
 * Periods whose tier bounds differ: each period applies its own published
 * bounds to the month's total (SAM's per-period formula: a period's kWh in a
 * tier = its share of the month x the month's kWh in that band of its
 * bounds). A period's kWh below each of its bounds is its part of the same
 * apportionment of the month's kWh below that bound, so its pieces are never
 * negative, add up to its kWh, and do not shrink when usage grows.
 */
function pricePerPeriodBounds(
  b: BillBuilder, plan: TariffPlan, energy: PeriodPlan<EnergyTierPlan>[], mp: MonthPlan,
  quantities: number[], weights: ArrayLike<number>, total: number, demandMilli: number,
): void {
  for (let i = 0; i < mp.energyPeriods.length; i++) {
    const q = quantities[i];
    if (q <= 0) continue;
    const period = energy[mp.energyPeriods[i]];
    const tiers = period.tiers;
    const label = periodLabel(plan, period);
    let lower = 0;
    let before = 0;
    for (let t = 0; t < tiers.length && before < q; t++) {
      const upper = t === tiers.length - 1 ? Infinity : boundMilli(tiers[t], mp.days, demandMilli);
      if (upper <= lower) continue;
      let upTo = q;
      if (upper < total) {
        apportion(upper, weights, row);
        upTo = row[i];
      }
      addPiece(b, plan, label, tiers, t, bandText(lower, upper, plan.unit), upTo - before);
      before = upTo;
      lower = upper;
    }
  }
}

/**
 * Energy line items for the kWh of each active period of the month
 * (`quantities` parallel to mp.energyPeriods). `weights` split the month's kWh
 * below each tier bound over the periods: the load-shape shares the usage was
 * split with (their apportionment of the total is `quantities`), or the
 * quantities themselves.
 */
export function priceEnergy(
  b: BillBuilder, plan: TariffPlan, mp: MonthPlan, quantities: number[], weights: ArrayLike<number>, demandMilli: number,
): void {
  const energy = plan.energy;
  const n = mp.energyPeriods.length;
  if (!energy || n === 0) return;
  if (n === 1) {
    if (quantities[0] > 0) priceSinglePeriod(b, plan, energy[mp.energyPeriods[0]], mp, quantities[0], demandMilli);
    return;
  }
  let total = 0;
  for (let i = 0; i < n; i++) total += quantities[i];
  if (total <= 0) return;
  if (mp.sharedTiers) priceSharedTiers(b, plan, energy, mp, quantities, weights, total, demandMilli);
  else pricePerPeriodBounds(b, plan, energy, mp, quantities, weights, total, demandMilli);
}
