import { utcDay } from '../../platform/dates';
import type { Db } from '../../platform/db/client';
import { notFound, unprocessable, type AppError } from '../../platform/http/errors';
import { findRevisionChain, findTariffsByIds } from '../tariffs/public';
import { revisionSpans } from '../tariffs/revision-spans';
import { usageOf, type Tariff } from '../tariffs/tariff.model';
import { isCustomTariffId, type CustomTariffService } from '../tariffs/custom/service';
import type { VersionSpan } from '../tariffs/custom/versions';
import { BillingError, calculateBill, type BillRequest, type BillResult, type LoadShapeSet } from './engine';
import { billRequest, intervalsMonth, usageFor, usageInputsOf, type UsageFields } from './bill-request';
import { potentialSavings, presentBill, rankBills } from './present';
import { pricePeriod, periodProblem, supplyProblem, type BillingPeriod } from './price-period';
import { notInForce, type PricingError } from './pricing-error';
import { recordNotes } from './record-notes';
import type { TariffUsage } from './tariff-usage';
import type { BillResponse, CalculateBody, CompareBody, CompareResponse } from './schemas';

export interface PricingService {
  /** POST /calculate: one tariff's bill for the month or a billing period; `callerId` may price their own tariffs. */
  calculate(body: CalculateBody, callerId?: string | null): Promise<BillResponse>;
  /** POST /calculate/compare: 2-10 tariffs for the same usage, cheapest first. */
  compare(body: CompareBody, callerId?: string | null): Promise<CompareResponse>;
  /**
   * What pricePeriod (price-period.ts) prices billing periods on, as `ownerId` sees it: the tariff and
   * supply contract read once, giving for any period the tariff's versions in force over it and the
   * supply contract, or why there are none (a batch reads through tariffReadsOnce, tariff-reads.ts).
   */
  tariffOverPeriods(ownerId: string | null, ids: { tariffId: string; supplyTariffId?: string | null }): Promise<TariffOverPeriods>;
}

/** A tariff's versions over a billing period and the supply contract named beside it, or why they cannot be priced. */
export type TariffOverPeriod = { ok: true; spans: VersionSpan[]; supplyTariff: Tariff | null } | { ok: false; error: PricingError };
/** A tariff (and supply contract) read once, priced over any billing period. */
export type TariffOverPeriods = (period: BillingPeriod) => TariffOverPeriod;

export interface PricingDeps {
  db: Db;
  now: () => Date;
  loadShapes: () => LoadShapeSet;
  /** The caller's own tariffs, as the version in force on a date or the versions over a billing period. */
  custom: Pick<CustomTariffService, 'onDate' | 'reader'>;
}

/** The API's answer to a refused pricing: 404 for a tariff the caller cannot price on, 422 naming the field otherwise. */
function httpError(error: PricingError): AppError {
  return error.code === 'tariff_not_found' ? notFound(error.message) : unprocessable(error.message, error.field);
}

/** The day whose rates apply, and the month billed (the given one, else the intervals', else the date's). */
function whenOf(deps: PricingDeps, body: UsageFields): { date: string; month: number } {
  const date = body.date ?? utcDay(deps.now());
  const month = body.month ?? intervalsMonth(body) ?? (body.date ? Number(body.date.slice(5, 7)) : deps.now().getUTCMonth() + 1);
  return { date, month };
}

/** The known tariffs among `ids`: the catalog's in one query, the caller's own as on `date` (or why none is in force then). */
async function findTariffs(
  deps: PricingDeps,
  ids: string[],
  callerId: string | null,
  date: string,
): Promise<Map<string, Tariff | { notInForce: string }>> {
  const found = new Map<string, Tariff | { notInForce: string }>();
  const catalog = ids.filter((id) => !isCustomTariffId(id));
  const custom = ids.filter(isCustomTariffId);
  if (catalog.length) {
    for (const t of await findTariffsByIds(deps.db, catalog)) found.set(t.id, t);
  }
  for (const [id, on] of await deps.custom.onDate(callerId, custom, date)) found.set(id, 'notInForce' in on ? on : on.tariff);
  return found;
}

