import type { EnergyTierPlan, MonthPlan, PeriodPlan, TariffPlan } from './plan';
import { apportion } from './load-shape';
import { amountCents, formatMilli, type Price } from './money';
import type { BillBuilder } from './builder';

export interface SolarOutcome {
  /** kWh (Wh) billed per active period after netting. */
  billed: number[];
  /** kWh (Wh) exported per active period, or null when nothing is exported. */
  exported: number[] | null;
}

/** Weights for spreading solar over the month's periods: the usage's own split, or the load shape when usage is 0. */
function spreadWeights(mp: MonthPlan, usage: number[], usageTotal: number): ArrayLike<number> {
  return usageTotal > 0 ? usage : (mp.shapeShares ?? [1]);
}

/**
 * Solar generation against the month's usage.
 * - Net-metering tariffs: generation offsets consumption over the month; the
 *   net kWh keep the usage's period proportions. Generation above consumption
 *   is exported.
 * - Other tariffs (net billing, buy-all-sell-all, none): without hourly data the
 *   engine cannot tell self-consumption from export, so all generation is taken
 *   as exported and consumption is billed in full.
 * Exports are spread over the periods like the usage. `solarMilli` is > 0
 * (calculateBill skips this step without generation).
 */
export function applySolar(b: BillBuilder, plan: TariffPlan, mp: MonthPlan, usage: number[], solarMilli: number): SolarOutcome {
  const n = usage.length;
  if (n === 0) {
    b.assumptions.push('solar_generation_kwh not credited: the tariff has no energy charges to credit it against');
    return { billed: usage, exported: null };
  }
  let total = 0;
  for (let i = 0; i < n; i++) total += usage[i];
  const weights = spreadWeights(mp, usage, total);
  const exported = new Array<number>(n).fill(0);
  if (plan.netMetering) {
    if (total >= solarMilli) {
      const billed = new Array<number>(n).fill(0);
      apportion(total - solarMilli, usage, billed);
      b.assumptions.push(
        `net metering: solar_generation_kwh (${formatMilli(solarMilli)} kWh) offsets the month's consumption; the remaining ${formatMilli(total - solarMilli)} kWh keep the usage's period proportions`,
      );
      return { billed, exported: null };
    }
    apportion(solarMilli - total, weights, exported);
    b.assumptions.push(
      `net metering: solar_generation_kwh (${formatMilli(solarMilli)} kWh) offsets all ${formatMilli(total)} kWh of consumption; the excess ${formatMilli(solarMilli - total)} kWh is credited as an export`,
    );
    return { billed: new Array<number>(n).fill(0), exported };
  }
  apportion(solarMilli, weights, exported);
  b.assumptions.push(
    `the tariff does not net-meter: all ${formatMilli(solarMilli)} kWh of solar_generation_kwh taken as exported (no hourly data to tell self-consumption apart) and usage_kwh billed in full`,
  );
  return { billed: usage, exported };
}

function sellPrice(period: PeriodPlan<EnergyTierPlan>): Price | null {
  for (const t of period.tiers) if (t.sell !== null) return t.sell;
  return null;
}

/**
 * Export credit line items (negative energy amounts): at the period's sell rate
 * where the data has one; on a net-metering tariff otherwise at the period's
 * retail (first-tier) rate; on other tariffs otherwise at 0 (no line item,
 * stated in the assumptions). Returns the credits in cents (<= 0).
 */
export function creditExports(b: BillBuilder, plan: TariffPlan, mp: MonthPlan, exported: number[]): number {
  if (!plan.energy) return 0;
  let credits = 0;
  const unpriced: string[] = [];
  for (let i = 0; i < exported.length; i++) {
    const q = exported[i];
    if (q <= 0) continue;
    const period = plan.energy[mp.energyPeriods[i]];
    const sell = sellPrice(period);
    const price = sell ?? (plan.netMetering ? period.tiers[0].price : null);
    if (!price || price.int === 0) {
      unpriced.push(period.name);
      continue;
    }
    const kind = sell ? 'sell rate' : 'retail rate';
    const label = plan.netMetering ? 'Net metering export credit' : 'Solar export credit';
    const cents = -amountCents(q, price);
    b.add('energy', `${label} ${period.name} (${kind}): -${formatMilli(q)} kWh x $${price.text}/kWh`, cents);
    credits += cents;
  }
  if (unpriced.length) b.assumptions.push(`exports in ${unpriced.join(', ')} credited at 0: the tariff publishes no sell rate there`);
  return credits;
}

/** Net-metering credits never take the bill below its fixed charges (the minimum charge then applies on top). */
export function limitCredits(b: BillBuilder, credits: number, fixedCents: number): void {
  if (credits >= 0) return;
  const total = b.totalCents();
  if (total >= fixedCents) return;
  const limit = Math.min(fixedCents - total, -credits);
  b.add('energy', 'Net metering credit limit: credits cannot take the bill below the fixed charges', limit);
}
