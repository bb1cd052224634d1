import { utcDay } from '../../platform/dates';
import type { Tariff } from '../tariffs/tariff.model';
import { estimateEnergyCost, type EnergyCostEstimate, type MonthlyBillTotal } from '../properties/energy-cost';
import type { PropertyRow } from '../properties/public';
import { sectorsOfProperty } from '../properties/states';
import { tariffNotices } from '../tariffs/tariff-notices';
import { analyzeRates, type ExcludedTariff, type PricedTariff, type RateAnalysis } from './rate-analysis.calc';
import { eligibilityOf, type EligibilityVerdict } from '../tariffs/eligibility';
import type { PricingService, LoadShapeSet } from '../pricing';
import { basisOf, billNotes, sumOrNull, worstVerdict } from './from-bills';
import { billedMeters, switchingCustomer } from './customer';
import type { createRateAnalysisRepository } from './repository';
import { isCustomTariffId } from '../tariffs/custom/service';
import { priceDefects } from '../tariffs/price-defects';
import type { AverageRatesTable } from '../analytics/average-rates';
import { implausibleCost } from './plausibility';
import { comparedFromNotes } from './notes';
import type { TariffReads } from './tariff-reads';
import type { IntervalReader } from '../meters/public';

/** What one property's analysis reads besides its tariffs. */
export interface PropertyAnalyzerDeps {
  now: () => Date;
  monthlyBill: MonthlyBillTotal;
  /** Looks up the tariff versions and supply contract a property's bills are priced on (pricePeriod, as the bill audit prices), for an analysis from bills. */
  pricing: Pick<PricingService, 'tariffOverPeriods'>;
  /** The bundled load shapes pricing splits usage with. */
  loadShapes: () => LoadShapeSet;
  /** EIA-861 average rates, for the plausibility check (a cost below half the utility's average is a defective record). */
  averageRates: () => AverageRatesTable;
  repo: Pick<ReturnType<typeof createRateAnalysisRepository>, 'electricBills'>;
  /** The meters' interval readings: a bill whose period they cover is priced from them (README "Bills priced from interval readings"). */
  intervals?: Pick<IntervalReader, 'metersWithReadings' | 'overPeriods'>;
}

export type Outcome = { analysis: RateAnalysis } | { error: string };

/**
 * Why no tariff can be recommended when neither the current tariff nor any candidate is priced:
 * SPEC's answer when the area has no tariff at all; the others say why none can be recommended.
 */
function whyNothingRecommended(c: {
  tariffs: Tariff[];
  excluded: ExcludedTariff[];
  needsReview: Array<PricedTariff & { reason: string }>;
  unpriced: Tariff[];
  nothingCurrent: string | null;
  fromBills: boolean;
}): string {
  if (c.tariffs.length === 0 && c.excluded.length === 0 && c.needsReview.length === 0) return 'No tariffs available for this service area';
  const { unpriced, needsReview } = c;
  const utility = unpriced[0]?.utilityName;
  return c.nothingCurrent !== null
    ? `${c.nothingCurrent}: no tariff can be recommended`
    : unpriced.length > 0
      ? `${utility}'s current tariffs the property could take ` +
        (c.fromBills
          ? `cannot be priced from its bills (${unpriced.length}, e.g. ${unpriced[0]!.name}): record each bill's demand_kw to compare them`
          : `charge for demand (${unpriced.length}, e.g. ${unpriced[0]!.name}): set the property's monthly_demand_kw ` +
            '(or record electric bills with demand_kw) to compare them')
      : needsReview.length > 0
        ? `No tariff of this service area is shown eligible for the property: ${needsReview.length} need review (${needsReview[0]!.name}: ` +
          `${needsReview[0]!.reason}${needsReview.length > 1 ? '; ...' : ''}); set the property's tariff_id to compare from its current tariff`
        : 'No tariffs available for this service area';
}

type Billed = Awaited<ReturnType<typeof billedMeters>>;
type Customer = ReturnType<typeof switchingCustomer>;
type Review = PricedTariff & { reason: string };

