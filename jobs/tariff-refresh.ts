import type { z } from 'zod';
import type { tariffRefreshJobPayload } from '../src/modules/tariffs/refresh/job-payload';
import type { Services } from '../src/services';

/**
 * `tariff-refresh`: runs (or resumes) a catalog refresh run. The client retries the API itself; a run
 * that still fails is stored `failed` with its cursor (resumable), not retried by the queue.
 */
export function tariffRefreshProcessor(services: Pick<Services, 'tariffRefresh'>) {
  return async (payload: z.output<typeof tariffRefreshJobPayload>): Promise<void> => {
    await services.tariffRefresh.run(payload.run_id);
  };
}

/** `tariff-refresh-schedule` (URDB_REFRESH_CRON): refreshes the utilities the deployment uses, when a key is set. */
export function tariffRefreshScheduleProcessor(services: Pick<Services, 'tariffRefresh'>) {
  return async (): Promise<void> => {
    if (!services.tariffRefresh.configured()) return;
    const run = await services.tariffRefresh.createIfAny({});
    if (run) await services.tariffRefresh.run(run.id);
  };
}
