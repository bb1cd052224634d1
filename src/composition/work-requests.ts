/**
 * The queueing functions the composition root hands to services instead of other services: a
 * write that changes what another feature shows queues that feature's job. Job ids and ordering
 * keys avoid ':' (BullMQ reserves it).
 */
import type { PlatformDeps } from '../context';
import { createAuditRequests } from '../modules/audit/audit-requests';
import { METERS_PER_AUDIT_JOB } from '../modules/audit/job-payload';
import { createRecomputeRequests } from '../modules/analytics/recompute-requests';

export type RateAnalysisJob = { property_id: string } | { user_id: string };

export function createWorkRequests(deps: PlatformDeps) {
  const { logger, queue } = deps;
  const db = deps.database.db;

  // Writes that change what analytics show queue the owner's recompute.
  const recomputeRequests = createRecomputeRequests({ db, logger, enqueue: (job, opts) => queue.enqueue('cost-rollup', job, opts) });
  const auditRequests = createAuditRequests(db);

  return {
    recomputeRequests,
    dataChanged: recomputeRequests.requestRecompute,

    /**
     * A meter's bills are audited again after anything that changes them or what prices them: one
     * meter's job in order per meter; many meters (an owner's re-audit) in jobs of 200. Never throws.
     */
    async requestAudits(meterIds: readonly string[]): Promise<void> {
      const unique = [...new Set(meterIds)];
      try {
        // Marked before queued, so the job (which reads after) clears the mark: GET .../audit says stale until it has run.
        await auditRequests.markRequested(unique);
        if (unique.length === 1) await queue.enqueue('bill-audit', { meter_id: unique[0]! }, { orderingKey: `bill-audit.${unique[0]}` });
        else {
          for (let i = 0; i < unique.length; i += METERS_PER_AUDIT_JOB) {
            await queue.enqueue('bill-audit', { meter_ids: unique.slice(i, i + METERS_PER_AUDIT_JOB) });
          }
        }
      } catch (err) {
        logger.warn({ err, meters: unique.length }, 'could not queue the bill audit');
      }
    },

    /** A property's (or an owner's) rate analysis, in order per property or owner. */
    enqueueRateAnalysis(job: RateAnalysisJob, jobId: string) {
      const key = 'property_id' in job ? `property.${job.property_id}` : `user.${job.user_id}`;
      return queue.enqueue('rate-analysis', job, { jobId, orderingKey: `rate-analysis.${key}` });
    },

    /** Webhook deliveries soon (the schedule sends them anyway). Never throws. */
    async deliverEvents(): Promise<void> {
      try {
        await queue.enqueue('event-deliveries', {});
      } catch (err) {
        logger.warn({ err }, 'could not queue the webhook deliveries; the schedule sends them');
      }
    },
  };
}

export type WorkRequests = ReturnType<typeof createWorkRequests>;
