import request from 'supertest';
import type { TestApp } from '../helpers/app';
import { calculationResponse as documentedExample } from '../../src/modules/tenant-billing/examples';
import { as, billedProperty, calculateBody, createConfig, createProperty, EXAMPLE_UNITS, manyUnits, startBillingApp } from './helpers';
import { errorBody } from '../helpers/error-body';

describe('POST /billing/calculate-rubs', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    ({ t, alice, bob } = await startBillingApp());
  });
  afterAll(() => t.stop());

  const calculate = (token: string, body: unknown) => as(t, token).post('/billing/calculate-rubs', body);
  const historyTotal = async (propertyId: string) => (await as(t, alice).get(`/billing/history/${propertyId}`).expect(200)).body.total;

  it('README example 1 end to end: the answer /openapi.json documents, stored and read back the same', async () => {
    const { propertyId, configId } = await billedProperty(t, alice);
    const res = await calculate(alice, calculateBody(propertyId, configId)).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      ...documentedExample,
      id: expect.any(String),
      property_id: propertyId,
      billing_config_id: configId,
      calculated_at: expect.any(String),
      // Due on the first billing day (the 1st) after the period's end and the day it was calculated (the clock's).
      due_date: expect.stringMatching(/^\d{4}-\d{2}-01$/),
    });
    expect(res.body.due_date > res.body.calculated_at.slice(0, 10)).toBe(true);
    const { posting: _posting, ...stored } = (await as(t, alice).get(`/billing/calculations/${res.body.id}`).expect(200)).body;
    expect(stored).toEqual(res.body);
    expect(await historyTotal(propertyId)).toBe(1);
  });

  it('every method, with the factor field of the method on each unit bill', async () => {
    const units = [
      { unit_id: 'A', tenant_name: 'a', sqft: 900, occupant_count: 1, custom_weight: 60 },
      { unit_id: 'B', tenant_name: 'b', sqft: 300, occupant_count: 3, custom_weight: 40 },
    ];
    const expected: Record<string, { fields: string[]; bases: number[] }> = {
      sqft: { fields: ['sqft'], bases: [75, 25] },
      occupant_count: { fields: ['occupant_count'], bases: [25, 75] },
      unit_count: { fields: [], bases: [50, 50] },
      custom_weight: { fields: ['custom_weight'], bases: [60, 40] },
      sqft_occupant: { fields: ['sqft', 'occupant_count'], bases: [50, 50] },
    };
    for (const [method, { fields, bases }] of Object.entries(expected)) {
      const { propertyId, configId } = await billedProperty(t, alice, { method, common_area_percent: 0, admin_fee_percent: 0 });
      const res = await calculate(alice, calculateBody(propertyId, configId, { units, total_amount: 100 })).expect(200);
      expect(res.body.method).toBe(method);
      expect(res.body.unit_bills.map((u: { base_charge: number }) => u.base_charge)).toEqual(bases);
      for (const factor of ['sqft', 'occupant_count', 'custom_weight']) {
        expect(res.body.unit_bills.every((u: Record<string, unknown>) => factor in u)).toBe(fields.includes(factor));
      }
    }
  });

  it('vacancy policy, rounding and proration come from the configuration', async () => {
    const { propertyId, configId } = await billedProperty(t, alice, {
      method: 'occupant_count',
      vacancy_policy: 'owner_pays',
      rounding: 'exact',
      common_area_percent: 0,
      admin_fee_percent: 10,
    });
    const units = [
      { unit_id: 'A', tenant_name: 'a', occupant_count: 2 },
      { unit_id: 'B', tenant_name: 'b', occupant_count: 2, move_out: '2026-01-15' },
      { unit_id: 'C', tenant_name: 'c', occupant_count: 2 },
      { unit_id: 'D', tenant_name: '', occupant_count: 2, is_vacant: true },
    ];
    const res = await calculate(alice, calculateBody(propertyId, configId, { units, total_amount: 100 })).expect(200);
    expect(res.body).toMatchObject({
      vacancy_policy: 'owner_pays',
      rounding: 'exact',
      admin_fee_rate: 0.1,
      units_billed: 3,
      units_vacant: 1,
    });
    // Shares over 4 units x 31 days: A and C 31/124, B 15/124, the owner the rest (31 + 16 days of 124).
    expect(res.body.unit_bills.map((u: { occupied_days: number }) => u.occupied_days)).toEqual([31, 15, 31, 0]);
    expect(res.body.unit_bills.map((u: { base_charge: number }) => u.base_charge)).toEqual([25, 12.1, 25, 0]);
    expect(res.body.vacant_absorption).toBe(37.9);
    expect(res.body.reconciliation).toEqual({
      total_amount: 100,
      common_area_deduction: 0,
      billed_to_tenants: 62.1,
      admin_fees: 6.21,
      owner_absorbs: 37.9,
      rounding_difference: 0,
      billing_fees: 0,
      max_charge_absorbed: 0,
      min_charge_added: 0,
    });
    expect(res.body.unit_bills[1]).toMatchObject({ move_in: null, move_out: '2026-01-15', is_vacant: false });
    const { posting: _posting, ...stored } = (await as(t, alice).get(`/billing/calculations/${res.body.id}`).expect(200)).body;
    expect(stored).toEqual(res.body);
  });

  // Issue 30: both factors inside the published limits (1,000,000,000 sqft, 4 decimals) answered a 500.
  it('sqft 100,000,000 beside sqft 850.0001 splits (it was a 500)', async () => {
    const { propertyId, configId } = await billedProperty(t, alice, { common_area_percent: 0, admin_fee_percent: 0 });
    const units = [
      { unit_id: 'A', tenant_name: 'Warehouse', sqft: 100_000_000 },
      { unit_id: 'B', tenant_name: 'Kiosk', sqft: 850.0001 },
    ];
    const res = await as(t, alice)
      .post('/billing/calculate-rubs', calculateBody(propertyId, configId, { units, total_amount: 1_000_000 }))
      .expect(200);
    // B: 850.0001 / 100,000,850.0001 of $1,000,000.00 = $8.4999... -> $8.49 (Issue 46 replaced per-unit rounding half up with rounding down (never bill more than the bill)); A the rest
    expect(res.body.unit_bills.map((u: { unit_id: string; total_charge: number }) => [u.unit_id, u.total_charge])).toEqual([
      ['A', 999991.5],
      ['B', 8.49],
    ]);
  });

  it('a 10,000-unit body (about 1 MB of JSON) is accepted; 10,001 units are 422 and store nothing', async () => {
    const { propertyId, configId } = await billedProperty(t, alice);
    const body = calculateBody(propertyId, configId, { units: manyUnits(10_000) });
    expect(JSON.stringify(body).length).toBeGreaterThan(750_000);
    const res = await calculate(alice, body).expect(200);
    expect(res.body.unit_bills).toHaveLength(10_000);
    expect(res.body).toMatchObject({ units_billed: 9_000, units_vacant: 1_000 });
    expect(res.body.reconciliation.total_amount).toBe(1000);
    const over = await calculate(alice, calculateBody(propertyId, configId, { units: manyUnits(10_001) })).expect(422);
    expect(over.body).toEqual(
      errorBody({
        detail: 'units array must not have more than 10000 units',
        errors: [{ field: 'units', message: 'units array must not have more than 10000 units' }],
      }),
    );
    // Every unit at fault: the first 100 are listed, in unit order.
    const negative = await calculate(
      alice,
      calculateBody(propertyId, configId, { units: manyUnits(500).map((u) => ({ ...u, sqft: -1 })) }),
    ).expect(422);
    expect(negative.body.detail).toBe('ensure this value is greater than or equal to 0');
    expect(negative.body.errors).toHaveLength(100);
    expect([negative.body.errors[0].field, negative.body.errors[99].field]).toEqual(['units.0.sqft', 'units.99.sqft']);
    expect(await historyTotal(propertyId)).toBe(1);
    const { posting: _posting, ...stored } = (await as(t, alice).get(`/billing/calculations/${res.body.id}`).expect(200)).body;
    expect(stored).toEqual(res.body);
  });

  it('body limits: this route takes up to 5 MB, every other JSON route still 1 MB', async () => {
    const { propertyId, configId } = await billedProperty(t, alice);
    const longNames = manyUnits(10_000).map((u) => ({ ...u, tenant_name: 'x'.repeat(200) }));
    const big = calculateBody(propertyId, configId, { units: longNames });
    expect(JSON.stringify(big).length).toBeGreaterThan(2_500_000);
    await calculate(alice, big).expect(200);
    const tooBig = calculateBody(propertyId, configId, { units: manyUnits(10_000).map((u) => ({ ...u, tenant_name: 'x'.repeat(500) })) });
    expect((await calculate(alice, tooBig).expect(413)).body).toEqual(errorBody({ detail: 'Request body too large' }));
    const padded = {
      name: 'x',
      address: 'y',
      city: 'z',
      state: 'MI',
      zip_code: '48104',
      property_type: 'residential',
      padding: 'p'.repeat(1_100_000),
    };
    await as(t, alice).post('/pm/properties', padded).expect(413);
    // The limit follows the route whatever the path's case or a trailing slash.
    await as(t, alice).post('/BILLING/Calculate-RUBS/', calculateBody(propertyId, configId)).expect(200);
  });

  describe("errors (the documented error responses, and the issue's bad input)", () => {
    let propertyId: string;
    let configId: string;
    beforeAll(async () => {
      ({ propertyId, configId } = await billedProperty(t, alice));
    });

    it('422 with the field named, and nothing stored', async () => {
      const unit = (overrides: Record<string, unknown>) => [{ ...EXAMPLE_UNITS[0], ...overrides }, ...EXAMPLE_UNITS.slice(1)];
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ units: [] }, 'units', 'units array must not be empty'],
        [{ units: undefined }, 'units', 'field required'],
        [{ property_id: undefined }, 'property_id', 'field required'],
        [{ billing_config_id: undefined }, 'billing_config_id', 'field required'],
        [{ billing_period_start: '2026-02-30' }, 'billing_period_start', 'invalid date format, expected YYYY-MM-DD'],
        [{ billing_period_end: '2025-12-31' }, 'billing_period_end', 'billing_period_end must not be before billing_period_start'],
        [{ total_amount: undefined }, 'total_amount', 'field required'],
        [{ total_amount: -0.01 }, 'total_amount', 'ensure this value is greater than or equal to 0'],
        [{ total_amount: 1234.565 }, 'total_amount', 'ensure this value has at most 2 decimal places'],
        [{ total_amount: '1000' }, 'total_amount', 'value is not a valid number'],
        [{ total_amount: 100_000_000_000 }, 'total_amount', 'ensure this value is less than or equal to 99999999999'],
        [
          { utility_type: 'steam' },
          'utility_type',
          "value is not a valid enumeration member; permitted: 'electric', 'gas', 'water', 'sewer', 'trash'",
        ],
        [{ utility_type: 'gas' }, 'utility_type', "utility_type 'gas' is not billed by this billing config (it bills water, sewer)"],
        [{ units: unit({ sqft: undefined }) }, 'units.0.sqft', 'sqft required for sqft allocation method'],
        [{ units: unit({ sqft: null }) }, 'units.0.sqft', 'sqft required for sqft allocation method'],
        [{ units: unit({ sqft: -1 }) }, 'units.0.sqft', 'ensure this value is greater than or equal to 0'],
        [{ units: unit({ sqft: 850.12345 }) }, 'units.0.sqft', 'ensure this value has at most 4 decimal places'],
        [{ units: unit({ occupant_count: -2 }) }, 'units.0.occupant_count', 'ensure this value is greater than or equal to 0'],
        [{ units: unit({ occupant_count: 1.5 }) }, 'units.0.occupant_count', 'value is not a valid integer'],
        [{ units: unit({ custom_weight: 100.5 }) }, 'units.0.custom_weight', 'ensure this value is less than or equal to 100'],
        [{ units: unit({ custom_weight: -0.5 }) }, 'units.0.custom_weight', 'ensure this value is greater than or equal to 0'],
        [{ units: unit({ unit_id: '' }) }, 'units.0.unit_id', 'ensure this value has at least 1 characters'],
        [{ units: unit({ tenant_name: undefined }) }, 'units.0.tenant_name', 'field required'],
        [{ units: unit({ unit_id: '102' }) }, 'units.1.unit_id', "unit_id '102' appears more than once"],
        [{ units: unit({ move_in: '2026-01-20', move_out: '2026-01-10' }) }, 'units.0.move_out', 'move_out must not be before move_in'],
        [{ units: unit({ move_in: '20-01-2026' }) }, 'units.0.move_in', 'invalid date format, expected YYYY-MM-DD'],
        [
          { units: EXAMPLE_UNITS.map((u) => ({ ...u, is_vacant: true })) },
          'units',
          'every unit is vacant: with vacancy_policy redistribute there is no one to bill (use owner_pays)',
        ],
        [
          { units: EXAMPLE_UNITS.map((u) => ({ ...u, sqft: 0 })) },
          'units',
          "the billed units' sqft add up to 0: there is nothing to allocate by",
        ],
      ];
      for (const [overrides, field, message] of cases) {
        const res = await calculate(alice, calculateBody(propertyId, configId, overrides));
        expect({ status: res.status, body: res.body }).toEqual({
          status: 422,
          body: errorBody({ detail: message, errors: expect.arrayContaining([{ field, message }]) }),
        });
        expect(res.body.errors[0]).toEqual({ field, message });
      }
      expect(await historyTotal(propertyId)).toBe(0);
    });

    it('each method names its own missing factor', async () => {
      for (const [method, field] of [
        ['occupant_count', 'occupant_count'],
        ['custom_weight', 'custom_weight'],
        ['sqft_occupant', 'occupant_count'],
      ]) {
        const p = await billedProperty(t, alice, { method });
        const units = [
          { unit_id: 'A', tenant_name: 'a', sqft: 100, occupant_count: 1, custom_weight: 1 },
          { unit_id: 'B', tenant_name: 'b', sqft: 100 },
        ];
        const res = await calculate(alice, calculateBody(p.propertyId, p.configId, { units })).expect(422);
        expect(res.body.errors[0]).toEqual({ field: `units.1.${field}`, message: `${field} required for ${method} allocation method` });
      }
    });

    it('a total_amount that is not finite (1e999 reads as Infinity) is 422; bad JSON is 400', async () => {
      const raw = JSON.stringify(calculateBody(propertyId, configId)).replace('"total_amount":1000', '"total_amount":1e999');
      const res = await request(t.app)
        .post('/api/v1/billing/calculate-rubs')
        .set('Authorization', `Bearer ${alice}`)
        .set('content-type', 'application/json')
        .send(raw)
        .expect(422);
      expect(res.body.errors[0]).toEqual({ field: 'total_amount', message: 'value is not a valid number' });
      const bad = await request(t.app)
        .post('/api/v1/billing/calculate-rubs')
        .set('Authorization', `Bearer ${alice}`)
        .set('content-type', 'application/json')
        .send('{"units": [')
        .expect(400);
      expect(bad.body).toEqual(errorBody({ detail: 'Invalid JSON body' }));
      expect(await historyTotal(propertyId)).toBe(0);
    });

    it("404 Property not found: unknown, or another owner's (who sees nothing of it)", async () => {
      expect((await calculate(alice, calculateBody('no-such-property', configId)).expect(404)).body).toEqual(
        errorBody({ detail: 'Property not found' }),
      );
      expect((await calculate(bob, calculateBody(propertyId, configId)).expect(404)).body).toEqual(
        errorBody({ detail: 'Property not found' }),
      );
    });

    it("404 Billing config not found: unknown, or another property's", async () => {
      expect((await calculate(alice, calculateBody(propertyId, 'no-such-config')).expect(404)).body).toEqual(
        errorBody({ detail: 'Billing config not found' }),
      );
      const other = await billedProperty(t, alice);
      expect((await calculate(alice, calculateBody(propertyId, other.configId)).expect(404)).body).toEqual(
        errorBody({ detail: 'Billing config not found' }),
      );
      // Bob's own property with Alice's configuration id is no better.
      const bobs = await createProperty(t, bob);
      expect((await calculate(bob, calculateBody(bobs.id, configId)).expect(404)).body).toEqual(
        errorBody({ detail: 'Billing config not found' }),
      );
    });

    it('400 for an inactive configuration', async () => {
      const inactive = await createConfig(t, alice, propertyId, { is_active: false });
      expect((await calculate(alice, calculateBody(propertyId, inactive.id)).expect(400)).body).toEqual(
        errorBody({ detail: 'Billing config is not active' }),
      );
      expect(await historyTotal(propertyId)).toBe(0);
    });

    it('401 without credentials', async () => {
      const res = await request(t.app).post('/api/v1/billing/calculate-rubs').send(calculateBody(propertyId, configId)).expect(401);
      expect(res.body).toEqual(errorBody({ detail: 'Not authenticated' }));
    });
  });
});
