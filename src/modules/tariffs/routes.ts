import type { ApiRouter } from '../../platform/http/router';
import { pageSchema } from '../../platform/http/pagination';
import { z } from 'zod';
import { callerId } from '../../platform/http/auth';
import { onOwned } from '../../platform/http/owned-routes';
import { pageQuery } from '../../platform/http/pagination';
import type { TariffService } from './service';
import type { CustomTariffService } from './custom/service';
import { customTariffList } from './custom/examples';
import * as ex from './examples';
import {
  createCustomTariffBody,
  createVersionBody,
  customTariffDetail,
  customTariffSummary,
  updateCustomTariffBody,
} from './custom/schemas';
import { ZIP_TABLES } from '../utilities/reference';
import {
  byUtilityItem,
  byUtilityQuery,
  tariffDetail,
  tariffIdParams,
  tariffSearchQuery,
  tariffStats,
  tariffStatsQuery,
  tariffSummary,
  utilityIdParams,
} from './schemas';

const tags = ['Tariffs'];

const SEARCH_DESCRIPTION = [
  'Every filter is optional and they combine (AND). Tariffs come from the U.S. Utility Rate Database (URDB, OpenEI/NREL,',
  'CC BY 4.0) as pulled in Dec 2023 and Jun 2025. zip_code uses the OpenEI utility look-up tables: non-investor-owned',
  `utilities from the ${ZIP_TABLES.non_iou_2023.edition} edition, investor-owned utilities from the ${ZIP_TABLES.iou_2011.edition} edition. state is the state of the`,
  "tariff's utility in EIA-861 (2018): for a multi-state utility, the state where it has the most customers.",
  'Tariffs whose expiration date has passed are hidden unless include_expired=true.',
  'Ordered by utility name, tariff name, id.',
].join(' ');

const CUSTOM_DESCRIPTION = [
  'A tariff of your own: the rate you actually pay, when the catalog (URDB, electric only, mostly 2009-2021) does not have it.',
  'Send either a URDB record as the URDB API returns it ({"urdb": {...}}: priced exactly as the catalog prices its records; features',
  "the engine does not price are listed in each version's assumptions) or the rates in the shape GET /tariffs/{id} shows them",
  '(energy_rates, demand_rates, fixed_charges, riders, minimum_charge) with utility_type (electric, gas, water, sewer) and unit.',
  'Gas, water and sewer tariffs price usage tiers in their unit by month (whole days). service_type supply_only makes a supply contract',
  "that a property or meter names as supply_tariff_id beside its delivery tariff. The tariff's id (ct_...) works wherever a tariff id does,",
  'for you only: GET /tariffs/{id}, /calculate, /calculate/compare, properties, meters, rate analysis. At most 500 per account.',
].join(' ');

/**
 * /tariffs: no authentication needed to read the catalog; a token or key counts against its quota. Custom tariffs are the caller's.
 * The literal paths (search, custom, stats) are registered before /tariffs/:id, which would take them as ids.
 */
