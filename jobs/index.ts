import type { PropertyServices } from '../src/modules/properties/compose';
import type { Processors } from '../src/platform/queue/types';
import type { AppQueues } from '../src/platform/queue/registry';
import { rateAnalysisProcessor, tariffImportSweepProcessor } from './rate-analysis';

/**
 * Binds every queue of the registry to its processor. The same functions run in the
 * `worker` process (BullMQ) and in-process when REDIS_URL is unset. A missing entry
 * is a type error, so a new queue cannot ship without its processor.
 */
export function createProcessors(services: Pick<PropertyServices, 'rateAnalysis'>): Processors<AppQueues> {
  return {
    'rate-analysis': rateAnalysisProcessor(services),
    'tariff-import-sweep': tariffImportSweepProcessor(services),
  };
}
