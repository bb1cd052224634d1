import { analyzeRates, recommendationSavingsCents } from './rate-analysis.calc';
import { roundDiv } from './money';

describe('roundDiv (exact, half away from zero)', () => {
  it.each([
    [7, 2, 4], [5, 2, 3], [-5, 2, -3], [5, -2, -3], [4, 3, 1], [1, 3, 0], [2, 3, 1], [-1, 3, 0], [0, 5, 0],
  ])('%i / %i = %i', (n, d, q) => {
    expect(roundDiv(n, d)).toBe(q);
  });
  it('works beyond 2^53 with BigInt input', () => {
    expect(roundDiv(10n ** 20n + 5n, 10n)).toBe(1e19 + 1);
  });
  it('rejects division by zero', () => {
    expect(() => roundDiv(1, 0)).toThrow(RangeError);
  });
});

describe('analyzeRates', () => {
  const at = new Date('2026-05-01T00:00:00Z');
  const current = { id: 'cur', name: 'Current', monthlyCostCents: 123054 };

  it('computes savings, percent to 1 decimal, sorts cheapest first and recommends a saving alternative', () => {
    const a = analyzeRates({
      propertyId: 'p', current, analyzedAt: at,
      candidates: [
        { id: 'dear', name: 'Dear', monthlyCostCents: 125554 },
        current,
        { id: 'cheap', name: 'Cheap', monthlyCostCents: 101854 },
      ],
    });
    expect(a).toEqual({
      property_id: 'p',
      current_tariff: { id: 'cur', name: 'Current', estimated_monthly_cost: 1230.54 },
      alternatives: [
        // 21200 / 123054 = 17.228 % -> 17.2
        { tariff_id: 'cheap', name: 'Cheap', estimated_monthly_cost: 1018.54, monthly_savings: 212, annual_savings: 2544, savings_percent: 17.2 },
        // -2500 / 123054 = -2.0316 % -> -2.0
        { tariff_id: 'dear', name: 'Dear', estimated_monthly_cost: 1255.54, monthly_savings: -25, annual_savings: -300, savings_percent: -2 },
      ],
      recommendation: 'cheap',
      analyzed_at: '2026-05-01T00:00:00.000Z',
    });
    expect(recommendationSavingsCents(a)).toBe(21200);
  });

  it('rounds the percent half away from zero: 1 / 8 = 12.5 %, 1/16 = 6.25 % -> 6.3', () => {
    const a = analyzeRates({
      propertyId: 'p', analyzedAt: at, current: { id: 'c', name: 'C', monthlyCostCents: 1600 },
      candidates: [{ id: 'x', name: 'X', monthlyCostCents: 1500 }, { id: 'y', name: 'Y', monthlyCostCents: 1700 }],
    });
    expect(a.alternatives.map((x) => x.savings_percent)).toEqual([6.3, -6.3]);
  });

  it('keeps the current tariff when nothing is cheaper (a tie is no saving)', () => {
    const a = analyzeRates({
      propertyId: 'p', current, analyzedAt: at, candidates: [{ id: 'same', name: 'Same', monthlyCostCents: 123054 }],
    });
    expect(a.recommendation).toBe('cur');
    expect(a.alternatives[0]!.monthly_savings).toBe(0);
    expect(recommendationSavingsCents(a)).toBe(0);
  });

  it('with no alternatives at all, recommends the current tariff', () => {
    const a = analyzeRates({ propertyId: 'p', current, analyzedAt: at, candidates: [current] });
    expect(a.alternatives).toEqual([]);
    expect(a.recommendation).toBe('cur');
  });

  it('a zero current cost gives percent 0 rather than dividing by zero', () => {
    const a = analyzeRates({
      propertyId: 'p', analyzedAt: at, current: { id: 'c', name: 'C', monthlyCostCents: 0 },
      candidates: [{ id: 'x', name: 'X', monthlyCostCents: 500 }],
    });
    expect(a.alternatives[0]).toMatchObject({ monthly_savings: -5, savings_percent: 0 });
  });

  it('without a current tariff: null savings, the cheapest recommended; nothing to recommend throws', () => {
    const a = analyzeRates({
      propertyId: 'p', current: null, analyzedAt: at,
      candidates: [{ id: 'b', name: 'B', monthlyCostCents: 900 }, { id: 'a', name: 'A', monthlyCostCents: 900 }],
    });
    expect(a.current_tariff).toBeNull();
    expect(a.recommendation).toBe('a'); // tie broken by id
    expect(a.alternatives[0]).toMatchObject({ monthly_savings: null, annual_savings: null, savings_percent: null });
    expect(recommendationSavingsCents(a)).toBeNull();
    expect(() => analyzeRates({ propertyId: 'p', current: null, analyzedAt: at, candidates: [] })).toThrow(RangeError);
  });
});
