import crypto from 'node:crypto';
import type { Db } from '../../platform/db/client';
import { badRequest, conflict, notFound, unprocessable } from '../../platform/http/errors';
import { parseOrThrow } from '../../platform/http/validate';
import { offsetOf, toPage, type Page, type PageQuery } from '../../platform/http/pagination';
import { exactCents, toCents } from '../../platform/money';
import type { PropertyService } from '../properties/service';
import type { PropertyRow } from '../properties/public';
import type { UtilityType } from '../bills/utility-types';
import { allocate, AllocationError } from './rubs.calc';
import type { AllocationMethod, AllocationTerms, BillingUnit, RoundingMode, VacancyPolicy } from './rubs.types';
import { dueDate } from './occupancy';
import { pmsUnits, unitsOfMethod } from './schemas.units';
import { calculationHead, presentCalculation, presentConfig, presentHistoryItem, type CalculationSource } from './presenters';
import { fromStored, readStored, storedUnitLines, toStored } from './stored';
import { createTenantBillingRepository, violatesOneActiveConfig, type BillingConfigRow, type NewBillingConfig } from './repository';
import type { CalculationRequest, CreateConfigInput, PatchConfigInput } from './schemas';
import { configResponse, type CalculationResponse, type ConfigResponse } from './schemas.response';
import type { CalculationStatus } from './tables';
import { buildStatement } from './statement';
import { buildTurnoverStatement } from './statement.turnover';
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
 * The units of a calculation: a list (calculate-rubs: the request body's, checked with it) or a
 * loader called once the property and the configuration have been checked (calculate-from-pms:
 * fetched from the PMS, then checked by the same unit schemas). Either way the factors of the
 * configuration's method are checked before anything is allocated.
 */
export type UnitSource = readonly BillingUnit[] | ((ctx: CalculationContext) => Promise<readonly BillingUnit[]>);

/** The terms of a configuration as the API names them (a created one, or a current one with a PATCH applied). */
type ConfigTerms = Omit<ConfigResponse, 'id' | 'property_id' | 'version' | 'created_at' | 'updated_at'>;

/** The rules between terms, for a create and for the result of a PATCH alike: 422 naming the field. */
function checkTerms(t: ConfigTerms): void {
  const unbilled = Object.keys(t.methods_by_utility).filter((u) => !t.utility_types.includes(u as UtilityType));
  if (unbilled.length > 0) {
    throw unprocessable(`methods_by_utility names ${unbilled.join(', ')}, which utility_types does not bill`, 'methods_by_utility');
  }
  if (t.max_charge !== null && t.min_charge !== null && t.max_charge < t.min_charge) {
    throw unprocessable('max_charge must not be below min_charge', 'max_charge');
  }
}

/** The configuration's columns from its terms. */
function configValues(t: ConfigTerms): Omit<NewBillingConfig, 'propertyId'> {
  return {
    method: t.method,
    utilityTypes: t.utility_types,
    commonAreaPercent: t.common_area_percent,
    adminFeePercent: t.admin_fee_percent,
    billingDay: t.billing_day,
    isActive: t.is_active,
    vacancyPolicy: t.vacancy_policy,
    rounding: t.rounding,
    sqftWeightPercent: t.sqft_weight_percent,
    methodsByUtility: t.methods_by_utility as Record<string, string>,
    occupantFactors: t.occupant_factors,
    maxCharge: t.max_charge,
    minCharge: t.min_charge,
    billingFee: t.billing_fee,
  };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

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

  async function requireOwnedConfig(ownerId: string, id: string): Promise<BillingConfigRow> {
    const row = await repo.findOwnedConfig(ownerId, id);
    if (!row) throw notFound('Billing config not found');
    return row;
  }

  const oneActive = <T>(write: Promise<T>): Promise<T> => write.catch((err: unknown) => {
    if (violatesOneActiveConfig(err)) throw badRequest('Active billing config already exists for this property');
    throw err;
  });

  return {
    async createConfig(ownerId: string, input: CreateConfigInput) {
      await deps.properties.requireOwned(ownerId, input.property_id);
      const { property_id: propertyId, ...terms } = input;
      checkTerms(terms);
      const row = await oneActive(repo.insertConfig({ propertyId, ...configValues(terms) }, deps.now(), presentConfig));
      return presentConfig(row);
    },

    /**
     * A new version of the configuration with the fields sent changed (README "Configuration
     * versions"); unchanged terms answer the current version as it is. 404 for another owner's.
     */
    async patchConfig(ownerId: string, id: string, patch: PatchConfigInput) {
      const row = await requireOwnedConfig(ownerId, id);
      const { id: _id, property_id: _p, version: _v, created_at: _c, updated_at: _u, ...current } = presentConfig(row);
      const next: ConfigTerms = { ...current };
      for (const [key, value] of Object.entries(patch)) if (value !== undefined) (next as Record<string, unknown>)[key] = value;
      checkTerms(next);
      if (sameJson(next, current)) return presentConfig(row);
      const updated = await oneActive(repo.updateConfig(id, configValues(next), deps.now(), presentConfig));
      return presentConfig(updated);
    },

    async configVersions(ownerId: string, id: string) {
      await requireOwnedConfig(ownerId, id);
      // Stored as jsonb, which orders keys its own way: answered in the configuration's key order.
      const keys = Object.keys(configResponse.shape) as Array<keyof ConfigResponse>;
      return (await repo.configVersions(id)).map((terms) => Object.fromEntries(keys.map((k) => [k, terms[k]])) as ConfigResponse);
    },

    async listConfigs(ownerId: string, propertyId: string) {
      await deps.properties.requireOwned(ownerId, propertyId);
      return (await repo.listConfigs(propertyId)).map(presentConfig);
    },

    /**
     * Checks, allocates and stores one calculation, and returns it. Errors, in this order: 404
     * Property not found, 404 Billing config not found (unknown, or another property's), 400 when
     * the configuration is inactive, 422 for a utility_type it does not bill, then (after loading
     * the units) 422 for units the method cannot allocate, and 409 when it would supersede a
     * calculation with charges on the PMS ledger. Nothing is stored unless all pass; an earlier
     * active calculation of the same utility type whose period overlaps becomes superseded.
     */
    async calculate(ownerId: string, request: CalculationRequest, units: UnitSource, source: CalculationSource): Promise<CalculationResponse> {
      const property = await deps.properties.requireOwned(ownerId, request.property_id);
      const config = await repo.findConfig(property.id, request.billing_config_id);
      if (!config) throw notFound('Billing config not found');
      if (!config.isActive) throw badRequest('Billing config is not active');
      const utilityType = request.utility_type as UtilityType;
      if (!config.utilityTypes.includes(utilityType)) {
        throw unprocessable(
          `utility_type '${utilityType}' is not billed by this billing config (it bills ${config.utilityTypes.join(', ')})`,
          'utility_type',
        );
      }
      const totalCents = exactCents(request.total_amount);
      if (totalCents === null || totalCents < 0) throw unprocessable('ensure this value has at most 2 decimal places', 'total_amount');
      if (request.billing_period_end < request.billing_period_start) {
        throw unprocessable('billing_period_end must not be before billing_period_start', 'billing_period_end');
      }
      const method = (config.methodsByUtility[utilityType] ?? config.method) as AllocationMethod;
      const list = typeof units === 'function' ? parseOrThrow(pmsUnits, { units: await units({ property, config }) }).units : units;
      parseOrThrow(unitsOfMethod(method), { units: list });

      const terms: AllocationTerms = {
        method,
        vacancyPolicy: config.vacancyPolicy as VacancyPolicy,
        rounding: config.rounding as RoundingMode,
        commonAreaPercent: config.commonAreaPercent,
        adminFeePercent: config.adminFeePercent,
        sqftWeightPercent: config.sqftWeightPercent,
        occupantFactors: config.occupantFactors ?? null,
        maxChargeCents: config.maxCharge === null ? null : toCents(config.maxCharge),
        minChargeCents: config.minCharge === null ? null : toCents(config.minCharge),
        billingFeeCents: toCents(config.billingFee),
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
      const calculatedAt = deps.now();
      const header = {
        id: crypto.randomUUID(),
        propertyId: property.id,
        configId: config.id,
        configVersion: config.version,
        periodStart: request.billing_period_start,
        periodEnd: request.billing_period_end,
        utilityType,
        ...terms,
        occupantFactors: terms.occupantFactors ?? null,
        maxChargeCents: terms.maxChargeCents ?? null,
        minChargeCents: terms.minChargeCents ?? null,
        billingFeeCents: terms.billingFeeCents ?? 0,
        dueDate: dueDate(request.billing_period_end, calculatedAt, config.billingDay),
        source,
        calculatedAt,
      };
      const head = calculationHead(header, allocation);
      // Stored before it is answered; what is stored depends on nothing the transaction decides.
      const { supersedes, firstInvoiceNumber } = await repo.insertCalculation({
        id: header.id,
        propertyId: property.id,
        billingConfigId: config.id,
        billingConfigVersion: config.version,
        source,
        billingPeriodStart: header.periodStart,
        billingPeriodEnd: header.periodEnd,
        utilityType,
        method,
        totalAmount: request.total_amount,
        unitsBilled: allocation.unitsBilled,
        unitsVacant: allocation.unitsVacant,
        calculatedAt,
      }, JSON.stringify(toStored(head, allocation)), allocation.lines.filter((l) => !l.isVacant).length, (overlapped) => {
        const posted = overlapped.find((o) => o.posted);
        if (posted) {
          throw conflict(`Calculation ${posted.id} of this utility type overlaps the period and has charges posted to the PMS: reverse it first`);
        }
      });
      return presentCalculation(head, allocation, {
        status: 'active', supersedes, supersededBy: null, voidReason: null, voidedAt: null, firstInvoiceNumber,
      });
    },

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
      ownerId: string, propertyId: string, q: PageQuery & { status?: CalculationStatus },
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