/** findTariffs for the API: an own tariff with no version in force on `date` is a 422. */
async function loadTariffs(deps: PricingDeps, ids: string[], callerId: string | null, date: string): Promise<Map<string, Tariff>> {
  const found = new Map<string, Tariff>();
  for (const [id, t] of await findTariffs(deps, ids, callerId, date)) {
    if ('notInForce' in t) throw httpError(notInForce(id, date, t.notInForce, 'date'));
    found.set(id, t);
  }
  return found;
}

/** The supply contract named by supply_tariff_id: the caller's supply-only tariff of the same utility type. */
async function supplyTariffOf(
  deps: PricingDeps,
  body: UsageFields,
  callerId: string | null,
  date: string,
  priced: Tariff[],
): Promise<Tariff | null> {
  const id = body.supply_tariff_id;
  if (id === undefined || id === null) return null;
  const supply = (await loadTariffs(deps, [id], callerId, date)).get(id);
  if (!supply) throw notFound(`Tariff not found: ${id}`);
  const problem = supplyProblem(supply, priced);
  if (problem) throw httpError(problem);
  return supply;
}

/**
 * The engine's bill, with what the answer must say about the tariff's data (charges its description names that its
 * rates lack, its age on `date`, its class) and the usage.
 */
function price(deps: PricingDeps, tariff: Tariff, req: BillRequest, usage: TariffUsage, inCompare: boolean, date: string): BillResult {
  try {
    const bill = calculateBill(tariff, req, deps.loadShapes());
    bill.assumptions.unshift(...usage.notes);
    bill.assumptions.push(...recordNotes(tariff, date));
    return bill;
  } catch (err) {
    if (!(err instanceof BillingError)) throw err;
    const detail = inCompare && err.code === 'demand_required' ? `${err.message}: ${tariff.id}` : err.message;
    throw unprocessable(detail, err.field);
  }
}

/** The versions of `tariffId` over a period, or why there are none the caller may price: read once, for any period. */
async function spansReader(
  deps: PricingDeps,
  ownerId: string | null,
  tariffId: string,
): Promise<(period: BillingPeriod) => VersionSpan[] | PricingError> {
  const notFoundError: PricingError = { code: 'tariff_not_found', message: 'Tariff not found', field: 'tariff_id' };
  if (isCustomTariffId(tariffId)) {
    const owned = await deps.custom.reader(ownerId, tariffId);
    if (owned === null) return () => notFoundError;
    return (period) => {
      const over = owned.over(period.start, period.end);
      return 'notInForce' in over ? notInForce(tariffId, period.start, over.notInForce, 'period_start') : over;
    };
  }
  // A catalog schedule's revisions (a refresh's new record beside the one it superseded) price the days each was in force.
  const chain = await findRevisionChain(deps.db, tariffId);
  if (!chain) return () => notFoundError;
  return (period) => revisionSpans(chain, period.start, period.end);
}

/** The supply contract `supplyTariffId` as in force on a period's last day, or why it cannot be priced: read once. */
async function supplyReader(
  deps: PricingDeps,
  ownerId: string | null,
  supplyTariffId: string,
): Promise<(date: string) => Tariff | PricingError> {
  const missing: PricingError = { code: 'tariff_not_found', message: `Tariff not found: ${supplyTariffId}`, field: 'supply_tariff_id' };
  if (isCustomTariffId(supplyTariffId)) {
    const owned = await deps.custom.reader(ownerId, supplyTariffId);
    if (owned === null) return () => missing;
    return (date) => {
      const on = owned.on(date);
      return 'notInForce' in on ? notInForce(supplyTariffId, date, on.notInForce, 'date') : on.tariff;
    };
  }
  const [supply] = await findTariffsByIds(deps.db, [supplyTariffId]);
  return () => supply ?? missing;
}

/**
 * What pricePeriod prices on, for any billing period: the tariff's versions and the supply contract
 * read once, so a meter's bills are priced on one read (the audit, rate analysis).
 */
async function tariffOverPeriods(
  deps: PricingDeps,
  ownerId: string | null,
  ids: { tariffId: string; supplyTariffId?: string | null },
): Promise<TariffOverPeriods> {
  const refused = (error: PricingError) => ({ ok: false as const, error });
  const spansOf = await spansReader(deps, ownerId, ids.tariffId);
  const supplyOn = ids.supplyTariffId ? await supplyReader(deps, ownerId, ids.supplyTariffId) : null;
  return (period) => {
    const problem = periodProblem(period);
    if (problem) return refused(problem);
    const spans = spansOf(period);
    if (!Array.isArray(spans)) return refused(spans);
    if (supplyOn === null) return { ok: true, spans, supplyTariff: null };
    const supply = supplyOn(period.end);
    return 'code' in supply ? refused(supply) : { ok: true, spans, supplyTariff: supply };
  };
}

