import type { z } from 'zod';
import type { rateAnalysisJobPayload } from '../src/modules/rate-analysis/job-payload';
import type { Services } from '../src/services';

/**
 * `rate-analysis`: the payload is parsed by the queue; the work is the rate-analysis service's, on the
 * owner's rates as the database holds them. Errors rethrow to retry.
 */
export function rateAnalysisProcessor(services: Pick<Services, 'rateAnalysis'>) {
  return async (payload: z.output<typeof rateAnalysisJobPayload>): Promise<void> => {
    // The service queues the owner's analytics recompute itself (its dataChanged hook).
    await services.rateAnalysis.process(payload);
  };
}

/** `tariff-import-sweep`: queues re-analysis once per tariff import (the service remembers which it swept). */
export function tariffImportSweepProcessor(services: Pick<Services, 'rateAnalysis'>) {
  return async (): Promise<void> => {
    await services.rateAnalysis.sweepAfterTariffImport();
  };
}
