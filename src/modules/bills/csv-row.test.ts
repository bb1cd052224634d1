import { parseBillRow as parseRow, readAmount, readDate, readHeader, type ColumnIndex } from './csv-row';

const TODAY = '2026-11-26';
const parseBillRow = (record: string[], columns: ColumnIndex) => parseRow(record, columns, TODAY);

describe('readHeader', () => {
  it('maps columns in any order, case-insensitively, optional ones may be absent', () => {
    const cols = readHeader(['Amount', 'period_end', ' utility_type ', 'period_start', 'extra']);
    expect(cols).toMatchObject({ amount: 0, period_end: 1, utility_type: 2, period_start: 3, usage_kwh: undefined, width: 5 });
  });
  it('names the first missing required column', () => {
    expect(() => readHeader(['utility_type', 'period_start', 'amount'])).toThrow('CSV header must name the column period_end');
    expect(() => readHeader(['period_start', 'period_end', 'amount'])).toThrow(
      'CSV header must name the column utility_type (or meter_id or account_number)',
    );
    expect(readHeader(['meter_id', 'period_start', 'period_end', 'amount'])).toMatchObject({ meter_id: 0, utility_type: undefined });
  });
});

describe('parseBillRow', () => {
  const cols = readHeader(['utility_type', 'period_start', 'period_end', 'amount', 'usage_kwh', 'demand_kw']);
  const row = (over: Partial<Record<string, string>> = {}) => {
    const r = {
      utility_type: 'electric',
      period_start: '2024-02-01',
      period_end: '2024-02-29',
      amount: '10.5',
      usage_kwh: '',
      demand_kw: '',
      ...over,
    };
    return [r.utility_type, r.period_start, r.period_end, r.amount, r.usage_kwh, r.demand_kw] as string[];
  };

  it('parses a good row (leap day, optional numbers empty -> null)', () => {
    expect(parseBillRow(row(), cols)).toEqual({
      meter: { meterId: undefined, accountNumber: undefined, utilityType: 'electric' },
      period_start: '2024-02-01',
      period_end: '2024-02-29',
      amount: 10.5,
      usage: null,
      unit: undefined,
      usage_kwh: null,
      demand_kw: null,
      is_estimated: false,
      heat_content: null,
    });
    expect(parseBillRow(row({ usage_kwh: '1234.567', demand_kw: '0' }), cols)).toMatchObject({ usage_kwh: 1234.567, demand_kw: 0 });
  });

  it.each([
    [{ amount: '' }, 'amount: field required'],
    // Issue 29 added meters of steam and other utilities: an unknown type is still refused.
    [
      { utility_type: 'propane' },
      'utility_type: must be one of electric, gas, water, sewer, trash, steam, fuel_oil_2, fuel_oil_4, fuel_oil_5_6, other',
    ],
    [{ utility_type: '' }, 'utility_type: field required'],
    [{ period_start: '2023-02-29' }, 'period_start: invalid date, expected YYYY-MM-DD or MM/DD/YYYY'],
    [{ period_end: '2024-13-01' }, 'period_end: invalid date, expected YYYY-MM-DD or MM/DD/YYYY'],
    [{ period_end: '02/30/2024' }, 'period_end: invalid date, expected YYYY-MM-DD or MM/DD/YYYY'],
    [{ period_end: '2024-01-31' }, 'period_end: period_end must not be before period_start'],
    // Issue 29 replaced "an amount is not negative" with bill-rules.ts's range (credits down to -1,000,000).
    [{ amount: '-1000000.01' }, 'amount: must be from -1,000,000 to 100,000,000'],
    [{ amount: '100000000.01' }, 'amount: must be from -1,000,000 to 100,000,000'],
    [{ amount: '1.234' }, 'amount: value is not an amount with at most 2 decimals'],
    [{ amount: '1e3' }, 'amount: value is not an amount with at most 2 decimals'],
    [{ amount: '-$-5' }, 'amount: value is not an amount with at most 2 decimals'],
    [{ amount: '12,34.00' }, 'amount: value is not an amount with at most 2 decimals'],
    [{ period_start: '1999-12-31', period_end: '2000-01-01' }, 'period_start: period_start must be on or after 2000-01-01'],
    [{ period_start: '2024-01-01', period_end: '2024-04-10' }, "period_end: a bill's period lasts at most 100 days (this one lasts 101)"],
    [
      { period_start: '2026-12-01', period_end: '2026-12-28' },
      'period_end: period_end must be no later than 2026-12-27 (31 days after today)',
    ],
    [{ usage_kwh: 'abc' }, 'usage_kwh: value is not a valid non-negative number'],
    [{ demand_kw: '-2' }, 'demand_kw: value is not a valid non-negative number'],
  ])('rejects %o', (over, message) => {
    expect(parseBillRow(row(over), cols)).toBe(message);
  });

  it('takes the bounds themselves: 2000-01-01, 100 days, 31 days after today, -1,000,000 and 100,000,000', () => {
    expect(parseBillRow(row({ period_start: '2000-01-01', period_end: '2000-04-09', amount: '-1000000' }), cols)).toMatchObject({
      period_start: '2000-01-01',
      period_end: '2000-04-09',
      amount: -1_000_000,
    });
    expect(parseBillRow(row({ period_start: '2026-12-01', period_end: '2026-12-27', amount: '$100,000,000.00' }), cols)).toMatchObject({
      period_end: '2026-12-27',
      amount: 100_000_000,
    });
  });

  it('rejects a row with the wrong number of fields', () => {
    expect(parseBillRow(['electric', '2024-01-01'], cols)).toBe('expected 6 fields, found 2');
  });
});

describe('readDate and readAmount', () => {
  it('read ISO and US dates that exist', () => {
    expect(readDate('2026-01-31')).toBe('2026-01-31');
    expect(readDate('01/31/2026')).toBe('2026-01-31');
    expect(readDate('1/5/2026')).toBe('2026-01-05');
    expect(readDate('02/29/2023')).toBeNull();
    expect(readDate('31/01/2026')).toBeNull(); // day first is not read
  });
  it('read amounts with $, thousands separators and a sign on either side of the $', () => {
    expect(readAmount('1234.5')).toBe(1234.5);
    expect(readAmount('$1,234,567.89')).toBe(1234567.89);
    expect(readAmount('-$0.01')).toBe(-0.01);
    expect(readAmount('$-12')).toBe(-12);
    expect(readAmount('1,23')).toBeNull();
    expect(readAmount('$')).toBeNull();
  });
});
