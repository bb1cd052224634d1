/** Integer-cent helpers: money is summed and divided in cents, rounded once, half away from zero. */

export function toCents(dollars: number): number {
  return Math.round(dollars * 100);
}

export function fromCents(cents: number): number {
  return cents / 100;
}

/** $1,234.56 (a presented 2-decimal amount, en-US as a US reader reads it); negative as -$0.01. */
export function usd(amount: number): string {
  const cents = Math.round(Math.abs(amount) * 100);
  const dollars = Math.floor(cents / 100).toLocaleString('en-US');
  return `${amount < 0 && cents > 0 ? '-' : ''}$${dollars}.${String(cents % 100).padStart(2, '0')}`;
}

/**
 * n / d for integers, rounded half away from zero, exactly. Safe integers (|n|, |d| < 2^53) take
 * a plain-number path: below 2^53 the floating-point quotient truncates to the exact integer
 * quotient, and the remainder and its double are exact. Anything else goes through roundDivBig:
 * pass BigInt for products that may exceed 2^53; BigInt(x) of a non-integer number throws, and
 * d = 0 throws a RangeError.
 */
export function roundDiv(n: number | bigint, d: number | bigint): number {
  if (typeof n === 'number' && typeof d === 'number' && d !== 0 && Number.isSafeInteger(n) && Number.isSafeInteger(d)) {
    const q = Math.trunc(n / d);
    const r = n - q * d;
    const twice = r < 0 ? -2 * r : 2 * r;
    if (twice >= (d < 0 ? -d : d)) return n < 0 !== d < 0 ? q - 1 : q + 1;
    return q + 0; // -0 (e.g. -3 / 10) as 0, as the BigInt path gives
  }
  return Number(roundDivBig(BigInt(n), BigInt(d)));
}

/** n / d for BigInts, rounded half away from zero. */
export function roundDivBig(n: bigint, d: bigint): bigint {
  if (d === 0n) throw new RangeError('division by zero');
  const negative = n < 0n !== d < 0n;
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  let q = an / ad;
  if (2n * (an % ad) >= ad) q += 1n;
  return negative ? -q : q;
}

const DECIMAL_FORM = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/**
 * A finite number as the decimal it was written as (its shortest round-trip form, which is what
 * JSON.parse read), scaled to an integer: value x 10^places. Null when the value has more than
 * `places` decimal places or is not finite. 1234.565 with places 2 is null, not 123456 or 123457.
 */
export function toScaledInteger(value: number, places: number): bigint | null {
  if (!Number.isFinite(value)) return null;
  if (places <= 15) {
    // Fast path: below 2^50 distinct decimals of `places` places are distinct doubles, so when
    // m / 10^places is exactly this double, m is the decimal it was written as.
    const pow = 10 ** places;
    const m = Math.round(value * pow);
    if (Math.abs(m) < 2 ** 50 && m / pow === value) return BigInt(m);
  }
  const m = DECIMAL_FORM.exec(String(value));
  if (!m) return null;
  const [, sign, whole, fraction = '', exp = '0'] = m;
  const shift = places + Number(exp) - fraction.length;
  if (shift < 0) return null; // the shortest form never ends in a fractional zero: the last digit is finer than allowed
  const digits = BigInt(whole + fraction) * 10n ** BigInt(shift);
  return sign ? -digits : digits;
}

/** The fewest decimal places (at most `max`) the value was written with; null when it has more. */
export function decimalPlacesOf(value: number, max: number): number | null {
  if (Number.isInteger(value)) return 0;
  for (let k = 1; k <= max; k++) if (toScaledInteger(value, k) !== null) return k;
  return null;
}

/** Exact integer cents of an amount written with at most 2 decimals; null otherwise. */
export function exactCents(dollars: number): number | null {
  const cents = toScaledInteger(dollars, 2);
  return cents === null || cents > BigInt(Number.MAX_SAFE_INTEGER) || cents < -BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(cents);
}

/** The number nearest to scaled / 10^places (the JSON form of an exact decimal). */
export function fromScaledInteger(scaled: bigint | number, places: number): number {
  return Number(`${scaled}e-${places}`);
}

/** apportionLargestRemainder for safe integers: house, nums[i] and den below 2^53 (callers check). */
export function apportionLargestRemainderSafe(house: number, nums: readonly number[], den: number): number[] {
  const n = nums.length;
  const shares = new Array<number>(n);
  const remainders = new Float64Array(n);
  let floors = 0;
  for (let i = 0; i < n; i++) {
    const q = Math.floor(nums[i] / den);
    shares[i] = q;
    remainders[i] = nums[i] - q * den;
    floors += q;
  }
  const left = house - floors;
  if (left < 0 || left > n) throw new RangeError("house is not within the quotas' floors and ceilings");
  if (left === 0) return shares;
  // The left-th largest remainder (a native numeric sort of a copy): every remainder above it takes
  // a unit, and the units still left go to the remainders equal to it, lowest index first.
  const threshold = remainders.slice().sort()[n - left];
  let ties = left;
  for (let i = 0; i < n; i++) {
    if (remainders[i] > threshold) {
      shares[i] += 1;
      ties -= 1;
    }
  }
  for (let i = 0; i < n && ties > 0; i++) {
    if (remainders[i] === threshold) {
      shares[i] += 1;
      ties -= 1;
    }
  }
  return shares;
}

/**
 * Largest-remainder apportionment of `house` whole units (cents) over quotas nums[i] / den:
 * everyone gets the floor of their quota, and the units left over go one each to the largest
 * remainders, ties to the lower index. Requires sum(floor(quota)) <= house <= that sum + n.
 * Each share is the floor or the ceiling of its quota.
 */
export function apportionLargestRemainder(house: bigint, nums: readonly bigint[], den: bigint): bigint[] {
  if (den <= 0n) throw new RangeError('den must be positive');
  const n = nums.length;
  const shares = new Array<bigint>(n);
  const remainders = new Array<bigint>(n);
  let floors = 0n;
  for (let i = 0; i < n; i++) {
    const num = nums[i];
    if (num < 0n) throw new RangeError('quotas must not be negative');
    const q = num / den;
    shares[i] = q;
    remainders[i] = num - q * den;
    floors += q;
  }
  const left = house - floors;
  if (left < 0n || left > BigInt(n)) throw new RangeError("house is not within the quotas' floors and ceilings");
  if (left === 0n) return shares;
  // Only a non-zero remainder can take a unit (the leftover is at most their number).
  const order: number[] = [];
  for (let i = 0; i < n; i++) if (remainders[i] !== 0n) order.push(i);
  order.sort((a, b) => (remainders[a] > remainders[b] ? -1 : remainders[a] < remainders[b] ? 1 : a - b));
  for (let k = 0; k < Number(left); k++) shares[order[k]] += 1n;
  return shares;
}
