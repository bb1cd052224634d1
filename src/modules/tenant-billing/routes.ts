import { z } from 'zod';
import type { ApiRouter } from '../../platform/http/router';
import { callerId } from '../../platform/http/auth';
import { getPageOfOwnedList, onOwned } from '../../platform/http/owned-routes';
import {
  calculateRubsBody,
  calculationParams,
  configIdParams,
  configsOfPropertyParams,
  createConfigBody,
  historyQuery,
  patchConfigBody,
  propertyParams,
  statementParams,
  statementQuery,
  voidBody,
} from './schemas';
import { calculationResponse, configResponse, configVersionsPage, historyPage, statementResponse } from './schemas.response';
import type { TenantBillingService } from './service';
import { renderStatementHtml } from './statement.html';
import { storedCalculationResponse, type PostingState } from './posting/schemas';

const tags = ['Tenant billing'];

/** A 10,000-unit body is about 1 MB of JSON; room for long names and dates. */
const CALCULATE_BODY_LIMIT = '5mb';

const ERRORS_404_PROPERTY = { 404: 'Property not found' };

/**
 * The billing routes; `postingState` is the posting service's (posting/service.ts), which GET of a
 * calculation adds to the stored answer.
 */
export function registerTenantBillingRoutes(
  api: ApiRouter,
  billing: TenantBillingService,
  postingState: (calculationId: string) => Promise<PostingState>,
): void {
  registerConfigRoutes(api, billing);
  registerCalculationRoutes(api, billing);
  registerStoredCalculationRoutes(api, billing, postingState);
}

/** Billing configurations: create, a property's list, PATCH to a new version, the versions. */
function registerConfigRoutes(api: ApiRouter, billing: TenantBillingService): void {
  api.post(
    '/billing/config',
    {
      summary: 'Create a billing configuration for a property',
      description:
        'At most one active configuration per property (held by the database, so two creates at once leave one). ' +
        'Defaults: common_area_percent 0, admin_fee_percent 0, billing_day 1, is_active true, vacancy_policy redistribute, ' +
        'rounding per_unit, sqft_weight_percent 50. Percentages have at most 4 decimals.',
      tags,
      auth: 'required',
      body: createConfigBody,
      status: 201,
      response: configResponse,
      errors: {
        400: 'Active billing config already exists for this property',
        404: 'Property not found',
        422: 'Validation error (field required, common_area_percent must be between 0 and 50, ...)',
      },
    },
    ({ body, req }) => billing.createConfig(callerId(req), body),
  );

  // One path template with PATCH /billing/config/{id} (OpenAPI 3.1 forbids two templates that differ only in a
  // parameter's name): here the id is the property's.
  onOwned(
    api,
    'get',
    '/billing/config/:id',
    {
      summary: "All of a property's billing configurations, newest first",
      description:
        "The path's id is the **property's** id (GET /billing/config/{property_id}); PATCH on the same path takes a configuration's id.",
      tags,
      params: configsOfPropertyParams,
      response: z.array(configResponse),
      notFound: 'Property not found',
    },
    (ownerId, id) => billing.listConfigs(ownerId, id),
  );

  onOwned(
    api,
    'patch',
    '/billing/config/:id',
    {
      summary: 'Change a billing configuration: a new version',
      description:
        'Any of the terms (not property_id). A change makes the next version; calculations keep the version they used ' +
        '(billing_config_version). is_active false deactivates it; true again when another configuration of the property is ' +
        'active is 400. A body that changes nothing answers the current version as it is.',
      tags,
      params: configIdParams,
      body: patchConfigBody,
      response: configResponse,
      notFound: 'Billing config not found',
      errors: {
        400: 'Active billing config already exists for this property',
        422: 'Validation error (max_charge must not be below min_charge, methods_by_utility names a utility_types does not bill, ...)',
      },
    },
    (ownerId, id, { body }) => billing.patchConfig(ownerId, id, body),
  );

  getPageOfOwnedList(
    api,
    '/billing/config/:id/versions',
    {
      summary: 'Every version of a billing configuration, newest first',
      tags,
      params: configIdParams,
      notFound: 'Billing config not found',
      response: configVersionsPage,
    },
    billing.configVersions,
  );
}

