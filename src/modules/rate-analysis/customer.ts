/**
 * Who is asking and what its bills say, for a rate analysis (service.ts): the customer the eligibility rules
 * judge (tariffs/eligibility.ts), and the property's electric bills of the last 365 days priced by billing period.
 */
import { dayNumber, isoDateOfDay } from '../../platform/dates';
import {
  pricePeriod,
  tariffReadsOnce,
  type PricingService,
  type LoadShapeSet,
  type PeriodToPrice,
  type TariffOverPeriods,
} from '../pricing';
import type { PropertyRow } from '../properties/public';
import { sectorsOfProperty } from '../properties/states';
import type { Tariff } from '../tariffs/tariff.model';
import { customerTraits, type EligibilityCustomer } from '../tariffs/eligibility';
import { stateOfZip } from '../utilities/zip-states';
import { billedMeter, type BilledMeter, type PricedBill } from './from-bills';
import { periodKey, type IntervalReader, type PeriodIntervals } from '../meters/public';
import { zoneOfProperty } from '../properties/timezone';
import type { AnalysedBill, createRateAnalysisRepository } from './repository';

/**
 * The property's electric meters on its current tariff (a meter without a tariff of its own takes the
 * property's) with bills ending in the last 365 days, each bill priced for its period as the audit prices
 * it (pricePeriod: the tariff versions in force over it). Bills pricing refuses are left out.
 */
export async function billedMeters(
  deps: {
    repo: Pick<ReturnType<typeof createRateAnalysisRepository>, 'electricBills'>;
    pricing: Pick<PricingService, 'tariffOverPeriods'>;
    loadShapes: () => LoadShapeSet;
    today: string;
    /** The meters' interval readings: a bill whose period they cover is priced from them (README "Bills priced from interval readings"). */
    intervals?: Pick<IntervalReader, 'metersWithReadings' | 'overPeriods'>;
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
  const withReadings = (await deps.intervals?.metersWithReadings([...byMeter.keys()])) ?? new Set<string>();
  // The current tariff (and each supply contract) read once for the run, however many bills price on it.
  const tariffs = tariffReadsOnce(deps.pricing);
  const out: BilledMeter[] = [];
  for (const [meterId, list] of byMeter) {
    const readings =
      deps.intervals && withReadings.has(meterId)
        ? await deps.intervals.overPeriods(
            meterId,
            zoneOfProperty(row),
            list.map((b) => ({ start: b.periodStart, end: b.periodEnd })),
          )
        : null;
    const priced: PricedBill[] = [];
    for (const bill of list) {
      const covered = readings?.get(periodKey({ start: bill.periodStart, end: bill.periodEnd })) ?? null;
      const overPeriods = await tariffs(row.ownerId, {
        tariffId: currentTariff.id,
        supplyTariffId: bill.meterSupplyTariffId ?? row.supplyTariffId,
      });
      const one = priceBill(deps, row, overPeriods, bill, covered);
      if (one) priced.push(one);
    }
    if (priced.length > 0) out.push(billedMeter(meterId, priced));
  }
  return out;
}

/** A bill priced on the current tariff: from its meter's readings where they cover its period, else from its usage and demand; null when pricing refuses both. */
function priceBill(
  deps: Pick<Parameters<typeof billedMeters>[0], 'loadShapes'>,
  row: PropertyRow,
  overPeriods: TariffOverPeriods,
  bill: AnalysedBill,
  covered: PeriodIntervals | null,
): PricedBill | null {
  const period = { start: bill.periodStart, end: bill.periodEnd };
  const found = overPeriods(period);
  if (!found.ok) return null;
  const priceOn = (usage: Pick<PeriodToPrice, 'usage' | 'demandKw' | 'intervals'>) =>
    pricePeriod(
      { period, spans: found.spans, supplyTariff: found.supplyTariff, supplyRatePerKwh: row.supplyRatePerKwh, ...usage },
      deps.loadShapes(),
    );
  if (covered?.ok) {
    const result = priceOn({ usage: {}, intervals: covered.data });
    if (result.ok) return { bill, period: result.period, intervals: covered };
  }
  const result = priceOn({ usage: { kwh: bill.usageKwh }, demandKw: bill.demandKw });
  return result.ok ? { bill, period: result.period, intervals: null } : null;
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
