import type { z } from 'zod';
import type { pmsSyncJobPayload } from '../src/modules/pms/job-payload';
import type { Services } from '../src/services';

/** `pms-sync`: import a linked property's units; provider failures rethrow to retry (UnrecoverableError when retrying cannot help). */
export function pmsSyncProcessor(services: Pick<Services, 'pmsSync'>) {
  return async (payload: z.output<typeof pmsSyncJobPayload>): Promise<void> => {
    await services.pmsSync.sync(payload.property_id);
  };
}
