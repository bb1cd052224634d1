import type { QueueDefinitions } from './platform/queue/types';
import { rateAnalysisJobPayload, tariffImportSweepPayload } from './modules/rate-analysis/job-payload';
import { pmsSyncJobPayload } from './modules/pms/job-payload';
import { webhookEventsJobPayload, webhookSweepPayload } from './modules/webhooks/job-payload';
import { costRollupJobPayload, costRollupSweepPayload } from './modules/analytics/job-payload';
import { rubsPostingJobPayload } from './modules/tenant-billing/posting/job-payload';
import { billAuditJobPayload } from './modules/audit/job-payload';
import { disputeRemindersJobPayload } from './modules/audit/disputes/job-payload';
import { eventDeliveriesJobPayload, eventPruneJobPayload } from './modules/events/job-payload';
import { tariffRefreshJobPayload, tariffRefreshSchedulePayload } from './modules/tariffs/refresh/job-payload';
import { idempotencySweepPayload } from './platform/http/idempotency-store';

/**
 * Every queue of the service: name -> payload schema and retry policy.
 * Processors live in jobs/ and are bound to these names in jobs/index.ts.
 */
export const appQueues = {
  /** Re-prices and re-analyses a property's rates (or all of a user's) after tariff, usage or tariff data change. */
  'rate-analysis': { payload: rateAnalysisJobPayload, attempts: 3, concurrency: 2 },
  /** Finds a tariff re-import not yet followed by re-analysis and queues one rate-analysis job per owner. */
  'tariff-import-sweep': { payload: tariffImportSweepPayload, attempts: 3, concurrency: 1 },
  /**
   * Applies the PMS webhook events received, each connection's in order (the order is kept in the
   * database, see modules/webhooks/apply.ts): one job per 500 ms window for every stream, or one
   * stream's retry. Retries here cover the database being down; an event's own failures are
   * retried with back-off and dead-lettered by the applier.
   */
  'webhook-events': { payload: webhookEventsJobPayload, attempts: 5, backoffMs: 1000, concurrency: 8 },
  /** Imports a linked property's units from the PMS provider (the client itself tries each call 3 times). */
  'pms-sync': { payload: pmsSyncJobPayload, attempts: 3, backoffMs: 5000, concurrency: 4 },
  /** Re-queues webhook streams with events still pending, and PMS imports still owed, whatever happened to their jobs. */
  'webhook-sweep': { payload: webhookSweepPayload, attempts: 1, concurrency: 1 },
  /**
   * Recomputes one owner's calendarised rollups, dashboard stats and health scores after a write
   * (or nightly); ordered per owner, so one owner never has two running.
   */
  'cost-rollup': { payload: costRollupJobPayload, attempts: 3, backoffMs: 2000, concurrency: 2 },
  /** Finds the owners whose analytics data changed (every 5 minutes) or every owner (nightly) and queues their cost-rollup. */
  'cost-rollup-sweep': { payload: costRollupSweepPayload, attempts: 2, concurrency: 1 },
  /**
   * Posts (or reverses) a calculation's charges to the PMS ledger, 10 calls in flight per job; jobs of
   * one calculation run one at a time. The client tries each charge 3 times; a job whose lines the
   * provider still fails is retried after 5, 10 and 20 s, and its last attempt fails what is left.
   */
  'rubs-posting': { payload: rubsPostingJobPayload, attempts: 4, backoffMs: 5000, concurrency: 2 },
  /**
   * Audits a meter's bills after a write that changes them or what prices them (a bill, an import,
   * a tariff, a tariff version, the tolerance): one meter's jobs run one at a time, in order; an
   * owner's re-audit goes in jobs of up to 200 meters.
   */
  'bill-audit': { payload: billAuditJobPayload, attempts: 3, backoffMs: 2000, concurrency: 4 },
  /** Notifies the bill-audit disputes left unanswered for more than 60 days (daily; once per dispute). */
  'audit-dispute-reminders': { payload: disputeRemindersJobPayload, attempts: 3, backoffMs: 5000, concurrency: 1 },
  /**
   * Sends the webhook deliveries due (modules/events): queued after an event is written and every 10 s.
   * A delivery's own retries (5 s to 10 h apart, over 27 h) are kept in its row; the job's retries cover the database being down.
   */
  'event-deliveries': { payload: eventDeliveriesJobPayload, attempts: 3, backoffMs: 2000, concurrency: 2 },
  /** Deletes the webhook events older than 30 days with no delivery pending, and their delivery logs (nightly). */
  'event-prune': { payload: eventPruneJobPayload, attempts: 3, backoffMs: 5000, concurrency: 1 },
  /**
   * Runs a catalog refresh from the URDB API (POST /admin/tariffs/refresh): one at a time. The client
   * retries each request; a run that fails anyway is stored with its cursor and resumed by a new job.
   */
  'tariff-refresh': { payload: tariffRefreshJobPayload, attempts: 1, concurrency: 1 },
  /** URDB_REFRESH_CRON's tick: refreshes the utilities the deployment uses (nothing without URDB_API_KEY). */
  'tariff-refresh-schedule': { payload: tariffRefreshSchedulePayload, attempts: 1, concurrency: 1 },
  /** Deletes the Idempotency-Keys older than 24 hours (hourly). */
  'idempotency-sweep': { payload: idempotencySweepPayload, attempts: 2, backoffMs: 5000, concurrency: 1 },
} satisfies QueueDefinitions;

export type AppQueues = typeof appQueues;
