import type { QueueDefinitions } from './types';
import { rateAnalysisJobPayload, tariffImportSweepPayload } from '../../modules/rate-analysis/job-payload';

/**
 * Every queue of the service: name -> payload schema and retry policy.
 * Processors live in jobs/ and are bound to these names in jobs/index.ts.
 */
export const appQueues = {
  /** Re-prices and re-analyses a property's rates (or all of a user's) after tariff, usage or tariff data change. */
  'rate-analysis': { payload: rateAnalysisJobPayload, attempts: 3, concurrency: 2 },
  /** Finds a tariff re-import not yet followed by re-analysis and queues one rate-analysis job per owner. */
  'tariff-import-sweep': { payload: tariffImportSweepPayload, attempts: 3, concurrency: 1 },
} satisfies QueueDefinitions;

export type AppQueues = typeof appQueues;