/** The property's estimate on a tariff, with its supply contract (`supply`) or supply price beside a delivery-only one. */
function estimateOn(deps: PropertyAnalyzerDeps, tariff: Tariff, row: PropertyRow, supply: Tariff | null): EnergyCostEstimate | null {
  return estimateEnergyCost(deps.monthlyBill, tariff, row.monthlyUsageKwh!, row.monthlyDemandKw, row.supplyRatePerKwh, supply);
}

const supplyOf = (row: PropertyRow, reads: TariffReads) => (row.supplyTariffId ? reads.tariff(row.supplyTariffId) : Promise.resolve(null));

/** What each tariff costs a month and whether the property may take it: from the bills, meter by meter, or from the typed usage. */
function pricingOf(
  deps: PropertyAnalyzerDeps,
  p: { row: PropertyRow; billed: Billed; base: Customer; supply: Tariff | null; currentTariff: Tariff | null },
  currentEstimate: EnergyCostEstimate | null | undefined,
): { monthlyCents: (t: Tariff) => number | null; verdictOf: (t: Tariff) => EligibilityVerdict; currentCents: number | null } {
  const { row, billed, base, supply, currentTariff } = p;
  if (billed.length > 0) {
    const customers = billed.map((m) => ({ meter: m, customer: { ...base, usageKwh: m.monthlyKwh, demandKw: m.peakKw } }));
    return {
      monthlyCents: (t) => sumOrNull(billed.map((m) => m.monthlyCentsOn(t))),
      verdictOf: (t) =>
        worstVerdict(
          customers.map(({ meter, customer }) => ({ meter: billed.length > 1 ? meter.name : null, verdict: eligibilityOf(t, customer) })),
        ),
      currentCents: sumOrNull(billed.map((m) => m.currentMonthlyCents)),
    };
  }
  const cost = currentTariff ? (currentEstimate !== undefined ? currentEstimate : estimateOn(deps, currentTariff, row, supply)) : null;
  return {
    monthlyCents: (t) => estimateOn(deps, t, row, supply)?.monthlyCents ?? null,
    verdictOf: (t) => eligibilityOf(t, base),
    currentCents: cost?.monthlyCents ?? null,
  };
}

/** The lists a property's tariffs are sorted into. */
interface SortedTariffs {
  candidates: PricedTariff[];
  needsReview: Review[];
  excluded: ExcludedTariff[];
  /** Current tariffs the property may take that cannot be priced from its data (a demand charge and no demand figure). */
  unpriced: Tariff[];
}

/** Sorts tariffs into the lists; `review` makes an eligible tariff one to review (an expired revision). */
function createSorter(p: {
  verdictOf: (t: Tariff) => EligibilityVerdict;
  monthlyCents: (t: Tariff) => number | null;
  implausible: (t: Tariff, cents: number) => string | null;
  unpriceable: string;
}) {
  const lists: SortedTariffs = { candidates: [], needsReview: [], excluded: [], unpriced: [] };
  const sort = (t: Tariff, review: string | null) => {
    const verdict = p.verdictOf(t);
    if (verdict.status === 'excluded') {
      lists.excluded.push({ tariff_id: t.id, name: t.name, reason: verdict.reason });
      return;
    }
    const cents = p.monthlyCents(t);
    if (cents === null) {
      lists.excluded.push({ tariff_id: t.id, name: t.name, reason: verdict.status === 'needs_review' ? verdict.reason : p.unpriceable });
      if (verdict.status === 'eligible' && review === null) lists.unpriced.push(t);
      return;
    }
    const priced = { id: t.id, name: t.name, monthlyCostCents: cents };
    // A tariff whose own record prices bills wrongly (a charge its description names and its rates lack, a negative
    // energy price) is for review only (issue 45).
    const missing = priceDefects(t)[0] ?? p.implausible(t, cents);
    const reasons = [review, verdict.status === 'needs_review' ? verdict.reason : null, missing].filter((r) => r !== null);
    if (reasons.length > 0) lists.needsReview.push({ ...priced, reason: reasons.join('; ') });
    else lists.candidates.push(priced);
  };
  return { lists, sort };
}

