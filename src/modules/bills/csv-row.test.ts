import { parseBillRow, readHeader } from './csv-row';

describe('readHeader', () => {
  it('maps columns in any order, case-insensitively, optional ones may be absent', () => {
    const cols = readHeader(['Amount', 'period_end', ' utility_type ', 'period_start', 'extra']);
    expect(cols).toMatchObject({ amount: 0, period_end: 1, utility_type: 2, period_start: 3, usage_kwh: undefined, width: 5 });
  });
  it('names the first missing required column', () => {
    expect(() => readHeader(['utility_type', 'period_start', 'amount'])).toThrow('CSV header must name the column period_end');
  });
});

describe('parseBillRow', () => {
  const cols = readHeader(['utility_type', 'period_start', 'period_end', 'amount', 'usage_kwh', 'demand_kw']);
  const row = (over: Partial<Record<string, string>> = {}) => {
    const r = { utility_type: 'electric', period_start: '2024-02-01', period_end: '2024-02-29', amount: '10.5', usage_kwh: '', demand_kw: '', ...over };
    return [r.utility_type, r.period_start, r.period_end, r.amount, r.usage_kwh, r.demand_kw] as string[];
  };

  it('parses a good row (leap day, optional numbers empty -> null)', () => {
    expect(parseBillRow(row(), cols)).toEqual({
      utility_type: 'electric', period_start: '2024-02-01', period_end: '2024-02-29', amount: 10.5, usage_kwh: null, demand_kw: null,
    });
    expect(parseBillRow(row({ usage_kwh: '1234.567', demand_kw: '0' }), cols)).toMatchObject({ usage_kwh: 1234.567, demand_kw: 0 });
  });

  it.each([
    [{ amount: '' }, 'amount: field required'],
    [{ utility_type: 'steam' }, 'utility_type: must be one of electric, gas, water, sewer, trash'],
    [{ period_start: '2023-02-29' }, 'period_start: invalid date format, expected YYYY-MM-DD'],
    [{ period_end: '2024-13-01' }, 'period_end: invalid date format, expected YYYY-MM-DD'],
    [{ period_end: '2024-01-31' }, 'period_end: period_end must not be before period_start'],
    [{ amount: '-1' }, 'amount: value is not a valid non-negative amount with at most 2 decimals'],
    [{ amount: '1.234' }, 'amount: value is not a valid non-negative amount with at most 2 decimals'],
    [{ amount: '1e3' }, 'amount: value is not a valid non-negative amount with at most 2 decimals'],
    [{ usage_kwh: 'abc' }, 'usage_kwh: value is not a valid non-negative number'],
    [{ demand_kw: '-2' }, 'demand_kw: value is not a valid non-negative number'],
  ])('rejects %o', (over, message) => {
    expect(parseBillRow(row(over), cols)).toBe(message);
  });

  it('rejects a row with the wrong number of fields', () => {
    expect(parseBillRow(['electric', '2024-01-01'], cols)).toBe('expected 6 fields, found 2');
  });
});
