import type { ApiRouter } from '../../platform/http/router';
import { getPageOfOwnedList, onOwned } from '../../platform/http/owned-routes';
import { requestBody } from '../../platform/http/idempotency';
import { propertyIdParams } from '../properties/schemas';
import { billPage, billResponse, createBillBody, importBody, importResponse } from './schemas';
import type { BillService } from './service';

const tags = ['Bills'];

export function registerBillRoutes(api: ApiRouter, bills: BillService): void {
  onOwned(
    api,
    'post',
    '/pm/properties/:id/bills',
    {
      summary: "Record an actual utility bill of one of a property's meters",
      description:
        "The bill goes to meter_id, or without it to the property's default meter of utility_type (created on first " +
        "use). Usage is in unit (a unit of the meter's type, the meter's by default); an electric bill's usage is kWh and " +
        'may come as usage or usage_kwh. A period from 2000-01-01 on, ending at most 31 days after today (UTC), of 1 to 100 ' +
        'days; an amount from -1,000,000 (a credit) to 100,000,000. Otherwise 422 naming the field. Two bills of one meter ' +
        'may not overlap (409 naming the other bill); bills of different meters may.',
      tags,
      params: propertyIdParams,
      body: createBillBody,
      status: 201,
      response: billResponse,
      notFound: 'Property not found or Meter not found',
      errors: {
        409: 'This meter already has a bill overlapping this period: <id> (<start> to <end>)',
      },
    },
    (ownerId, id, { body }) => bills.create(ownerId, id, body),
  );

  getPageOfOwnedList(
    api,
    '/pm/properties/:id/bills',
    {
      summary: "List a property's bills, newest period first",
      tags,
      params: propertyIdParams,
      notFound: 'Property not found',
      response: billPage,
    },
    bills.list,
  );

  onOwned(
    api,
    'post',
    '/pm/properties/:id/bills/import',
    {
      summary: 'Import bills from a CSV file',
      description:
        'multipart/form-data, field `file`: a CSV whose header row names the bill fields: period_start, period_end, ' +
        'amount, and the meter by meter_id, account_number (a meter of the property with that account number) or ' +
        'utility_type (the default meter of that type, created on first use); optional usage, unit, usage_kwh, demand_kw, ' +
        'is_estimated (true/false, yes/no, 1/0), heat_content (gas: therms per ccf, 0.8 to 1.2); other columns are ignored. Fields are separated by `,` or `;` (detected ' +
        'from the header line), with or without a UTF-8 BOM. Amounts may carry a `$`, thousands separators and a sign ' +
        '(`"$1,234.56"`, `-$12.00`); dates are YYYY-MM-DD or MM/DD/YYYY. Rows follow the rules of POST .../bills. The file is ' +
        'streamed and stored in batches. Each invalid row (a period overlapping another bill of its meter is one) is reported ' +
        'in `rejected` with its line number (header = line 1) and never stored; each valid row is stored once: a row whose ' +
        'meter already has a bill for the same period is counted in `duplicates`, so re-importing a file adds nothing. ' +
        'At most 50 MB (413).',
      tags,
      params: propertyIdParams,
      body: importBody,
      bodyType: 'multipart/form-data',
      response: importResponse,
      notFound: 'Property not found',
      errors: {
        400: 'Malformed multipart body (a part or the closing boundary is missing)',
        413: 'File too large',
        415: 'Not a multipart/form-data request',
      },
    },
    (ownerId, id, { req }) => bills.importCsv(ownerId, id, { headers: req.headers, body: requestBody(req) }),
  );
}
