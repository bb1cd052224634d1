import type { DemandTierPlan, DemandUnit, MonthPlan, PeriodPlan, TariffPlan } from './plan';
import { amountCents, formatMilli } from './money';
import { MONTH_NAMES } from './calendar';
import type { BillBuilder } from './builder';
import { isOneMonth, monthsText } from './period-length';

/**
 * Demand line items of one demand period: the bill's demand run through the
 * period's tiers (cumulative kW bands). A "daily" unit charges each day of the
 * month (or billing period): quantity = kW x days. A monthly one charges a
 * billing period's months (period-length.ts); its kW bands are not scaled (a
 * peak is no sum over days).
 */
export function priceDemandPeriod(
  b: BillBuilder,
  label: string,
  period: PeriodPlan<DemandTierPlan>,
  unit: DemandUnit,
  mp: MonthPlan,
  demandMilli: number,
): void {
  const { days, months } = mp;
  const tiers = period.tiers;
  let lower = 0;
  for (let t = 0; t < tiers.length && lower < demandMilli; t++) {
    const tier = tiers[t];
    const upper = tier.max === null || t === tiers.length - 1 ? Infinity : Math.round(tier.max * 1000);
    if (upper <= lower) continue;
    const inTier = (upper < demandMilli ? upper : demandMilli) - lower;
    lower += inTier;
    if (tier.price.int === 0) continue;
    const tierLabel = tiers.length > 1 ? `${label} tier ${t + 1}` : label;
    if (unit.daily) {
      b.add(
        'demand',
        `${tierLabel}: ${formatMilli(inTier)} ${unit.label} x ${days} days x $${tier.price.text}/${unit.label} per day`,
        amountCents(inTier, tier.price, days),
      );
    } else if (isOneMonth(months)) {
      b.add(
        'demand',
        `${tierLabel}: ${formatMilli(inTier)} ${unit.label} x $${tier.price.text}/${unit.label}`,
        amountCents(inTier, tier.price),
      );
    } else {
      b.add(
        'demand',
        `${tierLabel}: ${formatMilli(inTier)} ${unit.label} x $${tier.price.text}/${unit.label} x ${monthsText(months!)}`,
        amountCents(inTier, tier.price, months!.num, months!.den),
      );
    }
  }
}

/**
 * Coincident-peak demand: demand_kw taken as the customer's demand at the
 * utility's system peak, run through the tiers of every coincident period
 * active in the month (like TOU demand); the assumptions say so.
 */
function priceCoincident(b: BillBuilder, plan: TariffPlan, mp: MonthPlan, demandMilli: number): void {
  if (!plan.coincident || mp.coincidentPeriods.length === 0) return;
  const before = b.items.length;
  for (const p of mp.coincidentPeriods) {
    const period = plan.coincident[p];
    priceDemandPeriod(b, `Coincident peak demand ${period.name}`, period, plan.coincidentUnit, mp, demandMilli);
  }
  if (b.items.length > before) {
    b.assumptions.push(
      `demand_kw (${formatMilli(demandMilli)} ${plan.coincidentUnit.label}) taken as the customer's demand at the utility's coincident (system) peak ` +
        `in ${MONTH_NAMES[mp.month0]}: the request carries no coincident demand, so the coincident charge may be overstated ` +
        "(the demand at the system peak is at most the month's maximum demand)",
    );
  }
}

/**
 * Facility (flat, by month), time-of-use and coincident-peak demand charges.
 * With one demand_kw for the month, that demand is taken as the maximum of
 * every TOU demand period active in the month, and as the demand at the
 * coincident peak; the line items and the assumptions say so.
 */
export function priceDemand(b: BillBuilder, plan: TariffPlan, mp: MonthPlan, demandMilli: number): void {
  if (demandMilli <= 0) return;
  if (plan.flatDemand && mp.flatDemandPeriod >= 0) {
    priceDemandPeriod(b, 'Facility demand', plan.flatDemand[mp.flatDemandPeriod], plan.flatDemandUnit, mp, demandMilli);
  }
  if (plan.touDemand && mp.touDemandPeriods.length > 0) {
    const several = mp.touDemandPeriods.length > 1;
    const month = MONTH_NAMES[mp.month0];
    const before = b.items.length;
    for (const p of mp.touDemandPeriods) {
      const period = plan.touDemand[p];
      const label = several
        ? `TOU demand ${period.name} (demand_kw applied to every TOU demand period active in ${month})`
        : `TOU demand ${period.name}`;
      priceDemandPeriod(b, label, period, plan.touDemandUnit, mp, demandMilli);
    }
    if (several && b.items.length > before) {
      const names = mp.touDemandPeriods.map((p) => plan.touDemand?.[p].name).join(', ');
      b.assumptions.push(
        `demand_kw (${formatMilli(demandMilli)} ${plan.touDemandUnit.label}) taken as the maximum demand of every TOU demand period active in ${month}: ${names}`,
      );
    }
  }
  priceCoincident(b, plan, mp, demandMilli);
}
