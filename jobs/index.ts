import type { Services } from '../src/services';
import type { Processors } from '../src/platform/queue/types';
import type { AppQueues } from '../src/queues';
import { rateAnalysisProcessor, tariffImportSweepProcessor } from './rate-analysis';
import { webhookEventsProcessor, webhookSweepProcessor } from './webhooks';
import { pmsSyncProcessor } from './pms-sync';
import { costRollupProcessor, costRollupSweepProcessor } from './cost-rollup';
import { rubsPostingProcessor } from './rubs-posting';
import { billAuditProcessor } from './bill-audit';
import { auditDisputeRemindersProcessor } from './audit-dispute-reminders';
import { eventDeliveriesProcessor, eventPruneProcessor } from './event-deliveries';
import { tariffRefreshProcessor, tariffRefreshScheduleProcessor } from './tariff-refresh';
import { idempotencySweepProcessor } from './idempotency-sweep';

/**
 * Binds every queue of the registry to its processor. The same functions run in the
 * `worker` process (BullMQ) and in-process when REDIS_URL is unset. A missing entry
 * is a type error, so a new queue cannot ship without its processor.
 */
export function createProcessors(
  services: Pick<
    Services,
    | 'rateAnalysis'
    | 'webhooks'
    | 'pmsSync'
    | 'analytics'
    | 'rubsPosting'
    | 'audit'
    | 'customTariffs'
    | 'events'
    | 'tariffRefresh'
    | 'idempotency'
  >,
): Processors<AppQueues> {
  return {
    'rate-analysis': rateAnalysisProcessor(services),
    'tariff-import-sweep': tariffImportSweepProcessor(services),
    'webhook-events': webhookEventsProcessor(services),
    'pms-sync': pmsSyncProcessor(services),
    'webhook-sweep': webhookSweepProcessor(services),
    'cost-rollup': costRollupProcessor(services),
    'cost-rollup-sweep': costRollupSweepProcessor(services),
    'rubs-posting': rubsPostingProcessor(services),
    'bill-audit': billAuditProcessor(services),
    'audit-dispute-reminders': auditDisputeRemindersProcessor(services),
    'event-deliveries': eventDeliveriesProcessor(services),
    'event-prune': eventPruneProcessor(services),
    'tariff-refresh': tariffRefreshProcessor(services),
    'tariff-refresh-schedule': tariffRefreshScheduleProcessor(services),
    'idempotency-sweep': idempotencySweepProcessor(services),
  };
}
