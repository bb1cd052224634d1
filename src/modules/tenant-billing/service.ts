import crypto from 'node:crypto';
import type { Db } from '../../platform/db/client';
import { badRequest, notFound, unprocessable, validationFailed } from '../../platform/http/errors';
import { offsetOf, toPage, type Page, type PageQuery } from '../../platform/http/pagination';
import { exactCents } from '../../platform/money';
import type { PropertyService } from '../properties/service';
import type { PropertyRow } from '../properties/repository';
import type { UtilityType } from '../bills/utility-types';
import { allocate, AllocationError, type AllocationMethod, type BillingUnit, type RoundingMode, type VacancyPolicy } from './rubs.calc';
import { validateUnits } from './units.validate';
import {
  fromStored, presentCalculation, presentConfig, presentHistoryItem, readStored, storedUnitBill, toStored,
  type CalculationSource,
} from './presenters';
import { createTenantBillingRepository, violatesOneActiveConfig, type BillingConfigRow } from './repository';
import type { CalculationRequest, CalculationResponse, CreateConfigInput } from './schemas';
import { buildStatement } from './statement';
import { calculationCsv, csvFileName } from './csv';

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
 * The units of a calculation: a list (calculate-rubs: the request body's, as parsed JSON) or a
 * loader called once the property and the configuration have been checked (calculate-from-pms:
 * fetched from the PMS). Either way they are checked by validateUnits before anything else.
 */
export type UnitSource = readonly unknown[] | ((ctx: CalculationContext) => Promise<readonly BillingUnit[]>);



export function createTenantBillingService(deps: TenantBillingDeps) {
  const repo = createTenantBillingRepository(deps.db);

  /** The stored calculation (its unit bills still rows) and its property. */
  async function requireStored(ownerId: string, id: string) {
    const found = await repo.findCalculation(ownerId, id);
    if (!found) throw notFound('Calculation not found');
    return { stored: readStored(found.result), property: found.property };
  }

  async function requireCalculation(ownerId: string, id: string) {
    const { stored, property } = await requireStored(ownerId, id);
    return { calculation: fromStored(stored), property };
  }

  return {
    async createConfig(ownerId: string, input: CreateConfigInput) {
      await deps.properties.requireOwned(ownerId, input.property_id);
      try {
        const row = await repo.insertConfig({
          propertyId: input.property_id,
          method: input.method,
          utilityTypes: input.utility_types,
          commonAreaPercent: input.common_area_percent,
          adminFeePercent: input.admin_fee_percent,
          billingDay: input.billing_day,
          isActive: input.is_active,
          vacancyPolicy: input.vacancy_policy,
          rounding: input.rounding,
          sqftWeightPercent: input.sqft_weight_percent,
        }, deps.now());
        return presentConfig(row);
      } catch (err) {
        if (violatesOneActiveConfig(err)) throw badRequest('Active billing config already exists for this property');
        throw err;
      }
    },

    async listConfigs(ownerId: string, propertyId: string) {
      await deps.properties.requireOwned(ownerId, propertyId);
      return (await repo.listConfigs(propertyId)).map(presentConfig);
    },

    /**
     * Checks, allocates and stores one calculation, and returns it. Errors, in this order: 404
     * Property not found, 404 Billing config not found (unknown, or another property's), 400 when
     * the configuration is inactive, 422 for a utility_type it does not bill, then (after loading
     * the units) 422 for units the method cannot allocate. Nothing is stored unless all pass.
     */
    async calculate(ownerId: string, request: CalculationRequest, units: UnitSource, source: CalculationSource): Promise<CalculationResponse> {
      const property = await deps.properties.requireOwned(ownerId, request.property_id);
      const config = await repo.findConfig(property.id, request.billing_config_id);
      if (!config) throw notFound('Billing config not found');
      if (!config.isActive) throw badRequest('Billing config is not active');
      if (!config.utilityTypes.includes(request.utility_type)) {
        throw unprocessable(
          `utility_type '${request.utility_type}' is not billed by this billing config (it bills ${config.utilityTypes.join(', ')})`,
          'utility_type',
        );
      }
      const totalCents = exactCents(request.total_amount);
      if (totalCents === null || totalCents < 0) throw unprocessable('ensure this value has at most 2 decimal places', 'total_amount');
      if (request.billing_period_end < request.billing_period_start) {
        throw unprocessable('billing_period_end must not be before billing_period_start', 'billing_period_end');
      }
      const loaded: readonly unknown[] = typeof units === 'function' ? await units({ property, config }) : units;
      const problems = validateUnits(config.method as AllocationMethod, loaded);
      if (problems.length > 0) throw validationFailed(problems);
      const list = loaded as readonly BillingUnit[];

      const method = config.method as AllocationMethod;
      const terms = {
        method,
        vacancyPolicy: config.vacancyPolicy as VacancyPolicy,
        rounding: config.rounding as RoundingMode,
        commonAreaPercent: config.commonAreaPercent,
        adminFeePercent: config.adminFeePercent,
        sqftWeightPercent: config.sqftWeightPercent,
      };
      let allocation;
      try {
        allocation = allocate({
          ...terms, totalCents, periodStart: request.billing_period_start, periodEnd: request.billing_period_end, units: list,
        });
      } catch (err) {
        if (err instanceof AllocationError) throw unprocessable(err.message, err.field);
        throw err;
      }
      const result = presentCalculation({
        id: crypto.randomUUID(),
        propertyId: property.id,
        configId: config.id,
        periodStart: request.billing_period_start,
        periodEnd: request.billing_period_end,
        utilityType: request.utility_type as UtilityType,
        ...terms,
        source,
        calculatedAt: deps.now(),
      }, allocation);
      // Stored before it is answered.
      await repo.insertCalculation({
        id: result.id,
        propertyId: property.id,
        billingConfigId: config.id,
        source,
        billingPeriodStart: result.billing_period_start,
        billingPeriodEnd: result.billing_period_end,
        utilityType: result.utility_type,
        method,
        totalAmount: result.total_amount,
        unitsBilled: result.units_billed,
        unitsVacant: result.units_vacant,
        calculatedAt: new Date(result.calculated_at),
      }, JSON.stringify(toStored(result, allocation)));
      return result;
    },

    /**
     * A page of the property's calculations, newest first. One row (kept by triggers) gives the
     * owner and the count; the page is read by the property's (calculated_at desc, id desc) index.
     */
    async history(ownerId: string, propertyId: string, q: PageQuery): Promise<Page<ReturnType<typeof presentHistoryItem>>> {
      const state = await repo.historyState(propertyId);
      if (!state) {
        // No calculation yet: an empty history, if the property is the caller's.
        await deps.properties.requireOwned(ownerId, propertyId);
        return toPage([], 0, q);
      }
      if (state.ownerId !== ownerId) throw notFound('Property not found');
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

    async statement(ownerId: string, id: string, unitId: string) {
      // Only the unit's own bill is built: a statement reads none of the others.
      const { stored, property } = await requireStored(ownerId, id);
      const unit = storedUnitBill(stored, unitId);
      if (!unit) throw notFound('Unit not found in this calculation');
      return buildStatement(stored.calculation, property, unit);
    },
  };
}

export type TenantBillingService = ReturnType<typeof createTenantBillingService>;
