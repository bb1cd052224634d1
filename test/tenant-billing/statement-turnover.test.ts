/**
 * Issue 46: the statement of a unit that turned over within the period. Without `?occupancy` it is
 * one statement with each occupancy's part and the unit's total (it was a 422 asking for the
 * parameter); with it, the resident's own statement. The amounts are the module README's worked
 * example ("Statements", a unit that turned over), computed by hand.
 */
import request from 'supertest';
import type { ValidateFunction } from 'ajv';
import type { TestApp } from '../helpers/app';
import { openApiAjv, pointer, type OpenApiDocument } from '../helpers/openapi-strict';
import { as, billedProperty, calculateBody, startBillingApp } from './helpers';
import { errorBody } from '../helpers/error-body';

const APRIL = { billing_period_start: '2026-04-01', billing_period_end: '2026-04-30', total_amount: 1234.56 };

/** Unit 301: Dana (2 people) to April 12, Eli (3 people) from April 13; 302 and 303 all month. */
const UNITS = [
  {
    unit_id: '301',
    tenant_name: '',
    occupancies: [
      { tenant_name: 'Dana Moss', occupant_count: 2, move_out: '2026-04-12' },
      { tenant_name: 'Eli Park', occupant_count: 3, move_in: '2026-04-13' },
    ],
  },
  { unit_id: '302', tenant_name: 'Fay Lund', occupant_count: 1 },
  { unit_id: '303', tenant_name: 'Gus Ito', occupant_count: 4 },
];

const cents = (amount: number) => Math.round(amount * 100);

/** The fields of a statement part these tests read. */
interface Part {
  occupancy: number;
  invoice_number: string | null;
  unit: { tenant_name: string; move_in?: string | null; move_out?: string | null; occupied_days: number; occupant_count?: number };
  share: { allocation_percent: number };
  charges: Record<'share_charge' | 'base_charge' | 'admin_fee' | 'billing_fee' | 'total_charge', number> & { charge_limit: string | null };
}