/** POST /calculate for a billing period: prorated by days over its months and the tariff's versions (price-period.ts). */
async function calculatePeriod(deps: PricingDeps, body: CalculateBody, callerId: string | null): Promise<BillResponse> {
  const start = body.period_start;
  const end = body.period_end;
  if (!start || !end) throw unprocessable('period_start and period_end go together', start ? 'period_end' : 'period_start');
  for (const field of ['month', 'date'] as const) {
    if (body[field] !== undefined && body[field] !== null)
      throw unprocessable(`${field} cannot be combined with a billing period (period_start, period_end)`, field);
  }
  const period = { start, end };
  const found = (await tariffOverPeriods(deps, callerId, { tariffId: body.tariff_id, supplyTariffId: body.supply_tariff_id }))(period);
  if (!found.ok) throw httpError(found.error);
  const priced = pricePeriod(
    {
      ...usageInputsOf(body),
      period,
      spans: found.spans,
      supplyTariff: found.supplyTariff,
      taxRatePercent: body.tax_rate_percent,
    },
    deps.loadShapes(),
  );
  if (!priced.ok) throw httpError(priced.error);
  const { bill, tariff, usage } = priced.period;
  return presentBill(bill, tariff, usage);
}

/** POST /calculate for a month. */
async function calculateMonth(deps: PricingDeps, body: CalculateBody, callerId: string | null): Promise<BillResponse> {
  const { date, month } = whenOf(deps, body);
  const tariff = (await loadTariffs(deps, [body.tariff_id], callerId, date)).get(body.tariff_id);
  if (!tariff) throw notFound('Tariff not found');
  const usage = usageFor(body, tariff);
  const supply = await supplyTariffOf(deps, body, callerId, date, [tariff]);
  return presentBill(price(deps, tariff, billRequest(body, month, usage, supply), usage, false, date), tariff, usage.quantity);
}

/** POST /calculate/compare. */
async function compare(deps: PricingDeps, body: CompareBody, callerId: string | null): Promise<CompareResponse> {
  const { date, month } = whenOf(deps, body);
  const found = await loadTariffs(deps, body.tariff_ids, callerId, date);
  const missing = body.tariff_ids.find((id) => !found.has(id));
  if (missing !== undefined) throw notFound(`Tariff not found: ${missing}`);
  const tariffs = body.tariff_ids.map((id) => found.get(id) as Tariff);
  const type = usageOf(tariffs[0]).utilityType;
  const other = tariffs.find((t) => usageOf(t).utilityType !== type);
  if (other)
    throw unprocessable(
      `tariffs of different utility types cannot be compared: ${tariffs[0].id} prices ${type}, ${other.id} ${usageOf(other).utilityType}`,
      'tariff_ids',
    );
  const supply = await supplyTariffOf(deps, body, callerId, date, tariffs);
  const usages: TariffUsage[] = [];
  const bills = tariffs.map((t) => {
    const usage = usageFor(body, t);
    usages.push(usage);
    return price(deps, t, billRequest(body, month, usage, supply), usage, true, date);
  });
  const results = rankBills(bills, type === 'electric');
  return {
    usage_kwh: type === 'electric' ? usages[0].quantity : null,
    utility_type: type,
    usage: type === 'electric' ? usages[0].quantity : (body.usage as number),
    unit: type === 'electric' ? 'kWh' : (body.unit ?? usageOf(tariffs[0]).unit),
    demand_kw: body.demand_kw ?? null,
    month,
    results,
    cheapest: results[0].tariff_id,
    potential_savings: potentialSavings(bills),
  };
}

export function createPricingService(deps: PricingDeps): PricingService {
  return {
    tariffOverPeriods: (ownerId, ids) => tariffOverPeriods(deps, ownerId, ids),
    calculate: (body, callerId = null) =>
      body.period_start || body.period_end ? calculatePeriod(deps, body, callerId) : calculateMonth(deps, body, callerId),
    compare: (body, callerId = null) => compare(deps, body, callerId),
  };
}
