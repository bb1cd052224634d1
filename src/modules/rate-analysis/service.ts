import type { z } from 'zod';
import { createIntervalReader } from '../meters/public';
import type { Db } from '../../platform/db/client';
import type { rateAnalysisJobPayload } from './job-payload';
import type { Logger } from '../../platform/logger';
import { badRequest } from '../../platform/http/errors';
import type { EnergyCostEstimate } from '../properties/energy-cost';
import type { PropertyRow } from '../properties/public';
import type { PropertyService } from '../properties/service';
import type { TariffCatalog } from '../properties/tariff-catalog';
import type { NotificationService } from '../notifications/service';
import type { NewNotification } from '../notifications/public';
import type { EventOutbox, NewEvent } from '../events/public';
import type { RateAnalysis } from './rate-analysis.calc';
import { createRateAnalysisRepository } from './repository';
import { readSystemState, writeSystemState } from '../../platform/db/system-state';
import { REFERENCE_IMPORT_KEY } from '../tariffs/importer';
import { createPropertyAnalyzer, type PropertyAnalyzerDeps } from './analyze-property';
import { savingEvent, savingNotification } from './saving-notification';
import { adviceChanges, refreshNotification } from './refresh-notification';
import { tariffReads as readsOf, type TariffReads } from './tariff-reads';

/** system_state key holding the stamp of the last tariff import whose re-analysis was queued. */
const IMPORT_SWEEP_KEY = 'rate_analysis_import_sweep';

/** Properties analysed per batch of writes in an owner's job. */
const JOB_BATCH = 500;

/** What a rate-analysis job does: one property, or every property of one user. */
export type RateAnalysisJob = z.output<typeof rateAnalysisJobPayload>;

export interface RateAnalysisServiceDeps extends Omit<PropertyAnalyzerDeps, 'repo'> {
  db: Db;
  logger: Logger;
  tariffs: TariffCatalog;
  properties: Pick<
    PropertyService,
    'requireOwned' | 'findById' | 'rowsOfOwner' | 'withEstimate' | 'storeEstimates' | 'ownersWithProperties'
  >;
  notifications: Pick<NotificationService, 'notifyMany'>;
  enqueue(job: RateAnalysisJob, jobId: string): Promise<unknown>;
  /** Queues the owner's analytics recompute after a write (never throws). */
  dataChanged?(ownerId: string): Promise<void>;
  /** A saving notified is also a `rate_analysis.savings_found` event (deduplicated as the notification is). */
  events?: EventOutbox;
}

/** The job id of a property's re-analysis after its tariff, usage or demand changed (`version` names that state). */
export const propertyAnalysisJobId = (propertyId: string, version: string) => `rate-analysis.property.${propertyId}.${version}`;

/**
 * After a catalog refresh's re-analysis of an owner's properties: one notification naming those whose
 * recommendation differs from their newest analysis before the tariffs changed (refresh-notification.ts).
 * Read from the stored analyses, so a retried job compares with the same advice and notifies once.
 */
async function notifyAdviceChanged(
  repo: ReturnType<typeof createRateAnalysisRepository>,
  notifications: Pick<NotificationService, 'notifyMany'>,
  ownerId: string,
  rows: PropertyRow[],
  refresh: { run_id: string; changed_at: string },
): Promise<void> {
  const changedAt = new Date(refresh.changed_at);
  const before = await repo.latestForOwnerBefore(ownerId, changedAt);
  const after = await repo.latestForOwner(ownerId);
  const previous = new Map(before.map((r) => [r.propertyId, r.result]));
  const rerun = after.filter((r) => r.analyzedAt >= changedAt).map((r) => r.result);
  const names = new Map(rows.map((r) => [r.id, r.name]));
  const note = refreshNotification(ownerId, refresh.run_id, adviceChanges(previous, rerun, names));
  if (note) await notifications.notifyMany([note]);
}

