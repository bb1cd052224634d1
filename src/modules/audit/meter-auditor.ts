/**
 * The audit of meters' bills (README "Re-pricing", "Explanations", "Pipeline"): each bill priced
 * (pricing's pricePeriod) on its meter's tariff over its period, a price variance explained, the
 * rules run (`audit.calc.ts`) and the audits stored. What the bill-audit job runs, and what
 * POST /pm/bills/{id}/audit (or the first read of a bill never audited) runs before it answers.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { toCents } from '../../platform/money';
import {
  pricePeriod,
  tariffReadsOnce,
  type PricingService,
  type LoadShapeSet,
  type PricedPeriod,
  type TariffOverPeriods,
} from '../pricing';
import type { NotificationService } from '../notifications/service';
import type { EventOutbox } from '../events/public';
import type { Tariff } from '../tariffs/tariff.model';
import { sectorsOfProperty, type PropertySector } from '../properties/states';
import { auditMeterBills, isPriceVariance } from './audit.calc';
import { eligibleOthers, otherTariffMatching, scaledToMatch } from './explanations';
import type { AuditBill, BillAudit, BillPricing, PrintedLine } from './audit.types';
import type { AuditRepository, BillRow, MeterAuditInput } from './repository';
import { auditDigests, storeGroups } from './audit-digest';
import { findingEvents } from './audit-events';
import { chargesBeforeCredits, creditsByBill, expectingCredits, type BillCredit } from './disputes/credits.calc';
import { periodKey, type IntervalReader, type PeriodIntervals } from '../meters/public';
import { zoneOfProperty } from '../properties/timezone';
import { billPricingRequest } from './pricing-request';

/** Bills of the meters one transaction stores at most (a meter with more is stored alone). */
const BILLS_PER_STORE = 4000;

const toAuditBill = (b: BillRow): AuditBill => ({
  id: b.id,
  meterId: b.meterId,
  periodStart: b.periodStart,
  periodEnd: b.periodEnd,
  amountCents: toCents(b.amount),
  usage: b.usage,
  unit: b.unit,
  demandKw: b.demandKw,
  isEstimated: b.isEstimated,
  lineItems: (b.lineItems as PrintedLine[] | null) ?? null,
  createdAt: b.createdAt,
});

/** The other tariffs a bill of the owner's, priced on `tariff`, could have been priced on. */
export type OtherTariffs = (ownerId: string, tariff: Tariff, sectors: readonly PropertySector[]) => Promise<Tariff[]>;

export interface MeterAuditorDeps {
  repo: AuditRepository;
  now: () => Date;
  /** Looks up the tariff versions and supply contract a bill is priced on. */
  pricing: Pick<PricingService, 'tariffOverPeriods'>;
  /** The bundled load shapes pricing splits usage with. */
  loadShapes: () => LoadShapeSet;
  /** New high-severity findings are a notification, one digest per property and run (audit-digest.ts). */
  notifications?: Pick<NotificationService, 'notifyMany'>;
  /** Every new finding is an `audit.finding.created` event, written with the findings (audit-events.ts). */
  events?: EventOutbox;
  /** The other tariffs a bill on `tariff` could have been priced on (TariffCatalog.sameUtilityTariffs). */
  otherTariffs?: OtherTariffs;
  /** Queues the owner's analytics recompute (open high-severity findings are a health deduction; never throws). */
  dataChanged?(ownerId: string): Promise<void>;
  /** The credits granted on disputes that these bills carry (their audits expect them). */
  creditsOnBills?(billIds: readonly string[]): Promise<BillCredit[]>;
  /** The meters' interval readings: a bill whose period they cover is priced from them (README "Interval data"). */
  intervals?: Pick<IntervalReader, 'metersWithReadings' | 'overPeriods'>;
}

/** What a bill was priced from: its meter's interval readings (covering its period), or its own usage and demand. */
type Basis = Pick<Extract<BillPricing, { kind: 'priced' }>, 'basis' | 'basisNote' | 'intervals'>;

/** What one run of the audit reads once, however many bills need it. */
interface RunReads {
  /** A tariff (with a supply contract) to price periods on. */
  tariffsOf(ownerId: string, ids: { tariffId: string; supplyTariffId: string | null }): Promise<TariffOverPeriods>;
  /** The utility's other tariffs, for the explanation. */
  othersOf: OtherTariffs;
  /** Dispute credits per bill. */
  credits: ReadonlyMap<string, BillCredit[]>;
  /** The electric meters of the run with interval readings. */
  withReadings: ReadonlySet<string>;
}

/** The value of `key` in `map`, made by `make` the first time. */
function once<T>(map: Map<string, T>, key: string, make: () => T): T {
  let found = map.get(key);
  if (found === undefined) map.set(key, (found = make()));
  return found;
}