/** Calculating, and a property's history of calculations. */
function registerCalculationRoutes(api: ApiRouter, billing: TenantBillingService): void {
  api.post(
    '/billing/calculate-rubs',
    {
      summary: 'Split a master-metered bill over the units (RUBS) and store the result',
      description:
        "The module README's rules (common area to reconciliation) with the configuration's method (or its method for the utility type), " +
        "vacancy_policy, rounding, occupancy table, charge limits and billing fee; move_in / move_out prorate a unit's factor by the days it was " +
        'occupied, and a unit with occupancies (turnover) is billed per occupancy. A calculation whose property, utility type and period overlap ' +
        'an earlier active one supersedes it (supersedes lists them). reconciliation shows where every cent went: total_amount = ' +
        'common_area_deduction + billed_to_tenants + owner_absorbs + rounding_difference. At most 10,000 units (a body of ' +
        'up to 5 MB); total_amount is to the cent. The rules and worked examples: src/modules/tenant-billing/README.md.',
      tags,
      auth: 'required',
      body: calculateRubsBody,
      bodyLimit: CALCULATE_BODY_LIMIT,
      response: calculationResponse,
      errors: {
        400: 'Billing config is not active',
        404: 'Property not found, or Billing config not found',
        413: 'Request body too large',
        409: 'An overlapping active calculation has charges posted to the PMS (reverse it first)',
        422: 'Validation error (units array must not be empty, sqft required for sqft allocation method, overlapping occupancies, ...)',
      },
    },
    ({ body, req }) => {
      const { units, ...request } = body;
      return billing.calculate(callerId(req), request, units, 'request');
    },
  );

  api.get(
    '/billing/history/:property_id',
    {
      summary: "A property's stored calculations, newest first",
      description:
        'Each item has its status (active, superseded, void), the calculations it superseded and the configuration version it used; ' +
        '`status` filters.',
      tags,
      auth: 'required',
      params: propertyParams,
      query: historyQuery,
      response: historyPage,
      errors: ERRORS_404_PROPERTY,
    },
    ({ params, query, req }) => billing.history(callerId(req), params.property_id, query),
  );
}

/** One stored calculation: void it, read it (with its posting), export it, a unit's statement. */
function registerStoredCalculationRoutes(
  api: ApiRouter,
  billing: TenantBillingService,
  postingState: (calculationId: string) => Promise<PostingState>,
): void {
  onOwned(
    api,
    'post',
    '/billing/calculations/:id/void',
    {
      summary: 'Void a calculation, with the reason',
      description:
        'An active or superseded calculation becomes void (its charges are not to be collected). A calculation with charges ' +
        'posted to the PMS ledger cannot be voided: reverse it first.',
      tags,
      params: calculationParams,
      body: voidBody,
      response: calculationResponse,
      notFound: 'Calculation not found',
      errors: {
        409: 'Calculation is already void; Calculation has charges posted to the PMS: reverse it before voiding it',
        422: 'reason required',
      },
    },
    (ownerId, id, { body }) => billing.voidCalculation(ownerId, id, body.reason),
  );

  onOwned(
    api,
    'get',
    '/billing/calculations/:id',
    {
      summary: 'A stored calculation, as calculate-rubs answered it, with its posting to the PMS ledger',
      description:
        "`posting` shows each charge line sent (or to be sent) to the PMS: its status, the provider's charge id, the " +
        'reason of a failure (POST .../post and .../reverse).',
      tags,
      params: calculationParams,
      response: storedCalculationResponse,
      notFound: 'Calculation not found',
    },
    async (ownerId, id) => {
      const calculation = await billing.calculation(ownerId, id);
      return { ...calculation, posting: await postingState(calculation.id) };
    },
  );

  onOwned(
    api,
    'get',
    '/billing/calculations/:id/export.csv',
    {
      summary: 'A stored calculation as CSV, one row per unit (for a ledger import)',
      description:
        'RFC 4180 with a header row; amounts with 2 decimals; text starting with = + - @ (after spaces), tab or CR, or holding one ' +
        'after a , ; tab or line break, gets a leading apostrophe (spreadsheet formula injection). Sent as an attachment named rubs-<period start>-<utility>-<id>.csv.',
      tags,
      params: calculationParams,
      responseTypes: { 'text/csv': z.string().meta({ example: 'calculation_id,property_id,...\r\n' }) },
      notFound: 'Calculation not found',
    },
    async (ownerId, id, { res }) => {
      const { fileName, csv } = await billing.exportCsv(ownerId, id);
      res.status(200).type('text/csv; charset=utf-8').attachment(fileName).send(csv);
    },
  );

  onOwned(
    api,
    'get',
    '/billing/calculations/:id/statements/:unit_id',
    {
      summary: "A tenant's statement for one unit: JSON, or a printable HTML page with Accept: text/html",
      description:
        "The master bill, the common-area deduction, the unit's factor and share, the admin fee, and the " +
        'calculation written out line by line (formula). The HTML page is self-contained (no external assets). A unit that ' +
        "turned over within the period (a unit bill per occupancy): without ?occupancy, one statement with each occupancy's " +
        "part in `occupancies` and the unit as a whole (every amount the sum of the parts'); with ?occupancy=<n>, that resident's own.",
      tags,
      params: statementParams,
      query: statementQuery,
      response: statementResponse,
      responseTypes: { 'text/html': z.string().meta({ example: '<!DOCTYPE html>...' }) },
      notFound: 'Calculation not found, Unit not found in this calculation, or Occupancy not found in this calculation',
      errors: {
        422: 'Validation error (occupancy is not a whole number from 0 to 30)',
      },
    },
    async (ownerId, id, { params, query, req, res }) => {
      const statement = await billing.statement(ownerId, id, params.unit_id, query.occupancy ?? null);
      if (req.accepts(['json', 'html']) === 'html') {
        res.status(200).type('text/html; charset=utf-8').send(renderStatementHtml(statement));
        return undefined;
      }
      return statement;
    },
  );
}