/** Whether some current catalog tariff is one the property is not excluded from (or its current tariff has not expired). */
function hasCatalogCurrent(tariffs: Tariff[], currentTariff: Tariff | null, lists: SortedTariffs, today: string): boolean {
  // A current tariff the property may take is current catalog even when the property lacks the figure to price it.
  const excludedIds = new Set(lists.excluded.map((e) => e.tariff_id));
  for (const t of lists.unpriced) excludedIds.delete(t.id);
  return (
    tariffs.some((t) => !isCustomTariffId(t.id) && t.id !== currentTariff?.id && !excludedIds.has(t.id)) ||
    (currentTariff !== null &&
      !isCustomTariffId(currentTariff.id) &&
      (currentTariff.expirationDate === null || currentTariff.expirationDate >= today))
  );
}

/**
 * Nothing current to compare: the utility's latest known revisions, their last end date, and what the utility lacks
 * in words (said in the assumptions, and in the 400 when nothing can be recommended).
 */
async function latestRevisions(
  reads: TariffReads,
  p: {
    row: PropertyRow;
    utilityIds: string[];
    base: Customer;
    currentTariff: Tariff | null;
    tariffs: Tariff[];
    excluded: ExcludedTariff[];
  },
): Promise<{ latest: Tariff[]; latestEndDate: string | null; nothingCurrent: string }> {
  const { row, currentTariff, tariffs } = p;
  const latest = await reads.latest(p.utilityIds, sectorsOfProperty(row.propertyType, row.unitCount), p.base.state);
  const ends = [...latest, ...(currentTariff && !isCustomTariffId(currentTariff.id) ? [currentTariff] : [])]
    .map((t) => t.expirationDate)
    .filter((d): d is string => d !== null)
    .sort();
  const latestEndDate = ends.at(-1) ?? null;
  const utility =
    currentTariff?.utilityName ??
    tariffs.find((t) => !isCustomTariffId(t.id))?.utilityName ??
    latest[0]?.utilityName ??
    'The serving utility';
  const currentOnes = tariffs.filter((t) => !isCustomTariffId(t.id)).length;
  const firstExcluded = p.excluded.find((e) => !isCustomTariffId(e.tariff_id));
  const nothingCurrent =
    `${utility} has no current tariff in the catalog the property could take` +
    `${currentOnes > 0 && firstExcluded ? ` (its ${currentOnes} current ones are all excluded for this property, e.g. ${firstExcluded.name}: ${firstExcluded.reason})` : ''}` +
    `${latestEndDate ? `; its latest records ended on ${latestEndDate}` : ''}`;
  return { latest, latestEndDate, nothingCurrent };
}