/** The bill priced (from `covered` when it covers the period), or why it cannot be (a refusal of pricing: the tariff, the period, the usage, the supply contract). */
async function pricedOn(
  deps: MeterAuditorDeps,
  bill: BillRow,
  input: MeterAuditInput,
  run: RunReads,
  covered: PeriodIntervals | null,
): Promise<PricedPeriod | { reason: string }> {
  const request = billPricingRequest(bill, input.meter, input.property, covered);
  if ('reason' in request) return request;
  const { tariffId, supplyTariffId, inputs } = request;
  const found = (await run.tariffsOf(input.property.ownerId, { tariffId, supplyTariffId }))(inputs.period);
  if (!found.ok) return { reason: found.error.message };
  const priced = pricePeriod({ ...inputs, spans: found.spans, supplyTariff: found.supplyTariff }, deps.loadShapes());
  return priced.ok ? priced.period : { reason: priced.error.message };
}

/**
 * The bill priced from its meter's interval readings where they cover its period, else from its usage and demand
 * (README "Interval data"), with what it was priced from; `covered` is null for a meter without readings.
 */
async function pricedBill(
  deps: MeterAuditorDeps,
  bill: BillRow,
  input: MeterAuditInput,
  run: RunReads,
  covered: PeriodIntervals | null,
): Promise<{ priced: PricedPeriod; basis: Basis } | { reason: string; basisNote: string | null }> {
  let basisNote = covered && !covered.ok ? `interval readings not used: ${covered.reason}` : null;
  if (covered?.ok && input.meter.utilityType === 'electric') {
    const priced = await pricedOn(deps, bill, input, run, covered);
    const billKwh = bill.usage === null ? null : (bill.usageKwh ?? bill.usage);
    if (!('reason' in priced)) return { priced, basis: { basis: 'intervals', basisNote: null, intervals: { kwh: covered.kwh, billKwh } } };
    basisNote = `interval readings not used: ${priced.reason}`;
  }
  const priced = await pricedOn(deps, bill, input, run, null);
  if ('reason' in priced) return { reason: priced.reason, basisNote };
  return { priced, basis: { basis: 'bill', basisNote, intervals: null } };
}

/** The utility's other tariffs a bill on `tariff` could have been priced on, for the property's sectors. */
const othersOf = (run: RunReads, input: MeterAuditInput, tariff: Tariff) =>
  run.othersOf(input.property.ownerId, tariff, sectorsOfProperty(input.property.propertyType, input.property.unitCount));

/** The engine's view of one bill: its expected amount and lines, the tariff's limits and what it bills in any month. */
async function priceBill(
  deps: MeterAuditorDeps,
  bill: BillRow,
  input: MeterAuditInput,
  run: RunReads,
  covered: PeriodIntervals | null,
): Promise<BillPricing> {
  const found = await pricedBill(deps, bill, input, run, covered);
  if ('reason' in found) return { kind: 'unpriceable', reason: found.reason, basisNote: found.basisNote };
  const { priced, basis } = found;
  const { bill: expected, tariff } = priced;
  const expectedCents = expected.totalCostCents;
  const months = priced.monthTotalsCents();
  // A bill carrying credits is judged on its charges (disputes/credits.calc.ts).
  const billedCents = chargesBeforeCredits(toAuditBill(bill), run.credits.get(bill.id)).amountCents;
  // Only a price variance without printed lines is explained (with them, the lines that differ are).
  let explanation: string | null = null;
  if (bill.lineItems === null && isPriceVariance(billedCents, expectedCents, input.tolerancePercent)) {
    const ways = [
      scaledToMatch(bill, priced, billedCents, expectedCents),
      otherTariffMatching(
        priced,
        eligibleOthers(await othersOf(run, input, tariff), tariff, bill, input),
        billedCents,
        input.tolerancePercent,
      ),
    ].filter((w) => w !== null);
    explanation = ways.length > 0 ? `the billed amount matches the expected bill ${ways.join(', or ')}` : null;
  }
  return {
    kind: 'priced',
    tariffId: tariff.id,
    tariffName: tariff.name,
    expectedCents,
    expectedLines: expected.lineItems,
    demandKwMax: tariff.applicability.demandKwMax,
    expiredOn: tariff.expirationDate !== null && tariff.expirationDate < bill.periodEnd ? tariff.expirationDate : null,
    yearRangeCents: months ? { min: Math.min(...months), max: Math.max(...months) } : null,
    explanation,
    ...basis,
  };
}

