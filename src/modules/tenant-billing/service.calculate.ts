/**
 * One calculation: checked against its property and configuration, allocated (rubs.calc.ts) and
 * stored before it is answered. The request itself was checked by its route schema
 * (`calculationRequest` or `calculateRubsBody`: total_amount to the cent, the period in order).
 */
import crypto from 'node:crypto';
import { badRequest, conflict, notFound, unprocessable } from '../../platform/http/errors';
import { parseOrThrow } from '../../platform/http/validate';
import { toCents } from '../../platform/money';
import type { UtilityType } from '../bills/utility-types';
import { dueDate } from './occupancy';
import { calculationHead, presentCalculation } from './presenters';
import type { CalculationSource } from './rubs.types';
import type { BillingConfigRow, TenantBillingRepository } from './repository';
import { allocate, AllocationError } from './rubs.calc';
import type { Allocation, AllocationMethod, AllocationTerms, BillingUnit, RoundingMode, VacancyPolicy } from './rubs.types';
import type { CalculationRequest } from './schemas';
import type { CalculationResponse } from './schemas.response';
import { pmsUnits, unitsOfMethod } from './schemas.units';
import type { TenantBillingDeps, UnitSource } from './service';
import { toStored } from './stored';
import { timeBasisOf } from './time-basis';

/** The property's configuration, active and billing the request's utility type: else 404, 400 or 422. */
async function billingConfigOf(repo: TenantBillingRepository, propertyId: string, request: CalculationRequest): Promise<BillingConfigRow> {
  const config = await repo.findConfig(propertyId, request.billing_config_id);
  if (!config) throw notFound('Billing config not found');
  if (!config.isActive) throw badRequest('Billing config is not active');
  const utilityType = request.utility_type as UtilityType;
  if (!config.utilityTypes.includes(utilityType)) {
    throw unprocessable(
      `utility_type '${utilityType}' is not billed by this billing config (it bills ${config.utilityTypes.join(', ')})`,
      'utility_type',
    );
  }
  return config;
}

/** The allocator's terms from the configuration, with the method for the utility type. */
function allocationTerms(config: BillingConfigRow, method: AllocationMethod): AllocationTerms {
  return {
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
}

/** The allocation; input the allocator cannot split by is a 422 naming the field. */
function allocated(
  terms: AllocationTerms,
  request: CalculationRequest,
  units: readonly BillingUnit[],
  dailyWeights: number[] | null,
): Allocation {
  try {
    return allocate({
      // total_amount is to the cent (the route schema), so its cents are exact.
      ...terms,
      totalCents: toCents(request.total_amount),
      periodStart: request.billing_period_start,
      periodEnd: request.billing_period_end,
      units,
      dailyWeights,
    });
  } catch (err) {
    if (err instanceof AllocationError) throw unprocessable(err.message, err.field);
    throw err;
  }
}

export function createCalculate(deps: TenantBillingDeps, repo: TenantBillingRepository) {
  /**
   * Checks, allocates and stores one calculation, and returns it. Errors, in this order: 404
   * Property not found, 404 Billing config not found (unknown, or another property's), 400 when
   * the configuration is inactive, 422 for a utility_type it does not bill, then (after loading
   * the units) 422 for units the method cannot allocate, and 409 when it would supersede a
   * calculation with charges on the PMS ledger. Nothing is stored unless all pass; an earlier
   * active calculation of the same utility type whose period overlaps becomes superseded.
   */
  return async function calculate(
    ownerId: string,
    request: CalculationRequest,
    units: UnitSource,
    source: CalculationSource,
  ): Promise<CalculationResponse> {
    const property = await deps.properties.requireOwned(ownerId, request.property_id);
    const config = await billingConfigOf(repo, property.id, request);
    const utilityType = request.utility_type as UtilityType;
    const method = (config.methodsByUtility[utilityType] ?? config.method) as AllocationMethod;
    const list = typeof units === 'function' ? parseOrThrow(pmsUnits, { units: await units({ property, config }) }).units : units;
    parseOrThrow(unitsOfMethod(method), { units: list });
    const terms = allocationTerms(config, method);
    const time = await timeBasisOf(deps.db, property, utilityType, request.billing_period_start, request.billing_period_end);
    const allocation = allocated(terms, request, list, time.dailyWeights);

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
      timeBasis: time.answer,
    };
    const head = calculationHead(header, allocation);
    // Stored before it is answered; what is stored depends on nothing the transaction decides.
    const { supersedes, firstInvoiceNumber } = await repo.insertCalculation(
      {
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
      },
      JSON.stringify(toStored(head, allocation)),
      allocation.lines.filter((l) => !l.isVacant).length,
      (overlapped) => {
        const posted = overlapped.find((o) => o.posted);
        if (posted) {
          throw conflict(
            `Calculation ${posted.id} of this utility type overlaps the period and has charges posted to the PMS: reverse it first`,
          );
        }
      },
    );
    return presentCalculation(head, allocation, {
      status: 'active',
      supersedes,
      supersededBy: null,
      voidReason: null,
      voidedAt: null,
      firstInvoiceNumber,
    });
  };
}
