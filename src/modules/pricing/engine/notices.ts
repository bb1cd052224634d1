import type { ChargeFrequency, TariffStructure } from '../../tariffs/tariff.model';
import { formatMilli, toPrice } from './money';
import type { TariffPlan } from './plan';
import type { BillBuilder } from './builder';

const PER: Record<ChargeFrequency, string> = { monthly: 'month', daily: 'day', yearly: 'year' };

/**
 * Charges a tariff publishes that no bill request can price, each as the
 * assumption sentence every bill of the tariff carries (instead of a silent
 * under-charge):
 * - the charge per additional meter: the API bills one meter;
 * - a reactive power (kVAR) charge: requests carry no reactive demand;
 * - a demand ratchet: requests carry one month's demand, no history.
 */
export function tariffNotices(s: TariffStructure): string[] {
  const out: string[] = [];
  const meter = s.additionalMeterCharge;
  if (meter) {
    out.push(`one meter assumed: the $${toPrice(meter.amount).text}/${PER[meter.frequency]} charge per additional meter is not included`);
  }
  if (s.reactivePowerCharge) {
    out.push(
      `reactive power charge of $${toPrice(s.reactivePowerCharge).text}/kVAR not included: the request carries no reactive demand (power factor)`,
    );
  }
  const ratchet = s.demandRatchet;
  if (ratchet) {
    const pct = toPrice(ratchet.percent * 100).text;
    out.push(
      `demand ratchet not applied: the tariff bills at least ${pct}% of the highest demand of earlier months, ` +
        'and the request carries no demand history, so demand_kw is taken as the billing demand',
    );
  }
  return out;
}

const MAY_NOT_OFFER = 'the utility may not offer it to this customer';

/**
 * The bill is priced even when the request falls outside who may take the
 * tariff (its published applicability); the assumptions say so.
 */
export function checkApplicability(b: BillBuilder, plan: TariffPlan, usageMilli: number, demandMilli: number | null): void {
  const { usageMin, usageMax, demandMin, demandMax } = plan.limits;
  if (usageMax !== null && usageMilli > usageMax) {
    b.assumptions.push(
      `usage ${formatMilli(usageMilli)} kWh is above this tariff's applicability maximum of ${formatMilli(usageMax)} kWh a month: ${MAY_NOT_OFFER}`,
    );
  } else if (usageMin !== null && usageMilli < usageMin) {
    b.assumptions.push(
      `usage ${formatMilli(usageMilli)} kWh is below this tariff's applicability minimum of ${formatMilli(usageMin)} kWh a month: ${MAY_NOT_OFFER}`,
    );
  }
  if (demandMilli === null) return;
  if (demandMax !== null && demandMilli > demandMax) {
    b.assumptions.push(
      `demand ${formatMilli(demandMilli)} kW is above this tariff's applicability maximum of ${formatMilli(demandMax)} kW: ${MAY_NOT_OFFER}`,
    );
  } else if (demandMin !== null && demandMilli < demandMin) {
    b.assumptions.push(
      `demand ${formatMilli(demandMilli)} kW is below this tariff's applicability minimum of ${formatMilli(demandMin)} kW: ${MAY_NOT_OFFER}`,
    );
  }
}
