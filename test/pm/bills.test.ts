import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as, createProperty } from './helpers';

const bill = (overrides: Record<string, unknown> = {}) => ({
  utility_type: 'electric',
  period_start: '2026-01-01',
  period_end: '2026-01-31',
  amount: 1234.56,
  ...overrides,
});

describe('property bills', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-15T12:00:00Z') }); // today: bills may end up to 2026-12-16
    alice = (await registerUser(t)).token;
    bob = (await registerUser(t)).token;
  });
  afterAll(() => t.stop());

  it('creates a bill: 201 with every field, unset optionals null', async () => {
    const p = await createProperty(t, alice);
    const res = await as(t, alice)
      .post(`/pm/properties/${p.id}/bills`, bill({ usage_kwh: 9876.5, demand_kw: 42 }))
      .expect(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      property_id: p.id,
      meter_id: expect.any(String),
      utility_type: 'electric',
      period_start: '2026-01-01',
      period_end: '2026-01-31',
      amount: 1234.56,
      usage: 9876.5,
      unit: 'kWh',
      usage_kwh: 9876.5,
      demand_kw: 42,
      is_estimated: false,
      // Issue 32: the lines as the utility printed them, when sent (the audit compares them).
      line_items: null,
      // Issue 47: a gas bill's therms per ccf; null on other bills.
      heat_content: null,
      created_at: expect.any(String),
    });
    const gas = await as(t, alice)
      .post(`/pm/properties/${p.id}/bills`, bill({ utility_type: 'gas', amount: 0 }))
      .expect(201);
    expect(gas.body).toMatchObject({ amount: 0, usage: null, unit: 'therms', usage_kwh: null, demand_kw: null });
    // A credit (a negative amount) down to -1,000,000.
    const credit = await as(t, alice)
      .post(`/pm/properties/${p.id}/bills`, bill({ utility_type: 'water', amount: -1_000_000 }))
      .expect(201);
    expect(credit.body).toMatchObject({ amount: -1_000_000 });
  });

  it('validates: required fields, utility types, real dates, bills that can be true (bill-rules.ts), cents', async () => {
    const p = await createProperty(t, alice);
    const cases: Array<[Record<string, unknown>, string, unknown]> = [
      [{ utility_type: undefined }, 'utility_type', 'field required'],
      [{ amount: undefined }, 'amount', 'field required'],
      [{ period_start: undefined }, 'period_start', 'field required'],
      // Issue 29 added meters of steam and other utilities; an unknown type is still refused.
      [
        { utility_type: 'propane' },
        'utility_type',
        "value is not a valid enumeration member; permitted: 'electric', 'gas', 'water', 'sewer', 'trash', 'steam', 'fuel_oil_2', 'fuel_oil_4', 'fuel_oil_5_6', 'other'",
      ],
      [{ period_start: '2026-02-30' }, 'period_start', 'invalid date format, expected YYYY-MM-DD'],
      [{ period_end: '2025-12-31' }, 'period_end', 'period_end must not be before period_start'],
      // Issue 29 replaced "amount >= 0" with credits down to -1,000,000 and a ceiling of 100,000,000.
      [{ amount: -1_000_000.01 }, 'amount', 'ensure this value is greater than or equal to -1000000'],
      [{ amount: 100_000_000.01 }, 'amount', 'ensure this value is less than or equal to 100000000'],
      [{ period_start: '1999-12-31', period_end: '2000-01-30' }, 'period_start', 'period_start must be on or after 2000-01-01'],
      [
        { period_start: '2025-01-01', period_end: '2025-04-11' },
        'period_end',
        "a bill's period lasts at most 100 days (this one lasts 101)",
      ],
      [
        { period_start: '2026-11-20', period_end: '2026-12-17' },
        'period_end',
        'period_end must be no later than 2026-12-16 (31 days after today)',
      ],
      [{ amount: 1.005 }, 'amount', 'ensure this value has at most 2 decimal places'],
      [{ usage_kwh: -3 }, 'usage_kwh', 'ensure this value is greater than or equal to 0'],
      [{ usage: -3 }, 'usage', 'ensure this value is greater than or equal to 0'],
      [{ unit: 'kgal' }, 'unit', "unit 'kgal' is not a unit of electric (kWh)"],
      [{ unit: 'liters' }, 'unit', expect.stringContaining('value is not a valid enumeration member')],
      [{ usage: 10, usage_kwh: 11 }, 'usage_kwh', 'usage_kwh must equal usage on an electric bill'],
      [{ utility_type: 'gas', usage_kwh: 11 }, 'usage_kwh', "usage_kwh is for electric bills: give a gas bill's usage in usage and unit"],
      [{ is_estimated: 'yes' }, 'is_estimated', 'value could not be parsed to a boolean'],
    ];
    for (const [overrides, field, message] of cases) {
      const res = await as(t, alice).post(`/pm/properties/${p.id}/bills`, bill(overrides)).expect(422);
      expect(res.body.errors[0]).toEqual({ field, message });
    }
  });

  // Issue 29 replaced "one bill per property, utility type and period" with "two bills of one meter never overlap".
  it('two bills of one meter may not overlap: 409 naming the other bill; other meters and properties may', async () => {
    const p = await createProperty(t, alice);
    const first = await as(t, alice).post(`/pm/properties/${p.id}/bills`, bill()).expect(201);
    const dup = await as(t, alice)
      .post(`/pm/properties/${p.id}/bills`, bill({ amount: 1 }))
      .expect(409);
    expect(dup.body.detail).toBe(`This meter already has a bill overlapping this period: ${first.body.id} (2026-01-01 to 2026-01-31)`);
    // Overlapping by one day (both ends are billed days) is an overlap too; the next day is not.
    const edge = await as(t, alice)
      .post(`/pm/properties/${p.id}/bills`, bill({ period_start: '2026-01-31', period_end: '2026-02-27' }))
      .expect(409);
    expect(edge.body.detail).toContain(first.body.id);
    await as(t, alice)
      .post(`/pm/properties/${p.id}/bills`, bill({ period_start: '2026-02-01', period_end: '2026-02-28' }))
      .expect(201);
    await as(t, alice)
      .post(`/pm/properties/${p.id}/bills`, bill({ utility_type: 'water' }))
      .expect(201);
    // A second electric meter takes a bill of the same period.
    const second = await as(t, alice).post(`/pm/properties/${p.id}/meters`, { utility_type: 'electric', name: 'House panel' }).expect(201);
    await as(t, alice)
      .post(`/pm/properties/${p.id}/bills`, bill({ meter_id: second.body.id }))
      .expect(201);
    const other = await createProperty(t, alice);
    await as(t, alice).post(`/pm/properties/${other.id}/bills`, bill()).expect(201);
  });

  it('lists newest period first, paginated', async () => {
    const p = await createProperty(t, alice);
    for (const [start, end] of [
      ['2026-01-01', '2026-01-31'],
      ['2026-03-01', '2026-03-31'],
      ['2026-02-01', '2026-02-28'],
    ]) {
      await as(t, alice)
        .post(`/pm/properties/${p.id}/bills`, bill({ period_start: start, period_end: end }))
        .expect(201);
    }
    const res = await as(t, alice).get(`/pm/properties/${p.id}/bills?per_page=2`).expect(200);
    expect(res.body).toMatchObject({ total: 3, page: 1, per_page: 2, pages: 2 });
    expect(res.body.items.map((b: { period_start: string }) => b.period_start)).toEqual(['2026-03-01', '2026-02-01']);
    const p2 = await as(t, alice).get(`/pm/properties/${p.id}/bills?per_page=2&page=2`).expect(200);
    expect(p2.body.items.map((b: { period_start: string }) => b.period_start)).toEqual(['2026-01-01']);
  });

  it("another owner's property: 404 for create, list and import", async () => {
    const p = await createProperty(t, alice);
    expect((await as(t, bob).post(`/pm/properties/${p.id}/bills`, bill()).expect(404)).body.detail).toBe('Property not found');
    expect((await as(t, bob).get(`/pm/properties/${p.id}/bills`).expect(404)).body.detail).toBe('Property not found');
    const imp = await as(t, bob).upload(`/pm/properties/${p.id}/bills/import`, 'utility_type,period_start,period_end,amount\n').expect(404);
    expect(imp.body.detail).toBe('Property not found');
    await request(t.app).get(`/api/v1/pm/properties/${p.id}/bills`).expect(401);
  });

  describe('CSV import', () => {
    it('imports good rows, reports bad ones with their line numbers, ignores unknown columns', async () => {
      const p = await createProperty(t, alice);
      const csv = [
        'period_start,period_end,utility_type,amount,usage_kwh,note', // line 1
        '2026-01-01,2026-01-31,electric,100.10,1000,first', // 2 ok
        '2026-01-01,2026-01-31,gas,,,missing amount', // 3 bad
        '"2026-02-01",2026-02-28,water,55,,quoted', // 4 ok
        '', // 5 (empty line, skipped)
        '2026-03-01,2026-02-01,electric,1,,backwards', // 6 bad
        '2026-04-01,2026-04-30,propane,1,,bad type', // 7 bad
        '2026-05-01,2026-05-31,electric,-1000000.01,,below the credit floor', // 8 bad
        '2026-06-01,2026-06-30,electric,1.234,,three decimals', // 9 bad
        '2026-07-01,2026-07-31,electric,7', // 10 bad: too few fields
        '2026-01-01,2026-01-31,electric,999,,duplicate of line 2', // 11 duplicate
      ].join('\n');
      const res = await as(t, alice).upload(`/pm/properties/${p.id}/bills/import`, csv).expect(200);
      expect(res.body.imported).toBe(2);
      expect(res.body.duplicates).toBe(1);
      expect(res.body.rejected_count).toBe(6);
      expect(res.body.rejected.map((r: { line: number }) => r.line)).toEqual([3, 6, 7, 8, 9, 10]);
      expect(res.body.rejected[0].detail).toBe('amount: field required');
      expect(res.body.rejected[1].detail).toBe('period_end: period_end must not be before period_start');
      expect(res.body.rejected[5].detail).toBe('expected 6 fields, found 4');
      const list = await as(t, alice).get(`/pm/properties/${p.id}/bills`).expect(200);
      expect(
        list.body.items.map((b: { utility_type: string; amount: number; usage_kwh: number | null }) => [
          b.utility_type,
          b.amount,
          b.usage_kwh,
        ]),
      ).toEqual([
        ['water', 55, null],
        ['electric', 100.1, 1000],
      ]);
    });

    it('imports 100,000 rows with bad ones: exact counts and lines, nothing duplicated on re-import', async () => {
      const p = await createProperty(t, alice);
      // Issue 29 replaced "one bill per utility type and period" with meters whose bills never overlap:
      // the rows go to 15 meters (3 per type, named by account number), one 1-day period per row.
      const types = ['electric', 'gas', 'water', 'sewer', 'trash'];
      for (let m = 0; m < 15; m++) {
        await as(t, alice)
          .post(`/pm/properties/${p.id}/meters`, { utility_type: types[m % 5], account_number: `A${m}` })
          .expect(201);
      }
      const lines = ['account_number,period_start,period_end,amount,usage,demand_kw'];
      const badLines: number[] = [];
      // Row i (0-based) is line i + 2: meter A(i % 15), the day floor(i / 15) after 2000-01-01.
      const day0 = Date.UTC(2000, 0, 1);
      for (let i = 0; i < 100_000; i++) {
        const line = i + 2;
        if (i % 997 === 13) {
          badLines.push(line);
          lines.push(i % 2 ? `A0,not-a-date,2026-01-01,10,,` : `A0,2026-01-01,2026-01-31,abc,,`);
          continue;
        }
        const d = new Date(day0 + Math.floor(i / 15) * 86400000).toISOString().slice(0, 10);
        lines.push(`A${i % 15},${d},${d},${(i % 10000) / 100},${i % 3 ? i : ''},${i % 7 ? '' : 12.5}`);
      }
      // Rows repeating keys of earlier batches, in reverse order (stored concurrently with other batches).
      lines.push(lines[50_002]!.replace(/,[\d.]+,/, ',1.00,'), lines[2]!, lines[1]!);
      // A row overlapping two stored bills of A1: rejected, naming the first.
      lines.push('A1,2000-01-01,2000-01-02,5.00,,');
      const overlapLine = lines.length;
      const csv = lines.join('\n') + '\n';
      const good = 100_000 - badLines.length;

      const first = await as(t, alice).upload(`/pm/properties/${p.id}/bills/import`, csv).expect(200);
      expect(first.body).toMatchObject({ imported: good, duplicates: 3, rejected_count: badLines.length + 1 });
      expect(first.body.rejected.map((r: { line: number }) => r.line)).toEqual([...badLines, overlapLine]);
      expect(first.body.rejected.at(-1).detail).toMatch(/^period: overlaps bill [\w-]+ of this meter \(2000-01-01 to 2000-01-01\)$/);

      const again = await as(t, alice).upload(`/pm/properties/${p.id}/bills/import`, csv).expect(200);
      expect(again.body).toMatchObject({ imported: 0, duplicates: good + 3, rejected_count: badLines.length + 1 });

      const list = await as(t, alice).get(`/pm/properties/${p.id}/bills?per_page=1`).expect(200);
      expect(list.body.total).toBe(good);
    }, 600_000); // 100,000 rows through PGlite on a 2-core machine: a functional test, not a speed figure (that is the bench's).

    it('requires the file field, a header naming the bill columns, and multipart', async () => {
      const p = await createProperty(t, alice);
      const url = `/api/v1/pm/properties/${p.id}/bills/import`;
      const auth = { Authorization: `Bearer ${alice}` };
      const noFile = await request(t.app).post(url).set(auth).field('other', 'x').expect(422);
      expect(noFile.body).toMatchObject({ detail: 'field required', errors: [{ field: 'file' }] });
      const badHeader = await as(t, alice)
        .upload(url.replace('/api/v1', ''), 'utility_type,start,end,amount\nelectric,2026-01-01,2026-01-31,5\n')
        .expect(422);
      expect(badHeader.body.detail).toBe('CSV header must name the column period_start');
      const empty = await as(t, alice).upload(url.replace('/api/v1', ''), '').expect(422);
      expect(empty.body.detail).toBe('CSV file is empty: a header row is required');
      const json = await request(t.app).post(url).set(auth).send({ file: 'x' }).expect(415);
      expect(json.body.detail).toContain('multipart/form-data');
    });

    it('413 for a file over 50 MB, with nothing stored', async () => {
      const p = await createProperty(t, alice);
      const header = 'utility_type,period_start,period_end,amount\n';
      const row = 'electric,2026-01-01,2026-01-31,1\n';
      const big = Buffer.alloc(51 * 1024 * 1024, 'x');
      big.write(header + row);
      const res = await as(t, alice).upload(`/pm/properties/${p.id}/bills/import`, big);
      expect(res.status).toBe(413);
      expect(res.body.detail).toBe('File too large: the limit is 50 MB');
      expect((await as(t, alice).get(`/pm/properties/${p.id}/bills`).expect(200)).body.total).toBe(0);
    });
  });
});
