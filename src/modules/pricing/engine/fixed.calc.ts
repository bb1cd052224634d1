import type { ChargePlan, MonthPlan } from './plan';
import { formatCents, priceCents } from './money';
import { MONTH_NAMES } from './calendar';
import type { BillBuilder } from './builder';

/** Cents of a charge for the month, and how the line item states it. */
function chargeOf(c: ChargePlan, days: number): { cents: number; how: string } {
  switch (c.frequency) {
    case 'daily':
      return { cents: priceCents(c.price, days), how: `${days} days x $${c.price.text}/day` };
    case 'yearly':
      return { cents: priceCents(c.price, 1, 12), how: `1/12 x $${c.price.text}/year` };
    default:
      return { cents: priceCents(c.price), how: `$${c.price.text}/month` };
  }
}

/** Fixed charges: monthly as published, daily x the days of the month, yearly / 12. Returns their sum in cents. */
export function priceFixed(b: BillBuilder, charges: ChargePlan[], mp: MonthPlan): number {
  let sum = 0;
  for (const c of charges) {
    const { cents, how } = chargeOf(c, mp.days);
    b.add('fixed', `${c.name}: ${how}`, cents);
    sum += cents;
  }
  return sum;
}

/**
 * Minimum charge: when the whole bill (energy + demand + fixed + riders) is
 * below the tariff's minimum for the month, a `fixed` line item tops it up.
 */
export function applyMinimum(b: BillBuilder, minimum: ChargePlan | null, mp: MonthPlan): void {
  if (!minimum) return;
  const { cents: minCents, how } = chargeOf(minimum, mp.days);
  const billed = b.totalCents();
  if (billed >= minCents) return;
  b.add('fixed', `Minimum charge top-up: minimum ${how} ($${formatCents(minCents)} in ${MONTH_NAMES[mp.month0]}) - $${formatCents(billed)} billed`,
    minCents - billed);
}