describe('the statement of a unit that turned over (issue 46)', () => {
  let t: TestApp;
  let alice: string;
  let id: string;
  beforeAll(async () => {
    ({ t, alice } = await startBillingApp());
    const p = await billedProperty(t, alice, {
      method: 'occupant_count',
      common_area_percent: 10,
      admin_fee_percent: 5,
      billing_fee: 2.5,
    });
    id = (
      await as(t, alice)
        .post('/billing/calculate-rubs', calculateBody(p.propertyId, p.configId, { ...APRIL, units: UNITS }))
        .expect(200)
    ).body.id;
  });
  afterAll(() => t.stop());

  const statement = (unitId: string, query = '') => as(t, alice).get(`/billing/calculations/${id}/statements/${unitId}${query}`);

  it("without ?occupancy: each occupancy's part and the unit total, the sum of the parts to the cent", async () => {
    const res = await statement('301').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const s = res.body;
    // $1,234.56 - 10 % ($123.46) = $1,111.10 over 2 x 12 + 3 x 18 + 1 x 30 + 4 x 30 = 228 occupant-days.
    // Dana: 111,110 x 24 / 228 = 11,695.79 cents -> $116.95, fee 5 % $5.8475 -> $5.85, + $2.50 = $125.30.
    // Eli: 111,110 x 54 / 228 = 26,315.53 cents -> $263.15, fee $13.1575 -> $13.16, + $2.50 = $278.81.
    expect(
      s.occupancies.map((p: Part) => [
        p.occupancy,
        p.invoice_number,
        p.unit.tenant_name,
        p.unit.move_in,
        p.unit.move_out,
        p.unit.occupied_days,
        p.unit.occupant_count,
        p.share.allocation_percent,
        p.charges.base_charge,
        p.charges.admin_fee,
        p.charges.billing_fee,
        p.charges.total_charge,
      ]),
    ).toEqual([
      [0, 'INV-000001', 'Dana Moss', null, '2026-04-12', 12, 2, 10.53, 116.95, 5.85, 2.5, 125.3],
      [1, 'INV-000002', 'Eli Park', '2026-04-13', null, 18, 3, 23.68, 263.15, 13.16, 2.5, 278.81],
    ]);
    expect(s.occupancies[0].formula).toEqual([
      'Billable amount = $1,234.56 - common area 10% ($123.46) = $1,111.10',
      'Your share = 2 occupants x 12 days / 228 occupant-days of the occupied units = 10.53%',
      'Base charge = $1,111.10 x your share = $116.95',
      'Admin fee = $116.95 x 5% = $5.85',
      'Billing fee = $2.50',
      'Total charge = $116.95 + $5.85 + $2.50 = $125.30',
    ]);
    // The unit as a whole: every amount the sum of the parts'; occupant_count differs between them, so it is left out.
    expect(s.unit).toEqual({
      unit_id: '301',
      tenant_name: 'Dana Moss, Eli Park',
      allocation_percent: 34.21,
      base_charge: 380.1,
      admin_fee: 19.01,
      total_charge: 404.11,
      is_vacant: false,
      occupied_days: 30,
      billing_fee: 5,
    });
    expect(s.charges).toEqual({
      share_charge: 380.1,
      charge_limit: null,
      base_charge: 380.1,
      admin_fee_rate: 0.05,
      admin_fee: 19.01,
      billing_fee: 5,
      total_charge: 404.11,
    });
    for (const key of ['base_charge', 'admin_fee', 'billing_fee', 'total_charge'] as const) {
      expect(cents(s.charges[key])).toBe(s.occupancies.reduce((sum: number, p: Part) => sum + cents(p.charges[key]), 0));
    }
    expect(s.invoice_number).toBeNull();
    expect(s.share.allocation_percent).toBe(34.21);
    expect(s.share.factors).toEqual([
      {
        occupancy: 0,
        factor: 'occupant_count',
        value: 2,
        occupied_days: 12,
        weight_percent: 100,
        total: 7.6,
        total_factor_days: 228,
        total_of: 'billed_units',
      },
      {
        occupancy: 1,
        factor: 'occupant_count',
        value: 3,
        occupied_days: 18,
        weight_percent: 100,
        total: 7.6,
        total_factor_days: 228,
        total_of: 'billed_units',
      },
    ]);
    expect(s.formula).toEqual([
      'Billable amount = $1,234.56 - common area 10% ($123.46) = $1,111.10',
      'Occupancy 0, Dana Moss, 2026-04-01 to 2026-04-12 (12 days): share 10.53%, total charge $125.30',
      'Occupancy 1, Eli Park, 2026-04-13 to 2026-04-30 (18 days): share 23.68%, total charge $278.81',
      'Unit total = $125.30 + $278.81 = $404.11',
    ]);
    expect(s).toMatchObject({
      period_days: 30,
      master_bill: { total_amount: 1234.56, common_area_deduction: 123.46, billable_amount: 1111.1 },
    });
  });

  it("with ?occupancy=<n>: the resident's own statement, which is that part", async () => {
    const whole = (await statement('301').expect(200)).body;
    for (const part of whole.occupancies) {
      const own = (await statement('301', `?occupancy=${part.occupancy}`).expect(200)).body;
      expect(own.occupancies).toBeUndefined();
      const { occupancy: _index, ...fields } = part;
      expect(own).toEqual({ ...whole, ...fields, occupancies: undefined });
    }
    const eli = (await statement('301', '?occupancy=1').expect(200)).body;
    expect(eli).toMatchObject({ invoice_number: 'INV-000002', unit: { tenant_name: 'Eli Park', occupancy: 1, total_charge: 278.81 } });
    expect(eli.formula.at(-1)).toBe('Total charge = $263.15 + $13.16 + $2.50 = $278.81');
    expect((await statement('301', '?occupancy=2').expect(404)).body).toEqual(
      errorBody({ detail: 'Occupancy not found in this calculation' }),
    );
    expect((await statement('301', '?occupancy=one').expect(422)).body.errors[0].field).toBe('occupancy');
    expect((await statement('999').expect(404)).body).toEqual(errorBody({ detail: 'Unit not found in this calculation' }));
    // A unit with one tenant is unchanged: no parts.
    const fay = (await statement('302').expect(200)).body;
    expect(fay).toMatchObject({ invoice_number: 'INV-000003', unit: { tenant_name: 'Fay Lund', total_charge: 156 } });
    expect(fay.occupancies).toBeUndefined();
  });

  it("the printable page shows each part with its subtotal and the unit total; ?occupancy= prints one resident's", async () => {
    const html = (await statement('301').set('Accept', 'text/html').expect(200)).text;
    let at = 0;
    for (const text of [
      'Residents',
      'Dana Moss, Eli Park',
      'Dana Moss: 2026-04-01 to 2026-04-12',
      'INV-000001',
      '$116.95',
      'Subtotal',
      '$125.30',
      'Eli Park: 2026-04-13 to 2026-04-30',
      'INV-000002',
      '$263.15',
      '$278.81',
      'Unit total',
      '$380.10',
      '$19.01',
      '$5.00',
      '$404.11',
    ]) {
      const found = html.indexOf(text, at);
      expect([text, found >= 0]).toEqual([text, true]);
      at = found;
    }
    expect(html).not.toMatch(/\ssrc=|<link|url\(|https?:\/\//);
    const dana = (await statement('301', '?occupancy=0').set('Accept', 'text/html').expect(200)).text;
    expect(dana).toContain('Invoice INV-000001');
    expect(dana).toContain('$125.30');
    expect(dana).not.toContain('Eli Park');
  });

  it('answers the statement documented in /openapi.json, with parts and without', async () => {
    const doc = (await request(t.app).get('/openapi.json').expect(200)).body as OpenApiDocument;
    const ajv = openApiAjv(doc);
    const validate = ajv.getSchema(
      pointer([
        'paths',
        '/api/v1/billing/calculations/{id}/statements/{unit_id}',
        'get',
        'responses',
        '200',
        'content',
        'application/json',
        'schema',
      ]),
    ) as ValidateFunction;
    for (const [unitId, query] of [
      ['301', ''],
      ['301', '?occupancy=0'],
      ['302', ''],
    ]) {
      const body = (await statement(unitId, query).expect(200)).body;
      expect([unitId, query, validate(body) ? 'valid' : ajv.errorsText(validate.errors)]).toEqual([unitId, query, 'valid']);
    }
    // The added fields are documented with their types (the document does not refuse unknown fields).
    const whole = (await statement('301').expect(200)).body;
    expect(validate({ ...whole, occupancies: [{ ...whole.occupancies[0], occupancy: 'first' }] })).toBe(false);
    expect(validate({ ...whole, share: { ...whole.share, factors: [{ ...whole.share.factors[0], occupancy: 'first' }] } })).toBe(false);
  });

  it('parts moved by different charge limits: the unit names none, and each part its own', async () => {
    const p = await billedProperty(t, alice, {
      method: 'unit_count',
      common_area_percent: 0,
      admin_fee_percent: 0,
      max_charge: 300,
      min_charge: 50,
    });
    // $900.00 over 28 + 2 + 30 = 60 unit-days: Dana $420.00 capped at $300.00, Eli $30.00 raised to $50.00.
    const units = [
      {
        unit_id: '301',
        tenant_name: '',
        occupancies: [
          { tenant_name: 'Dana Moss', move_out: '2026-04-28' },
          { tenant_name: 'Eli Park', move_in: '2026-04-29' },
        ],
      },
      { unit_id: '302', tenant_name: 'Fay Lund' },
    ];
    const calc = (
      await as(t, alice)
        .post('/billing/calculate-rubs', calculateBody(p.propertyId, p.configId, { ...APRIL, total_amount: 900, units }))
        .expect(200)
    ).body;
    const s = (await as(t, alice).get(`/billing/calculations/${calc.id}/statements/301`).expect(200)).body;
    expect(s.occupancies.map((part: Part) => [part.charges.charge_limit, part.charges.share_charge, part.charges.base_charge])).toEqual([
      ['max_charge', 420, 300],
      ['min_charge', 30, 50],
    ]);
    expect(s.charges).toMatchObject({ charge_limit: null, share_charge: 450, base_charge: 350, total_charge: 350 });
  });
});
