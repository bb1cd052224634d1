/**
 * Why a bill is a price variance, when it can be said (README "Explanations"): the usage or demand
 * at which the expected bill matches what was billed, or another tariff of the utility that does.
 */
import { usd } from '../../platform/money';
import type { PricedPeriod } from '../pricing';
import type { Tariff } from '../tariffs/tariff.model';
import { customerTraits, eligibilityOf } from '../tariffs/eligibility';
import { isCustomTariffId } from '../tariffs/custom/service';
import { stateOfZip } from '../utilities/zip-states';
import { dayNumber } from '../../platform/dates';
import { isPriceVariance } from './audit.calc';
import type { BillRow, MeterAuditInput } from './repository';

/** How far the explanation's search goes: usage (or demand) from 0 to 4 times the bill's. */
const MAX_FACTOR = 4;
/**
 * Halvings of the search: the interval (at most 3 wide) ends below 0.000003, so the factor stated, its upper end, rounds to
 * the 0.1 % of the exact one (168 kW billed on 138 kW is 21.7 % more demand; 0.0002 wide, the upper end could read 21.8).
 */
const SEARCH_STEPS = 20;

/**
 * Without printed lines, the usage (or, on a bill with demand, the demand) at which the expected
 * bill equals the billed amount, found by halving the interval (README "Explanations"); null when
 * no such amount lies between 0 and 4 times the bill's.
 */
export function scaledToMatch(bill: BillRow, priced: PricedPeriod, billedCents: number, expectedCents: number): string | null {
  const byDemand = bill.demandKw !== null && bill.demandKw > 0;
  const base = byDemand ? bill.demandKw! : priced.usage;
  if (base <= 0) return null;
  const costAt = (factor: number) => {
    const scaled = Math.round(base * factor * 1000) / 1000;
    return priced.totalCentsWith(byDemand ? { demandKw: scaled } : { usage: scaled });
  };
  let [lo, hi] = billedCents > expectedCents ? [1, MAX_FACTOR] : [0, 1];
  const atHi = costAt(hi);
  const atLo = costAt(lo);
  if (atHi === null || atLo === null || billedCents < atLo || billedCents > atHi) return null;
  for (let i = 0; i < SEARCH_STEPS; i++) {
    const mid = (lo + hi) / 2;
    const cents = costAt(mid);
    if (cents === null) return null;
    if (cents < billedCents) lo = mid;
    else hi = mid;
  }
  const percent = Math.round((hi - 1) * 1000) / 10;
  if (percent === 0) return null;
  return `at ${Math.abs(percent)} % ${percent > 0 ? 'more' : 'less'} ${byDemand ? 'demand' : 'usage'}`;
}

/**
 * The other tariff of the utility on which the bill would not be a price variance, the closest to
 * the billed amount (a bill priced on the wrong rate class; README "Explanations").
 */
export function otherTariffMatching(priced: PricedPeriod, others: Tariff[], billedCents: number, tolerancePercent: number): string | null {
  let best: { tariff: Tariff; cents: number } | null = null;
  for (const other of others) {
    const cents = priced.totalCentsOn(other);
    if (cents === null || isPriceVariance(billedCents, cents, tolerancePercent)) continue;
    if (!best || Math.abs(cents - billedCents) < Math.abs(best.cents - billedCents)) best = { tariff: other, cents };
  }
  return best ? `on ${best.tariff.name} (${best.tariff.id}: ${usd(best.cents / 100)})` : null;
}

/**
 * The other tariffs the customer could be on (tariffs/eligibility.ts, the rule rate analysis recommends by):
 * the catalog's only when eligible for a customer on `tariff` with this bill's usage and demand a month; the
 * owner's own tariffs as they are (the owner wrote them for its buildings).
 */
export function eligibleOthers(others: Tariff[], tariff: Tariff, bill: BillRow, input: MeterAuditInput): Tariff[] {
  const { property } = input;
  const days = dayNumber(bill.periodEnd) - dayNumber(bill.periodStart) + 1;
  const usage = bill.usageKwh ?? bill.usage ?? 0;
  const traits = customerTraits(tariff);
  const customer = {
    ...traits,
    serviceType: traits.serviceType ?? tariff.serviceType,
    state: stateOfZip(property.zipCode) ?? tariff.state,
    sectors: [tariff.sector],
    dwelling: property.propertyType === 'residential' && (property.unitCount === null || property.unitCount <= 4),
    usageKwh: days > 0 ? (usage * 30.4375) / days : usage,
    demandKw: bill.demandKw,
  };
  return others.filter((o) => isCustomTariffId(o.id) || eligibilityOf(o, customer).status === 'eligible');
}
