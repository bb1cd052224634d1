/** The rule that needs the tariff pricing the bill (README "Rules"). */
import { roundDiv } from '../../platform/money';
import { RULES } from './audit.thresholds';
import type { AuditBill, BillPricing, Finding } from './audit.types';

/**
 * A rule of one bill that needs the tariff: a unit price it cannot produce. (Demand above its limit and
 * an expired tariff are the meter's causes, stated once for the bills they cover: `audit.meter.calc.ts`.)
 */
export function pricedRules(bill: AuditBill, p: Extract<BillPricing, { kind: 'priced' }>): Finding[] {
  const out: Finding[] = [];
  if (p.yearRangeCents && bill.usage !== null && bill.usage > 0) {
    const slack = (cents: number, sign: 1 | -1) => cents + sign * roundDiv(Math.abs(cents) * RULES.unitPriceSlackPercent, 100);
    const low = slack(p.yearRangeCents.min, -1);
    const high = slack(p.yearRangeCents.max, 1);
    if (bill.amountCents < low || bill.amountCents > high) {
      const perUnit = (cents: number) => (cents / 100 / (bill.usage as number)).toFixed(4);
      out.push({
        billId: bill.id,
        reason: 'unit_price_out_of_range',
        severity: 'high',
        amountCents: bill.amountCents > high ? bill.amountCents - p.yearRangeCents.max : bill.amountCents - p.yearRangeCents.min,
        message:
          `$${perUnit(bill.amountCents)} per ${bill.unit} is outside what ${p.tariffName} bills for ${bill.usage} ${bill.unit} in any month ` +
          `($${perUnit(p.yearRangeCents.min)} to $${perUnit(p.yearRangeCents.max)})`,
        details: {
          billed_per_unit: Number(perUnit(bill.amountCents)),
          min_per_unit: Number(perUnit(p.yearRangeCents.min)),
          max_per_unit: Number(perUnit(p.yearRangeCents.max)),
        },
      });
    }
  }
  return out;
}
