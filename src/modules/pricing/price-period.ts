/**
 * A billing period priced on the versions of a tariff in force over it (pricing README "Billing
 * periods"), or why it cannot be: what the bill audit, rate analysis and POST /calculate with a
 * period price with. Pure: the tariff's versions and the supply contract come looked up
 * (PricingService.tariffOverPeriod or tariffOverPeriods), and refusals are returned as a PricingError, never thrown.
 */
import { dayNumber, daysInMonth, isoDateOfDay } from '../../platform/dates';
import { usageOf, type Tariff } from '../tariffs/tariff.model';
import type { VersionSpan } from '../tariffs/custom/versions';
import { BillingError, calculateBill, type BillResult, type IntervalData, type LoadShapeSet } from './engine';
import { localIntervals } from './engine/intervals';
import { calculatePeriodBill, periodTotalCents, type PeriodPiece } from './engine/period';
import { periodLength } from './engine/period-length';
import { notInForce, type PricingError } from './pricing-error';
import { recordNotes } from './record-notes';
import { tariffUsage, type UsageInputs } from './tariff-usage';

/** The longest billing period priced (utilities bill monthly or bimonthly; a quarter at most). */
const MAX_PERIOD_DAYS = 92;

/** A billing period: its first and last day (YYYY-MM-DD), both included. */
export interface BillingPeriod {
  start: string;
  end: string;
}

/** What pricePeriod prices. */
export interface PeriodToPrice extends UsageInputs {
  period: BillingPeriod;
  /**
   * The tariff's versions in force over the period, oldest first, each with the days it prices
   * (a catalog tariff is one version over the whole period).
   */
  spans: readonly VersionSpan[];
  /** The customer's supply contract, a supply-only tariff priced beside a delivery-only one. */
  supplyTariff?: Tariff | null;
  /** A tax rate for the bill's taxes estimate, 0-100 (reported beside the total, not in it). */
  taxRatePercent?: number | null;
}

/** A billing period priced, with what the bill audit and rate analysis ask of the same request next. */
export interface PricedPeriod {
  bill: BillResult;
  /** The version in force on the period's last day: its usage unit and record notes are the bill's. */
  tariff: Tariff;
  /** The usage priced, in the tariff's unit. */
  usage: number;
  /**
   * The period's total in cents for the same request with the usage (in the tariff's unit) or the
   * demand replaced; null when the engine cannot price that.
   */
  totalCentsWith(change: { usage?: number; demandKw?: number }): number | null;
  /** What `tariff` bills for this usage in each calendar month, for the period's length (cents, January first); null when a month cannot be priced. */
  monthTotalsCents(): number[] | null;
  /** The period's total in cents for the same request on another tariff of the same unit; null when the engine cannot price it. */
  totalCentsOn(other: Tariff): number | null;
}

export type PricePeriodResult = { ok: true; period: PricedPeriod } | { ok: false; error: PricingError };

const refused = (error: PricingError) => ({ ok: false as const, error });

/** Why the period cannot be priced whatever the tariff (reversed, or longer than a quarter), or null. */
export function periodProblem(period: BillingPeriod): PricingError | null {
  const days = dayNumber(period.end) - dayNumber(period.start) + 1;
  if (days < 1) return { code: 'period_invalid', message: 'period_end must not be before period_start', field: 'period_end' };
  if (days > MAX_PERIOD_DAYS) {
    return {
      code: 'period_invalid',
      message: `a billing period is at most ${MAX_PERIOD_DAYS} days (this one has ${days})`,
      field: 'period_end',
    };
  }
  return null;
}

/** The first day of the period no span prices, as the error it is; null when the spans price every day once. */
function uncoveredDay(period: BillingPeriod, spans: readonly VersionSpan[]): PricingError | null {
  let day = dayNumber(period.start);
  for (const span of spans) {
    const from = dayNumber(span.from);
    if (from < day || dayNumber(span.to) < from || dayNumber(span.to) > dayNumber(period.end)) {
      throw new RangeError(`version spans must follow each other within the period: ${span.from} to ${span.to}`);
    }
    if (from > day) {
      return span === spans[0]
        ? notInForce(span.tariff.id, period.start, span.from, 'period_start')
        : {
            code: 'no_tariff_in_force',
            message: `tariff ${span.tariff.id} has no version in force on ${isoDateOfDay(day)}`,
            field: 'period_end',
          };
    }
    day = dayNumber(span.to) + 1;
  }
  if (day > dayNumber(period.end)) return null;
  const last = spans.at(-1);
  return {
    code: 'no_tariff_in_force',
    field: last ? 'period_end' : 'period_start',
    message: last ? `tariff ${last.tariff.id} has no version in force on ${isoDateOfDay(day)}` : `no tariff is in force on ${period.start}`,
  };
}

