import { dayNumber, daysInMonth, isoDateOfDay, utcDay } from '../../platform/dates';
import type { Db } from '../../platform/db/client';
import { notFound, unprocessable } from '../../platform/http/errors';
import { findTariffsByIds } from '../tariffs/repository';
import { TtlCache } from '../../platform/ttl-cache';
import { usageOf, type Tariff } from '../tariffs/tariff.model';
import { isCustomTariffId, type CustomTariffService } from '../tariffs/custom/service';
import type { VersionSpan } from '../tariffs/custom/versions';
import { calculatePeriodBill, periodTotalCents, type PeriodPiece } from './engine/period';
import { periodLength } from './engine/period-length';
import { tariffNotices } from '../tariffs/tariff-notices';
import { priceDefects } from '../tariffs/price-defects';
import { BillingError, calculateBill, type BillRequest, type BillResult, type LoadShapeSet } from './engine';
import { billRequest, usageFor, type TariffUsage, type UsageFields } from './bill-request';
import { potentialSavings, presentBill, rankBills } from './present';
import type { BillResponse, CalculateBody, CompareBody, CompareResponse } from './schemas';

export interface CalculatorService {
  /** POST /calculate: one tariff's bill for the month; `callerId` may price their own tariffs. */
  calculate(body: CalculateBody, callerId?: string | null): Promise<BillResponse>;
  /**
   * A billing period's bill (POST /calculate with period_start and period_end) with the tariff
   * version in force on its last day: what the bill audit prices a bill with.
   */
  calculatePeriod(body: CalculateBody, callerId: string | null): Promise<PricedPeriod>;
  /** POST /calculate/compare: 2-10 tariffs for the same usage, cheapest first. */
  compare(body: CompareBody, callerId?: string | null): Promise<CompareResponse>;
}

/** A billing period priced, with what the bill audit asks of the same tariffs and request next. */
export interface PricedPeriod {
  bill: BillResponse;
  /** The version in force on the period's last day. */
  tariff: Tariff;
  /**
   * The period's total in cents for the same request with the usage (in the tariff's unit) or the
   * demand replaced; null when the engine cannot price that.
   */
  totalCentsWith(change: { usage?: number; demandKw?: number }): number | null;
  /** What `tariff` bills for this usage in each calendar month (cents, January first); null when a month cannot be priced. */
  monthTotalsCents(): number[] | null;
  /** The period's total in cents for the same request on another tariff of the same unit; null when the engine cannot price it. */
  totalCentsOn(other: Tariff): number | null;
}

export interface CalculatorDeps {
  db: Db;
  now: () => Date;
  loadShapes: () => LoadShapeSet;
  /** The caller's own tariffs, as the version in force on a date or the versions over a billing period. */
  custom: Pick<CustomTariffService, 'onDate' | 'overPeriod'>;
}

/**
 * Tariffs are reference data that change only when the bundle is re-imported,
 * so the calculator keeps recently used ones for a minute: repeated bills skip
 * the query and reuse the engine's per-tariff precomputation (cached on the
 * tariff object). A re-import is seen within that minute. Own tariffs are kept by their service for
 * 5 s (a new version made through another process shows within that).
 */
const TARIFF_CACHE_MS = 60_000;
const TARIFF_CACHE_ENTRIES = 2000;

/** What makes the record's bills wrong (tariffs/price-defects.ts: charges named but missing, a negative energy price), read once per tariff object. */
const defectsOf = new WeakMap<Tariff, string[]>();
function recordDefects(tariff: Tariff): string[] {
  let notes = defectsOf.get(tariff);
  if (!notes) {
    notes = priceDefects(tariff);
    defectsOf.set(tariff, notes);
  }
  return notes;
}

/** The longest billing period /calculate prices (utilities bill monthly or bimonthly; a quarter at most). */
const MAX_PERIOD_DAYS = 92;

/**
 * The pieces of a billing period: each version's days cut at calendar month boundaries, in order.
 * `versionDate` is set when more than one version prices the period.
 */
function periodPieces(spans: VersionSpan[]): PeriodPiece[] {
  const pieces: PeriodPiece[] = [];
  for (const span of spans) {
    let day = dayNumber(span.from);
    const last = dayNumber(span.to);
    while (day <= last) {
      const date = isoDateOfDay(day);
      const month = Number(date.slice(5, 7));
      const year = Number(date.slice(0, 4));
      const monthEnd = dayNumber(`${date.slice(0, 8)}${String(daysInMonth(year, month)).padStart(2, '0')}`);
      const to = Math.min(last, monthEnd);
      pieces.push({ tariff: span.tariff, month, days: to - day + 1, versionDate: spans.length > 1 ? span.tariff.effectiveDate : null });
      day = to + 1;
    }
  }
  return pieces;
}

