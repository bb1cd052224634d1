import { fromScaled, metricValue, quartileTimes4, rankBenchmarks } from './benchmarks.calc';

describe('benchmark metrics', () => {
  // $1,200 a year, of which $1,000 electric for 10,000 kWh; 34,120 + 50,000 kBtu of site energy (the kWh and 500 therms).
  const p = {
    annualCents: 120_000,
    electricCents: 100_000,
    annualKwhMilli: 10_000_000,
    siteKbtuMilli: 84_120_000,
    sqft: 1000,
    unitCount: 4,
    emissionsKg: 508_376,
  };
  it('cost per sqft, per unit, per kWh, kWh per sqft and site EUI, in ten-thousandths', () => {
    expect(fromScaled(metricValue('cost_per_sqft', p)!)).toBe(1.2); // $1,200 / 1,000 sqft
    expect(fromScaled(metricValue('cost_per_unit', p)!)).toBe(300); // $1,200 / 4 units
    // Issue 29 replaced "annual cost / kWh" with electric dollars over electric kWh: $1,000 / 10,000 kWh.
    expect(fromScaled(metricValue('cost_per_kwh', p)!)).toBe(0.1);
    expect(fromScaled(metricValue('kwh_per_sqft', p)!)).toBe(10); // 10,000 kWh / 1,000 sqft
    expect(fromScaled(metricValue('site_eui', p)!)).toBe(84.12); // 84,120 kBtu / 1,000 sqft
    expect(metricValue('cost_per_sqft', { ...p, annualCents: 1_202_096, sqft: 10_000 })).toBe(12021); // 1.20210 -> 1.2021
    // Issue 52: 508,376 kg CO2e over 40,000 sqft = 12.7094 kg/sqft (the README's New York office).
    expect(fromScaled(metricValue('kg_co2e_per_sqft', { ...p, sqft: 40_000 })!)).toBe(12.7094);
  });
  it('leaves out a property without an input or with 0 of it', () => {
    expect(metricValue('cost_per_sqft', { ...p, sqft: null })).toBeNull();
    expect(metricValue('cost_per_sqft', { ...p, sqft: 0 })).toBeNull();
    expect(metricValue('cost_per_unit', { ...p, unitCount: null })).toBeNull();
    expect(metricValue('cost_per_kwh', { ...p, annualKwhMilli: null })).toBeNull();
    expect(metricValue('cost_per_kwh', { ...p, electricCents: null })).toBeNull();
    expect(metricValue('site_eui', { ...p, siteKbtuMilli: null })).toBeNull();
    expect(metricValue('kg_co2e_per_sqft', { ...p, emissionsKg: 0 })).toBeNull();
    expect(metricValue('kg_co2e_per_sqft', { ...p, sqft: null })).toBeNull();
    expect(metricValue('kwh_per_sqft', { ...p, annualCents: null })).toBe(100_000);
    expect(metricValue('cost_per_sqft', { ...p, annualCents: null })).toBeNull();
  });
});

describe('rankings, percentiles and outliers (README "Benchmarks")', () => {
  it('README example: 1.00, 1.20, 1.20, 1.50, 4.00 $/sqft', () => {
    const r = rankBenchmarks([40000, 12000, 10000, 15000, 12000].map((value, i) => ({ item: `p${i}`, value })));
    // percentile = round(100 x (below + (equal - 1) / 2) / (n - 1)), n = 5:
    // 1.00: 0; 1.20: 100 x 1.5 / 4 = 37.5 -> 38 (both); 1.50: 100 x 3 / 4 = 75; 4.00: 100
    expect(r.rankings.map((x) => [x.item, x.value, x.percentile, x.outlier])).toEqual([
      ['p2', 10000, 0, false],
      ['p1', 12000, 38, false],
      ['p4', 12000, 38, false],
      ['p3', 15000, 75, false],
      ['p0', 40000, 100, true],
    ]);
    // Q1 = x[1] = 1.20, Q3 = x[3] = 1.50, threshold = 1.50 + 1.5 x 0.30 = 1.95
    expect(r.outlierThreshold).toBe(19500);
    expect(r.outlierCount).toBe(1);
    expect(r.median).toBe(12000);
    expect(r.average).toBe(17800); // 8.90 / 5
  });

  it('interpolates quartiles linearly: 1, 2, 3, 10 -> Q1 1.75, median 2.5, Q3 4.75, threshold 9.25', () => {
    const values = [10000, 20000, 30000, 100000];
    expect(quartileTimes4(values, 1)).toBe(70000n);
    expect(quartileTimes4(values, 2)).toBe(100000n);
    expect(quartileTimes4(values, 3)).toBe(190000n);
    const r = rankBenchmarks(values.map((value) => ({ item: value, value })));
    expect(r.outlierThreshold).toBe(92500);
    expect(r.rankings.map((x) => x.outlier)).toEqual([false, false, false, true]);
    expect(r.rankings.map((x) => x.percentile)).toEqual([0, 33, 67, 100]);
  });

  it('a value equal to the threshold is not an outlier', () => {
    // 1, 1, 1, 1, 1 -> IQR 0, threshold 1: nothing above it
    const r = rankBenchmarks([1, 1, 1, 1, 1].map((value) => ({ item: value, value })));
    expect(r.outlierCount).toBe(0);
    expect(r.rankings.every((x) => x.percentile === 50)).toBe(true);
  });

  it('one property is the 50th percentile; none gives nulls', () => {
    expect(rankBenchmarks([{ item: 'a', value: 7 }]).rankings[0]).toEqual({ item: 'a', value: 7, percentile: 50, outlier: false });
    expect(rankBenchmarks([])).toEqual({ rankings: [], average: null, median: null, outlierThreshold: null, outlierCount: 0 });
  });
});
