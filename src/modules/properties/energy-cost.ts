import type { Tariff } from '../tariffs/tariff.model';
import { BillingError, calculateBill, type LoadShapeSet } from '../pricing/engine';
import { roundDiv, toCents } from '../../platform/money';

/**
 * One month's bill total in cents, or null when the tariff cannot be priced from what the
 * property has (a demand tariff without monthly_demand_kw).
 */
export type MonthlyBillTotal = (
  tariff: Tariff,
  input: { usageKwh: number; demandKw: number | null; month: number; supplyRatePerKwh?: number | null; supplyTariff?: Tariff | null },
) => number | null;

/** The bill engine as a MonthlyBillTotal. */
export function engineMonthlyBill(loadShapes: LoadShapeSet): MonthlyBillTotal {
  return (tariff, input) => {
    try {
      const { usageKwh, demandKw, month, supplyRatePerKwh, supplyTariff } = input;
      return calculateBill(
        tariff,
        {
          usageKwh,
          demandKw,
          month,
          supplyRatePerKwh: supplyRatePerKwh ?? null,
          supplyTariff: supplyTariff ?? null,
        },
        loadShapes,
      ).totalCostCents;
    } catch (err) {
      if (err instanceof BillingError) return null;
      throw err;
    }
  };
}

export interface EnergyCostEstimate {
  /** Sum of the 12 monthly bills (each exact to the cent). */
  annualCents: number;
  /** annualCents / 12, rounded to the cent: the estimate used wherever a "monthly cost" is shown. */
  monthlyCents: number;
}

/**
 * The estimated energy cost of a property on a tariff: the engine's bill for the property's
 * monthly usage (and demand) in each month of the year, so seasonal rates are averaged
 * instead of depending on the day the estimate is made. On a delivery-only tariff the
 * property's supply price, when it has one, is billed as the engine's supply line; its supply
 * contract (a supply-only tariff), when it has one, is billed beside it line by line instead.
 */
export function estimateEnergyCost(
  bill: MonthlyBillTotal,
  tariff: Tariff,
  usageKwh: number,
  demandKw: number | null,
  supplyRatePerKwh: number | null = null,
  supplyTariff: Tariff | null = null,
): EnergyCostEstimate | null {
  let annualCents = 0;
  for (let month = 1; month <= 12; month++) {
    const cents = bill(tariff, { usageKwh, demandKw, month, supplyRatePerKwh, supplyTariff });
    if (cents === null) return null;
    annualCents += cents;
  }
  return { annualCents, monthlyCents: roundDiv(annualCents, 12) };
}

/** energy_pct_of_noi: annual energy cost / noi x 100, 2 decimals; null when either is unknown or noi is 0. */
export function energyPctOfNoi(annualCents: number | null, noi: number | null): number | null {
  if (annualCents === null || noi === null) return null;
  const noiCents = toCents(noi);
  if (noiCents <= 0) return null;
  return roundDiv(BigInt(annualCents) * 10000n, noiCents) / 100;
}
