import { Readable } from 'node:stream';
import { AppError } from '../../platform/http/errors';
import { detectDelimiter, importBillsCsv, type Upload } from './csv-import';
import type { NewBill } from './repository';

const BOUNDARY = 'test-boundary-19';

/** An upload of one multipart file part, sent in small chunks without Content-Length. */
function multipartRequest(csv: string, chunkSize = 1000): Upload & { headers: Record<string, string> } {
  const body = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="b.csv"\r\nContent-Type: text/csv\r\n\r\n`
      + `${csv}\r\n--${BOUNDARY}--\r\n`,
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

describe('importBillsCsv', () => {
  it('streams rows to insertBatch and counts what it stored', async () => {
    const batches: NewBill[][] = [];
    const result = await importBillsCsv(multipartRequest(header + row(1) + row(2) + 'gas,bad,2026-01-01,1\n'), async (rows) => {
      batches.push(rows);
      return rows.length - 1; // pretend one was a duplicate
    }, TODAY);
    expect(batches.flat().map((b) => b.period_start)).toEqual(['2026-01-01', '2026-01-02']);
    expect(result).toEqual({
      imported: 1, duplicates: 1, rejected_count: 1,
      rejected: [{ line: 4, detail: 'period_start: invalid date, expected YYYY-MM-DD or MM/DD/YYYY' }],
    });
  });

  it('413 when the file passes the limit mid-stream (no Content-Length to refuse it up front)', async () => {
    const csv = header + Array.from({ length: 28 }, (_, i) => row(i + 1)).join('');
    const stored: NewBill[] = [];
    const err = await importBillsCsv(multipartRequest(csv), async (rows) => {
      stored.push(...rows);
      return rows.length;
    }, { ...TODAY, maxBytes: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(413);
    expect((err as AppError).detail).toBe('File too large: the limit is 50 MB');
    expect(stored).toEqual([]); // the cut-off batch is never stored
  });

  it('refuses a declared Content-Length over the limit before reading rows', async () => {
    const req = multipartRequest(header + row(1));
    req.headers['content-length'] = String(51 * 1024 * 1024);
    const insert = jest.fn(async (rows: NewBill[]) => rows.length);
    await expect(importBillsCsv(req, insert, TODAY)).rejects.toMatchObject({ status: 413 });
    expect(insert).not.toHaveBeenCalled();
  });

  it('reads what utility portals export: a UTF-8 BOM, `;` delimiters, `$1,234.56`, MM/DD/YYYY', async () => {
    const csv = '\ufeffUtility_Type;Period_Start;Period_End;Amount;Usage_kWh\r\n'
      + 'electric;01/01/2026;01/31/2026;$1,234.56;12,500\r\n'
      + 'gas;2026-02-01;2026-02-28;-$12.00;\r\n'
      + 'water;2/1/2026;4/30/2026;1.234,56;\r\n';
    const stored: NewBill[] = [];
    const result = await importBillsCsv(multipartRequest(csv, 7), async (rows) => {
      stored.push(...rows);
      return rows.length;
    }, TODAY);
    expect(stored.map((b) => [b.utility_type, b.period_start, b.period_end, b.amount, b.usage_kwh])).toEqual([
      ['electric', '2026-01-01', '2026-01-31', 1234.56, 12500],
      ['gas', '2026-02-01', '2026-02-28', -12, null],
    ]);
    // A European decimal comma is not read as a thousands separator: reported, not stored as 1.23.
    expect(result.rejected).toEqual([{ line: 4, detail: 'amount: value is not an amount with at most 2 decimals' }]);
  });

  it('an empty file: 422, no header', async () => {
    await expect(importBillsCsv(multipartRequest(''), async (rows) => rows.length, TODAY))
      .rejects.toMatchObject({ status: 422, detail: 'CSV file is empty: a header row is required' });
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
