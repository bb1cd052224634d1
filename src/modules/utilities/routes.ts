import { z } from 'zod';
import type { ApiRouter } from '../../platform/http/router';
import { pageQuery, pageSchema } from '../../platform/http/pagination';
import { searchText, stateCode, zipCode } from '../tariffs/schemas';
import type { UtilityService } from './service';

const tags = ['Utilities'];

const utilityItem = z.object({
  id: z.string(), name: z.string(), abbreviation: z.string().nullable(), state: z.string().nullable(),
  type: z.string().nullable(), tariff_count: z.number().int(),
});
const utilitySearchItem = utilityItem.extend({ website: z.string().nullable() });
const utilityDetail = utilitySearchItem.extend({
  phone: z.string().nullable(), service_territory: z.string().nullable(), customers_served: z.number().int().nullable(),
  zip_codes_served: z.number().int(),
});

const SOURCES = 'Utilities come from EIA-861 (2018); abbreviation, website and phone are not published there and are null.';

/** /utilities: no authentication needed; a token or key counts against its quota. */
export function registerUtilityRoutes(api: ApiRouter, service: UtilityService): void {
  api.get('/utilities/search', {
    summary: 'Search utilities', description: `${SOURCES} q is a partial, case-insensitive name match. Ordered by name, id.`,
    tags, auth: 'optional',
    query: pageQuery.extend({ q: searchText.optional(), state: stateCode.optional() }),
    response: pageSchema(utilitySearchItem),
  }, ({ query }) => service.search(query));

  api.get('/utilities/by-zip/:zip_code', {
    summary: 'Utilities serving a ZIP code',
    description: 'From the OpenEI "U.S. Electric Utility Companies and Rates: Look-up by Zipcode" tables: non-investor-owned utilities from the 2020 edition, investor-owned utilities from the 2011 edition (the newest small enough to ship). Ordered by name.',
    tags, auth: 'optional', params: z.object({ zip_code: zipCode }), response: z.array(utilityItem),
    errors: { 404: 'No utilities found for ZIP code', 422: 'Invalid ZIP code format' },
  }, ({ params }) => service.byZip(params.zip_code));

  api.get('/utilities/:id', {
    summary: 'Utility detail',
    description: `${SOURCES} customers_served is EIA-861 2018 retail customers (all parts and states); service_territory lists counties per state.`,
    tags, auth: 'optional', params: z.object({ id: z.string().min(1) }), response: utilityDetail, errors: { 404: 'Utility not found' },
  }, ({ params }) => service.detail(params.id));
}
