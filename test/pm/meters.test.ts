import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as, createMeter, createProperty, GLADSTONE } from './helpers';
import { seedTariffs } from '../helpers/tariffs';
import * as ex from '../../src/modules/meters/examples';
import { createWaterTariff } from '../../src/modules/tariffs/custom/examples';

const bill = (overrides: Record<string, unknown> = {}) => ({
  utility_type: 'electric',
  period_start: '2026-01-01',
  period_end: '2026-01-31',
  amount: 100,
  ...overrides,
});

describe('meters', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let tariffId: string;
  let waterTariffId: string;
  let gasTariffId: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-15T12:00:00Z') });
    alice = (await registerUser(t)).token;
    bob = (await registerUser(t)).token;
    await seedTariffs(t.deps.database, [GLADSTONE.C1]);
    tariffId = GLADSTONE.C1;
    // Issue 31: a meter prices on a tariff of its own utility type (the catalog is electric): alice's own water and gas tariffs.
    waterTariffId = (await as(t, alice).post('/tariffs/custom', createWaterTariff).expect(201)).body.id;
    gasTariffId = (
      await as(t, alice)
        .post('/tariffs/custom', {
          name: 'Gas',
          utility_name: 'City gas',
          sector: 'commercial',
          utility_type: 'gas',
          unit: 'therms',
          energy_rates: [{ period: 'all_year', months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], rate_per_unit: 0.9 }],
        })
        .expect(201)
    ).body.id;
  });
  afterAll(() => t.stop());

  it('creates a meter with every field; the first of a type is its default, the next is not', async () => {
    // Issue 45 item 7: a meter's tariff is of its property's state, so the Harlingen (TX) water rate goes on a Harlingen property.
    const p = await createProperty(t, alice, { city: 'Harlingen', state: 'TX', zip_code: '78550' });
    const res = await as(t, alice)
      .post(`/pm/properties/${p.id}/meters`, { ...ex.createMeterRequest, tariff_id: waterTariffId })
      .expect(201);
    expect(res.body).toEqual({
      ...ex.meter,
      id: expect.any(String),
      property_id: p.id,
      tariff_id: waterTariffId,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const second = await as(t, alice).post(`/pm/properties/${p.id}/meters`, { utility_type: 'water' }).expect(201);
    expect(second.body).toMatchObject({ name: 'Water meter', unit: 'kgal', is_default: false, is_active: true, account_number: null });
    const gas = await as(t, alice).post(`/pm/properties/${p.id}/meters`, { utility_type: 'gas', unit: 'ccf' }).expect(201);
    expect(gas.body).toMatchObject({ name: 'Gas meter', unit: 'ccf', is_default: true });
    const list = await as(t, alice).get(`/pm/properties/${p.id}/meters`).expect(200);
    expect(list.body).toMatchObject({ total: 3, page: 1, pages: 1 });
    expect(list.body.items.map((m: { id: string }) => m.id)).toEqual([res.body.id, second.body.id, gas.body.id]);
  });

  it('validates: type required, units of the type, the tariff exists', async () => {
    const p = await createProperty(t, alice);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{}, 'utility_type', 'field required'],
      [
        { utility_type: 'propane' },
        'utility_type',
        "value is not a valid enumeration member; permitted: 'electric', 'gas', 'water', 'sewer', 'trash', 'steam', 'fuel_oil_2', 'fuel_oil_4', 'fuel_oil_5_6', 'other'",
      ],
      [{ utility_type: 'electric', unit: 'therms' }, 'unit', "unit 'therms' is not a unit of electric (kWh)"],
      [{ utility_type: 'water', unit: 'kWh' }, 'unit', "unit 'kWh' is not a unit of water (kgal, gallons, ccf, cf, m3)"],
      [{ utility_type: 'gas', name: '' }, 'name', 'ensure this value has at least 1 characters'],
      [{ utility_type: 'electric', tariff_id: 'no-such-tariff' }, 'tariff_id', 'Tariff not found'],
    ];
    for (const [body, field, message] of cases) {
      const res = await as(t, alice).post(`/pm/properties/${p.id}/meters`, body).expect(422);
      expect(res.body.errors[0]).toEqual({ field, message });
    }
    expect((await as(t, alice).get(`/pm/properties/${p.id}/meters`).expect(200)).body.total).toBe(0);
  });

  it('PATCH changes unit, name, numbers, tariff and is_active; never the utility type', async () => {
    const p = await createProperty(t, alice);
    const m = await createMeter(t, alice, p.id, { utility_type: 'gas', account_number: 'G-1' });
    const change = {
      unit: 'ccf',
      name: 'Boiler gas',
      meter_number: '55-A',
      account_number: null,
      tariff_id: gasTariffId,
      is_active: false,
    };
    const res = await as(t, alice).patch(`/pm/meters/${m.id}`, change).expect(200);
    expect(res.body).toMatchObject({ ...change, utility_type: 'gas' });
    const electric = await as(t, alice).patch(`/pm/meters/${m.id}`, { tariff_id: tariffId }).expect(422);
    expect(electric.body.errors[0]).toEqual({ field: 'tariff_id', message: `tariff_id must be a gas tariff: ${tariffId} prices electric` });
    const same = await as(t, alice).patch(`/pm/meters/${m.id}`, { utility_type: 'gas' }).expect(200);
    expect(same.body.unit).toBe('ccf');
    const type = await as(t, alice).patch(`/pm/meters/${m.id}`, { utility_type: 'electric' }).expect(422);
    expect(type.body.errors[0]).toEqual({
      field: 'utility_type',
      message: 'utility_type of a meter cannot change (this one is gas): add a meter of the new type',
    });
    const unit = await as(t, alice).patch(`/pm/meters/${m.id}`, { unit: 'kgal' }).expect(422);
    expect(unit.body.errors[0]).toEqual({ field: 'unit', message: "unit 'kgal' is not a unit of gas (therms, ccf, mcf, cf, kBtu, MMBtu)" });
  });

  it("another owner's meter or property: 404", async () => {
    const p = await createProperty(t, alice);
    const m = await createMeter(t, alice, p.id, { utility_type: 'electric' });
    expect((await as(t, bob).patch(`/pm/meters/${m.id}`, { name: 'x' }).expect(404)).body.detail).toBe('Meter not found');
    expect((await as(t, bob).get(`/pm/properties/${p.id}/meters`).expect(404)).body.detail).toBe('Property not found');
    expect((await as(t, bob).post(`/pm/properties/${p.id}/meters`, { utility_type: 'gas' }).expect(404)).body.detail).toBe(
      'Property not found',
    );
    await as(t, alice).patch('/pm/meters/no-such-meter', { name: 'x' }).expect(404);
    await request(t.app).get(`/api/v1/pm/properties/${p.id}/meters`).expect(401);
  });

  describe('bills on meters', () => {
    it("a bill without meter_id goes to the default meter of its type, created on first use (today's clients keep working)", async () => {
      const p = await createProperty(t, alice);
      const water = await as(t, alice)
        .post(`/pm/properties/${p.id}/bills`, bill({ utility_type: 'water', usage: 38.2 }))
        .expect(201);
      const meters = (await as(t, alice).get(`/pm/properties/${p.id}/meters`).expect(200)).body.items;
      expect(meters).toEqual([
        expect.objectContaining({ id: water.body.meter_id, utility_type: 'water', unit: 'kgal', name: 'Water meter', is_default: true }),
      ]);
      expect(water.body).toMatchObject({ usage: 38.2, unit: 'kgal', usage_kwh: null });
      const next = await as(t, alice)
        .post(`/pm/properties/${p.id}/bills`, bill({ utility_type: 'water', period_start: '2026-02-01', period_end: '2026-02-28' }))
        .expect(201);
      expect(next.body.meter_id).toBe(water.body.meter_id);
    });

    it('a bill names its meter: its type and unit come from the meter; a bill may give its own unit of the type', async () => {
      const p = await createProperty(t, alice);
      const gas = await createMeter(t, alice, p.id, { utility_type: 'gas', unit: 'ccf' });
      const res = await as(t, alice)
        .post(`/pm/properties/${p.id}/bills`, {
          meter_id: gas.id,
          period_start: '2026-01-01',
          period_end: '2026-01-31',
          amount: 90,
          usage: 120,
          is_estimated: true,
        })
        .expect(201);
      expect(res.body).toMatchObject({ meter_id: gas.id, utility_type: 'gas', usage: 120, unit: 'ccf', is_estimated: true });
      const therms = await as(t, alice)
        .post(`/pm/properties/${p.id}/bills`, {
          meter_id: gas.id,
          period_start: '2026-02-01',
          period_end: '2026-02-28',
          amount: 90,
          usage: 123.1,
          unit: 'therms',
        })
        .expect(201);
      expect(therms.body).toMatchObject({ unit: 'therms', usage: 123.1 });
      const mismatch = await as(t, alice)
        .post(`/pm/properties/${p.id}/bills`, {
          meter_id: gas.id,
          utility_type: 'water',
          period_start: '2026-03-01',
          period_end: '2026-03-31',
          amount: 1,
        })
        .expect(422);
      expect(mismatch.body.errors[0]).toEqual({ field: 'utility_type', message: "utility_type must be the meter's (gas)" });
      const otherProperty = await createProperty(t, alice);
      const elsewhere = await as(t, alice)
        .post(`/pm/properties/${otherProperty.id}/bills`, {
          meter_id: gas.id,
          period_start: '2026-03-01',
          period_end: '2026-03-31',
          amount: 1,
        })
        .expect(404);
      expect(elsewhere.body.detail).toBe('Meter not found');
      const none = await as(t, alice)
        .post(`/pm/properties/${p.id}/bills`, { period_start: '2026-03-01', period_end: '2026-03-31', amount: 1 })
        .expect(422);
      expect(none.body.errors[0]).toEqual({ field: 'utility_type', message: 'field required' });
    });

    it('a refused bill leaves no meter behind', async () => {
      const p = await createProperty(t, alice);
      await as(t, alice)
        .post(`/pm/properties/${p.id}/bills`, bill({ utility_type: 'water', unit: 'kWh' }))
        .expect(422);
      await as(t, alice)
        .post(`/pm/properties/${p.id}/bills`, bill({ utility_type: 'gas', usage_kwh: 5 }))
        .expect(422);
      expect((await as(t, alice).get(`/pm/properties/${p.id}/meters`).expect(200)).body.total).toBe(0);
    });

    it('concurrent overlapping bills of one meter: one is stored, the others are 409 naming it', async () => {
      const p = await createProperty(t, alice);
      const res = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          as(t, alice).post(
            `/pm/properties/${p.id}/bills`,
            bill({ period_start: `2025-03-0${i + 1}`, period_end: '2025-03-31', amount: 100 + i }),
          ),
        ),
      );
      const stored = res.filter((r) => r.status === 201);
      expect(stored).toHaveLength(1);
      for (const r of res.filter((x) => x.status !== 201)) {
        expect(r.status).toBe(409);
        expect(r.body.detail).toContain(stored[0]!.body.id);
      }
      expect((await as(t, alice).get(`/pm/properties/${p.id}/bills`).expect(200)).body.total).toBe(1);
    });

    it('concurrent first bills of a type share one default meter', async () => {
      const p = await createProperty(t, alice);
      const months = ['01', '02', '03', '04', '05', '06'];
      const res = await Promise.all(
        months.map((m) =>
          as(t, alice).post(
            `/pm/properties/${p.id}/bills`,
            bill({ utility_type: 'sewer', period_start: `2025-${m}-01`, period_end: `2025-${m}-28` }),
          ),
        ),
      );
      expect(res.map((r) => r.status)).toEqual(months.map(() => 201));
      expect(new Set(res.map((r) => r.body.meter_id)).size).toBe(1);
      expect((await as(t, alice).get(`/pm/properties/${p.id}/meters`).expect(200)).body.total).toBe(1);
    });
  });
});
