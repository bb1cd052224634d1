import { servingUtilityRate, type AverageRate, type AverageRatesTable, type RateSector, RATE_SECTORS } from './average-rates';

/**
 * An analyst's plausibility check, one rule for due diligence and rate analysis: a tariff that prices a customer's usage
 * below half its utility's own average revenue per kWh in the sector (EIA-861 2018, `servingUtilityRate`) leaves part of
 * the bill out. Portland General Electric's cost-of-service opt-out (Rate 485) has no energy price; Niagara Mohawk's
 * "SC2- Zone B (Metered)", published without a service type and read as bundled, is its delivery charges alone
 * ($52.52 a month, $0.009983/kWh and $11.09/kW; supply comes under its Rule 46): 30,000 kWh at 60 kW cost $1,017.41,
 * 3.4 cents a kWh, where Niagara Mohawk's commercial customers paid 9.99 cents on average in 2018. Half leaves room for a large,
 * high-load-factor customer paying well below its class's average. Pure: the table comes from the caller.
 */
export const PLAUSIBLE_SHARE_OF_AVERAGE = 0.5;

/** The price a tariff gives the usage and the average it falls below, when it falls below half of it. */
export interface ImplausiblePrice {
  pricePerKwh: number;
  average: AverageRate;
}

/** True when `cents` for `kwh` is below half of `average` (no average, or no usage: nothing to check). */
export function belowHalfAverage(cents: number, kwh: number, average: AverageRate | null): boolean {
  return average !== null && kwh > 0 && cents / 100 / kwh < average.ratePerKwh * PLAUSIBLE_SHARE_OF_AVERAGE;
}

/**
 * The check on one tariff: its utility's average rate for its sector in its state (the ZIP code's OpenEI row when EIA has
 * none), and whether `cents` for `kwh` falls below half of it. Null when it does not, or nothing can be compared
 * (a sector EIA does not report, such as lighting; no average rate).
 */
export function implausiblePrice(
  table: AverageRatesTable,
  tariff: { utilityId: string; state: string | null; sector: string },
  zipCode: string | null,
  cents: number,
  kwh: number,
): ImplausiblePrice | null {
  const sector = tariff.sector as RateSector;
  if (!RATE_SECTORS.includes(sector) || tariff.state === null) return null;
  const average = servingUtilityRate(table, { utilityId: tariff.utilityId, state: tariff.state, zipCode, sector });
  if (!belowHalfAverage(cents, kwh, average)) return null;
  return { pricePerKwh: Math.round((cents / 100 / kwh) * 10_000) / 10_000, average: average! };
}

/** The check's finding as a sentence (`whose`: the utility's name). */
export function implausiblePriceReason(found: ImplausiblePrice, sector: string, whose: string): string {
  return (
    `priced at $${found.pricePerKwh}/kWh for this usage, below half ${whose}'s average ${sector} rate, $${found.average.ratePerKwh}/kWh ` +
    `(${found.average.source}, ${found.average.year}): a record missing part of the bill (supply, or the delivery charges)`
  );
}