export function createRateAnalysisService(deps: RateAnalysisServiceDeps) {
  const repo = createRateAnalysisRepository(deps.db);
  const { analyzeRow, estimate, supplyOf } = createPropertyAnalyzer({ ...deps, repo, intervals: createIntervalReader(deps.db) });
  const tariffReads = (ownerId: string) => readsOf(deps.tariffs, ownerId);

  /**
   * The job's work for a batch of properties: each one's estimate on its current tariff (priced
   * once, stored only when it changed), then its analysis; the writes go out as one statement
   * each (estimates, analyses with their pruning, notifications) instead of several per property.
   */
  async function reanalyzeBatch(stored: PropertyRow[], reads: TariffReads): Promise<void> {
    const estimates: Array<{ row: PropertyRow; estimate: EnergyCostEstimate | null }> = [];
    const analyses: Array<{ ownerId: string; analysis: RateAnalysis }> = [];
    const notes: NewNotification[] = [];
    const events: NewEvent[] = [];
    for (const before of stored) {
      const currentTariff = before.tariffId ? await reads.tariff(before.tariffId) : null;
      const currentEstimate =
        currentTariff && before.monthlyUsageKwh !== null ? estimate(currentTariff, before, await supplyOf(before, reads)) : null;
      estimates.push({ row: before, estimate: currentEstimate });
      const row = deps.properties.withEstimate(before, currentEstimate);
      const outcome = await analyzeRow(row, reads, currentEstimate);
      if (!('analysis' in outcome)) continue;
      analyses.push({ ownerId: row.ownerId, analysis: outcome.analysis });
      const note = savingNotification(row, outcome.analysis);
      if (note) {
        notes.push(note);
        events.push(savingEvent(row, outcome.analysis, note));
      }
    }
    await deps.properties.storeEstimates(estimates);
    await repo.insertMany(analyses);
    await deps.notifications.notifyMany(notes);
    if (events.length > 0 && deps.events) {
      await deps.events.emit(events);
      await deps.events.deliverSoon();
    }
  }

  return {
    /** POST /pm/properties/{id}/analyze-rates: runs, stores and returns the analysis. */
    async analyze(ownerId: string, propertyId: string): Promise<RateAnalysis> {
      const row = await deps.properties.requireOwned(ownerId, propertyId);
      const outcome = await analyzeRow(row, tariffReads(ownerId));
      if ('error' in outcome) throw badRequest(outcome.error);
      await repo.insertMany([{ ownerId: row.ownerId, analysis: outcome.analysis }]);
      // A stored analysis moves savings and health scores: queue the owner's analytics recompute (as the job does).
      await deps.dataChanged?.(row.ownerId);
      return outcome.analysis;
    },

    latestForProperty: (propertyId: string) => repo.latestForProperty(propertyId),

    /**
     * For dashboards and analytics: the stored newest analysis per property of an owner
     * (monthlySavings / annualSavings of its recommendation; null savings without a current tariff).
     */
    latestForOwner: (ownerId: string) => repo.latestForOwner(ownerId),

    /**
     * The rate-analysis job: re-prices and re-analyses (storing the result); a property gone or not
     * analysable is skipped. Stored analyses move savings and health scores: the owner's analytics
     * recompute is queued (as analyze() does), for a property job only when the property exists.
     */
    async process(job: RateAnalysisJob): Promise<void> {
      if ('property_id' in job) {
        const row = await deps.properties.findById(job.property_id);
        if (!row) return;
        await reanalyzeBatch([row], tariffReads(row.ownerId));
        await deps.dataChanged?.(row.ownerId);
        return;
      }
      const rows = await deps.properties.rowsOfOwner(job.user_id);
      const reads = tariffReads(job.user_id);
      for (let i = 0; i < rows.length; i += JOB_BATCH) await reanalyzeBatch(rows.slice(i, i + JOB_BATCH), reads);
      if (job.after_tariff_refresh) await notifyAdviceChanged(repo, deps.notifications, job.user_id, rows, job.after_tariff_refresh);
      await deps.dataChanged?.(job.user_id);
    },

    /**
     * For the tariff importer: after the tariff data is re-imported, queue one job per user
     * that re-prices and re-analyses all of that user's properties. `importVersion` must name
     * the import (e.g. its timestamp) so the job ids are deterministic per import. After a catalog
     * refresh, `refresh` (the run, and when its tariffs changed) makes each job notify the owner of the
     * properties whose advice changed.
     */
    async requestAnalysisAfterTariffImport(importVersion: string, refresh?: { run_id: string; changed_at: string }): Promise<number> {
      const owners = await deps.properties.ownersWithProperties();
      for (const userId of owners) {
        const job = refresh ? { user_id: userId, after_tariff_refresh: refresh } : { user_id: userId };
        await deps.enqueue(job, `rate-analysis.tariff-import.${importVersion}.user.${userId}`);
      }
      return owners.length;
    },

    /**
     * Re-analyses every owner's properties once per tariff import: compares the import stamp
     * with the last one swept, so repeated ticks and restarts queue nothing new. Returns the
     * number of owners queued.
     */
    async sweepAfterTariffImport(): Promise<number> {
      const imported = await readSystemState(deps.db, REFERENCE_IMPORT_KEY);
      if (!imported) return 0;
      const version = String(imported.updatedAt.getTime());
      const swept = await readSystemState(deps.db, IMPORT_SWEEP_KEY);
      if (swept?.value === version) return 0;
      const queued = await this.requestAnalysisAfterTariffImport(version);
      await writeSystemState(deps.db, IMPORT_SWEEP_KEY, version, deps.now());
      deps.logger.info({ version, owners: queued }, 'queued rate re-analysis after tariff import');
      return queued;
    },
  };
}

export type RateAnalysisService = ReturnType<typeof createRateAnalysisService>;
