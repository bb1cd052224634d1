import request from 'supertest';
import { sql } from 'drizzle-orm';
import type { TestApp } from '../helpers/app';
import { statementResponse as documentedStatement } from '../../src/modules/tenant-billing/examples';
import { as, billedProperty, calculateBody, createProperty, startBillingApp } from './helpers';
import { errorBody } from '../helpers/error-body';

/** Parses RFC 4180 text (quoted fields, doubled quotes, CRLF records) into rows of fields. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  return rows;
}

describe('stored calculations: history, detail, CSV export, tenant statements', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let propertyId: string;
  let configId: string;
  let calculationId: string;
  beforeAll(async () => {
    ({ t, alice, bob } = await startBillingApp());
    ({ propertyId, configId } = await billedProperty(t, alice));
    calculationId = (await as(t, alice).post('/billing/calculate-rubs', calculateBody(propertyId, configId)).expect(200)).body.id;
  });
  afterAll(() => t.stop());

  describe('GET /billing/history/{property_id}', () => {
    it('a Page of history items, newest first', async () => {
      const p = await billedProperty(t, alice);
      const ids: string[] = [];
      for (const [month, amount] of [
        ['01', 100],
        ['02', 200.5],
        ['03', 300.25],
      ] as const) {
        const body = calculateBody(p.propertyId, p.configId, {
          billing_period_start: `2026-${month}-01`,
          billing_period_end: `2026-${month}-28`,
          total_amount: amount,
        });
        ids.push((await as(t, alice).post('/billing/calculate-rubs', body).expect(200)).body.id);
      }
      const first = await as(t, alice).get(`/billing/history/${p.propertyId}?per_page=2`).expect(200);
      expect(first.body).toMatchObject({ total: 3, page: 1, per_page: 2, pages: 2 });
      expect(first.body.items[0]).toEqual({
        id: ids[2],
        property_id: p.propertyId,
        billing_period_start: '2026-03-01',
        billing_period_end: '2026-03-28',
        utility_type: 'water',
        total_amount: 300.25,
        units_billed: 3,
        units_vacant: 1,
        method: 'sqft',
        billing_config_version: 1,
        status: 'active',
        supersedes: [],
        superseded_by: null,
        calculated_at: expect.any(String),
      });
      expect(first.body.items.map((i: { id: string }) => i.id)).toEqual([ids[2], ids[1]]);
      const second = await as(t, alice).get(`/billing/history/${p.propertyId}?per_page=2&page=2`).expect(200);
      expect(second.body.items.map((i: { id: string }) => i.id)).toEqual([ids[0]]);
      expect(second.body.items[0].total_amount).toBe(100);
      const beyond = await as(t, alice).get(`/billing/history/${p.propertyId}?page=5`).expect(200);
      expect(beyond.body).toEqual({ items: [], total: 3, page: 5, per_page: 20, pages: 1 });
      const detail = await as(t, alice).get(`/billing/calculations/${ids[2]}`).expect(200);
      expect(detail.body.calculated_at).toBe(first.body.items[0].calculated_at);
    });

    it('a page read before a new calculation is never served after it', async () => {
      const p = await billedProperty(t, alice);
      const post = () => as(t, alice).post('/billing/calculate-rubs', calculateBody(p.propertyId, p.configId)).expect(200);
      const first = (await post()).body.id;
      const before = await as(t, alice).get(`/billing/history/${p.propertyId}`).expect(200);
      expect(before.headers['content-type']).toBe('application/json; charset=utf-8');
      expect((await as(t, alice).get(`/billing/history/${p.propertyId}`).expect(200)).body).toEqual(before.body);
      // The ETag is Express's hash of the page: unchanged, a conditional request is 304.
      await as(t, alice).get(`/billing/history/${p.propertyId}`).set('If-None-Match', before.headers.etag).expect(304);
      expect(before.body.items.map((i: { id: string }) => i.id)).toEqual([first]);
      const second = (await post()).body.id;
      const after = await as(t, alice).get(`/billing/history/${p.propertyId}`).expect(200);
      expect(after.body.total).toBe(2);
      expect(after.body.items.map((i: { id: string }) => i.id)).toEqual([second, first]);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      await as(t, alice).get(`/billing/history/${p.propertyId}`).set('If-None-Match', before.headers.etag).expect(200);
      // A calculation removed behind the service's back (by SQL) moves the version too.
      await t.deps.database.db.execute(sql`delete from rubs_calculations where id = ${second}`);
      const removed = await as(t, alice).get(`/billing/history/${p.propertyId}`).expect(200);
      expect(removed.body).toMatchObject({ total: 1, pages: 1 });
      expect(removed.body.items.map((i: { id: string }) => i.id)).toEqual([first]);
      // So does a property moved to another owner (by SQL): the history goes with it.
      const bobId = (await as(t, bob).get('/auth/me').expect(200)).body.id;
      await t.deps.database.db.execute(sql`update properties set owner_id = ${bobId} where id = ${p.propertyId}`);
      await as(t, alice).get(`/billing/history/${p.propertyId}`).expect(404);
      expect((await as(t, bob).get(`/billing/history/${p.propertyId}`).expect(200)).body.total).toBe(1);
    });

    it("an empty history, pagination limits, another owner's property and an unknown one", async () => {
      const p = await createProperty(t, alice);
      expect((await as(t, alice).get(`/billing/history/${p.id}`).expect(200)).body).toEqual({
        items: [],
        total: 0,
        page: 1,
        per_page: 20,
        pages: 0,
      });
      await as(t, alice).get(`/billing/history/${p.id}?per_page=101`).expect(422);
      await as(t, alice).get(`/billing/history/${p.id}?page=0`).expect(422);
      expect((await as(t, bob).get(`/billing/history/${propertyId}`).expect(404)).body).toEqual(
        errorBody({ detail: 'Property not found' }),
      );
      expect((await as(t, alice).get('/billing/history/no-such-property').expect(404)).body).toEqual(
        errorBody({ detail: 'Property not found' }),
      );
    });
  });

  describe('GET /billing/calculations/{id}', () => {
    it('only the owner sees it: 404 for anyone else and for unknown ids', async () => {
      const res = await as(t, alice).get(`/billing/calculations/${calculationId}`).expect(200);
      expect(res.body).toMatchObject({ id: calculationId, property_id: propertyId, source: 'request', total_amount: 1000 });
      expect((await as(t, bob).get(`/billing/calculations/${calculationId}`).expect(404)).body).toEqual(
        errorBody({ detail: 'Calculation not found' }),
      );
      expect((await as(t, alice).get('/billing/calculations/nope').expect(404)).body).toEqual(
        errorBody({ detail: 'Calculation not found' }),
      );
      await request(t.app).get(`/api/v1/billing/calculations/${calculationId}`).expect(401);
    });
  });

  describe('GET /billing/calculations/{id}/export.csv', () => {
    it('RFC 4180: a header row, one row per unit, CRLF, an attachment file name', async () => {
      const res = await as(t, alice).get(`/billing/calculations/${calculationId}/export.csv`).expect(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(`attachment; filename=rubs-2026-01-01-water-${calculationId.slice(0, 8)}.csv`);
      expect(res.text.endsWith('\r\n')).toBe(true);
      const rows = parseCsv(res.text);
      expect(rows[0]).toEqual([
        'calculation_id',
        'property_id',
        'billing_period_start',
        'billing_period_end',
        'utility_type',
        'method',
        'unit_id',
        'tenant_name',
        'is_vacant',
        'occupied_days',
        'sqft',
        'allocation_percent',
        'base_charge',
        'admin_fee',
        'total_charge',
        'occupancy',
        'move_in',
        'move_out',
        'billing_fee',
        'invoice_number',
        'due_date',
        'status',
      ]);
      const due = rows[1][20];
      expect(due).toMatch(/^\d{4}-\d{2}-01$/);
      expect(rows.slice(1).map((r) => r.slice(6))).toEqual([
        ['101', 'Ana Lima', 'false', '31', '1000', '50.00', '450.00', '22.50', '472.50', '', '', '', '0.00', 'INV-000001', due, 'active'],
        ['102', 'Ben Okafor', 'false', '31', '750', '37.50', '337.50', '16.88', '354.38', '', '', '', '0.00', 'INV-000002', due, 'active'],
        ['103', 'Chen Wei', 'false', '31', '250', '12.50', '112.50', '5.63', '118.13', '', '', '', '0.00', 'INV-000003', due, 'active'],
        ['104', '', 'true', '0', '500', '0.00', '0.00', '0.00', '0.00', '', '', '', '0.00', '', due, 'active'],
      ]);
      expect(rows.slice(1).every((r) => r[0] === calculationId && r[1] === propertyId && r[4] === 'water')).toBe(true);
    });

    it('quotes commas, quotes and line breaks; defuses spreadsheet formulas', async () => {
      const p = await billedProperty(t, alice, { method: 'unit_count' });
      const units = [
        { unit_id: 'A,1', tenant_name: 'Smith, "Jo"' },
        { unit_id: 'B', tenant_name: 'line one\r\nline two' },
        { unit_id: '=HYPERLINK("http://evil")', tenant_name: '@SUM(A1)' },
        { unit_id: 'D', tenant_name: '-2+3' },
      ];
      const id = (
        await as(t, alice)
          .post('/billing/calculate-rubs', calculateBody(p.propertyId, p.configId, { units }))
          .expect(200)
      ).body.id;
      const res = await as(t, alice).get(`/billing/calculations/${id}/export.csv`).expect(200);
      expect(res.text).toContain('"A,1","Smith, ""Jo"""');
      const rows = parseCsv(res.text);
      expect(rows[0]).not.toContain('sqft');
      expect(rows.slice(1).map((r) => [r[6], r[7]])).toEqual([
        ['A,1', 'Smith, "Jo"'],
        ['B', 'line one\r\nline two'],
        ['\'=HYPERLINK("http://evil")', "'@SUM(A1)"],
        ['D', "'-2+3"],
      ]);
    });

    it('404 for another owner', async () => {
      await as(t, bob).get(`/billing/calculations/${calculationId}/export.csv`).expect(404);
    });
  });

  describe('GET /billing/calculations/{id}/statements/{unit_id}', () => {
    it('JSON by default: the master bill, the deduction, the factor and share, the fee and the formula', async () => {
      const res = await as(t, alice).get(`/billing/calculations/${calculationId}/statements/102`).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        ...documentedStatement,
        calculation_id: calculationId,
        property: { ...documentedStatement.property, id: propertyId },
        due_date: expect.stringMatching(/^\d{4}-\d{2}-01$/),
        calculated_at: expect.any(String),
      });
      const json = await as(t, alice)
        .get(`/billing/calculations/${calculationId}/statements/102`)
        .set('Accept', 'application/json')
        .expect(200);
      expect(json.body.formula).toEqual(documentedStatement.formula);
    });

    it('explains a vacant unit, proration, a blend and exact rounding', async () => {
      const vacant = await as(t, alice).get(`/billing/calculations/${calculationId}/statements/104`).expect(200);
      expect(vacant.body.charges).toEqual({
        share_charge: 0,
        charge_limit: null,
        base_charge: 0,
        admin_fee_rate: 0.05,
        admin_fee: 0,
        billing_fee: 0,
        total_charge: 0,
      });
      expect(vacant.body.formula[1]).toBe(
        'This unit was vacant for the whole period: it is not billed, and the occupied units share the billable amount.',
      );

      const p = await billedProperty(t, alice, {
        method: 'sqft_occupant',
        rounding: 'exact',
        common_area_percent: 0,
        admin_fee_percent: 2.5,
      });
      const units = [
        { unit_id: 'A', tenant_name: 'a', sqft: 1000, occupant_count: 1 },
        { unit_id: 'B', tenant_name: 'b', sqft: 500, occupant_count: 3, move_in: '2026-01-17' },
      ];
      const id = (
        await as(t, alice)
          .post('/billing/calculate-rubs', calculateBody(p.propertyId, p.configId, { units, total_amount: 1200 }))
          .expect(200)
      ).body.id;
      const b = await as(t, alice).get(`/billing/calculations/${id}/statements/B`).expect(200);
      expect(b.body.share.factors).toEqual([
        {
          factor: 'sqft',
          value: 500,
          occupied_days: 15,
          weight_percent: 50,
          total: 1241.9355,
          total_factor_days: 38_500,
          total_of: 'billed_units',
        },
        {
          factor: 'occupant_count',
          value: 3,
          occupied_days: 15,
          weight_percent: 50,
          total: 2.4516,
          total_factor_days: 76,
          total_of: 'billed_units',
        },
      ]);
      expect(b.body.formula[0]).toBe('Billable amount = $1,200.00 (no common-area deduction)');
      expect(b.body.unit.allocation_percent).toBe(39.35); // the module README's statement example
      // Issue 30 replaced "x 15/31 days occupied / 1,241.9355 sqft" (a prorated total no tenant can check) with whole
      // factor-days: A 1,000 sqft x 31 days + B 500 x 15 = 38,500 sqft-days; 1 x 31 + 3 x 15 = 76 occupant-days.
      expect(b.body.formula[1]).toBe(
        `Your share = 50% x 500 sqft x 15 days / 38,500 sqft-days + 50% x 3 occupants x 15 days / 76 occupant-days of the occupied units = ${b.body.unit.allocation_percent.toFixed(2)}%`,
      );
      expect(b.body.formula[2]).toMatch(/^Base charge = \$1,200\.00 x your share = \$[\d,]+\.\d\d \(rounded by largest remainder/);
      expect(b.body.formula[3]).toMatch(/^Admin fee = \$[\d,]+\.\d\d x 2\.5% = \$[\d,]+\.\d\d/);
    });

    it('a printable HTML page with Accept: text/html, self-contained, every text escaped', async () => {
      const p = await billedProperty(t, alice, { method: 'unit_count' });
      const evil = '<script>alert("x")</script> & Sons';
      const units = [
        { unit_id: 'U<1>', tenant_name: evil },
        { unit_id: 'U2', tenant_name: 'Plain' },
      ];
      const id = (
        await as(t, alice)
          .post('/billing/calculate-rubs', calculateBody(p.propertyId, p.configId, { units }))
          .expect(200)
      ).body.id;
      const res = await as(t, alice)
        .get(`/billing/calculations/${id}/statements/${encodeURIComponent('U<1>')}`)
        .set('Accept', 'text/html')
        .expect(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      const html = res.text;
      expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
      expect(html).not.toContain('<script');
      expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Sons');
      expect(html).toContain('U&lt;1&gt;');
      // No external assets: no src, no link, no url() to fetch.
      expect(html).not.toMatch(/\ssrc=|<link|url\(|https?:\/\//);
      for (const text of [
        'Master-meter bill',
        '$1,000.00',
        '$100.00',
        '$900.00',
        'Your share',
        '50.00%',
        '$450.00',
        '$22.50',
        '$472.50',
        'How it was calculated',
      ]) {
        expect(html).toContain(text);
      }
      expect(html).toContain('@media print');
      // A browser's Accept header gets the page too.
      const browser = await as(t, alice)
        .get(`/billing/calculations/${id}/statements/U2`)
        .set('Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')
        .expect(200);
      expect(browser.headers['content-type']).toMatch(/^text\/html/);
    });

    it('404 for an unknown unit, another owner, an unknown calculation', async () => {
      expect((await as(t, alice).get(`/billing/calculations/${calculationId}/statements/999`).expect(404)).body).toEqual(
        errorBody({ detail: 'Unit not found in this calculation' }),
      );
      expect((await as(t, bob).get(`/billing/calculations/${calculationId}/statements/101`).expect(404)).body).toEqual(
        errorBody({ detail: 'Calculation not found' }),
      );
      await as(t, bob).get(`/billing/calculations/${calculationId}/statements/101`).set('Accept', 'text/html').expect(404);
      await as(t, alice).get('/billing/calculations/nope/statements/101').expect(404);
    });
  });
});
