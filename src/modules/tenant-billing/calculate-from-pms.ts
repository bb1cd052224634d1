import { AppError, badRequest } from '../../platform/http/errors';
import type { ApiRouter } from '../../platform/http/router';
import { callerId } from '../../platform/http/auth';
import type { PropertyService } from '../properties/service';
import { PmsProviderError, type PmsProviderClient } from '../pms/provider-client';
import type { PmsService } from '../pms/service';
import { calculationRequest, type CalculationRequest } from './schemas';
import { calculationResponse } from './schemas.response';
import type { TenantBillingService } from './service';
import { toBillingUnits } from './pms-units';
import { calculateFromPmsRequest } from './examples';

export interface CalculateFromPmsDeps {
  properties: Pick<PropertyService, 'requireOwned'>;
  pms: Pick<PmsService, 'linkOf'>;
  provider: PmsProviderClient;
  billing: Pick<TenantBillingService, 'calculate'>;
}

export const NO_PMS = 'No PMS integration configured for this property';
export const PMS_FETCH_FAILED = 'Failed to fetch tenant data from PMS';

/**
 * POST /billing/calculate-from-pms: calculate-rubs with the units fetched from the property's PMS
 * when called (every page, or nothing: a provider failure is a 502 and nothing is stored), then
 * the tenant-billing service's own checks, allocation and storage.
 */
export function createCalculateFromPms(deps: CalculateFromPmsDeps) {
  return async (ownerId: string, request: CalculationRequest) => {
    await deps.properties.requireOwned(ownerId, request.property_id);
    const link = await deps.pms.linkOf(request.property_id);
    if (!link || !deps.provider.configured) throw badRequest(NO_PMS);
    return deps.billing.calculate(
      ownerId,
      request,
      async () => {
        try {
          return toBillingUnits(await deps.provider.fetchUnits(link.connectionId, link.pmsPropertyId), request.billing_period_start);
        } catch (err) {
          if (err instanceof PmsProviderError) throw new AppError(502, PMS_FETCH_FAILED);
          throw err;
        }
      },
      'pms',
    );
  };
}

export function registerCalculateFromPmsRoute(api: ApiRouter, deps: CalculateFromPmsDeps): void {
  const calculate = createCalculateFromPms(deps);
  api.post(
    '/billing/calculate-from-pms',
    {
      summary: "Split a master-metered bill over the units fetched from the property's PMS, and store the result",
      description:
        'The calculate-rubs request without `units`: they are fetched from the PMS data provider when called (every ' +
        "page). `sqft` is the sqft factor, the lease's `occupant_count` the occupant factor, `status` vacant marks a vacant " +
        "unit, and the lease's start and end dates are the move-in and move-out of an occupied unit. Then the configuration's " +
        'method and policies apply exactly as in calculate-rubs, and the result is stored in the billing history. A provider ' +
        'that fails (5xx, time-out or network error, 3 tries), answers garbage or pages without end gives 502 and stores nothing.',
      tags: ['Tenant billing'],
      auth: 'required',
      body: calculationRequest.meta({ example: calculateFromPmsRequest }),
      response: calculationResponse,
      errors: {
        400: `${NO_PMS} (no link, or PMS_API_URL / PMS_API_KEY unset); Billing config is not active`,
        404: 'Property not found, or Billing config not found',
        422: 'Validation error, including units from the PMS the method cannot allocate (e.g. sqft required for sqft allocation method)',
        502: PMS_FETCH_FAILED,
      },
    },
    ({ body, req }) => calculate(callerId(req), body),
  );
}
