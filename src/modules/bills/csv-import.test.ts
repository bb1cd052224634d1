import { Readable } from 'node:stream';
import { AppError } from '../../platform/http/errors';
import { detectDelimiter, importBillsCsv, type ImportStore, type Upload } from './csv-import';
import { createImportMeters, type ImportMeter } from './import-meters';
import type { BatchOutcome, NewBill } from './repository';

const BOUNDARY = 'test-boundary-19';

/** An upload of one multipart file part, sent in small chunks without Content-Length. */
function multipartRequest(csv: string, chunkSize = 1000): Upload & { headers: Record<string, string> } {
  const body = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="b.csv"\r\nContent-Type: text/csv\r\n\r\n` +
      `${csv}\r\n--${BOUNDARY}--\r\n`,
  );
  const chunks: Buffer[] = [];
  for (let i = 0; i < body.length; i += chunkSize) chunks.push(body.subarray(i, i + chunkSize));
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'transfer-encoding': 'chunked' },
    body: Readable.from(chunks, { objectMode: false }),
  };
}

const header = 'utility_type,period_start,period_end,amount\n';
const TODAY = { today: '2026-11-26' };
const row = (day: number) => `electric,2026-01-${String(day).padStart(2, '0')},2026-01-${String(day).padStart(2, '0')},1.50\n`;

/** Meters of the property in these tests: a second electric meter (account 77-1) beside the defaults made on first use. */
const SECOND_ELECTRIC: ImportMeter = { id: 'm-e2', utilityType: 'electric', unit: 'kWh', accountNumber: '77-1', isDefault: false };
const UNITS: Record<string, string> = { electric: 'kWh', gas: 'therms', water: 'kgal' };

/** A store whose batches go to `onBatch` (every row stored unless it says otherwise). */
function store(onBatch: (rows: NewBill[]) => BatchOutcome[] | void = () => undefined): ImportStore {
  return {
    insertBatch: async (rows) => onBatch(rows) ?? rows.map(() => 'stored' as const),
    meters: createImportMeters([SECOND_ELECTRIC], async (type) => ({
      id: `m-${type}`,
      utilityType: type,
      unit: UNITS[type] ?? 'kBtu',
      accountNumber: null,
      isDefault: true,
    })),
  };
}

describe('importBillsCsv', () => {
  it('streams rows to insertBatch and counts what it stored', async () => {
    const batches: NewBill[][] = [];
    const result = await importBillsCsv(
      multipartRequest(header + row(1) + row(2) + 'gas,bad,2026-01-01,1\n'),
      store((rows) => {
        batches.push(rows);
        return ['stored', 'duplicate']; // pretend one was a duplicate
      }),
      TODAY,
    );
    expect(batches.flat().map((b) => b.period_start)).toEqual(['2026-01-01', '2026-01-02']);
    expect(result).toEqual({
      imported: 1,
      duplicates: 1,
      rejected_count: 1,
      rejected: [{ line: 4, detail: 'period_start: invalid date, expected YYYY-MM-DD or MM/DD/YYYY' }],
    });
  });

  it('413 when the file passes the limit mid-stream (no Content-Length to refuse it up front)', async () => {
    const csv = header + Array.from({ length: 28 }, (_, i) => row(i + 1)).join('');
    const stored: NewBill[] = [];
    const err = await importBillsCsv(
      multipartRequest(csv),
      store((rows) => {
        stored.push(...rows);
      }),
      { ...TODAY, maxBytes: 300 },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(413);
    expect((err as AppError).detail).toBe('File too large: the limit is 50 MB');
    expect(stored).toEqual([]); // the cut-off batch is never stored
  });

  it('refuses a declared Content-Length over the limit before reading rows', async () => {
    const req = multipartRequest(header + row(1));
    req.headers['content-length'] = String(51 * 1024 * 1024);
    const insert = jest.fn();
    await expect(importBillsCsv(req, store(insert), TODAY)).rejects.toMatchObject({ status: 413 });
    expect(insert).not.toHaveBeenCalled();
  });

  it('reads what utility portals export: a UTF-8 BOM, `;` delimiters, `$1,234.56`, MM/DD/YYYY', async () => {
    const csv =
      '\ufeffUtility_Type;Period_Start;Period_End;Amount;Usage_kWh\r\n' +
      'electric;01/01/2026;01/31/2026;$1,234.56;12,500\r\n' +
      'gas;2026-02-01;2026-02-28;-$12.00;\r\n' +
      'water;2/1/2026;4/30/2026;1.234,56;\r\n';
    const stored: NewBill[] = [];
    const result = await importBillsCsv(
      multipartRequest(csv, 7),
      store((rows) => {
        stored.push(...rows);
      }),
      TODAY,
    );
    expect(stored.map((b) => [b.utility_type, b.period_start, b.period_end, b.amount, b.usage_kwh])).toEqual([
      ['electric', '2026-01-01', '2026-01-31', 1234.56, 12500],
      ['gas', '2026-02-01', '2026-02-28', -12, null],
    ]);
    // A European decimal comma is not read as a thousands separator: reported, not stored as 1.23.
    expect(result.rejected).toEqual([{ line: 4, detail: 'amount: value is not an amount with at most 2 decimals' }]);
  });

  it('an empty file: 422, no header', async () => {
    await expect(importBillsCsv(multipartRequest(''), store(), TODAY)).rejects.toMatchObject({
      status: 422,
      detail: 'CSV file is empty: a header row is required',
    });
  });

  it('reads meter_id, account_number, usage, unit and is_estimated; reports each row it cannot take on its line', async () => {
    const csv = [
      'account_number,meter_id,utility_type,period_start,period_end,amount,usage,unit,usage_kwh,is_estimated', // 1
      '77-1,,,2026-01-01,2026-01-31,100,900,,,yes', // 2: the second electric meter by account number, estimated
      ',,water,2026-01-01,2026-03-31,300,41.5,,,', // 3: the default water meter (kgal), created on first use
      ',,gas,2026-01-01,2026-01-31,80,1200,ccf,,0', // 4: gas in ccf on a therms meter
      ',m-e2,,2026-02-01,2026-02-28,90,,,850,false', // 5: by meter_id, usage given as usage_kwh
      '99-9,,,2026-01-01,2026-01-31,1,,,,', // 6: unknown account
      ',nope,,2026-01-01,2026-01-31,1,,,,', // 7: unknown meter
      ',,water,2026-04-01,2026-04-30,1,2,kWh,,', // 8: kWh is not a water unit
      ',,gas,2026-02-01,2026-02-28,1,,,10,', // 9: usage_kwh on a gas bill
      ',,electric,2026-03-01,2026-03-31,1,,,,maybe', // 10: not a boolean
      ',,,2026-03-01,2026-03-31,1,,,,', // 11: no meter named at all
      ',m-e2,gas,2026-03-01,2026-03-31,1,,,,', // 12: the meter is electric
    ].join('\n');
    const stored: NewBill[] = [];
    const result = await importBillsCsv(
      multipartRequest(csv),
      store((rows) => {
        stored.push(...rows);
      }),
      TODAY,
    );
    const seen = stored.map((b) => [b.meter_id, b.utility_type, b.period_start, b.usage, b.unit, b.usage_kwh, b.is_estimated]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['m-e2', 'electric', '2026-01-01', 900, 'kWh', 900, true],
        ['m-water', 'water', '2026-01-01', 41.5, 'kgal', null, false],
        ['m-gas', 'gas', '2026-01-01', 1200, 'ccf', null, false],
        ['m-e2', 'electric', '2026-02-01', 850, 'kWh', 850, false],
      ]),
    );
    expect(seen).toHaveLength(4);
    expect(result.rejected).toEqual([
      { line: 6, detail: 'account_number: no meter of this property has account number 99-9' },
      { line: 7, detail: 'meter_id: no meter nope on this property' },
      { line: 8, detail: "unit: unit 'kWh' is not a unit of water (kgal, gallons, ccf, cf, m3)" },
      { line: 9, detail: "usage_kwh: usage_kwh is for electric bills: give a gas bill's usage in usage and unit" },
      { line: 10, detail: 'is_estimated: expected true or false (or yes/no, 1/0)' },
      { line: 11, detail: 'utility_type: field required' },
      { line: 12, detail: "utility_type: must be the meter's (electric)" },
    ]);
  });

  it('a row overlapping a bill of its meter is rejected on its line, naming the bill; rejections come in line order', async () => {
    const csv = header + row(1) + row(2) + 'electric,2026-01-01,2026-01-03,1\n' + 'gas,bad,2026-01-01,1\n';
    const result = await importBillsCsv(
      multipartRequest(csv),
      store((rows) =>
        rows.map((r) =>
          r.period_end === '2026-01-03' ? { overlaps: { id: 'bill-7', period_start: '2026-01-01', period_end: '2026-01-01' } } : 'stored',
        ),
      ),
      TODAY,
    );
    expect(result).toEqual({
      imported: 2,
      duplicates: 0,
      rejected_count: 2,
      rejected: [
        { line: 4, detail: 'period: overlaps bill bill-7 of this meter (2026-01-01 to 2026-01-01)' },
        { line: 5, detail: 'period_start: invalid date, expected YYYY-MM-DD or MM/DD/YYYY' },
      ],
    });
  });
});

describe('detectDelimiter', () => {
  it('takes the more frequent of ; and , in the first line, outside quotes', () => {
    expect(detectDelimiter('a;b;c\n1,5;2,5;3')).toBe(';');
    expect(detectDelimiter('a,b,c\n1;2;3;4;5')).toBe(',');
    expect(detectDelimiter('"a;b;c;d",e,f\n')).toBe(',');
    expect(detectDelimiter('')).toBe(',');
  });
});
