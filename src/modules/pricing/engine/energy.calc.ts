import type { EnergyTierPlan, MonthPlan, PeriodPlan, TariffPlan } from './plan';
import { amountCents, formatMilli, toPrice } from './money';
import { apportion } from './load-shape';
import type { BillBuilder } from './builder';
import { isOneMonth, monthsText, timesMonths } from './period-length';

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
 * the days of the month, "kWh/kW" (and kWh/kVA) x the bill's demand; a bound
 * of the month (all but "kWh daily") x the months of a billing period
 * (period-length.ts), to the Wh.
 */
function boundMilli(tier: EnergyTierPlan, mp: MonthPlan, demandMilli: number): number {
  if (tier.max === null) return Infinity;
  switch (tier.unit) {
    case 'kWh daily':
      return Math.round(tier.max * mp.days * 1000);
    case 'kWh/kW':
    case 'kWh/kVA':
      return timesMonths(Math.round(tier.max * demandMilli), mp.months);
    default:
      return timesMonths(Math.round(tier.max * 1000), mp.months);
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

/** A tier bound that is not plain usage of the month: per day of the month, or per kW (kVA) of demand. */
const sized = (tier: EnergyTierPlan) => tier.max !== null && tier.unit !== 'kWh';

/** A period whose tiers have a bound sized by the days or the demand: its line items state every band in the published units. */
const hasSizedBound = (tiers: EnergyTierPlan[]) => tiers.some((t, i) => i < tiers.length - 1 && sized(t));

/** "180 kWh per kW", "13.5 kWh a day": a bound as published. */
function publishedBound(tier: EnergyTierPlan): string {
  const max = toPrice(tier.max as number).text;
  switch (tier.unit) {
    case 'kWh daily':
      return `${max} kWh a day`;
    case 'kWh/kW':
      return `${max} kWh per kW`;
    case 'kWh/kVA':
      return `${max} kWh per kVA`;
    default:
      return `${max} kWh`;
  }
}

/** What a bound's published figure is multiplied by on this bill: " x 31 days", " x 800 kW"; "" for plain kWh. */
function boundFactor(tier: EnergyTierPlan, mp: MonthPlan, demandMilli: number): string {
  const months = isOneMonth(mp.months) ? '' : ` x ${monthsText(mp.months!)}`;
  switch (tier.unit) {
    case 'kWh daily':
      return ` x ${mp.days} days`;
    case 'kWh/kW':
      return ` x ${formatMilli(demandMilli)} kW${months}`;
    case 'kWh/kVA':
      return ` x ${formatMilli(demandMilli)} kVA${months}`;
    default:
      return '';
  }
}

/** "180 kWh per kW x 800 kW = 144000 kWh", "3000 kWh": a bound and what it is on this bill. */
function boundText(tier: EnergyTierPlan, mp: MonthPlan, demandMilli: number): string {
  if (!sized(tier)) return `${formatMilli(boundMilli(tier, mp, demandMilli))} kWh`;
  return `${publishedBound(tier)}${boundFactor(tier, mp, demandMilli)} = ${formatMilli(boundMilli(tier, mp, demandMilli))} kWh`;
}

/**
 * The band of the month's kWh a tier covers, in the published units of its bounds ("first 180 kWh per kW x
 * 800 kW = 144000 kWh", "kWh from 180 to 360 kWh per kW x 800 kW = 144000 to 288000 kWh", "kWh from 6000 kWh
 * to 200 kWh per kW x 100 kW = 20000 kWh", "kWh above 3000"). `from` is the tier whose bound the band starts at
 * (the last tier before it that is not empty), null for the first; `to` the tier's own, null for the last.
 */
function sizedBand(from: EnergyTierPlan | null, to: EnergyTierPlan | null, mp: MonthPlan, demandMilli: number): string {
  if (from === null && to === null) return 'kWh';
  if (from === null) return `first ${boundText(to as EnergyTierPlan, mp, demandMilli)}`;
  if (to === null) return `kWh above ${sized(from) ? boundText(from, mp, demandMilli) : formatMilli(boundMilli(from, mp, demandMilli))}`;
  const lower = boundMilli(from, mp, demandMilli);
  const upper = boundMilli(to, mp, demandMilli);
  if (!sized(from) && !sized(to)) return `kWh ${formatMilli(lower)}-${formatMilli(upper)}`;
  if (from.unit === to.unit) {
    return (
      `kWh from ${toPrice(from.max as number).text} to ${publishedBound(to)}${boundFactor(to, mp, demandMilli)}` +
      ` = ${formatMilli(lower)} to ${formatMilli(upper)} kWh`
    );
  }
  return `kWh from ${boundText(from, mp, demandMilli)} to ${boundText(to, mp, demandMilli)}`;
}

/**
 * The assumption said when a tier's bound, sized by the days or the demand of this bill, is not above
 * where the tiers before it end (a kWh bound, then a kWh-per-kW one on a small demand): the tier bills nothing.
 */
function emptyTierNote(
  b: BillBuilder,
  label: string,
  t: number,
  tier: EnergyTierPlan,
  lowerMilli: number,
  mp: MonthPlan,
  demandMilli: number,
): void {
  const note =
    `${label} tier ${t + 1} covers no kWh this month: its bound (${boundText(tier, mp, demandMilli)}) ` +
    `is not above the ${formatMilli(lowerMilli)} kWh where the tiers before it end`;
  if (!b.assumptions.includes(note)) b.assumptions.push(note);
}

/**
 * Tier t's upper bound (Wh) on this bill, Infinity for the last tier; null when it is not above `lowerMilli`, where
 * the tiers before it end: the tier bills nothing, and the bill says so (emptyTierNote).
 */
function tierUpperMilli(
  b: BillBuilder,
  label: string,
  tiers: EnergyTierPlan[],
  t: number,
  lowerMilli: number,
  mp: MonthPlan,
  demandMilli: number,
): number | null {
  const upper = t === tiers.length - 1 ? Infinity : boundMilli(tiers[t], mp, demandMilli);
  if (upper > lowerMilli) return upper;
  emptyTierNote(b, label, t, tiers[t], lowerMilli, mp, demandMilli);
  return null;
}

function addPiece(b: BillBuilder, plan: TariffPlan, label: string, tiers: EnergyTierPlan[], t: number, band: string, qMilli: number): void {
  const tier = tiers[t];
  if (qMilli <= 0 || tier.price.int === 0) return;
  const u = plan.unit;
  const name =
    tiers.length > 1
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
  b: BillBuilder,
  plan: TariffPlan,
  period: PeriodPlan<EnergyTierPlan>,
  mp: MonthPlan,
  qMilli: number,
  demandMilli: number,
): void {
  const tiers = period.tiers;
  const label = periodLabel(plan, period);
  // Bounds sized by the days or the demand are stated with each band; plain kWh tiers keep the plain names.
  const stated = hasSizedBound(tiers);
  let lower = 0;
  let from: EnergyTierPlan | null = null;
  for (let t = 0; t < tiers.length && lower < qMilli; t++) {
    const upper = tierUpperMilli(b, label, tiers, t, lower, mp, demandMilli);
    if (upper === null) continue;
    const last = t === tiers.length - 1;
    const inTier = (upper < qMilli ? upper : qMilli) - lower;
    const band = stated ? ` (${sizedBand(from, last ? null : tiers[t], mp, demandMilli)})` : '';
    lower += inTier;
    from = tiers[t];
    addPiece(b, plan, label, tiers, t, band, inTier);
  }
}

// Scratch space of the shared-tier split (the engine is synchronous, so one set serves every bill).
const row: number[] = [];
/** below[t * n + i]: period i's kWh (Wh) below the upper bound of tier t. */
const below: number[] = [];
const bands: string[] = [];

/**
 * Energy line items of a month with several active periods: `quantities` (their kWh, parallel to
 * mp.energyPeriods) add up to `total`, whose apportionment by `weights` they are.
 */
type PeriodTierPricing = (
  b: BillBuilder,
  plan: TariffPlan,
  energy: PeriodPlan<EnergyTierPlan>[],
  mp: MonthPlan,
  quantities: number[],
  weights: ArrayLike<number>,
  total: number,
  demandMilli: number,
) => void;

/**
 * Periods with the same tier bounds: the month's bands [lower, upper) are cut
 * from the month's total, and the kWh below each upper bound are split over the
 * periods with one house-monotone apportionment (`weights`, whose
 * apportionment of the total is `quantities`). A period's piece of a tier is
 * the difference of two such splits, so the pieces are never negative, add up
 * to its kWh, each tier's pieces add up to the tier's kWh of the month, and no
 * piece shrinks when usage grows. Line items go period by period, tier by tier.
 */
const priceSharedTiers: PeriodTierPricing = (b, plan, energy, mp, quantities, weights, total, demandMilli) => {
  const n = mp.energyPeriods.length;
  const bounds = energy[mp.energyPeriods[0]].tiers;
  const last = bounds.length - 1;
  const stated = hasSizedBound(bounds);
  let lower = 0;
  let used = 0;
  let from: EnergyTierPlan | null = null;
  for (let t = 0; t <= last; t++) {
    const upper = tierUpperMilli(b, plan.unit === 'kWh' ? 'Energy' : 'Usage', bounds, t, lower, mp, demandMilli);
    const base = t * n;
    if (upper === null) {
      // Empty tier (a bound not above the one before it): nothing below it that the previous tier does not hold.
      for (let i = 0; i < n; i++) below[base + i] = t === 0 ? 0 : below[base - n + i];
      continue;
    }
    used = t + 1;
    if (last === 0) bands[t] = '';
    else if (stated) bands[t] = ` (share of the month's ${sizedBand(from, t === last ? null : bounds[t], mp, demandMilli)})`;
    else bands[t] = bandText(lower, upper, plan.unit);
    from = bounds[t];
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
};

/**
 * Periods whose tier bounds differ: each period applies its own published
 * bounds to the month's total (SAM's per-period formula: a period's kWh in a
 * tier = its share of the month x the month's kWh in that band of its
 * bounds). A period's kWh below each of its bounds is its part of the same
 * apportionment of the month's kWh below that bound, so its pieces are never
 * negative, add up to its kWh, and do not shrink when usage grows.
 */
const pricePerPeriodBounds: PeriodTierPricing = (b, plan, energy, mp, quantities, weights, total, demandMilli) => {
  for (let i = 0; i < mp.energyPeriods.length; i++) {
    const q = quantities[i];
    if (q <= 0) continue;
    const period = energy[mp.energyPeriods[i]];
    const tiers = period.tiers;
    const label = periodLabel(plan, period);
    const stated = hasSizedBound(tiers);
    let lower = 0;
    let before = 0;
    let from: EnergyTierPlan | null = null;
    for (let t = 0; t < tiers.length && before < q; t++) {
      const upper = tierUpperMilli(b, label, tiers, t, lower, mp, demandMilli);
      if (upper === null) continue;
      const last = t === tiers.length - 1;
      let upTo = q;
      if (upper < total) {
        apportion(upper, weights, row);
        upTo = row[i];
      }
      const band = stated
        ? ` (share of the month's ${sizedBand(from, last ? null : tiers[t], mp, demandMilli)})`
        : bandText(lower, upper, plan.unit);
      addPiece(b, plan, label, tiers, t, band, upTo - before);
      before = upTo;
      lower = upper;
      from = tiers[t];
    }
  }
};

/**
 * Energy line items for the kWh of each active period of the month
 * (`quantities` parallel to mp.energyPeriods). `weights` split the month's kWh
 * below each tier bound over the periods: the load-shape shares the usage was
 * split with (their apportionment of the total is `quantities`), or the
 * quantities themselves.
 */
export function priceEnergy(
  b: BillBuilder,
  plan: TariffPlan,
  mp: MonthPlan,
  quantities: number[],
  weights: ArrayLike<number>,
  demandMilli: number,
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
