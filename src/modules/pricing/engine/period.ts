/**
 * A bill for a billing period (a meter read to a meter read) rather than a calendar month:
 * prorated by days, as utilities bill a period that spans a rate change or a season (pricing
 * README "Billing periods"). Pure.
 *
 * The period is cut at every calendar month boundary and at every change of the tariff's version;
 * each piece is the engine's bill for the whole period's usage on the piece's version and month,
 * for the period's length (period-length.ts: per-month charges and usage blocks times the months
 * it bills, per-day ones times its days), with every line item scaled by the piece's days over the
 * period's days. A line the pieces share (same category and name: the same charge at the same
 * price) is rounded once over the period, half away from zero, and its cents apportioned over the
 * pieces by largest remainder; any other line is rounded on its own. The pieces' shares add up to
 * 1, so usage charges, tiers and fixed charges are each charged once over the period.
 */
import type { Tariff } from '../../tariffs/tariff.model';
import { BillBuilder } from './builder';
import { MONTH_NAMES } from './calendar';
import { apportionLargestRemainder, roundDiv, roundDivBig } from '../../../platform/money';
import { toMilli } from './money';
import { billResult, calculateBill } from './index';
import {
  AVERAGE_MONTH_DAYS,
  isOneMonth,
  monthsDecimal,
  monthsText,
  periodLength,
  READ_TOLERANCE_DAYS,
  type BillingPeriodLength,
} from './period-length';
import type { BillRequest, BillResult, LoadShapeSet } from './types';

/** One piece of a billing period: `days` days of month `month` (1-12) priced on `tariff` (the version in force then). */
export interface PeriodPiece {
  tariff: Tariff;
  month: number;
  days: number;
  /** The version's effective date, when the period spans more than one version (said in the line names). */
  versionDate: string | null;
}

const daysOf = (pieces: PeriodPiece[]) => pieces.reduce((sum, p) => sum + p.days, 0);
const pieceBill = (piece: PeriodPiece, req: Omit<BillRequest, 'month'>, period: BillingPeriodLength, loadShapes: LoadShapeSet) =>
  calculateBill(piece.tariff, { ...req, month: piece.month, taxRatePercent: null, period }, loadShapes);

/**
 * Each piece's line items prorated to cents (`[piece][line]`): a line's cents x the piece's days /
 * the period's days, rounded once per line the pieces share and apportioned by largest remainder
 * (ties to the earlier piece), so $35.40 over 31, 28 and 31 of 90 days is 12.20 + 11.01 + 12.19.
 */
function proratedCents(pieces: PeriodPiece[], bills: BillResult[], totalDays: number): number[][] {
  const out = bills.map((bill) => bill.lineItems.map(() => 0));
  const shared = new Map<string, Array<[number, number]>>();
  bills.forEach((bill, p) =>
    bill.lineItems.forEach((item, l) => {
      const key = `${item.category}\n${item.name}`;
      const members = shared.get(key);
      if (members) members.push([p, l]);
      else shared.set(key, [[p, l]]);
    }),
  );
  const D = BigInt(totalDays);
  for (const members of shared.values()) {
    const cents = members.map(([p, l]) => Math.round(bills[p]!.lineItems[l]!.amount * 100));
    const sign = cents.every((c) => c >= 0) ? 1n : cents.every((c) => c <= 0) ? -1n : 0n;
    if (members.length === 1 || sign === 0n) {
      members.forEach(([p, l], i) => {
        out[p]![l] = roundDiv(cents[i]! * pieces[p]!.days, totalDays);
      });
      continue;
    }
    const quotas = members.map(([p], i) => sign * BigInt(cents[i]!) * BigInt(pieces[p]!.days));
    const shares = apportionLargestRemainder(
      roundDivBig(
        quotas.reduce((s, q) => s + q, 0n),
        D,
      ),
      quotas,
      D,
    );
    members.forEach(([p, l], i) => {
      out[p]![l] = Number(sign * shares[i]!);
    });
  }
  return out;
}

/** What the assumptions say of a period that bills other than one month. */
function lengthNote(period: BillingPeriodLength): string | null {
  const { days, months } = period;
  if (isOneMonth(months)) return null;
  const what = 'monthly charges (fixed, minimum and demand) and usage blocks';
  if (months.den === 1) {
    return `billing period of ${days} days billed as ${monthsText(months)} (a read within ${READ_TOLERANCE_DAYS} days of ${months.num} average months): ${what} x ${months.num}`;
  }
  return `billing period of ${days} days is no whole number of months (a monthly read is 25 to 35 days): ${what} x ${days}/${AVERAGE_MONTH_DAYS} = ${monthsDecimal(months)}`;
}

/**
 * The period's total in cents, exactly as calculatePeriodBill totals it, without naming its lines
 * (the bill audit prices a period many times to explain a variance).
 */
export function periodTotalCents(pieces: PeriodPiece[], req: Omit<BillRequest, 'month'>, loadShapes: LoadShapeSet): number {
  const totalDays = daysOf(pieces);
  const period = periodLength(totalDays);
  const cents = proratedCents(
    pieces,
    pieces.map((piece) => pieceBill(piece, req, period, loadShapes)),
    totalDays,
  );
  return cents.reduce((sum, lines) => lines.reduce((s, c) => s + c, sum), 0);
}

/**
 * The period's bill: the pieces' bills prorated by days. `month` and `season` are those of the
 * piece with the most days (the later on a tie).
 */
export function calculatePeriodBill(pieces: PeriodPiece[], req: Omit<BillRequest, 'month'>, loadShapes: LoadShapeSet): BillResult {
  if (pieces.length === 0) throw new RangeError('a billing period has at least one day');
  const totalDays = daysOf(pieces);
  const period = periodLength(totalDays);
  const bills = pieces.map((piece) => pieceBill(piece, req, period, loadShapes));
  const cents = proratedCents(pieces, bills, totalDays);
  const b = new BillBuilder();
  let main = 0;
  pieces.forEach((piece, p) => {
    if (piece.days >= pieces[main]!.days) main = p;
    const where = `${piece.days}/${totalDays} days in ${MONTH_NAMES[piece.month - 1]}${piece.versionDate ? ` on the rates of ${piece.versionDate}` : ''}`;
    bills[p]!.lineItems.forEach((item, l) => b.add(item.category, `${item.name} (${where})`, cents[p]![l]!));
    for (const a of bills[p]!.assumptions) if (!b.assumptions.includes(a)) b.assumptions.push(a);
  });
  b.assumptions.push(
    `billing period of ${totalDays} days prorated by days: ${pieces.map((p) => `${p.days} in ${MONTH_NAMES[p.month - 1]}${p.versionDate ? ` (rates of ${p.versionDate})` : ''}`).join(', ')}`,
  );
  const note = lengthNote(period);
  if (note) b.assumptions.push(note);
  const head = {
    tariffId: bills[main]!.tariffId,
    tariffName: bills[main]!.tariffName,
    month: pieces[main]!.month,
    season: bills[main]!.season,
  };
  return billResult(b, head, toMilli(req.usageKwh), req.taxRatePercent);
}
