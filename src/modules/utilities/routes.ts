import { z } from 'zod';
import type { ApiRouter } from '../../platform/http/router';
import { pageQuery, pageSchema } from '../../platform/http/pagination';
import { searchText, zipCode } from '../tariffs/schemas';
import { stateCode } from '../properties/schemas';
import type { UtilityService } from './service';
import { ZIP_TABLES } from './reference';

const tags = ['Utilities'];

const utilityItem = z.object({
  id: z.string(), name: z.string(), abbreviation: z.string().nullable(), state: z.string().nullable(),
  type: z.string().nullable(), tariff_count: z.number().int(),
});
const utilitySearchItem = utilityItem.extend({ website: z.string().nullable() });
const utilityDetail = utilitySearchItem.extend({
  phone: z.string().nullable(), service_territory: z.string().nullable(), customers_served: z.number().int().nullable(),
  zip_codes_served: z.number().int(),
  data_sources: z.object({
    utility: z.object({ table: z.string(), edition: z.number().int() }),
    zip_codes: z.array(z.object({ table: z.string(), edition: z.number().int(), zip_codes: z.number().int() })),
  }).describe('the reference tables behind this record and their editions (vintage): EIA-861 for the utility, the OpenEI ZIP tables that list it'),
});

/** The ZIP tables and their editions, as one sentence for endpoint descriptions. */
const ZIP_TABLES_TEXT = `From the OpenEI "U.S. Electric Utility Companies and Rates: Look-up by Zipcode" tables: non-investor-owned utilities from the ${ZIP_TABLES.non_iou_2023.edition} edition, investor-owned utilities from the ${ZIP_TABLES.iou_2011.edition} edition (the newest published for them that is small enough to ship; some ZIP codes lack their investor-owned utility).`;

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
    description: `${ZIP_TABLES_TEXT} Ordered by name.`,
    tags, auth: 'optional', params: z.object({ zip_code: zipCode }), response: z.array(utilityItem),
    errors: { 404: 'No utilities found for ZIP code', 422: 'Invalid ZIP code format' },
  }, ({ params }) => service.byZip(params.zip_code));

  api.get('/utilities/:id', {
    summary: 'Utility detail',
    description: `${SOURCES} customers_served is EIA-861 2018 retail customers (all parts and states); service_territory lists counties per state; data_sources names each table behind the answer with its edition.`,
    tags, auth: 'optional', params: z.object({ id: z.string().min(1) }), response: utilityDetail, errors: { 404: 'Utility not found' },
  }, ({ params }) => service.detail(params.id));
}