export function registerTariffRoutes(api: ApiRouter, service: TariffService, custom: CustomTariffService): void {
  api.get(
    '/tariffs/search',
    {
      summary: 'Search tariffs',
      description: SEARCH_DESCRIPTION,
      tags,
      auth: 'optional',
      query: tariffSearchQuery,
      response: pageSchema(
        tariffSummary.extend({
          utility_id: z.string().nullable(),
          custom: z.boolean().optional().meta({ description: 'true on your own tariffs (include_custom=true)' }),
          utility_type: z.string().optional(),
          unit: z.string().optional(),
        }),
      ).meta({ example: ex.tariffSearchPage }),
      errors: { 401: 'include_custom=true without authentication' },
    },
    ({ query, req }) => service.search(query, req.user?.id ?? null),
  );

  api.post(
    '/tariffs/custom',
    {
      summary: 'Create a tariff of your own',
      description: CUSTOM_DESCRIPTION,
      tags,
      auth: 'required',
      body: createCustomTariffBody,
      status: 201,
      response: customTariffDetail,
      errors: {
        422: 'A record or rates that cannot be priced (the JSON path and why: tiers out of order, a period with no rate, a unit of another utility type); more than 500 tariffs',
      },
    },
    ({ body, req }) => custom.create(callerId(req), body),
  );

  api.get(
    '/tariffs/custom',
    {
      summary: 'Your own tariffs',
      description: 'Oldest first; retired tariffs (DELETE /tariffs/{id}) are not listed.',
      tags,
      auth: 'required',
      query: pageQuery,
      response: pageSchema(customTariffSummary).meta({ example: customTariffList }),
    },
    ({ query, req }) => custom.list(callerId(req), query),
  );

  onOwned(
    api,
    'post',
    '/tariffs/custom/:id/versions',
    {
      summary: 'Add a version of your tariff from an effective date',
      description:
        "The rates from effective_date on (a URDB record or the rates, as on create; the utility, type and unit stay the tariff's). " +
        'A calculation picks the version in force on its date. At most 50 versions per tariff.',
      tags,
      params: tariffIdParams,
      body: createVersionBody,
      status: 201,
      response: customTariffDetail,
      errors: {
        409: 'Tariff already has a version effective <date>',
        422: 'Rates that cannot be priced; more than 50 versions',
      },
      notFound: 'Tariff not found',
    },
    (ownerId, id, { body }) => custom.addVersion(ownerId, id, body),
  );

  api.get(
    '/tariffs/stats',
    {
      summary: 'Tariff database statistics',
      description:
        'Counts over the tariffs GET /tariffs/search finds with the same defaults: current tariffs only (no expiration date before today, UTC), or every stored tariff with include_expired=true. So total_tariffs equals the search total, and each sectors / rate_types count equals the search total with that filter. last_updated is when the reference data was imported. The bundled URDB data has no real-time-pricing tariffs, so rate_types.real_time is 0.',
      tags,
      auth: 'optional',
      query: tariffStatsQuery,
      response: tariffStats.meta({ example: ex.tariffStats }),
    },
    ({ query }) => service.stats(query),
  );

  api.get(
    '/tariffs/by-utility/:utility_id',
    {
      summary: "A utility's tariffs",
      description: 'Every tariff of the utility (expired ones included), ordered by name.',
      tags,
      auth: 'optional',
      params: utilityIdParams,
      query: byUtilityQuery,
      response: pageSchema(byUtilityItem).meta({ example: ex.tariffsOfUtility }),
      errors: { 404: 'Utility not found' },
    },
    ({ params, query }) => service.byUtility(params.utility_id, query),
  );

  api.get(
    '/tariffs/:id',
    {
      summary: 'Tariff detail',
      description:
        'All rate components. energy_rates has one item per period and tier (rate_per_kwh = URDB rate + adj; tier_max_kwh is the cumulative bound in the tier unit, null for the last tier); demand_rates likewise (type facility = flat monthly demand, tou = time-of-use demand, coincident = demand at the utility system peak). fixed_charges lists a charge per additional meter when the tariff has one; bills assume one meter and say so.',
      tags,
      auth: 'optional',
      params: tariffIdParams,
      response: tariffDetail
        .extend({
          utility_id: z.string().nullable(),
          custom: z.boolean().optional().meta({ description: 'true on your own tariff, which also lists its versions' }),
          created_at: z.string().optional(),
          versions: customTariffDetail.shape.versions.optional(),
        })
        .meta({ example: ex.tariff }),
      errors: { 404: 'Tariff not found' },
    },
    ({ params, req }) => service.detail(params.id, req.user?.id ?? null),
  );

  onOwned(
    api,
    'patch',
    '/tariffs/:id',
    {
      summary: 'Rename your tariff',
      description: 'Changes name, description or source_url of your own tariff; rates change by a new version.',
      tags,
      params: tariffIdParams,
      body: updateCustomTariffBody,
      response: customTariffDetail,
      errors: { 422: 'at least one of name, description, source_url is required' },
      notFound: 'Tariff not found',
    },
    (ownerId, id, { body }) => custom.update(ownerId, id, body),
  );

  onOwned(
    api,
    'delete',
    '/tariffs/:id',
    {
      summary: 'Retire your tariff',
      description: 'It is no longer listed or priced; a tariff that properties or meters price on cannot be retired.',
      tags,
      params: tariffIdParams,
      status: 204,
      errors: { 409: 'Tariff is in use by property ... / meter ...' },
      notFound: 'Tariff not found',
    },
    async (ownerId, id) => {
      await custom.retire(ownerId, id);
    },
  );
}
