import {
  apportionLargestRemainder,
  apportionLargestRemainderSafe,
  decimalPlacesOf,
  exactCents,
  fromScaledInteger,
  roundDivBig,
  roundDiv,
  toScaledInteger,
} from './money';

describe('exact decimals', () => {
  it('reads a number as the decimal it was written as', () => {
    expect(toScaledInteger(1234.56, 2)).toBe(123456n);
    expect(toScaledInteger(1234.565, 2)).toBeNull();
    expect(toScaledInteger(0.1, 4)).toBe(1000n);
    expect(toScaledInteger(1e-7, 6)).toBeNull();
    expect(toScaledInteger(1.5e-7, 8)).toBe(15n);
    expect(toScaledInteger(1e21, 0)).toBe(10n ** 21n);
    expect(toScaledInteger(-2.5, 1)).toBe(-25n);
    expect(toScaledInteger(Number.NaN, 2)).toBeNull();
    expect(toScaledInteger(Number.POSITIVE_INFINITY, 2)).toBeNull();
    expect(toScaledInteger(99_999_999_999.99, 2)).toBe(9_999_999_999_999n);
  });

  it('cents, decimal places and back', () => {
    expect([exactCents(0.1), exactCents(19.99), exactCents(1.005), exactCents(-3)]).toEqual([10, 1999, null, -300]);
    expect([decimalPlacesOf(12, 4), decimalPlacesOf(12.5, 4), decimalPlacesOf(0.0001, 4), decimalPlacesOf(0.00001, 4)]).toEqual([
      0,
      1,
      4,
      null,
    ]);
    expect([fromScaledInteger(123456n, 2), fromScaledInteger(5, 6), fromScaledInteger(25_000, 6)]).toEqual([1234.56, 0.000005, 0.025]);
  });
});

describe('rounding and apportionment', () => {
  it('rounds half up', () => {
    expect([roundDiv(5, 2), roundDiv(4, 3), roundDiv(0, 7), roundDiv(2 ** 52, 3)]).toEqual([3, 1, 0, Math.round(2 ** 52 / 3)]);
    expect([roundDivBig(5n, 2n), roundDivBig(-5n, 2n), roundDivBig(10n ** 30n + 1n, 2n)]).toEqual([3n, -3n, 5n * 10n ** 29n + 1n]);
  });

  it('gives the leftover units to the largest remainders, ties to the lower index', () => {
    // 100 cents over three equal quotas of 33.33...
    expect(apportionLargestRemainderSafe(100, [100, 100, 100], 3)).toEqual([34, 33, 33]);
    expect(apportionLargestRemainder(100n, [100n, 100n, 100n], 3n)).toEqual([34n, 33n, 33n]);
    // quotas 1.2, 2.5, 3.3 (house 7): floors 1, 2, 3, one left for the .5
    expect(apportionLargestRemainderSafe(7, [12, 25, 33], 10)).toEqual([1, 3, 3]);
    expect(apportionLargestRemainder(7n, [12n, 25n, 33n], 10n)).toEqual([1n, 3n, 3n]);
    // a house rounded from the quotas' sum (the admin fees): 0.6 + 0.6 = 1.2 -> 1
    expect(apportionLargestRemainderSafe(1, [6, 6], 10)).toEqual([1, 0]);
    expect(() => apportionLargestRemainderSafe(5, [6, 6], 10)).toThrow(RangeError);
  });
});
