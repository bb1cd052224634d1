import type { Db } from '../../platform/db/client';
import { conflict, notFound } from '../../platform/http/errors';
import { offsetOf, toPage, type Page, type PageQuery } from '../../platform/http/pagination';
import type { PropertyService } from '../properties/service';
import type { PropertyRow } from '../properties/public';
import type { BillingUnit } from './rubs.types';
import { presentHistoryItem } from './presenters';
import { fromStored, readStored, storedUnitLines } from './stored';
import { createTenantBillingRepository, type BillingConfigRow } from './repository';
import type { CalculationResponse } from './schemas.response';
import type { CalculationStatus } from './tables';
import { buildStatement } from './statement';
import { buildTurnoverStatement } from './statement.turnover';
import { calculationCsv, csvFileName } from './csv';
import { createCalculate } from './service.calculate';
import { createConfigOperations } from './service.configs';

export interface TenantBillingDeps {
  db: Db;
  now: () => Date;
  properties: Pick<PropertyService, 'requireOwned'>;
}

/** What a unit loader is given: the property and the configuration the calculation bills by. */
export interface CalculationContext {
  property: PropertyRow;
  config: BillingConfigRow;
}

/**
 * The units of a calculation: a list (calculate-rubs: the request body's, checked with it) or a
 * loader called once the property and the configuration have been checked (calculate-from-pms:
 * fetched from the PMS, then checked by the same unit schemas). Either way the factors of the
 * configuration's method are checked before anything is allocated.
 */
export type UnitSource = readonly BillingUnit[] | ((ctx: CalculationContext) => Promise<readonly BillingUnit[]>);

export function createTenantBillingService(deps: TenantBillingDeps) {
  const repo = createTenantBillingRepository(deps.db);

  /** The stored calculation (its unit bills still rows), its state and its property. */
  async function requireStored(ownerId: string, id: string) {
    const found = await repo.findCalculation(ownerId, id);
    if (!found) throw notFound('Calculation not found');
    return { stored: readStored(found.result), meta: found.meta, property: found.property };
  }

  async function requireCalculation(ownerId: string, id: string) {
    const { stored, meta, property } = await requireStored(ownerId, id);
    return { calculation: fromStored(stored, meta), property };
  }

  return {
    ...createConfigOperations(deps, repo),
    calculate: createCalculate(deps, repo),

    /**
     * Voids a calculation with the reason (README "Re-bills and voids"): 409 when it is void
     * already or has charges on the PMS ledger (reverse them first).
     */
    async voidCalculation(ownerId: string, id: string, reason: string): Promise<CalculationResponse> {
      await requireStored(ownerId, id);
      await repo.voidCalculation(id, reason, deps.now(), (state) => {
        if (state.status === 'void') throw conflict('Calculation is already void');
        if (state.posted) throw conflict('Calculation has charges posted to the PMS: reverse it before voiding it');
      });
      return (await requireCalculation(ownerId, id)).calculation;
    },

    /**
     * A page of the property's calculations, newest first, all or with one status. One row (kept by
     * triggers) gives the owner and the count; the page is read by the property's
     * (calculated_at desc, id desc) index.
     */
    async history(
      ownerId: string,
      propertyId: string,
      q: PageQuery & { status?: CalculationStatus },
    ): Promise<Page<ReturnType<typeof presentHistoryItem>>> {
      const state = await repo.historyState(propertyId);
      if (!state) {
        // No calculation yet: an empty history, if the property is the caller's.
        await deps.properties.requireOwned(ownerId, propertyId);
        return toPage([], 0, q);
      }
      if (state.ownerId !== ownerId) throw notFound('Property not found');
      if (q.status) {
        const { rows, total } = await repo.historyPageWithStatus(propertyId, q.status, q.per_page, offsetOf(q));
        return toPage(rows.map(presentHistoryItem), total, q);
      }
      const rows = state.total > offsetOf(q) ? await repo.historyPage(propertyId, q.per_page, offsetOf(q)) : [];
      return toPage(rows.map(presentHistoryItem), state.total, q);
    },

    async calculation(ownerId: string, id: string): Promise<CalculationResponse> {
      return (await requireCalculation(ownerId, id)).calculation;
    },

    async exportCsv(ownerId: string, id: string): Promise<{ fileName: string; csv: string }> {
      const { calculation } = await requireCalculation(ownerId, id);
      return { fileName: csvFileName(calculation), csv: calculationCsv(calculation) };
    },

    /**
     * A unit's statement. A unit that turned over within the period has a line per occupancy:
     * without `occupancy` its statement shows every part and the unit's total (issue 46 replaced a
     * 422 asking for the parameter); with it, that resident's own statement.
     */
    async statement(ownerId: string, id: string, unitId: string, occupancy: number | null = null) {
      // Only the unit's own bills are built: a statement reads none of the others.
      const { stored, meta, property } = await requireStored(ownerId, id);
      const { calculation, bills } = storedUnitLines(stored, meta, unitId);
      if (bills.length === 0) throw notFound('Unit not found in this calculation');
      if (occupancy !== null) {
        const bill = bills.find((b) => (b.occupancy ?? 0) === occupancy);
        if (!bill) throw notFound('Occupancy not found in this calculation');
        return buildStatement(calculation, property, bill);
      }
      return bills.length === 1 ? buildStatement(calculation, property, bills[0]) : buildTurnoverStatement(calculation, property, bills);
    },
  };
}

export type TenantBillingService = ReturnType<typeof createTenantBillingService>;
