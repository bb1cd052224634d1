import { utcDay } from '../../platform/dates';
import type { z } from 'zod';
import type { Db } from '../../platform/db/client';
import type { rateAnalysisJobPayload } from './job-payload';
import type { Logger } from '../../platform/logger';
import { badRequest } from '../../platform/http/errors';
import type { Tariff } from '../tariffs/tariff.model';
import { estimateEnergyCost, type EnergyCostEstimate, type MonthlyBillTotal } from '../properties/energy-cost';
import type { PropertyRow } from '../properties/public';
import type { PropertyService } from '../properties/service';
import type { TariffCatalog } from '../properties/tariff-catalog';
import { sectorsOfProperty, type PropertySector } from '../properties/states';
import type { NotificationService } from '../notifications/service';
import type { NewNotification } from '../notifications/public';
import type { EventOutbox, NewEvent } from '../events/public';
import { tariffNotices } from '../tariffs/tariff-notices';
import { analyzeRates, recommendationSavingsCents, type ExcludedTariff, type PricedTariff, type RateAnalysis } from './rate-analysis.calc';
import { eligibilityOf, type EligibilityVerdict } from '../tariffs/eligibility';
import type { PricingService, LoadShapeSet } from '../pricing';
import { basisOf, billNotes, sumOrNull, worstVerdict } from './from-bills';
import { billedMeters, switchingCustomer } from './customer';
import { createRateAnalysisRepository } from './repository';
import { isCustomTariffId } from '../tariffs/custom/service';
import { priceDefects } from '../tariffs/price-defects';
import { readSystemState, writeSystemState } from '../../platform/db/system-state';
import { REFERENCE_IMPORT_KEY } from '../tariffs/importer';
import type { AverageRatesTable } from '../analytics/average-rates';
import { implausibleCost } from './plausibility';
import { comparedFromNotes } from './notes';

/** system_state key holding the stamp of the last tariff import whose re-analysis was queued. */
const IMPORT_SWEEP_KEY = 'rate_analysis_import_sweep';

/** Properties analysed per batch of writes in an owner's job. */
const JOB_BATCH = 500;

/** What a rate-analysis job does: one property, or every property of one user. */
export type RateAnalysisJob = z.output<typeof rateAnalysisJobPayload>;

export interface RateAnalysisServiceDeps {
  db: Db;
  now: () => Date;
  logger: Logger;
  tariffs: TariffCatalog;
  monthlyBill: MonthlyBillTotal;
  properties: Pick<PropertyService, 'requireOwned' | 'findById' | 'rowsOfOwner' | 'withEstimate' | 'storeEstimates' | 'ownersWithProperties'>;
  notifications: Pick<NotificationService, 'notifyMany'>;
  /** Looks up the tariff versions and supply contract a property's bills are priced on (pricePeriod, as the bill audit prices), for an analysis from bills. */
  pricing: Pick<PricingService, 'tariffOverPeriod'>;
  /** The bundled load shapes pricing splits usage with. */
  loadShapes: () => LoadShapeSet;
  /** EIA-861 average rates, for the plausibility check (a cost below half the utility's average is a defective record). */
  averageRates: () => AverageRatesTable;
  enqueue(job: RateAnalysisJob, jobId: string): Promise<unknown>;
  /** Queues the owner's analytics recompute after a write (never throws). */
  dataChanged?(ownerId: string): Promise<void>;
  /** A saving notified is also a `rate_analysis.savings_found` event (deduplicated as the notification is). */
  events?: EventOutbox;
}

type Outcome = { analysis: RateAnalysis } | { error: string };

/**
 * Tariff reads of one request or job. An owner's job reads each tariff, each ZIP code's serving
 * utilities and each (utilities, sectors) candidate list once, however many properties share them.
 */
interface TariffReads {
  tariff(id: string): Promise<Tariff | null>;
  serving(zipCode: string): Promise<string[]>;
  /** The catalog's current tariffs of the utilities in the sectors, then the owner's own of the same utilities and sectors. */
  candidates(utilityIds: string[], sectors: PropertySector[]): Promise<Tariff[]>;
  /** The latest known revisions of the utilities' expired tariffs (for a utility with no current one). */
  latest(utilityIds: string[], sectors: PropertySector[], state: string | null): Promise<Tariff[]>;
}

function memo<T>(read: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const seen = new Map<string, Promise<T>>();
  return (key) => {
    let hit = seen.get(key);
    if (!hit) seen.set(key, (hit = read(key)));
    return hit;
  };
}

