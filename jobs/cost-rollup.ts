import type { z } from 'zod';
import type { costRollupJobPayload, costRollupSweepPayload } from '../src/modules/analytics/job-payload';
import type { Services } from '../src/services';

/** `cost-rollup`: one owner's analytics recompute; the work is the analytics service's. Errors rethrow to retry. */
export function costRollupProcessor(services: Pick<Services, 'analytics'>) {
  return async (payload: z.output<typeof costRollupJobPayload>): Promise<void> => {
    await services.analytics.processRollup(payload);
  };
}

/** `cost-rollup-sweep`: queues a cost-rollup per owner whose data changed (or per owner, nightly). */
export function costRollupSweepProcessor(services: Pick<Services, 'analytics'>) {
  return async (payload: z.output<typeof costRollupSweepPayload>): Promise<void> => {
    await services.analytics.sweep(payload);
  };
}
