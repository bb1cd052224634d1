import type { ApiRouter } from '../../../platform/http/router';
import type { TariffRefreshService } from './service';
import { refreshRequest, refreshRunParams, refreshRunResponse } from './schemas';

const tags = ['Admin'];

/** The catalog refresh, for the operator (X-Admin-Token): start a run, and read it. */
export function registerTariffRefreshRoutes(api: ApiRouter, refresh: TariffRefreshService): void {
  api.post(
    '/admin/tariffs/refresh',
    {
      summary: 'Refresh catalog tariffs from the URDB API (operator)',
      description:
        'Fetches the records of the named utilities (or of those the properties and meters use and those serving their ZIP codes ' +
        "and the ZIP codes due diligence was asked for in the last 365 days, or of all) from NREL's OpenEI utility_rates API, " +
        "version 8, with URDB_API_KEY: a utility's first refresh fetches all its records, a later one those modified since " +
        '(modified_after). They are stored as the import would: a later revision of a schedule supersedes the older one, which ' +
        'stays for the billing periods before it. Runs on the job queue: 202 with the run, whose progress and report GET ' +
        '/admin/tariffs/refresh/{id} gives. A run that changed tariffs queues the re-analysis of every property (each owner ' +
        'notified of the properties whose advice changed), its analytics and the audit of the bills.',
      tags,
      auth: 'admin',
      body: refreshRequest,
      status: 202,
      response: refreshRunResponse,
      errors: {
        404: 'Run not found (resume), or ADMIN_TOKEN unset: Not Found',
        409: 'URDB_API_KEY is not set (nothing is fetched), or the run to resume already succeeded',
      },
    },
    ({ body }) => refresh.start(body),
  );

  api.get(
    '/admin/tariffs/refresh/:id',
    {
      summary: 'A catalog refresh run: status, progress and report (operator)',
      tags,
      auth: 'admin',
      params: refreshRunParams,
      response: refreshRunResponse,
      errors: { 404: 'Run not found (or ADMIN_TOKEN unset: Not Found)' },
    },
    ({ params }) => refresh.get(params.id),
  );
}
