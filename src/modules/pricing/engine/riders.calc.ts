import type { MonthPlan } from './plan';
import { amountCents, formatMilli } from './money';
import { MONTH_NAMES } from './calendar';
import type { BillBuilder } from './builder';

/** Riders (URDB monthly fuel adjustments), per kWh of usage_kwh: solar does not reduce them (README "Pricing rules"). */
export function priceRiders(b: BillBuilder, mp: MonthPlan, usageMilli: number): void {
  if (!mp.fuel || usageMilli <= 0) return;
  b.add('rider', `Fuel adjustment (${MONTH_NAMES[mp.month0]}): ${formatMilli(usageMilli)} kWh x $${mp.fuel.text}/kWh`,
    amountCents(usageMilli, mp.fuel));
}