/** What the current and the recommended tariff's data make the answer assume (their age, their class). */
function analysisNotices(deps: PropertyAnalyzerDeps, analysis: RateAnalysis, currentTariff: Tariff | null, tariffs: Tariff[]): string[] {
  const today = utcDay(deps.now());
  const recommended = tariffs.find((t) => t.id === analysis.recommendation && t.id !== currentTariff?.id);
  return [currentTariff, recommended].flatMap((t) => (t ? tariffNotices(t, today).map((n) => `${t.name}: ${n}`) : []));
}

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
async function analyzeRow(
  deps: PropertyAnalyzerDeps,
  row: PropertyRow,
  reads: TariffReads,
  currentEstimate?: EnergyCostEstimate | null,
): Promise<Outcome> {
  const currentTariff = row.tariffId ? await reads.tariff(row.tariffId) : null;
  const billed = currentTariff
    ? await billedMeters(
        { repo: deps.repo, pricing: deps.pricing, loadShapes: deps.loadShapes, today: utcDay(deps.now()), intervals: deps.intervals },
        row,
        currentTariff,
      )
    : [];
  if (billed.length === 0 && row.monthlyUsageKwh === null) return { error: 'Property has no usage data' };
  const utilityIds = currentTariff ? [currentTariff.utilityId] : await reads.serving(row.zipCode);
  const tariffs = await reads.candidates(utilityIds, sectorsOfProperty(row.propertyType, row.unitCount));
  const supply = await supplyOf(row, reads);
  const base = switchingCustomer(row, currentTariff, tariffs);
  const { monthlyCents, verdictOf, currentCents } = pricingOf(deps, { row, billed, base, supply, currentTariff }, currentEstimate);
  const current: PricedTariff | null =
    currentTariff && currentCents !== null ? { id: currentTariff.id, name: currentTariff.name, monthlyCostCents: currentCents } : null;
  const usageKwh = billed.length > 0 ? billed.reduce((sum, m) => sum + m.monthlyKwh, 0) : row.monthlyUsageKwh!;
  const where = { zipCode: row.zipCode, supplyPriced: row.supplyRatePerKwh !== null || supply !== null };
  const implausible = (t: Tariff, cents: number) => implausibleCost(deps.averageRates(), t, where, cents, usageKwh);
  const unpriceable =
    billed.length > 0
      ? 'cannot be priced from the bills (a demand tariff and a bill without demand_kw, or a period the engine refuses)'
      : 'a demand tariff: the property has no monthly_demand_kw to price it';
  const { lists, sort } = createSorter({ verdictOf, monthlyCents, implausible, unpriceable });
  const { candidates, needsReview, excluded, unpriced } = lists;
  for (const t of tariffs) if (t.id !== currentTariff?.id) sort(t, null);

  // Nothing current to compare (no current catalog tariff the property is not excluded from, and the current tariff
  // expired or absent): the utility's latest known revisions are priced for review only, with their end dates.
  const catalogCurrent = hasCatalogCurrent(tariffs, currentTariff, lists, utcDay(deps.now()));
  let latestEndDate: string | null = null;
  /** What the utility lacks, in words: said in the assumptions, and in the 400 when nothing can be recommended. */
  let nothingCurrent: string | null = null;
  const notes = comparedFromNotes({
    currentTariff,
    currentFit: currentTariff ? verdictOf(currentTariff) : null,
    currentImplausible: currentTariff && current ? implausible(currentTariff, current.monthlyCostCents) : null,
    serviceType: base.serviceType,
    supplyPriced: where.supplyPriced,
    utilityName: tariffs.find((t) => !isCustomTariffId(t.id))?.utilityName ?? 'The serving utility',
  });
  if (!catalogCurrent) {
    const found = await latestRevisions(reads, { row, utilityIds, base, currentTariff, tariffs, excluded });
    ({ latestEndDate, nothingCurrent } = found);
    notes.push(
      `${nothingCurrent}: nothing current could be compared; its latest known revisions are priced in needs_review only, and the advice may be out of date`,
    );
    for (const t of found.latest)
      if (t.id !== currentTariff?.id) sort(t, `expired on ${t.expirationDate}: the latest known revision, not a current tariff`);
  }
  if (!current && candidates.length === 0) {
    return { error: whyNothingRecommended({ tariffs, excluded, needsReview, unpriced, nothingCurrent, fromBills: billed.length > 0 }) };
  }
  const analysis = analyzeRates({
    propertyId: row.id,
    current,
    candidates,
    excluded,
    needsReview,
    analyzedAt: deps.now(),
    catalog: { current: catalogCurrent, latestEndDate },
    basis: basisOf(billed),
  });
  return {
    analysis: { ...analysis, assumptions: [...notes, ...billNotes(billed), ...analysisNotices(deps, analysis, currentTariff, tariffs)] },
  };
}

/** One property's rate analysis, and its estimate on a tariff. */
export function createPropertyAnalyzer(deps: PropertyAnalyzerDeps) {
  return {
    analyzeRow: (row: PropertyRow, reads: TariffReads, currentEstimate?: EnergyCostEstimate | null): Promise<Outcome> =>
      analyzeRow(deps, row, reads, currentEstimate),
    /** The property's estimate on a tariff, with its supply contract (`supply`) or supply price beside a delivery-only one. */
    estimate: (tariff: Tariff, row: PropertyRow, supply: Tariff | null): EnergyCostEstimate | null => estimateOn(deps, tariff, row, supply),
    supplyOf,
  };
}
