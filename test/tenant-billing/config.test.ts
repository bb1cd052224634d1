import request from 'supertest';
import type { TestApp } from '../helpers/app';
import { as, configBody, createProperty, startBillingApp } from './helpers';
import { errorBody } from '../helpers/error-body';

describe('billing configurations', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    ({ t, alice, bob } = await startBillingApp());
  });
  afterAll(() => t.stop());

  it('creates a configuration with every default, vacancy_policy, rounding and sqft_weight_percent included', async () => {
    const p = await createProperty(t, alice);
    const res = await as(t, alice)
      .post('/billing/config', { property_id: p.id, method: 'occupant_count', utility_types: ['electric'] })
      .expect(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      property_id: p.id,
      method: 'occupant_count',
      utility_types: ['electric'],
      common_area_percent: 0,
      admin_fee_percent: 0,
      billing_day: 1,
      is_active: true,
      vacancy_policy: 'redistribute',
      rounding: 'per_unit',
      sqft_weight_percent: 50,
      created_at: expect.any(String),
      methods_by_utility: {},
      occupant_factors: null,
      max_charge: null,
      min_charge: null,
      billing_fee: 0,
      version: 1,
      updated_at: null,
    });
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
  });

  it('stores every field as sent, decimals included', async () => {
    const p = await createProperty(t, alice);
    const body = {
      property_id: p.id,
      method: 'sqft_occupant',
      utility_types: ['water', 'sewer', 'trash'],
      common_area_percent: 12.345,
      admin_fee_percent: 2.5,
      billing_day: 28,
      is_active: false,
      vacancy_policy: 'owner_pays',
      rounding: 'exact',
      sqft_weight_percent: 62.5,
    };
    const res = await as(t, alice).post('/billing/config', body).expect(201);
    const { property_id: _p, ...fields } = body;
    expect(res.body).toMatchObject(fields);
    const list = await as(t, alice).get(`/billing/config/${p.id}`).expect(200);
    expect(list.body).toEqual([res.body]);
  });

  it('validates every field: ranges with their "must be between" messages, enums, required fields', async () => {
    const p = await createProperty(t, alice);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ property_id: undefined }, 'property_id', 'field required'],
      [{ method: undefined }, 'method', 'field required'],
      [
        { method: 'floor_area' },
        'method',
        "value is not a valid enumeration member; permitted: 'sqft', 'occupant_count', 'unit_count', 'custom_weight', 'sqft_occupant'",
      ],
      [{ utility_types: undefined }, 'utility_types', 'field required'],
      [{ utility_types: [] }, 'utility_types', 'ensure this value has at least 1 items'],
      [
        { utility_types: ['steam'] },
        'utility_types.0',
        "value is not a valid enumeration member; permitted: 'electric', 'gas', 'water', 'sewer', 'trash'",
      ],
      // Fuel oil is delivered, not tariffed or sub-metered: RUBS does not split it (tenant-billing README).
      [
        { utility_types: ['fuel_oil_2'] },
        'utility_types.0',
        "value is not a valid enumeration member; permitted: 'electric', 'gas', 'water', 'sewer', 'trash'",
      ],
      [{ utility_types: ['gas', 'gas'] }, 'utility_types', 'utility_types must not repeat a type'],
      [{ common_area_percent: 50.01 }, 'common_area_percent', 'common_area_percent must be between 0 and 50'],
      [{ common_area_percent: -1 }, 'common_area_percent', 'common_area_percent must be between 0 and 50'],
      [{ common_area_percent: 1.23456 }, 'common_area_percent', 'ensure this value has at most 4 decimal places'],
      [{ admin_fee_percent: 15.5 }, 'admin_fee_percent', 'admin_fee_percent must be between 0 and 15'],
      [{ billing_day: 0 }, 'billing_day', 'billing_day must be between 1 and 28'],
      [{ billing_day: 29 }, 'billing_day', 'billing_day must be between 1 and 28'],
      [{ billing_day: 1.5 }, 'billing_day', 'value is not a valid integer'],
      [{ is_active: 'yes' }, 'is_active', 'value could not be parsed to a boolean'],
      [
        { vacancy_policy: 'tenants_pay' },
        'vacancy_policy',
        "value is not a valid enumeration member; permitted: 'redistribute', 'owner_pays'",
      ],
      [{ rounding: 'bankers' }, 'rounding', "value is not a valid enumeration member; permitted: 'per_unit', 'exact'"],
      [{ sqft_weight_percent: 101 }, 'sqft_weight_percent', 'sqft_weight_percent must be between 0 and 100'],
    ];
    for (const [overrides, field, message] of cases) {
      const res = await as(t, alice).post('/billing/config', configBody(p.id, overrides)).expect(422);
      expect(res.body).toEqual(errorBody({ detail: message, errors: expect.arrayContaining([{ field, message }]) }));
    }
    // The boundaries themselves are accepted.
    await as(t, alice)
      .post('/billing/config', configBody(p.id, { common_area_percent: 50, admin_fee_percent: 15, billing_day: 28, is_active: false }))
      .expect(201);
    await as(t, alice)
      .post('/billing/config', configBody(p.id, { common_area_percent: 0, admin_fee_percent: 0, billing_day: 1, is_active: false }))
      .expect(201);
    expect((await as(t, alice).get(`/billing/config/${p.id}`).expect(200)).body).toHaveLength(2);
  });

  it("another owner's property, or an unknown one: 404 Property not found, nothing stored", async () => {
    const p = await createProperty(t, alice);
    expect((await as(t, bob).post('/billing/config', configBody(p.id)).expect(404)).body).toEqual(
      errorBody({ detail: 'Property not found' }),
    );
    expect((await as(t, alice).post('/billing/config', configBody('no-such-property')).expect(404)).body).toEqual(
      errorBody({ detail: 'Property not found' }),
    );
    expect((await as(t, bob).get(`/billing/config/${p.id}`).expect(404)).body).toEqual(errorBody({ detail: 'Property not found' }));
    expect((await as(t, alice).get(`/billing/config/${p.id}`).expect(200)).body).toEqual([]);
  });

  it('at most one active configuration per property: a second is 400; inactive ones and other properties are fine', async () => {
    const p = await createProperty(t, alice);
    const first = await as(t, alice).post('/billing/config', configBody(p.id)).expect(201);
    const dup = await as(t, alice)
      .post('/billing/config', configBody(p.id, { method: 'unit_count' }))
      .expect(400);
    expect(dup.body).toEqual(errorBody({ detail: 'Active billing config already exists for this property' }));
    const inactive = await as(t, alice)
      .post('/billing/config', configBody(p.id, { is_active: false }))
      .expect(201);
    const other = await createProperty(t, alice);
    await as(t, alice).post('/billing/config', configBody(other.id)).expect(201);
    const list = await as(t, alice).get(`/billing/config/${p.id}`).expect(200);
    expect(list.body.map((c: { id: string }) => c.id)).toEqual([inactive.body.id, first.body.id]); // newest first
  });

  it('two creates at the same moment leave one active configuration (the database decides)', async () => {
    const p = await createProperty(t, alice);
    const results = await Promise.all([0, 1, 2, 3].map(() => as(t, alice).post('/billing/config', configBody(p.id))));
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400, 400]);
    const list = await as(t, alice).get(`/billing/config/${p.id}`).expect(200);
    expect(list.body.filter((c: { is_active: boolean }) => c.is_active)).toHaveLength(1);
  });

  it('needs authentication', async () => {
    const p = await createProperty(t, alice);
    await request(t.app).post('/api/v1/billing/config').send(configBody(p.id)).expect(401);
    const res = await request(t.app).get(`/api/v1/billing/config/${p.id}`).expect(401);
    expect(res.body).toEqual(errorBody({ detail: 'Not authenticated' }));
  });
});
