import type { ApiRouter } from '../../platform/http/router';
import { pageSchema } from '../../platform/http/pagination';
import type { TariffService } from './service';
import { ZIP_TABLES } from '../utilities/reference';
import {
  byUtilityItem, byUtilityQuery, tariffDetail, tariffIdParams, tariffSearchQuery, tariffStats, tariffStatsQuery, tariffSummary,
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

/** /tariffs: no authentication needed; a token or key counts against its quota. */
export function registerTariffRoutes(api: ApiRouter, service: TariffService): void {
  api.get('/tariffs/search', {
    summary: 'Search tariffs', description: SEARCH_DESCRIPTION, tags, auth: 'optional',
    query: tariffSearchQuery, response: pageSchema(tariffSummary),
  }, ({ query }) => service.search(query));

  // Registered before /tariffs/:id so the literal path wins.
  api.get('/tariffs/stats', {
    summary: 'Tariff database statistics',
    description: 'Counts over the tariffs GET /tariffs/search finds with the same defaults: current tariffs only (no expiration date before today, UTC), or every stored tariff with include_expired=true. So total_tariffs equals the search total, and each sectors / rate_types count equals the search total with that filter. last_updated is when the reference data was imported. The bundled URDB data has no real-time-pricing tariffs, so rate_types.real_time is 0.',
    tags, auth: 'optional', query: tariffStatsQuery, response: tariffStats,
  }, ({ query }) => service.stats(query));

  api.get('/tariffs/by-utility/:utility_id', {
    summary: "A utility's tariffs", description: 'Every tariff of the utility (expired ones included), ordered by name.',
    tags, auth: 'optional', params: utilityIdParams, query: byUtilityQuery, response: pageSchema(byUtilityItem),
    errors: { 404: 'Utility not found' },
  }, ({ params, query }) => service.byUtility(params.utility_id, query));

  api.get('/tariffs/:id', {
    summary: 'Tariff detail',
    description: 'All rate components. energy_rates has one item per period and tier (rate_per_kwh = URDB rate + adj; tier_max_kwh is the cumulative bound in the tier unit, null for the last tier); demand_rates likewise (type facility = flat monthly demand, tou = time-of-use demand, coincident = demand at the utility system peak). fixed_charges lists a charge per additional meter when the tariff has one; bills assume one meter and say so.',
    tags, auth: 'optional', params: tariffIdParams, response: tariffDetail, errors: { 404: 'Tariff not found' },
  }, ({ params }) => service.detail(params.id));
}