export function createCalculatorService(deps: CalculatorDeps): CalculatorService {
  const cache = new TtlCache<Tariff>(TARIFF_CACHE_MS, TARIFF_CACHE_ENTRIES);
  /** The day whose rates apply, and the month billed (the date's month unless one is given). */
  const when = (body: { date?: string | null; month?: number | null }) => {
    const date = body.date ?? utcDay(deps.now());
    return { date, month: body.month ?? (body.date ? Number(body.date.slice(5, 7)) : deps.now().getUTCMonth() + 1) };
  };

  /** The known tariffs among `ids`: catalog ones cached, then one query; the caller's own as on `date`. */
  async function loadTariffs(ids: string[], callerId: string | null, date: string): Promise<Map<string, Tariff>> {
    const found = new Map<string, Tariff>();
    const missing: string[] = [];
    const custom: string[] = [];
    for (const id of ids) {
      if (isCustomTariffId(id)) {
        custom.push(id);
        continue;
      }
      const hit = cache.get(id);
      if (hit) found.set(id, hit);
      else missing.push(id);
    }
    if (missing.length) {
      for (const t of await findTariffsByIds(deps.db, missing)) {
        cache.set(t.id, t);
        found.set(t.id, t);
      }
    }
    for (const [id, on] of await deps.custom.onDate(callerId, custom, date)) {
      if ('notInForce' in on) throw unprocessable(`tariff ${id} has no version in force on ${date}: its first takes effect ${on.notInForce}`, 'date');
      found.set(id, on.tariff);
    }
    return found;
  }

  /** The supply contract named by supply_tariff_id: the caller's supply-only tariff of the same utility type. */
  async function supplyTariffOf(body: UsageFields, callerId: string | null, date: string, priced: Tariff[]): Promise<Tariff | null> {
    const id = body.supply_tariff_id;
    if (id === undefined || id === null) return null;
    const supply = (await loadTariffs([id], callerId, date)).get(id);
    if (!supply) throw notFound(`Tariff not found: ${id}`);
    if (supply.serviceType !== 'supply_only') throw unprocessable(`supply_tariff_id must name a supply-only tariff: ${id} is ${supply.serviceType}`, 'supply_tariff_id');
    const type = usageOf(supply).utilityType;
    const other = priced.find((t) => usageOf(t).utilityType !== type);
    if (other) throw unprocessable(`supply tariff ${id} prices ${type}, tariff ${other.id} ${usageOf(other).utilityType}`, 'supply_tariff_id');
    return supply;
  }

  /**
   * The engine's bill, with what the answer must say about the tariff's data (charges its description names that its
   * rates lack, its age on `date`, its class) and the usage.
   */
  function price(tariff: Tariff, req: BillRequest, usage: TariffUsage, inCompare: boolean, date: string): BillResult {
    try {
      const bill = calculateBill(tariff, req, deps.loadShapes());
      bill.assumptions.unshift(...usage.notes);
      bill.assumptions.push(...recordDefects(tariff), ...tariffNotices(tariff, date));
      return bill;
    } catch (err) {
      if (!(err instanceof BillingError)) throw err;
      const detail = inCompare && err.code === 'demand_required' ? `${err.message}: ${tariff.id}` : err.message;
      throw unprocessable(detail, err.field);
    }
  }

  /** POST /calculate for a billing period: prorated by days over its months and the tariff's versions. */
  async function calculatePeriod(body: CalculateBody, callerId: string | null): Promise<PricedPeriod> {
    const start = body.period_start;
    const end = body.period_end;
    if (!start || !end) throw unprocessable('period_start and period_end go together', start ? 'period_end' : 'period_start');
    for (const field of ['month', 'date'] as const) {
      if (body[field] !== undefined && body[field] !== null) throw unprocessable(`${field} cannot be combined with a billing period (period_start, period_end)`, field);
    }
    const days = dayNumber(end) - dayNumber(start) + 1;
    if (days < 1) throw unprocessable('period_end must not be before period_start', 'period_end');
    if (days > MAX_PERIOD_DAYS) throw unprocessable(`a billing period is at most ${MAX_PERIOD_DAYS} days (this one has ${days})`, 'period_end');
    let spans: VersionSpan[];
    if (isCustomTariffId(body.tariff_id)) {
      const over = await deps.custom.overPeriod(callerId, body.tariff_id, start, end);
      if (over === null) throw notFound('Tariff not found');
      if ('notInForce' in over) throw unprocessable(`tariff ${body.tariff_id} has no version in force on ${start}: its first takes effect ${over.notInForce}`, 'period_start');
      spans = over;
    } else {
      const tariff = (await loadTariffs([body.tariff_id], callerId, end)).get(body.tariff_id);
      if (!tariff) throw notFound('Tariff not found');
      spans = [{ tariff, from: start, to: end }];
    }
    const tariff = spans[spans.length - 1]!.tariff;
    const usage = usageFor(body, tariff);
    const supply = await supplyTariffOf(body, callerId, end, [tariff]);
    const req = billRequest(body, 1, usage, supply);
    const pieces = periodPieces(spans);
    const loadShapes = deps.loadShapes();
    let bill: BillResult;
    try {
      bill = calculatePeriodBill(pieces, req, loadShapes);
    } catch (err) {
      if (!(err instanceof BillingError)) throw err;
      throw unprocessable(err.message, err.field);
    }
    bill.assumptions.unshift(...usage.notes);
    bill.assumptions.push(...recordDefects(tariff), ...tariffNotices(tariff, end));
    /** The engine's total, or null where it refuses the request. */
    const totalOf = (work: () => number): number | null => {
      try {
        return work();
      } catch (err) {
        if (err instanceof BillingError) return null;
        throw err;
      }
    };
    return {
      bill: presentBill(bill, tariff, usage.quantity),
      tariff,
      totalCentsWith: (change) => totalOf(() => periodTotalCents(pieces, {
        ...req, usageKwh: change.usage ?? req.usageKwh, demandKw: change.demandKw ?? req.demandKw,
      }, loadShapes)),
      totalCentsOn: (other) => totalOf(() => periodTotalCents(periodPieces([{ tariff: other, from: start, to: end }]), req, loadShapes)),
      monthTotalsCents() {
        const totals: number[] = [];
        for (let month = 1; month <= 12; month++) {
          // A month's bill for the period's length (period-length.ts), so a quarter's bill is judged against quarters.
          const cents = totalOf(() => calculateBill(tariff, { ...req, month, period: periodLength(days) }, loadShapes).totalCostCents);
          if (cents === null) return null;
          totals.push(cents);
        }
        return totals;
      },
    };
  }

  return {
    calculatePeriod,

    async calculate(body, callerId = null) {
      if (body.period_start || body.period_end) return (await calculatePeriod(body, callerId)).bill;
      const { date, month } = when(body);
      const tariff = (await loadTariffs([body.tariff_id], callerId, date)).get(body.tariff_id);
      if (!tariff) throw notFound('Tariff not found');
      const usage = usageFor(body, tariff);
      const supply = await supplyTariffOf(body, callerId, date, [tariff]);
      return presentBill(price(tariff, billRequest(body, month, usage, supply), usage, false, date), tariff, usage.quantity);
    },

    async compare(body, callerId = null) {
      const { date, month } = when(body);
      const found = await loadTariffs(body.tariff_ids, callerId, date);
      const missing = body.tariff_ids.find((id) => !found.has(id));
      if (missing !== undefined) throw notFound(`Tariff not found: ${missing}`);
      const tariffs = body.tariff_ids.map((id) => found.get(id) as Tariff);
      const type = usageOf(tariffs[0]).utilityType;
      const other = tariffs.find((t) => usageOf(t).utilityType !== type);
      if (other) throw unprocessable(`tariffs of different utility types cannot be compared: ${tariffs[0].id} prices ${type}, ${other.id} ${usageOf(other).utilityType}`, 'tariff_ids');
      const supply = await supplyTariffOf(body, callerId, date, tariffs);
      const bills = tariffs.map((t) => {
        const usage = usageFor(body, t);
        return price(t, billRequest(body, month, usage, supply), usage, true, date);
      });
      const results = rankBills(bills, type === 'electric');
      return {
        usage_kwh: type === 'electric' ? (body.usage_kwh as number) : null,
        utility_type: type,
        usage: type === 'electric' ? (body.usage_kwh as number) : (body.usage as number),
        unit: type === 'electric' ? 'kWh' : (body.unit ?? usageOf(tariffs[0]).unit),
        demand_kw: body.demand_kw ?? null,
        month,
        results,
        cheapest: results[0].tariff_id,
        potential_savings: potentialSavings(bills),
      };
    },
  };
}
