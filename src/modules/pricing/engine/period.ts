/**
 * A bill for a billing period (a meter read to a meter read) rather than a calendar month:
 * prorated by days, as utilities bill a period that spans a rate change or a season (pricing
 * README "Billing periods"). Pure.
 *
 * The period is cut at every calendar month boundary and at every change of the tariff's version;
 * each piece is the engine's bill for the whole period's usage on the piece's version and month,
 * with every line item scaled by the piece's days over the period's days and rounded to the cent
 * (half away from zero). The pieces' shares add up to 1, so usage charges, tiers and fixed
 * charges are each charged once over the period.
 */
import type { Tariff } from '../../tariffs/tariff.model';
import { BillBuilder } from './builder';
import { MONTH_NAMES } from './calendar';
import { roundDiv, toMilli } from './money';
import { billResult, calculateBill } from './index';
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
const pieceBill = (piece: PeriodPiece, req: Omit<BillRequest, 'month'>, loadShapes: LoadShapeSet) =>
  calculateBill(piece.tariff, { ...req, month: piece.month, taxRatePercent: null }, loadShapes);
/** A line of a piece's bill, prorated: its cents x the piece's days / the period's days, half away from zero. */
const proratedCents = (amount: number, days: number, totalDays: number) => roundDiv(Math.round(amount * 100) * days, totalDays);

/**
 * The period's total in cents, exactly as calculatePeriodBill totals it, without naming its lines
 * (the bill audit prices a period many times to explain a variance).
 */
export function periodTotalCents(pieces: PeriodPiece[], req: Omit<BillRequest, 'month'>, loadShapes: LoadShapeSet): number {
  const totalDays = daysOf(pieces);
  let cents = 0;
  for (const piece of pieces) {
    for (const item of pieceBill(piece, req, loadShapes).lineItems) cents += proratedCents(item.amount, piece.days, totalDays);
  }
  return cents;
}

/**
 * The period's bill: the pieces' bills prorated by days. `month` and `season` are those of the
 * piece with the most days (the later on a tie).
 */
export function calculatePeriodBill(pieces: PeriodPiece[], req: Omit<BillRequest, 'month'>, loadShapes: LoadShapeSet): BillResult {
  const totalDays = daysOf(pieces);
  const b = new BillBuilder();
  let main: { piece: PeriodPiece; bill: BillResult } | null = null;
  for (const piece of pieces) {
    const bill = pieceBill(piece, req, loadShapes);
    if (!main || piece.days >= main.piece.days) main = { piece, bill };
    const where = `${piece.days}/${totalDays} days in ${MONTH_NAMES[piece.month - 1]}${piece.versionDate ? ` on the rates of ${piece.versionDate}` : ''}`;
    for (const item of bill.lineItems) b.add(item.category, `${item.name} (${where})`, proratedCents(item.amount, piece.days, totalDays));
    for (const a of bill.assumptions) if (!b.assumptions.includes(a)) b.assumptions.push(a);
  }
  if (!main) throw new RangeError('a billing period has at least one day');
  b.assumptions.push(`billing period of ${totalDays} days prorated by days: ${pieces.map((p) => `${p.days} in ${MONTH_NAMES[p.month - 1]}${p.versionDate ? ` (rates of ${p.versionDate})` : ''}`).join(', ')}`);
  const head = { tariffId: main.bill.tariffId, tariffName: main.bill.tariffName, month: main.piece.month, season: main.bill.season };
  return billResult(b, head, toMilli(req.usageKwh), req.taxRatePercent);
}
