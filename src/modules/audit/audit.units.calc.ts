/**
 * A bill whose usage was typed in the wrong unit (README "Rules", `likely_unit_error`): gallons as
 * kgal, kWh as MWh, a decimal point moved. Read from two sides: the bill's usage charges against what
 * its tariff charges for the usage as typed, and its usage per day against the meter's other bills.
 * Such a bill's price findings would state the typing error as money (a -$4.6 M variance on a
 * $3,337.99 bill), so the finding replaces them.
 */
import { daysOf, RULES, usd } from './audit.thresholds';
import type { AuditBill, BillPricing, Finding } from './audit.types';

type Priced = Extract<BillPricing, { kind: 'priced' }>;

/** The power of ten (10, 100, 1,000, ...) a ratio of at least 1 is near (within a factor of 2 either way), or null. */
export function nearPowerOfTen(ratio: number): number | null {
  if (!(ratio >= 1) || !Number.isFinite(ratio)) return null;
  const k = Math.round(Math.log10(ratio));
  if (k < 1) return null;
  const factor = 10 ** k;
  return ratio >= factor / RULES.unitErrorNearFactor && ratio <= factor * RULES.unitErrorNearFactor ? factor : null;
}

/** "1,000" */
const grouped = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 3 });
/** How far off and which way: above 1 the usage looks too large, below 1 too small. */
const spread = (ratio: number) => Math.max(ratio, 1 / ratio);

/**
 * The bill's usage charges over the tariff's for the usage as typed: the billed amount less the
 * tariff's fixed and demand charges, over the expected amount less them. Below 1 the usage looks too
 * large (a bill in gallons typed as kgal is charged a thousandth of what its usage would cost). The
 * demand charges are billed on the bill's kW, whatever its usage: left in, a demand-heavy bill typed
 * in MWh looked priced about right. Null when either side has no usage charges.
 */
export function usageChargeRatio(bill: AuditBill, p: Priced): { ratio: number; billedCents: number; expectedCents: number } | null {
  const nonUsageCents = p.expectedLines
    .filter((l) => l.category === 'fixed' || l.category === 'demand')
    .reduce((sum, l) => sum + Math.round(l.amount * 100), 0);
  const billedCents = bill.amountCents - nonUsageCents;
  const expectedCents = p.expectedCents - nonUsageCents;
  if (billedCents <= 0 || expectedCents <= 0) return null;
  return { ratio: billedCents / expectedCents, billedCents, expectedCents };
}

/**
 * The median usage per day of the meter's other bills in the bill's unit, when it has enough of
 * them: each unit's usages a day sorted once, and the one bill's own left out by index (a meter of
 * thousands of bills is not sorted once per bill).
 */
function historyMedians(bills: AuditBill[]): (i: number) => { perDay: number; count: number } | null {
  const perDayOf = (b: AuditBill) => (b.usage !== null && b.usage > 0 ? b.usage / daysOf(b) : null);
  const byUnit = new Map<string, number[]>();
  for (const b of bills) {
    const v = perDayOf(b);
    if (v === null) continue;
    const list = byUnit.get(b.unit);
    if (list) list.push(v);
    else byUnit.set(b.unit, [v]);
  }
  for (const list of byUnit.values()) list.sort((a, b) => a - b);
  return (i) => {
    const own = perDayOf(bills[i]!);
    const sorted = byUnit.get(bills[i]!.unit);
    if (own === null || !sorted || sorted.length - 1 < RULES.unitErrorMinHistory) return null;
    // The first index holding the bill's own value: the others are the list without it.
    let lo = 0;
    let hi = sorted.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < own) lo = mid + 1;
      else hi = mid;
    }
    const at = (j: number) => sorted[j < lo ? j : j + 1]!;
    const count = sorted.length - 1;
    const mid = count >> 1;
    return { perDay: count % 2 === 1 ? at(mid) : (at(mid - 1) + at(mid)) / 2, count };
  };
}

/**
 * The likely unit errors of a meter's bills, by bill id. By unit price: the usage charges are off
 * the tariff's by a factor near 100, 1,000 or more (near 10 only when the meter's history agrees or
 * there is none: a minimum bill can be 10 times a small usage's charges). By history: the usage per
 * day is 10^1.5 (31.6) times or more off the median of the meter's other bills, and the unit price
 * does not say the usage is right (within a factor of 2 of the tariff's).
 */
export function likelyUnitErrors(bills: AuditBill[], pricing: ReadonlyMap<string, BillPricing>): Map<string, Finding> {
  const out = new Map<string, Finding>();
  const historyMedian = historyMedians(bills);
  bills.forEach((bill, i) => {
    if (bill.usage === null || bill.usage <= 0) return;
    const p = pricing.get(bill.id);
    const price = p?.kind === 'priced' ? usageChargeRatio(bill, p) : null;
    const median = historyMedian(i);
    // Above 1: the usage is larger than the meter's usual.
    const history = median ? bill.usage / daysOf(bill) / median.perDay : null;
    // The usage looks too large when it is charged less than the tariff charges for it.
    const priceFactor = price ? nearPowerOfTen(spread(1 / price.ratio)) : null;
    const historyAgrees = (factor: number, tooLarge: boolean) =>
      history !== null && history > 1 === tooLarge && spread(history) >= factor / RULES.unitErrorNearFactor;
    let found: { factor: number; tooLarge: boolean; basis: 'unit_price' | 'history' } | null = null;
    if (price && priceFactor !== null && (priceFactor > 10 || history === null || historyAgrees(priceFactor, price.ratio < 1))) {
      found = { factor: priceFactor, tooLarge: price.ratio < 1, basis: 'unit_price' };
    } else if (
      history !== null &&
      spread(history) >= RULES.unitErrorHistoryRatio &&
      !(price && spread(price.ratio) <= RULES.unitErrorNearFactor)
    ) {
      found = { factor: 10 ** Math.round(Math.log10(spread(history))), tooLarge: history > 1, basis: 'history' };
    }
    if (!found) return;
    const { factor, tooLarge, basis } = found;
    const corrected = Math.round((tooLarge ? bill.usage / factor : bill.usage * factor) * 1000) / 1000;
    const why =
      basis === 'unit_price'
        ? `its usage charges (${usd(price!.billedCents)}) are ${tooLarge ? `1/${grouped(Math.round(1 / price!.ratio))} of` : `${grouped(Math.round(price!.ratio))} times`} ` +
          `what ${(p as Priced).tariffName} charges for ${grouped(bill.usage)} ${bill.unit} (${usd(price!.expectedCents)})`
        : `${grouped(Math.round((bill.usage / daysOf(bill)) * 1000) / 1000)} ${bill.unit} a day against a median of ` +
          `${grouped(Math.round(median!.perDay * 1000) / 1000)} on the meter's ${median!.count} other bills`;
    out.set(bill.id, {
      billId: bill.id,
      reason: 'likely_unit_error',
      severity: 'medium',
      amountCents: null,
      message:
        `${grouped(bill.usage)} ${bill.unit} looks ${grouped(factor)} times too ${tooLarge ? 'large' : 'small'} (a unit error?): ${why}; ` +
        `as ${grouped(corrected)} ${bill.unit} the bill can be audited, and until then its price is not`,
      details: {
        factor,
        direction: tooLarge ? 'too_large' : 'too_small',
        basis,
        usage: bill.usage,
        unit: bill.unit,
        corrected_usage: corrected,
        usage_charge_ratio: price ? Math.round(price.ratio * 1e6) / 1e6 : null,
        history_ratio: history === null ? null : Math.round(history * 1000) / 1000,
      },
    });
  });
  return out;
}
