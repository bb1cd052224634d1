import { costTrend, meanCents, monthlyChangePercent, trendDirection, type TrendPoint } from './trend.calc';
import { monthIndexOfDate } from './months';

const pts = (...ys: number[]): TrendPoint[] => ys.map((y, x) => ({ x, y }));

describe('least-squares trend direction (README "Cost trend", least-squares rule)', () => {
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
    expect(
      trendDirection([
        { x: 0, y: 10000 },
        { x: 5, y: 10300 },
        { x: 10, y: 10600 },
      ]),
    ).toBe('stable');
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

describe('costTrend (README "Cost trend": complete months, like with like, year over year)', () => {
  const m = (key: string) => monthIndexOfDate(key);
  /** The `n` months ending with `last` (the current month), oldest first. */
  const windowTo = (last: string, n: number) => Array.from({ length: n }, (_, i) => m(last) - n + 1 + i);
  const costs = (propertyId: string, from: string, cents: number[]) => cents.map((c, i) => ({ propertyId, month: m(from) + i, cents: c }));

  it('README example 1: the current month is left out (11 days billed of November are not a fall)', () => {
    const window = windowTo('2026-11', 12);
    const trend = costTrend(window, costs('harbor', '2025-12', [...Array(11).fill(10000), 3667]));
    expect(trend).toEqual({ direction: 'stable', avgMonthlyCents: 10000 });
    // what the least-squares rule said over every billed month, the current one included
    expect(trendDirection(window.map((x, i) => ({ x: i, y: i < 11 ? 10000 : 3667 })))).toBe('decreasing');
  });

  it('README example 2: like with like: a property that joined in October does not make the trend rise', () => {
    // Harbor $200.00 a month January..October; Elm from October ($120.00 of a bill into November).
    const window = windowTo('2026-11', 12);
    const trend = costTrend(window, [...costs('harbor', '2026-01', Array(11).fill(20000)), ...costs('elm', '2026-10', [12000, 19000])]);
    // The fit counts Harbor only (billed in every complete billed month): flat. The average is over
    // all properties: (9 x 200 + 320) / 10 = $212.00.
    expect(trend).toEqual({ direction: 'stable', avgMonthlyCents: 21200 });
  });

  it('README example 3: with 24 complete months, each month against the same month a year earlier (a hot summer is not a rise)', () => {
    const year = [9000, 8500, 8000, 9000, 12000, 18000, 25000, 27000, 22000, 14000, 10000, 9000]; // Nov..Oct, Phoenix-like
    const window = windowTo('2026-11', 25);
    expect(costTrend(window, costs('phx', '2024-11', [...year, ...year]))).toMatchObject({ direction: 'stable' });
    // the least-squares rule over the last 12 of them (spring to autumn) would have called it rising
    expect(trendDirection(year.map((y, x) => ({ x, y })))).toBe('increasing');
    // +6 % in every month of the last year: increasing; +4 %: stable; -6 %: decreasing.
    const scaled = (f: number) => year.map((c) => Math.round(c * f));
    expect(costTrend(window, costs('phx', '2024-11', [...year, ...scaled(1.06)])).direction).toBe('increasing');
    expect(costTrend(window, costs('phx', '2024-11', [...year, ...scaled(1.04)])).direction).toBe('stable');
    expect(costTrend(window, costs('phx', '2024-11', [...year, ...scaled(0.94)])).direction).toBe('decreasing');
  });

  it('year over year compares a month only over the properties billed in both: a new building is not growth', () => {
    const year = Array(12).fill(10000);
    const window = windowTo('2026-11', 25);
    const trend = costTrend(window, [
      ...costs('a', '2024-11', [...year, ...year]),
      ...costs(
        'new',
        '2025-11',
        year.map(() => 50000),
      ),
    ]);
    expect(trend.direction).toBe('stable');
  });

  it('insufficient_data: fewer than 3 complete billed months, or no property billed in all of them', () => {
    expect(costTrend(windowTo('2026-11', 3), costs('a', '2026-09', [100, 200, 300])).direction).toBe('insufficient_data');
    expect(costTrend(windowTo('2026-11', 1), costs('a', '2026-11', [100]))).toEqual({ direction: 'insufficient_data', avgMonthlyCents: 0 });
    const window = windowTo('2026-11', 6);
    expect(costTrend(window, [...costs('a', '2026-06', [100, 100]), ...costs('b', '2026-08', [100, 100, 100])]).direction).toBe(
      'insufficient_data',
    );
  });
});
