import type { MonthPlan, TariffPlan } from './plan';
import { amountCents, formatMilli } from './money';
import { MONTH_NAMES } from './calendar';
import type { BillBuilder } from './builder';

/**
 * Riders per unit of usage (URDB monthly fuel adjustments, a custom tariff's named riders): solar
 * does not reduce them (README "Pricing rules").
 */
export function priceRiders(b: BillBuilder, plan: TariffPlan, mp: MonthPlan, usageMilli: number): void {
  if (usageMilli <= 0) return;
  const u = plan.unit;
  if (mp.fuel) {
    b.add(
      'rider',
      `Fuel adjustment (${MONTH_NAMES[mp.month0]}): ${formatMilli(usageMilli)} ${u} x $${mp.fuel.text}/${u}`,
      amountCents(usageMilli, mp.fuel),
    );
  }
  for (const r of mp.riders)
    b.add('rider', `${r.name}: ${formatMilli(usageMilli)} ${u} x $${r.price.text}/${u}`, amountCents(usageMilli, r.price));
}