/** Why `supply` cannot be the supply contract of bills on `priced`, or null. */
export function supplyProblem(supply: Tariff, priced: readonly Tariff[]): PricingError | null {
  if (supply.serviceType !== 'supply_only') {
    return {
      code: 'supply_invalid',
      field: 'supply_tariff_id',
      message: `supply_tariff_id must name a supply-only tariff: ${supply.id} is ${supply.serviceType}`,
    };
  }
  const type = usageOf(supply).utilityType;
  const other = priced.find((t) => usageOf(t).utilityType !== type);
  if (other) {
    return {
      code: 'supply_invalid',
      field: 'supply_tariff_id',
      message: `supply tariff ${supply.id} prices ${type}, tariff ${other.id} ${usageOf(other).utilityType}`,
    };
  }
  return null;
}

/**
 * The pieces of a billing period: each version's days cut at calendar month boundaries, in order.
 * `versionDate` is set when more than one version prices the period.
 */
function periodPieces(spans: readonly VersionSpan[]): PeriodPiece[] {
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

/** Why the intervals cannot be this period's (unreadable, or starting before it or ending after it), or null. */
function intervalsOutside(period: BillingPeriod, data: IntervalData): PricingError | null {
  let local;
  try {
    local = localIntervals(data);
  } catch (err) {
    if (!(err instanceof BillingError)) throw err;
    return { code: err.code, message: err.message, field: err.field };
  }
  if (local.firstDate >= period.start && local.lastDate <= period.end) return null;
  return {
    code: 'usage_invalid',
    field: 'intervals',
    message: `the intervals run from ${local.firstDate} to ${local.lastDate} (local time), outside the billing period ${period.start} to ${period.end}`,
  };
}

/** The engine's total, or null where it refuses the request. */
function totalOrNull(work: () => number): number | null {
  try {
    return work();
  } catch (err) {
    if (err instanceof BillingError) return null;
    throw err;
  }
}

/**
 * The period's bill: prorated by days over its months and the tariff's versions, for the period's
 * length, with the usage converted to the unit of the version in force on its last day; or the
 * first reason it cannot be priced, checked in this order: the period, the versions' days, the
 * usage, the supply contract, the engine's refusals.
 */
export function pricePeriod(input: PeriodToPrice, loadShapes: LoadShapeSet): PricePeriodResult {
  const { period, spans } = input;
  const problem = periodProblem(period) ?? uncoveredDay(period, spans);
  if (problem) return refused(problem);
  const tariff = spans.at(-1)!.tariff;
  const converted = tariffUsage(input, tariff);
  if (!converted.ok) return converted;
  const usage = converted.usage;
  const supplyTariff = input.supplyTariff ?? null;
  const supply = supplyTariff && supplyProblem(supplyTariff, [tariff]);
  if (supply) return refused(supply);
  const req = {
    usageKwh: usage.quantity,
    demandKw: input.demandKw ?? null,
    solarGenerationKwh: input.solarGenerationKwh ?? null,
    usageProfile: input.usageProfile ?? null,
    taxRatePercent: input.taxRatePercent ?? null,
    supplyRatePerKwh: input.supplyRatePerKwh ?? null,
    supplyTariff,
    intervals: input.intervals ?? null,
  };
  const outside = req.intervals ? intervalsOutside(period, req.intervals) : null;
  if (outside) return refused(outside);
  const pieces = periodPieces(spans);
  let bill: BillResult;
  try {
    bill = calculatePeriodBill(pieces, req, loadShapes);
  } catch (err) {
    if (!(err instanceof BillingError)) throw err;
    return refused({ code: err.code, message: err.message, field: err.field });
  }
  bill.assumptions.unshift(...usage.notes);
  bill.assumptions.push(...recordNotes(tariff, period.end));
  const length = periodLength(dayNumber(period.end) - dayNumber(period.start) + 1);
  return {
    ok: true,
    period: {
      bill,
      tariff,
      usage: usage.quantity,
      totalCentsWith: (change) =>
        totalOrNull(() =>
          periodTotalCents(
            pieces,
            {
              ...req,
              usageKwh: change.usage ?? req.usageKwh,
              demandKw: change.demandKw ?? req.demandKw,
            },
            loadShapes,
          ),
        ),
      totalCentsOn: (other) =>
        totalOrNull(() => periodTotalCents(periodPieces([{ tariff: other, from: period.start, to: period.end }]), req, loadShapes)),
      monthTotalsCents() {
        const totals: number[] = [];
        for (let month = 1; month <= 12; month++) {
          // A month's bill for the period's length (period-length.ts), so a quarter's bill is judged against quarters.
          const cents = totalOrNull(() => calculateBill(tariff, { ...req, month, period: length }, loadShapes).totalCostCents);
          if (cents === null) return null;
          totals.push(cents);
        }
        return totals;
      },
    },
  };
}
