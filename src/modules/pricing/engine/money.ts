/**
 * Exact decimal arithmetic for the bill: published prices become integers with a
 * power-of-ten exponent, quantities integer thousandths (Wh, W), amounts integer
 * cents. Products are done in integers (BigInt only when a product leaves the
 * safe-integer range), so no binary floating point touches money.
 */
import { roundDiv, roundDivBig } from '../../../platform/money';

/** The one rounding division (platform/money.ts), re-exported for the engine's callers. */
export { roundDiv, roundDivBig };

/** A published decimal: value = int / 10^exp. `text` is its plain decimal form. */
export interface Price {
  int: number;
  exp: number;
  text: string;
}

const POW10: number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);
const MAX_EXP = 12;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** round(a * b / d) with integer a, b and d > 0, exact for any magnitude. */
export function mulDivRound(a: number, b: number, d: number): number {
  const p = a * b;
  if (p <= MAX_SAFE && p >= -MAX_SAFE) return roundDiv(p, d);
  return Number(roundDivBig(BigInt(a) * BigInt(b), BigInt(d)));
}

/** Plain decimal text of int / 10^exp without trailing zeros ("0.0544", "12", "-0.5"). */
export function formatScaled(int: number, exp: number): string {
  if (exp === 0) return String(int);
  const neg = int < 0;
  const digits = String(neg ? -int : int).padStart(exp + 1, '0');
  const whole = digits.slice(0, digits.length - exp);
  let end = digits.length;
  while (end > whole.length && digits.charCodeAt(end - 1) === 48) end--;
  const frac = digits.slice(whole.length, end);
  const s = frac ? `${whole}.${frac}` : whole;
  return neg ? `-${s}` : s;
}

/**
 * A published price as an exact decimal: the fewest decimals (up to 12) that
 * reproduce the number, which removes float residue such as 0.10300000000000001.
 */
export function toPrice(x: number): Price {
  let int = Math.round(x * POW10[MAX_EXP]);
  let exp = MAX_EXP;
  for (let e = 0; e <= MAX_EXP; e++) {
    const v = x * POW10[e];
    const r = Math.round(v);
    if (Math.abs(v - r) <= Math.abs(v) * 1e-12) {
      int = r;
      exp = e;
      break;
    }
  }
  return { int, exp, text: formatScaled(int, exp) };
}

/** Thousandths (kWh -> Wh, kW -> W) of a non-negative quantity, rounded to the nearest. */
export function toMilli(x: number): number {
  return Math.round(x * 1000);
}

/** Text of a quantity held in thousandths (hot path: no padding or slicing for non-negative values). */
export function formatMilli(q: number): string {
  const frac = q % 1000;
  if (frac === 0) return String(q / 1000);
  if (q < 0) return formatScaled(q, 3);
  const whole = (q - frac) / 1000;
  if (frac % 100 === 0) return `${whole}.${frac / 100}`;
  if (frac % 10 === 0) return `${whole}.${frac < 100 ? '0' : ''}${frac / 10}`;
  return `${whole}.${frac < 10 ? '00' : frac < 100 ? '0' : ''}${frac}`;
}

/** Cents of (quantity in thousandths) x (price) x factor / divisor, rounded once. */
export function amountCents(qMilli: number, price: Price, factor = 1, divisor = 1): number {
  // value = q/1e3 * int/10^exp * factor/divisor dollars = q*int*factor*100 / (1e3 * 10^exp * divisor) cents
  const exp = price.exp + 1;
  const a = qMilli * factor;
  return mulDivRound(a, price.int, POW10[exp] * divisor);
}

/** Cents of a price times an integer count (days) over a divisor (12 for yearly charges). */
export function priceCents(price: Price, count = 1, divisor = 1): number {
  if (price.exp >= 2) return mulDivRound(price.int, count, POW10[price.exp - 2] * divisor);
  return mulDivRound(price.int * POW10[2 - price.exp], count, divisor);
}

/** Text of cents as dollars ("12.5", "-3.07"). */
export function formatCents(cents: number): string {
  return formatScaled(cents, 2);
}
