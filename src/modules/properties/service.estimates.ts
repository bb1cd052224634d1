/**
 * The stored cost columns of properties priced again: by the rate-analysis job, and after a
 * property's electric meters changed tariff (estimate.ts has the rules).
 */
import type { createMeterRepository } from '../meters/public';
import type { EnergyCostEstimate } from './energy-cost';
import { costsOfEstimate, type CostColumns, type createEstimates } from './estimate';
import type { createPropertyRepository, PropertyRow } from './repository';
import type { PropertyServiceDeps } from './service';

export function createEstimateWrites(
  deps: Pick<PropertyServiceDeps, 'dataChanged'>,
  repo: ReturnType<typeof createPropertyRepository>,
  meterRepo: Pick<ReturnType<typeof createMeterRepository>, 'ofProperty' | 'electricOf'>,
  estimates: ReturnType<typeof createEstimates>,
) {
  return {
    /** The row with the cost columns of a freshly priced estimate on its current tariff (nothing stored). */
    withEstimate: (row: PropertyRow, estimate: EnergyCostEstimate | null): PropertyRow => ({ ...row, ...costsOfEstimate(estimate) }),

    /**
     * Stores freshly priced estimates (the rate-analysis job prices each property's own tariff once
     * and hands them here): one statement for the rows whose cost columns changed, none when none did.
     * A property without its own tariff is priced here on its electric meters' tariff (estimate.ts).
     */
    async storeEstimates(list: Array<{ row: PropertyRow; estimate: EnergyCostEstimate | null }>): Promise<void> {
      const fromMeters = list.filter(({ row }) => row.tariffId === null && row.monthlyUsageKwh !== null).map(({ row }) => row.id);
      const metersOf = await meterRepo.electricOf(fromMeters);
      const changed: Array<{ id: string } & CostColumns> = [];
      for (const { row, estimate } of list) {
        const costs =
          row.tariffId === null ? await estimates.costsFromMeters(row.ownerId, row, metersOf.get(row.id) ?? []) : costsOfEstimate(estimate);
        if ((Object.keys(costs) as Array<keyof CostColumns>).some((k) => costs[k] !== row[k])) changed.push({ id: row.id, ...costs });
      }
      await repo.setCostsMany(changed);
    },

    /**
     * Prices again the estimate of a property without its own tariff after its electric meters'
     * tariffs changed (meter service); stores it, and queues the analytics, when it changed.
     */
    async repriceFromMeters(ownerId: string, propertyId: string): Promise<void> {
      const row = await repo.findOwned(ownerId, propertyId);
      if (!row || row.tariffId !== null) return;
      const costs = await estimates.costsFromMeters(ownerId, row, await meterRepo.ofProperty(row.id));
      if (costs.annualEnergyCost === row.annualEnergyCost && costs.monthlyEnergyCost === row.monthlyEnergyCost) return;
      await repo.setCostsMany([{ id: row.id, ...costs }]);
      await deps.dataChanged?.(ownerId);
    },
  };
}
