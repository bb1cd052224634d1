/**
 * Who is asking and what its bills say, for a rate analysis (service.ts): the customer the eligibility rules
 * judge (tariffs/eligibility.ts), and the property's electric bills of the last 365 days priced by billing period.
 */
import { dayNumber, isoDateOfDay } from '../../platform/dates';
import { pricePeriod, type PricingService, type LoadShapeSet, type PricedPeriod } from '../pricing';
import type { PropertyRow } from '../properties/public';
import { sectorsOfProperty } from '../properties/states';
import type { Tariff } from '../tariffs/tariff.model';
import { customerTraits, type EligibilityCustomer } from '../tariffs/eligibility';
import { stateOfZip } from '../utilities/zip-states';
import { billedMeter, type BilledMeter } from './from-bills';
import type { AnalysedBill, createRateAnalysisRepository } from './repository';

/**
 * The property's electric meters on its current tariff (a meter without a tariff of its own takes the
 * property's) with bills ending in the last 365 days, each bill priced for its period as the audit prices
 * it (pricePeriod: the tariff versions in force over it). Bills pricing refuses are left out.
 */
export async function billedMeters(
  deps: {
    repo: Pick<ReturnType<typeof createRateAnalysisRepository>, 'electricBills'>;
    pricing: Pick<PricingService, 'tariffOverPeriod'>;
    loadShapes: () => LoadShapeSet;
    today: string;
  },
  row: PropertyRow,
  currentTariff: Tariff,
): Promise<BilledMeter[]> {
  const { today } = deps;
  const bills = (await deps.repo.electricBills(row.id, isoDateOfDay(dayNumber(today) - 365), today)).filter(
    (b) => (b.meterTariffId ?? row.tariffId) === currentTariff.id,
  );
  const byMeter = new Map<string, AnalysedBill[]>();
  for (const b of bills) byMeter.set(b.meterId, [...(byMeter.get(b.meterId) ?? []), b]);
  const out: BilledMeter[] = [];
  for (const [meterId, list] of byMeter) {
    const priced: Array<{ bill: AnalysedBill; period: PricedPeriod }> = [];
    for (const bill of list) {
      const period = { start: bill.periodStart, end: bill.periodEnd };
      const ids = { tariffId: currentTariff.id, supplyTariffId: bill.meterSupplyTariffId ?? row.supplyTariffId };
      const found = await deps.pricing.tariffOverPeriod(row.ownerId, ids, period);
      if (!found.ok) continue;
      const result = pricePeriod(
        {
          period,
          spans: found.spans,
          supplyTariff: found.supplyTariff,
          usage: { kwh: bill.usageKwh },
          demandKw: bill.demandKw,
          supplyRatePerKwh: row.supplyRatePerKwh,
        },
        deps.loadShapes(),
      );
      if (result.ok) priced.push({ bill, period: result.period });
    }
    if (priced.length > 0) out.push(billedMeter(meterId, priced));
  }
  return out;
}

/**
 * Who is asking (tariffs/eligibility.ts): the property's place and size, and what its current tariff says
 * of it. Its sector is the current tariff's; without one, a home (residential, 1 to 4 units) is
 * residential and any other building commercial (a multifamily building's house meter is billed as a
 * business), mixed use and industrial also industrial.
 */
export function switchingCustomer(row: PropertyRow, currentTariff: Tariff | null, tariffs: Tariff[]): EligibilityCustomer {
  const dwelling = row.propertyType === 'residential' && (row.unitCount === null || row.unitCount <= 4);
  const byProperty = sectorsOfProperty(row.propertyType, row.unitCount).filter((s) => dwelling || s !== 'residential');
  const traits = customerTraits(currentTariff);
  return {
    ...traits,
    state: stateOfZip(row.zipCode) ?? currentTariff?.state ?? null,
    sectors: currentTariff ? [currentTariff.sector] : byProperty,
    dwelling,
    // Without a current tariff, compare bundled service where the utility offers it (a customer who has chosen no supplier).
    serviceType: traits.serviceType ?? (tariffs.some((t) => t.serviceType === 'bundled') ? 'bundled' : 'delivery_only'),
    usageKwh: row.monthlyUsageKwh ?? 0,
    demandKw: row.monthlyDemandKw,
  };
}