/** The job id of a property's re-analysis after its tariff, usage or demand changed (`version` names that state). */
export const propertyAnalysisJobId = (propertyId: string, version: string) => `rate-analysis.property.${propertyId}.${version}`;

export function createRateAnalysisService(deps: RateAnalysisServiceDeps) {
  const repo = createRateAnalysisRepository(deps.db);

  /** Reads for one owner's properties (a request's or a job's): their own tariffs are among the tariffs. */
  function tariffReads(ownerId: string): TariffReads {
    const candidates = memo(async (key) => {
      const [utilities, sectors] = key.split('|').map((part) => part.split(',')) as [string[], PropertySector[]];
      const [catalog, own] = await Promise.all([
        deps.tariffs.currentTariffsOf(utilities, sectors), deps.tariffs.customAlternatives(ownerId, utilities, sectors),
      ]);
      return [...catalog, ...own];
    });
    const latest = memo(async (key) => {
      const [utilities, sectors, state] = key.split('|') as [string, string, string];
      return deps.tariffs.latestRevisionsOf(utilities.split(','), sectors.split(',') as PropertySector[], state || null);
    });
    return {
      latest: (utilityIds, sectors, state) => latest(`${utilityIds.join(',')}|${sectors.join(',')}|${state ?? ''}`),
      tariff: memo((id) => deps.tariffs.findTariffById(id, ownerId)),
      serving: memo((zip) => deps.tariffs.servingUtilities(zip)),
      candidates: (utilityIds, sectors) => candidates(`${utilityIds.join(',')}|${sectors.join(',')}`),
    };
  }

  /** The property's estimate on a tariff, with its supply contract (`supply`) or supply price beside a delivery-only one. */
  const estimate = (tariff: Tariff, row: PropertyRow, supply: Tariff | null): EnergyCostEstimate | null =>
    estimateEnergyCost(deps.monthlyBill, tariff, row.monthlyUsageKwh!, row.monthlyDemandKw, row.supplyRatePerKwh, supply);

  const supplyOf = (row: PropertyRow, reads: TariffReads) => (row.supplyTariffId ? reads.tariff(row.supplyTariffId) : Promise.resolve(null));

  /**
   * The rate analysis of one property: the current tariffs of one
   * utility (the current tariff's; without one, every utility serving the ZIP code) in the
   * property's sectors, each priced by the bill engine on its monthly usage (and demand).
   * Tariffs whose applicability excludes the property, and those the engine cannot price from
   * its data (demand tariffs without monthly_demand_kw), go to `excluded`. Without a current
   * tariff (or one not priceable) current_tariff is null, savings are null and the cheapest
   * tariff is recommended. `currentEstimate` is the current tariff already priced, when the caller
   * has it. Stores nothing.
   */
  async function analyzeRow(row: PropertyRow, reads: TariffReads, currentEstimate?: EnergyCostEstimate | null): Promise<Outcome> {
    const currentTariff = row.tariffId ? await reads.tariff(row.tariffId) : null;
    const billed = currentTariff ? await billedMeters({ repo, pricing: deps.pricing, loadShapes: deps.loadShapes, today: utcDay(deps.now()) }, row, currentTariff) : [];
    if (billed.length === 0 && row.monthlyUsageKwh === null) return { error: 'Property has no usage data' };
    const utilityIds = currentTariff ? [currentTariff.utilityId] : await reads.serving(row.zipCode);
    const tariffs = await reads.candidates(utilityIds, sectorsOfProperty(row.propertyType, row.unitCount));
    const supply = await supplyOf(row, reads);
    const base = switchingCustomer(row, currentTariff, tariffs);
    // What each tariff costs a month and whether the property may take it: from the bills, meter by meter, or from the typed usage.
    let monthlyCents: (t: Tariff) => number | null;
    let verdictOf: (t: Tariff) => EligibilityVerdict;
    let currentCents: number | null;
    if (billed.length > 0) {
      const customers = billed.map((m) => ({ meter: m, customer: { ...base, usageKwh: m.monthlyKwh, demandKw: m.peakKw } }));
      monthlyCents = (t) => sumOrNull(billed.map((m) => m.monthlyCentsOn(t)));
      verdictOf = (t) => worstVerdict(customers.map(({ meter, customer }) => ({ meter: billed.length > 1 ? meter.name : null, verdict: eligibilityOf(t, customer) })));
      currentCents = sumOrNull(billed.map((m) => m.currentMonthlyCents));
    } else {
      monthlyCents = (t) => estimate(t, row, supply)?.monthlyCents ?? null;
      verdictOf = (t) => eligibilityOf(t, base);
      const cost = currentTariff ? (currentEstimate !== undefined ? currentEstimate : estimate(currentTariff, row, supply)) : null;
      currentCents = cost?.monthlyCents ?? null;
    }
    const current: PricedTariff | null = currentTariff && currentCents !== null
      ? { id: currentTariff.id, name: currentTariff.name, monthlyCostCents: currentCents }
      : null;
    const candidates: PricedTariff[] = [];
    const needsReview: Array<PricedTariff & { reason: string }> = [];
    const excluded: ExcludedTariff[] = [];
    /** Current tariffs the property may take that cannot be priced from its data (a demand charge and no demand figure). */
    const unpriced: Tariff[] = [];
    const usageKwh = billed.length > 0 ? billed.reduce((sum, m) => sum + m.monthlyKwh, 0) : row.monthlyUsageKwh!;
    const where = { zipCode: row.zipCode, supplyPriced: row.supplyRatePerKwh !== null || supply !== null };
    const implausible = (t: Tariff, cents: number) => implausibleCost(deps.averageRates(), t, where, cents, usageKwh);
    const unpriceable = billed.length > 0
      ? 'cannot be priced from the bills (a demand tariff and a bill without demand_kw, or a period the engine refuses)'
      : 'a demand tariff: the property has no monthly_demand_kw to price it';
    /** Sorts one tariff into the three lists; `review` makes an eligible tariff one to review (an expired revision). */
    const sort = (t: Tariff, review: string | null) => {
      const verdict = verdictOf(t);
      if (verdict.status === 'excluded') {
        excluded.push({ tariff_id: t.id, name: t.name, reason: verdict.reason });
        return;
      }
      const cents = monthlyCents(t);
      if (cents === null) {
        excluded.push({ tariff_id: t.id, name: t.name, reason: verdict.status === 'needs_review' ? verdict.reason : unpriceable });
        if (verdict.status === 'eligible' && review === null) unpriced.push(t);
        return;
      }
      const priced = { id: t.id, name: t.name, monthlyCostCents: cents };
      // A tariff whose own record prices bills wrongly (a charge its description names and its rates lack, a negative
      // energy price) is for review only (issue 45).
      const missing = priceDefects(t)[0] ?? implausible(t, cents);
      const reasons = [review, verdict.status === 'needs_review' ? verdict.reason : null, missing].filter((r) => r !== null);
      if (reasons.length > 0) needsReview.push({ ...priced, reason: reasons.join('; ') });
      else candidates.push(priced);
    };
    for (const t of tariffs) if (t.id !== currentTariff?.id) sort(t, null);

    // Nothing current to compare (no current catalog tariff the property is not excluded from, and the current tariff
    // expired or absent): the utility's latest known revisions are priced for review only, with their end dates.
    const today = utcDay(deps.now());
    // A current tariff the property may take is current catalog even when the property lacks the figure to price it.
    const excludedIds = new Set(excluded.map((e) => e.tariff_id));
    for (const t of unpriced) excludedIds.delete(t.id);
    const catalogCurrent = tariffs.some((t) => !isCustomTariffId(t.id) && t.id !== currentTariff?.id && !excludedIds.has(t.id))
      || (currentTariff !== null && !isCustomTariffId(currentTariff.id) && (currentTariff.expirationDate === null || currentTariff.expirationDate >= today));
    let latestEndDate: string | null = null;
    /** What the utility lacks, in words: said in the assumptions, and in the 400 when nothing can be recommended. */
    let nothingCurrent: string | null = null;
    const notes = comparedFromNotes({
      currentTariff, currentFit: currentTariff ? verdictOf(currentTariff) : null,
      currentImplausible: currentTariff && current ? implausible(currentTariff, current.monthlyCostCents) : null,
      serviceType: base.serviceType, supplyPriced: where.supplyPriced,
      utilityName: tariffs.find((t) => !isCustomTariffId(t.id))?.utilityName ?? 'The serving utility',
    });
    if (!catalogCurrent) {
      const latest = await reads.latest(utilityIds, sectorsOfProperty(row.propertyType, row.unitCount), base.state);
      const ends = [...latest, ...(currentTariff && !isCustomTariffId(currentTariff.id) ? [currentTariff] : [])]
        .map((t) => t.expirationDate).filter((d): d is string => d !== null).sort();
      latestEndDate = ends.at(-1) ?? null;
      const utility = currentTariff?.utilityName ?? tariffs.find((t) => !isCustomTariffId(t.id))?.utilityName ?? latest[0]?.utilityName ?? 'The serving utility';
      const currentOnes = tariffs.filter((t) => !isCustomTariffId(t.id)).length;
      const firstExcluded = excluded.find((e) => !isCustomTariffId(e.tariff_id));
      nothingCurrent = `${utility} has no current tariff in the catalog the property could take`
        + `${currentOnes > 0 && firstExcluded ? ` (its ${currentOnes} current ones are all excluded for this property, e.g. ${firstExcluded.name}: ${firstExcluded.reason})` : ''}`
        + `${latestEndDate ? `; its latest records ended on ${latestEndDate}` : ''}`;
      notes.push(`${nothingCurrent}: nothing current could be compared; its latest known revisions are priced in needs_review only, and the advice may be out of date`);
      for (const t of latest) if (t.id !== currentTariff?.id) sort(t, `expired on ${t.expirationDate}: the latest known revision, not a current tariff`);
    }
    if (!current && candidates.length === 0) {
      // SPEC's answer when the area has no tariff at all; the others say why none can be recommended.
      if (tariffs.length === 0 && excluded.length === 0 && needsReview.length === 0) return { error: 'No tariffs available for this service area' };
      const utility = unpriced[0]?.utilityName;
      return { error: nothingCurrent !== null
        ? `${nothingCurrent}: no tariff can be recommended`
        : unpriced.length > 0
          ? `${utility}'s current tariffs the property could take `
            + (billed.length > 0
              ? `cannot be priced from its bills (${unpriced.length}, e.g. ${unpriced[0]!.name}): record each bill's demand_kw to compare them`
              : `charge for demand (${unpriced.length}, e.g. ${unpriced[0]!.name}): set the property's monthly_demand_kw `
                + '(or record electric bills with demand_kw) to compare them')
        : needsReview.length > 0
          ? `No tariff of this service area is shown eligible for the property: ${needsReview.length} need review (${needsReview[0]!.name}: `
            + `${needsReview[0]!.reason}${needsReview.length > 1 ? '; ...' : ''}); set the property's tariff_id to compare from its current tariff`
          : 'No tariffs available for this service area' };
    }
    const analysis = analyzeRates({
      propertyId: row.id, current, candidates, excluded, needsReview, analyzedAt: deps.now(),
      catalog: { current: catalogCurrent, latestEndDate }, basis: basisOf(billed),
    });
    return { analysis: { ...analysis, assumptions: [...notes, ...billNotes(billed), ...analysisNotices(analysis, currentTariff, tariffs)] } };
  }

  /** What the current and the recommended tariff's data make the answer assume (their age, their class). */
  function analysisNotices(analysis: RateAnalysis, currentTariff: Tariff | null, tariffs: Tariff[]): string[] {
    const today = utcDay(deps.now());
    const recommended = tariffs.find((t) => t.id === analysis.recommendation && t.id !== currentTariff?.id);
    return [currentTariff, recommended].flatMap((t) => (t ? tariffNotices(t, today).map((n) => `${t.name}: ${n}`) : []));
  }

  /** The notification of a saving the analysis found (deduplicated per property, recommendation and amount). */
  function savingNotification(row: PropertyRow, analysis: RateAnalysis): NewNotification | null {
    const savingsCents = recommendationSavingsCents(analysis);
    if (savingsCents === null || savingsCents <= 0) return null;
    const alt = analysis.alternatives.find((a) => a.tariff_id === analysis.recommendation)!;
    return {
      userId: row.ownerId,
      type: 'rate_savings',
      propertyId: row.id,
      message: `${row.name}: switching to ${alt.name} could save $${alt.annual_savings!.toFixed(2)} a year`,
      dedupeKey: `rate-savings:${row.id}:${analysis.recommendation}:${savingsCents}`,
    };
  }

  /** The event of a saving the analysis found, with the key of its notification (one per property, recommendation and amount). */
  function savingEvent(row: PropertyRow, analysis: RateAnalysis, note: NewNotification): NewEvent {
    const alt = analysis.alternatives.find((a) => a.tariff_id === analysis.recommendation)!;
    return {
      ownerId: row.ownerId, type: 'rate_analysis.savings_found', dedupeKey: note.dedupeKey ?? undefined,
      data: {
        property_id: row.id, property_name: row.name, recommended_tariff_id: alt.tariff_id, recommended_tariff_name: alt.name,
        annual_savings: alt.annual_savings!,
      },
    };
  }

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
      const currentEstimate = currentTariff && before.monthlyUsageKwh !== null ? estimate(currentTariff, before, await supplyOf(before, reads)) : null;
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
      await deps.dataChanged?.(job.user_id);
    },

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
