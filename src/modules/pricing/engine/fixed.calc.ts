import type { ChargePlan, MonthPlan } from './plan';
import { formatCents, priceCents } from './money';
import { MONTH_NAMES } from './calendar';
import type { BillBuilder } from './builder';
import { isOneMonth, monthsText } from './period-length';

/**
 * Cents of a charge for the bill, and how the line item states it: daily x the days billed; monthly
 * (and yearly / 12) x the months billed, one unless the bill prices a billing period of another
 * length (period-length.ts), each rounded once.
 */
function chargeOf(c: ChargePlan, mp: MonthPlan): { cents: number; how: string } {
  const m = mp.months;
  const times = isOneMonth(m) ? '' : ` x ${monthsText(m!)}`;
  const num = m?.num ?? 1;
  const den = m?.den ?? 1;
  switch (c.frequency) {
    case 'daily':
      return { cents: priceCents(c.price, mp.days), how: `${mp.days} days x $${c.price.text}/day` };
    case 'yearly':
      return { cents: priceCents(c.price, num, 12 * den), how: `1/12 x $${c.price.text}/year${times}` };
    default:
      return { cents: priceCents(c.price, num, den), how: `$${c.price.text}/month${times}` };
  }
}

/** Fixed charges: monthly as published, daily x the days of the month, yearly / 12 (each x the months of a billing period). Returns their sum in cents. */
export function priceFixed(b: BillBuilder, charges: ChargePlan[], mp: MonthPlan): number {
  let sum = 0;
  for (const c of charges) {
    const { cents, how } = chargeOf(c, mp);
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
  const { cents: minCents, how } = chargeOf(minimum, mp);
  const billed = b.totalCents();
  if (billed >= minCents) return;
  b.add(
    'fixed',
    `Minimum charge top-up: minimum ${how} ($${formatCents(minCents)} in ${MONTH_NAMES[mp.month0]}) - $${formatCents(billed)} billed`,
    minCents - billed,
  );
}
