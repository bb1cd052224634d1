import { meanCents, monthlyChangePercent, trendDirection, type TrendPoint } from './trend.calc';

const pts = (...ys: number[]): TrendPoint[] => ys.map((y, x) => ({ x, y }));

describe('trend direction (README "Trend direction")', () => {
  it('README example: $100.00, $103.00, $106.00 -> slope $3.00 / mean $103.00 = +2.9 % a month: increasing', () => {
    // n = 3, Sx = 3, Sy = 30900, Sxx = 5, Sxy = 31500: slope = (3 x 31500 - 3 x 30900) / (3 x 5 - 9) = 300 cents/month
    const p = pts(10000, 10300, 10600);
    expect(trendDirection(p)).toBe('increasing');
    expect(monthlyChangePercent(p)).toBe(2.9);
    expect(meanCents(p)).toBe(10300);
  });

  it('slope $2.00 over a mean of $102.00 (1.96 %) is stable; the mirror image is decreasing', () => {
    expect(trendDirection(pts(10000, 10200, 10400))).toBe('stable');
    expect(trendDirection(pts(10600, 10300, 10000))).toBe('decreasing');
    expect(monthlyChangePercent(pts(10600, 10300, 10000))).toBe(-2.9);
  });

  it('exactly +-2 % a month is stable (the bounds are strict)', () => {
    expect(trendDirection(pts(9800, 10000, 10200))).toBe('stable');
    expect(trendDirection(pts(10200, 10000, 9800))).toBe('stable');
    expect(trendDirection(pts(9799, 10000, 10201))).toBe('increasing');
  });

  it('uses the month positions, so unbilled months between points count as time', () => {
    // same three costs, spread over 11 months: slope 600 / 10 months = 60 cents/month, 0.58 %: stable
    expect(trendDirection([{ x: 0, y: 10000 }, { x: 5, y: 10300 }, { x: 10, y: 10600 }])).toBe('stable');
  });

  it('fewer than 3 billed months is insufficient_data; a zero mean is stable', () => {
    expect(trendDirection(pts(100, 900))).toBe('insufficient_data');
    expect(trendDirection([])).toBe('insufficient_data');
    expect(trendDirection(pts(0, 0, 0))).toBe('stable');
    expect(monthlyChangePercent(pts(0, 0, 0))).toBeNull();
    expect(meanCents([])).toBe(0);
  });

  it('mean rounds half away from zero to the cent', () => {
    expect(meanCents(pts(1, 2))).toBe(2); // 1.5 -> 2
    expect(meanCents(pts(1, 1, 2))).toBe(1); // 1.33 -> 1
  });
});
