import type { z } from 'zod';
import type { Db } from '../../platform/db/client';
import type { rateAnalysisJobPayload } from './job-payload';
import type { Logger } from '../../platform/logger';
import { badRequest } from '../../platform/http/errors';
import type { Tariff } from '../tariffs/tariff.model';
import { estimateEnergyCost, type MonthlyBillTotal } from '../properties/energy-cost';
import type { PropertyRow } from '../properties/repository';
import type { PropertyService } from '../properties/service';
import type { TariffCatalog } from '../properties/tariff-catalog';
import { SECTOR_OF_PROPERTY_TYPE, type PropertyType } from '../properties/states';
import type { NotificationService } from '../notifications/service';
import { analyzeRates, recommendationSavingsCents, type PricedTariff, type RateAnalysis } from './rate-analysis.calc';
import { createRateAnalysisRepository } from './repository';
import { readSystemState, writeSystemState } from '../../platform/db/system-state';
import { REFERENCE_IMPORT_KEY } from '../tariffs/importer';

/** system_state key holding the stamp of the last tariff import whose re-analysis was queued. */
const IMPORT_SWEEP_KEY = 'rate_analysis_import_sweep';

/** What a rate-analysis job does: one property, or every property of one user. */
export type RateAnalysisJob = z.output<typeof rateAnalysisJobPayload>;

export interface RateAnalysisServiceDeps {
  db: Db;
  now: () => Date;
  logger: Logger;
  tariffs: TariffCatalog;
  monthlyBill: MonthlyBillTotal;
  properties: Pick<PropertyService, 'requireOwned' | 'refreshCosts' | 'idsOfOwner' | 'ownersWithProperties'>;
  notifications: Pick<NotificationService, 'notify'>;
  enqueue(job: RateAnalysisJob, jobId: string): Promise<unknown>;
}

type Outcome = { analysis: RateAnalysis } | { error: string };
type AreaTariffs = (zipCode: string, sector: string) => Promise<Tariff[]>;

export function createRateAnalysisService(deps: RateAnalysisServiceDeps) {
  const repo = createRateAnalysisRepository(deps.db);

  function price(tariff: Tariff, row: PropertyRow): PricedTariff | null {
    const estimate = estimateEnergyCost(deps.monthlyBill, tariff, row.monthlyUsageKwh!, row.monthlyDemandKw);
    return estimate ? { id: tariff.id, name: tariff.name, monthlyCostCents: estimate.monthlyCents } : null;
  }

  /**
   * SPEC.md's analysis of one property: every current tariff for its ZIP code and sector,
   * priced by the bill engine on its monthly usage (and demand). Tariffs the engine cannot
   * price from the property's data (demand tariffs without monthly_demand_kw) are left out.
   * Without a current tariff (or one no longer in the database, or not priceable) current_tariff is null,
   * savings are null and the cheapest tariff is recommended.
   */
  async function run(row: PropertyRow, areaTariffs: AreaTariffs = deps.tariffs.tariffsForArea): Promise<Outcome> {
    if (row.monthlyUsageKwh === null) return { error: 'Property has no usage data' };
    const sector = SECTOR_OF_PROPERTY_TYPE[row.propertyType as PropertyType];
    const area = await areaTariffs(row.zipCode, sector);
    const currentTariff = row.tariffId
      ? area.find((t) => t.id === row.tariffId) ?? (await deps.tariffs.findTariffById(row.tariffId))
      : null;
    const current = currentTariff ? price(currentTariff, row) : null;
    const candidates = area.map((t) => price(t, row)).filter((p): p is PricedTariff => p !== null);
    if (area.length === 0 || (!current && candidates.length === 0)) {
      return { error: 'No tariffs available for this service area' };
    }
    const analysis = analyzeRates({ propertyId: row.id, current, candidates, analyzedAt: deps.now() });
    await repo.insert(row.ownerId, analysis);
    return { analysis };
  }

  /** One job's tariff reads: an owner's properties in the same ZIP code and sector share one (tariffs with structure). */
  function areaTariffsOnce(): AreaTariffs {
    const read = new Map<string, Promise<Tariff[]>>();
    return (zipCode, sector) => {
      const key = `${zipCode}|${sector}`;
      let tariffs = read.get(key);
      if (!tariffs) read.set(key, (tariffs = deps.tariffs.tariffsForArea(zipCode, sector)));
      return tariffs;
    };
  }

  async function reanalyzeProperty(propertyId: string, areaTariffs?: AreaTariffs): Promise<void> {
    const row = await deps.properties.refreshCosts(propertyId);
    if (!row) return;
    const outcome = await run(row, areaTariffs);
    if (!('analysis' in outcome)) return;
    const { analysis } = outcome;
    const savingsCents = recommendationSavingsCents(analysis);
    if (savingsCents !== null && savingsCents > 0) {
      const alt = analysis.alternatives.find((a) => a.tariff_id === analysis.recommendation)!;
      await deps.notifications.notify({
        userId: row.ownerId,
        type: 'rate_savings',
        propertyId: row.id,
        message: `${row.name}: switching to ${alt.name} could save $${alt.annual_savings!.toFixed(2)} a year`,
        dedupeKey: `rate-savings:${row.id}:${analysis.recommendation}:${savingsCents}`,
      });
    }
  }

  return {
    /** POST /pm/properties/{id}/analyze-rates: runs, stores and returns the analysis. */
    async analyze(ownerId: string, propertyId: string): Promise<RateAnalysis> {
      const row = await deps.properties.requireOwned(ownerId, propertyId);
      const outcome = await run(row);
      if ('error' in outcome) throw badRequest(outcome.error);
      return outcome.analysis;
    },

    latestForProperty: (propertyId: string) => repo.latestForProperty(propertyId),

    /**
     * For dashboards and analytics: the stored newest analysis per property of an owner
     * (monthlySavings / annualSavings of its recommendation; null savings without a current tariff).
     */
    latestForOwner: (ownerId: string) => repo.latestForOwner(ownerId),

    /** The rate-analysis job: re-prices and re-analyses (storing the result); a property gone or not analysable is skipped. */
    async process(job: RateAnalysisJob): Promise<void> {
      if ('property_id' in job) return reanalyzeProperty(job.property_id);
      const areaTariffs = areaTariffsOnce();
      for (const id of await deps.properties.idsOfOwner(job.user_id)) await reanalyzeProperty(id, areaTariffs);
    },

    /** Queues a re-analysis of one property after its tariff, usage or demand changed (`version` names that state). */
    requestPropertyAnalysis: (propertyId: string, version: string) =>
      deps.enqueue({ property_id: propertyId }, `rate-analysis.property.${propertyId}.${version}`),

    /**
     * For the tariff importer: after the tariff data is re-imported, queue one job per user
     * that re-prices and re-analyses all of that user's properties. `importVersion` must name
     * the import (e.g. its timestamp) so the job ids are deterministic per import.
     */
    async requestAnalysisAfterTariffImport(importVersion: string): Promise<number> {
      const owners = await deps.properties.ownersWithProperties();
      for (const userId of owners) {
        await deps.enqueue({ user_id: userId }, `rate-analysis.tariff-import.${importVersion}.user.${userId}`);
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
