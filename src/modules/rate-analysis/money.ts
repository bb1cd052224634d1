/** Integer-cent helpers: money is summed and divided in cents, rounded once, half away from zero. */

export function toCents(dollars: number): number {
  return Math.round(dollars * 100);
}

export function fromCents(cents: number): number {
  return cents / 100;
}

/**
 * n / d for integers, rounded half away from zero, exactly (no floating-point division).
 * Pass BigInt for products that may exceed 2^53; BigInt(x) of a non-integer number throws.
 */
export function roundDiv(n: number | bigint, d: number | bigint): number {
  const bn = BigInt(n);
  const bd = BigInt(d);
  if (bd === 0n) throw new RangeError('division by zero');
  const negative = bn < 0n !== bd < 0n;
  const an = bn < 0n ? -bn : bn;
  const ad = bd < 0n ? -bd : bd;
  const r = an % ad;
  let q = an / ad;
  if (2n * r >= ad) q += 1n;
  return Number(negative ? -q : q);
}
