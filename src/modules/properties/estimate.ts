import type { Tariff } from '../tariffs/tariff.model';
import { annualCosts } from '../analytics/annual-cost.calc';
import { estimateEnergyCost, type EnergyCostEstimate, type MonthlyBillTotal } from './energy-cost';
import type { PropertyValues } from './repository';
import type { TariffCatalog } from './tariff-catalog';

/**
 * The estimate of a property's electricity (analytics README "One annual cost"): the bill engine on
 * the tariff that prices it, with its typed monthly usage (and demand), over the 12 months.
 *
 * The tariff is the property's `tariff_id` (with its supply contract); without one, the tariff its
 * active electric meters name, since a meter's bills are priced on its tariff (meters README): a
 * building whose one electric meter has the tariff is estimated on it. Meters naming different
 * tariffs leave no estimate: the typed usage is the building's and is not split between them.
 */

export type CostColumns = Pick<PropertyValues, 'monthlyEnergyCost' | 'annualEnergyCost'>;

/** A meter as the choice of the estimate's tariff reads it. */
export interface MeterTariffs {
  utilityType: string;
  isActive: boolean;
  tariffId: string | null;
  supplyTariffId: string | null;
}

/** The tariff (and supply contract) that the active electric meters name, when they name exactly one; else null. */
export function meterEstimateTariff(meters: MeterTariffs[]): { tariffId: string; supplyTariffId: string | null } | null {
  const named = meters.filter((m) => m.utilityType === 'electric' && m.isActive && m.tariffId !== null);
  const pairs = new Set(named.map((m) => `${m.tariffId} ${m.supplyTariffId ?? ''}`));
  if (pairs.size !== 1) return null;
  return { tariffId: named[0]!.tariffId!, supplyTariffId: named[0]!.supplyTariffId };
}

export function costsOfEstimate(estimate: EnergyCostEstimate | null): CostColumns {
  return {
    monthlyEnergyCost: estimate ? estimate.monthlyCents / 100 : null,
    annualEnergyCost: estimate ? estimate.annualCents / 100 : null,
  };
}

/**
 * The one annual cost of a property that has no bills yet (a new one): analytics' rule on no
 * months, so its estimate (cents; null without one). Used where the precompute has not run yet.
 */
export function annualCostWithoutBills(row: Pick<PropertyValues, 'annualEnergyCost' | 'monthlyUsageKwh'>): number | null {
  const estimateCents = row.annualEnergyCost == null ? null : Math.round(row.annualEnergyCost * 100);
  const monthlyUsageMilli = row.monthlyUsageKwh == null ? null : Math.round(row.monthlyUsageKwh * 1000);
  return annualCosts({ months: [], asOf: 0, estimateCents, monthlyUsageMilli }).cents;
}

type Priced = Pick<PropertyValues, 'monthlyUsageKwh' | 'monthlyDemandKw' | 'supplyRatePerKwh'>;

export function createEstimates(deps: { tariffs: Pick<TariffCatalog, 'findTariffById'>; monthlyBill: MonthlyBillTotal }) {
  /** Cost columns of the estimate on `tariff` (none without a tariff or typed usage, or when the engine cannot price it). */
  function costsFor(p: Priced, tariff: Tariff | null, supply: Tariff | null): CostColumns {
    const usage = p.monthlyUsageKwh ?? null;
    const estimate =
      tariff && usage !== null
        ? estimateEnergyCost(deps.monthlyBill, tariff, usage, p.monthlyDemandKw ?? null, p.supplyRatePerKwh ?? null, supply)
        : null;
    return costsOfEstimate(estimate);
  }

  /** The tariffs of a property without its own tariff_id, from its meters (nothing when they name none or several). */
  async function meterPricing(ownerId: string, p: Pick<PropertyValues, 'supplyTariffId'>, meters: MeterTariffs[]) {
    const choice = meterEstimateTariff(meters);
    if (!choice) return { tariff: null, supply: null };
    const supplyId = choice.supplyTariffId ?? p.supplyTariffId ?? null;
    return {
      tariff: await deps.tariffs.findTariffById(choice.tariffId, ownerId),
      supply: supplyId ? await deps.tariffs.findTariffById(supplyId, ownerId) : null,
    };
  }

  /** Cost columns of a property without its own tariff_id, priced on its meters' tariff. */
  async function costsFromMeters(ownerId: string, p: Priced & Pick<PropertyValues, 'supplyTariffId'>, meters: MeterTariffs[]) {
    if (p.monthlyUsageKwh == null) return costsOfEstimate(null);
    const { tariff, supply } = await meterPricing(ownerId, p, meters);
    return costsFor(p, tariff, supply);
  }

  return { costsFor, costsFromMeters };
}