/** The meter's interval readings over each of its bills' periods (by periodKey), or null for a meter without readings. */
async function readingsOf(
  deps: MeterAuditorDeps,
  input: MeterAuditInput,
  withReadings: ReadonlySet<string>,
): Promise<Map<string, PeriodIntervals> | null> {
  if (!deps.intervals || !withReadings.has(input.meter.id)) return null;
  const periods = input.bills.map((b) => ({ start: b.periodStart, end: b.periodEnd }));
  return deps.intervals.overPeriods(input.meter.id, zoneOfProperty(input.property), periods);
}

/** The audit of one meter's bills, from what was read for it. */
async function auditOf(deps: MeterAuditorDeps, input: MeterAuditInput, run: RunReads): Promise<BillAudit[]> {
  const { credits } = run;
  const pricing = new Map<string, BillPricing>();
  const readings = await readingsOf(deps, input, run.withReadings);
  for (const bill of input.bills) {
    const covered = readings?.get(periodKey({ start: bill.periodStart, end: bill.periodEnd })) ?? null;
    pricing.set(bill.id, await priceBill(deps, bill, input, run, covered));
  }
  return auditMeterBills({
    bills: input.bills.map((b) => chargesBeforeCredits(toAuditBill(b), credits.get(b.id))),
    pricing,
    // A sibling is read as the meter's own bills are (the duplicate rule compares their amounts).
    siblings: input.siblings.map(toAuditBill),
    settings: { tolerancePercent: input.tolerancePercent },
  }).map((audit) => expectingCredits(audit, credits.get(audit.billId)));
}

export function createMeterAuditor(deps: MeterAuditorDeps) {
  const { repo } = deps;

  /** Audits a group of meters read at `readAt`, stores them in one statement, and notifies what is new and high. */
  async function auditGroup(inputs: MeterAuditInput[], readAt: string, reads: Omit<RunReads, 'withReadings'>): Promise<void> {
    const electric = inputs.filter((i) => i.meter.utilityType === 'electric').map((i) => i.meter.id);
    const run = { ...reads, withReadings: (await deps.intervals?.metersWithReadings(electric)) ?? new Set<string>() };
    const audited: Array<{ input: MeterAuditInput; audits: BillAudit[] }> = [];
    for (const input of inputs) audited.push({ input, audits: await auditOf(deps, input, run) });
    // One digest per property of what this run found new and high, and an event per new finding, in the transaction that stores them.
    let emitted = false;
    await repo.store(
      audited.map(({ input, audits }) => ({
        ownerId: input.property.ownerId,
        propertyId: input.property.id,
        meterId: input.meter.id,
        audits,
      })),
      readAt,
      deps.now(),
      async ({ meters, newFindings }, executor) => {
        const digests = auditDigests(
          audited.filter(({ input }) => meters.has(input.meter.id)).map(({ input, audits }) => ({ ...input, audits })),
          (billId, reason) => newFindings.has(`${billId}|${reason}`),
        );
        if (digests.length > 0) await deps.notifications?.notifyMany(digests, executor);
        const events = findingEvents(
          audited.filter(({ input }) => meters.has(input.meter.id)).map(({ input, audits }) => ({ input, audits })),
          newFindings,
        );
        if (events.length > 0 && deps.events) {
          await deps.events.emit(events, executor);
          emitted = true;
        }
      },
    );
    if (emitted) await deps.events?.deliverSoon();
  }

  /**
   * Audits every bill of these meters (meters gone since are nothing to do) and stores them, a group
   * of meters per statement; an audit of a meter that read it later than this one is kept instead.
   */
  async function auditMeters(meterIds: readonly string[]): Promise<void> {
    const { readAt, inputs } = await repo.metersInput(meterIds);
    if (inputs.length === 0) return;
    const credits = creditsByBill((await deps.creditsOnBills?.(inputs.flatMap((i) => i.bills.map((b) => b.id)))) ?? []);
    // Read once per run, only when a bill needs them: the utility's other tariffs per owner, tariff and
    // sectors; each tariff with its supply contract per owner (a run's bills price on a few tariffs).
    const others = new Map<string, Promise<Tariff[]>>();
    const reads: Omit<RunReads, 'withReadings'> = {
      credits,
      othersOf: (ownerId, tariff, sectors) =>
        once(
          others,
          `${ownerId}|${tariff.id}|${sectors.join(',')}`,
          () => deps.otherTariffs?.(ownerId, tariff, sectors) ?? Promise.resolve([]),
        ),
      tariffsOf: tariffReadsOnce(deps.pricing),
    };
    // Stored a few thousand bills at a time, the event loop getting a turn between groups: a batch may
    // run for minutes, and on the embedded database no query of it would otherwise let a request in.
    for (const group of storeGroups(inputs, BILLS_PER_STORE)) {
      await auditGroup(group, readAt, reads);
      await nextTurn();
    }
    for (const ownerId of new Set(inputs.map((i) => i.property.ownerId))) await deps.dataChanged?.(ownerId);
  }

  return { auditMeters };
}
