import { amountCents, formatMilli, formatScaled, mulDivRound, priceCents, roundDiv, toMilli, toPrice } from './money';

describe('exact decimal money', () => {
  it('rounds half away from zero', () => {
    expect(roundDiv(5, 10)).toBe(1);
    expect(roundDiv(15, 10)).toBe(2);
    expect(roundDiv(14, 10)).toBe(1);
    expect(roundDiv(-5, 10)).toBe(-1);
    expect(roundDiv(-15, 10)).toBe(-2);
    expect(roundDiv(-14, 10)).toBe(-1);
    expect(roundDiv(0, 7)).toBe(0);
  });

  it('reads published prices as decimals, without float residue', () => {
    expect(toPrice(0.10300000000000001)).toMatchObject({ int: 103, exp: 3, text: '0.103' });
    expect(toPrice(0.110861)).toMatchObject({ int: 110861, exp: 6, text: '0.110861' });
    expect(toPrice(60)).toMatchObject({ int: 60, exp: 0, text: '60' });
    expect(toPrice(-0.01076)).toMatchObject({ int: -1076, exp: 5, text: '-0.01076' });
    expect(toPrice(0.0000012345)).toMatchObject({ int: 12345, exp: 10 });
  });

  it('prices quantity x rate exactly where binary floats would not', () => {
    // 1000 kWh x 0.069225 = 69.225 exactly -> 69.23; binary floats give 6922.499999... cents -> 69.22
    expect(Math.round(1000 * 0.069225 * 100)).toBe(6922);
    expect(amountCents(toMilli(1000), toPrice(0.069225))).toBe(6923);
    expect(amountCents(toMilli(5000), toPrice(0.025303))).toBe(12652);
    // 1.005 x $1 = 1.005 -> 1.01 (float 1.005 * 100 rounds to 100.49999999999999)
    expect(amountCents(toMilli(1.005), toPrice(1))).toBe(101);
    // negative (credit) rates round away from zero too: 500 x -0.00001 = -0.005 -> -0.01
    expect(amountCents(toMilli(500), toPrice(-0.00001))).toBe(-1);
  });

  it('falls back to BigInt beyond the safe-integer range', () => {
    // 1e9 kWh x 0.123456789 $/kWh = 123,456,789.00 $
    expect(amountCents(toMilli(1e9), toPrice(0.123456789))).toBe(12_345_678_900);
    expect(mulDivRound(2 ** 52, 4, 8)).toBe(2 ** 51);
    expect(mulDivRound(9_007_199_254_740_991, 10, 100)).toBe(900_719_925_474_099);
  });

  it('charges per day and per year', () => {
    expect(priceCents(toPrice(0.23), 28)).toBe(644);
    // 150 / 12 = 12.50; 100 / 12 = 8.333 -> 8.33; 0.9436 -> 0.94
    expect(priceCents(toPrice(150), 1, 12)).toBe(1250);
    expect(priceCents(toPrice(100), 1, 12)).toBe(833);
    expect(priceCents(toPrice(0.9436))).toBe(94);
  });

  it('formats scaled integers', () => {
    expect(formatScaled(544050, 3)).toBe('544.05');
    expect(formatScaled(-5, 2)).toBe('-0.05');
    expect(formatScaled(1200, 2)).toBe('12');
    expect(formatMilli(1)).toBe('0.001');
    expect(formatMilli(12_500_000)).toBe('12500');
  });
});
