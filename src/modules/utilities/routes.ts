import { z } from 'zod';
import type { ApiRouter } from '../../platform/http/router';
import { pageQuery, pageSchema } from '../../platform/http/pagination';
import { searchText, zipCode } from '../tariffs/schemas';
import { stateCode } from '../properties/schemas';
import type { UtilityService } from './service';
import { ZIP_TABLES } from './reference';
import * as ex from './examples';

const tags = ['Utilities'];

const utilityItem = z.object({
  id: z.string(),
  name: z.string(),
  abbreviation: z.string().nullable(),
  state: z.string().nullable(),
  type: z.string().nullable(),
  tariff_count: z.number().int(),
});
const utilitySearchItem = utilityItem.extend({ website: z.string().nullable() });
const byZipItem = utilityItem.extend({
  primary: z.boolean().describe('true for the first item only: the utility that serves the most estimated retail customers there'),
  estimated_customers_in_county: z
    .number()
    .int()
    .nullable()
    .describe(
      "The order's figure: the utility's EIA-861 2018 retail customers in the ZIP code's state, spread over its counties there in " +
        'proportion to their number of ZIP codes (GeoNames): the counties EIA-861 Service Territory lists for it, and any other county ' +
        "where a ZIP table lists it (with the number of that county's ZIP codes it is listed at); this county's share. An estimate: it " +
        'assumes a utility serves each of its counties whole. Null when it cannot be estimated (a utility EIA-861 2018 does not report, ' +
        'or a ZIP code GeoNames gives no county).',
    ),
});
const utilityDetail = utilitySearchItem.extend({
  phone: z.string().nullable(),
  service_territory: z.string().nullable(),
  customers_served: z.number().int().nullable(),
  zip_codes_served: z.number().int(),
  data_sources: z
    .object({
      utility: z.object({ table: z.string(), edition: z.number().int() }),
      zip_codes: z.array(z.object({ table: z.string(), edition: z.number().int(), zip_codes: z.number().int() })),
    })
    .describe(
      'the reference tables behind this record and their editions (vintage): EIA-861 for the utility, the OpenEI ZIP tables that list it',
    ),
});

/** The ZIP tables and their editions, as one sentence for endpoint descriptions. */
const ZIP_TABLES_TEXT = `From the OpenEI "U.S. Electric Utility Companies and Rates: Look-up by Zipcode" tables (non-investor-owned utilities from the ${ZIP_TABLES.non_iou_2023.edition} edition, investor-owned utilities from the ${ZIP_TABLES.iou_2011.edition} edition, the newest published for them that is small enough to ship), the ENERGY STAR utility map (${ZIP_TABLES.energystar_2025.edition}) and, for the counties the ${ZIP_TABLES.iou_2011.edition} table misses, the investor-owned utilities EIA-861 (${ZIP_TABLES.eia861_county_2018.edition}) lists in the county. Merged or renamed utilities are listed as the utility that took them over (Columbus Southern Power as Ohio Power).`;

const BY_ZIP_ORDER =
  "Ordered by estimated_customers_in_county, most first (retail power marketers, which sell over another utility's wires, after the others; then EIA-861 customers over all states, name, id); the first item is the primary utility (`primary: true`), the one due diligence prices. A utility EIA-861 2018 reports with no retail customer in the ZIP code's state is left out.";

const SOURCES = 'Utilities come from EIA-861 (2018); abbreviation, website and phone are not published there and are null.';

/** /utilities: no authentication needed; a token or key counts against its quota. */
export function registerUtilityRoutes(api: ApiRouter, service: UtilityService): void {
  api.get(
    '/utilities/search',
    {
      summary: 'Search utilities',
      description: `${SOURCES} q is a partial, case-insensitive name match. Ordered by name, id.`,
      tags,
      auth: 'optional',
      query: pageQuery.extend({ q: searchText.optional(), state: stateCode.optional() }),
      response: pageSchema(utilitySearchItem).meta({ example: ex.utilitySearchPage }),
    },
    ({ query }) => service.search(query),
  );

  api.get(
    '/utilities/by-zip/:zip_code',
    {
      summary: 'Utilities serving a ZIP code',
      description: `${ZIP_TABLES_TEXT} ${BY_ZIP_ORDER}`,
      tags,
      auth: 'optional',
      params: z.object({ zip_code: zipCode }),
      response: z.array(byZipItem).meta({ example: ex.utilitiesByZip }),
      errors: { 404: 'No utilities found for ZIP code', 422: 'Invalid ZIP code format' },
    },
    ({ params }) => service.byZip(params.zip_code),
  );

  api.get(
    '/utilities/:id',
    {
      summary: 'Utility detail',
      description: `${SOURCES} customers_served is EIA-861 2018 retail customers (all parts and states); service_territory lists counties per state; data_sources names each table behind the answer with its edition.`,
      tags,
      auth: 'optional',
      params: z.object({ id: z.string().min(1) }),
      response: utilityDetail.meta({ example: ex.utility }),
      errors: { 404: 'Utility not found' },
    },
    ({ params }) => service.detail(params.id),
  );
}
