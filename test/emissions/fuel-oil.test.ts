import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { eventually } from '../helpers/eventually';
import { registerUser, setTier } from '../helpers/users';
import { errorBody } from '../helpers/error-body';
import { as, createBill, createProperty } from '../pm/helpers';

const NYC_OFFICE = { name: 'Oil-heated office', address: '350 5th Ave', city: 'New York', state: 'NY', zip_code: '10001', sqft: 40000 };
const JANUARY = { period_start: '2025-01-01', period_end: '2025-01-31' };
const NOT_TARIFFED = 'fuel oil is delivered, not tariffed: its bills are recorded and counted in costs, never priced on a tariff';

/**
 * Fuel oil meters end to end (meters README "Units", emissions README "Factors", worked by hand):
 * 1,000 gallons of No. 2 = 138,000 kBtu (Portfolio Manager: 138 kBtu a gallon) = 138 mmBtu x
 * (73.96 + 3.0 x 25 / 1000 + 0.60 x 298 / 1000 = 74.2138 kg) = 10,241.5044 kg = 10.242 t CO2e;
 * Local Law 97: 138,000 kBtu x 0.00007421 = 10.24098 t.
 */
describe('fuel oil meters and bills', () => {
  let t: TestApp;
  let alice: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-03-15T12:00:00Z'), jobs: true });
    alice = (await registerUser(t)).token;
  });
  afterAll(() => t.stop());

  const meter = async (propertyId: string, body: Record<string, unknown>) =>
    (await as(t, alice).post(`/pm/properties/${propertyId}/meters`, body).expect(201)).body;

  it('a fuel oil meter reads gallons by default, takes kBtu and MMBtu, and takes no tariff', async () => {
    const p = await createProperty(t, alice, NYC_OFFICE);
    const oil = await meter(p.id, { utility_type: 'fuel_oil_2' });
    expect(oil).toMatchObject({ utility_type: 'fuel_oil_2', unit: 'gallons', name: 'Fuel oil (No. 2) meter', is_default: true });
    expect(await meter(p.id, { utility_type: 'fuel_oil_5_6', unit: 'MMBtu' })).toMatchObject({
      name: 'Fuel oil (No. 5 and No. 6) meter',
      unit: 'MMBtu',
    });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ utility_type: 'fuel_oil_4', unit: 'therms' }, 'unit', "unit 'therms' is not a unit of fuel_oil_4 (gallons, kBtu, MMBtu)"],
      [{ utility_type: 'fuel_oil_2', tariff_id: 'any-tariff' }, 'tariff_id', `a fuel_oil_2 meter takes no tariff: ${NOT_TARIFFED}`],
    ];
    for (const [body, field, message] of cases) {
      const res = await as(t, alice).post(`/pm/properties/${p.id}/meters`, body).expect(422);
      expect(res.body).toEqual(errorBody({ detail: message, errors: [{ field, message }] }));
    }
    const patched = await as(t, alice).patch(`/pm/meters/${oil.id}`, { supply_tariff_id: 'any-tariff' }).expect(422);
    expect(patched.body.errors).toEqual([{ field: 'supply_tariff_id', message: `a fuel_oil_2 meter takes no tariff: ${NOT_TARIFFED}` }]);
    // A bill of gallons on it; therms are not a unit of fuel oil.
    await createBill(t, alice, p.id, { meter_id: oil.id, amount: 3500, usage: 1000, ...JANUARY });
    const bad = await as(t, alice)
      .post(`/pm/properties/${p.id}/bills`, {
        utility_type: 'fuel_oil_2',
        amount: 10,
        usage: 5,
        unit: 'therms',
        period_start: '2025-02-01',
        period_end: '2025-02-28',
      })
      .expect(422);
    expect(bad.body.errors).toEqual([{ field: 'unit', message: "unit 'therms' is not a unit of fuel_oil_2 (gallons, kBtu, MMBtu)" }]);
  });

  it('imports fuel oil bills from a CSV by utility_type, in gallons', async () => {
    const p = await createProperty(t, alice, NYC_OFFICE);
    const csv = 'utility_type,period_start,period_end,amount,usage,unit\nfuel_oil_4,2025-01-01,2025-01-31,$2000.00,500,gallons\n';
    const res = await as(t, alice).upload(`/pm/properties/${p.id}/bills/import`, csv).expect(200);
    expect(res.body).toMatchObject({ imported: 1, rejected_count: 0 });
    const list = await as(t, alice).get(`/pm/properties/${p.id}/bills`).expect(200);
    expect(list.body.items).toEqual([expect.objectContaining({ utility_type: 'fuel_oil_4', amount: 2000, usage: 500, unit: 'gallons' })]);
  });

  it('counts No. 2 and No. 4 by the EPA Hub factors, leaves No. 5/6 out saying why; the audit never prices them', async () => {
    const p = await createProperty(t, alice, NYC_OFFICE);
    const bill = (utility_type: string, amount: number, usage: number) =>
      as(t, alice)
        .post(`/pm/properties/${p.id}/bills`, { utility_type, amount, usage, unit: 'gallons', ...JANUARY })
        .expect(201);
    await bill('fuel_oil_2', 3500, 1000);
    await bill('fuel_oil_4', 3000, 1000);
    await bill('fuel_oil_5_6', 2500, 1000);
    const res = await as(t, alice).get(`/pm/properties/${p.id}/emissions?year=2025`).expect(200);
    const byType = Object.fromEntries(res.body.meters.map((m: { utility_type: string }) => [m.utility_type, m]));
    // No. 2: 138 mmBtu x 74.2138 = 10,241.5044 kg. No. 4: 1,000 gallons x 146 kBtu = 146 mmBtu x 75.2938 = 10,992.8948 kg.
    expect(byType.fuel_oil_2).toMatchObject({ counted: true, usage: 138000, usage_unit: 'kBtu', tco2e: 10.242, reason: null });
    expect(byType.fuel_oil_4).toMatchObject({ counted: true, usage: 146000, usage_unit: 'kBtu', tco2e: 10.993, reason: null });
    expect(byType.fuel_oil_5_6).toMatchObject({
      counted: false,
      usage: 150000,
      tco2e: null,
      reason: expect.stringContaining('residual fuel oil No. 5 (72.93 kg CO2/mmBtu) and No. 6 (75.10) apart'),
    });
    // 10.2415044 + 10.9928948 = 21.2343992 t.
    expect(res.body.total_tco2e).toBe(21.234);
    expect(res.body.factors).toEqual([
      expect.objectContaining({ utility_type: 'fuel_oil_2', value: 74.2138, unit: 'kg CO2e/mmBtu', per_unit: 'kBtu', year: 2018 }),
      expect.objectContaining({ utility_type: 'fuel_oil_4', value: 75.2938, tco2e_per_unit: 0.000075294, year: 2018 }),
    ]);
    expect(res.body.factors[0].source).toContain(
      'Table 1 Stationary Combustion, Distillate Fuel Oil No. 2: 73.96 kg CO2, 3.0 g CH4, 0.60 g N2O',
    );

    // Local Law 97, group B: #2 138,000 kBtu x 0.00007421 = 10.24098 t; #4 146,000 x 0.00007529 = 10.99234 t; No. 5/6 not covered.
    await request(t.app)
      .put(`/api/v1/pm/properties/${p.id}/occupancy`)
      .set('Authorization', `Bearer ${alice}`)
      .send({ areas: [{ occupancy_group: 'B', gross_floor_area: 40000 }] })
      .expect(200);
    const bp = (await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=2025`).expect(200)).body;
    const period = bp.standards[0].periods[0];
    expect(period).toMatchObject({ period: '2024-2029', emissions_tco2e: 21.233, not_covered: ['fuel_oil_5_6'], excess_tco2e: 0 });
    expect(period.emissions_lines.map((l: { utility_type: string; tco2e: number }) => [l.utility_type, l.tco2e])).toEqual([
      ['fuel_oil_2', 10.241],
      ['fuel_oil_4', 10.992],
    ]);
    expect(period.notes).toContain(
      'Local Law 97 (§ 28-320.3.1.1) gives no coefficient for fuel oil No. 5 or No. 6: its energy is not counted.',
    );

    // The audit never prices a fuel oil bill, and says why (no 500, no tariff looked up).
    const bills = (await as(t, alice).get(`/pm/properties/${p.id}/bills`).expect(200)).body.items as Array<{ id: string }>;
    for (const b of bills) {
      await eventually(async () => {
        const audit = (await as(t, alice).get(`/pm/bills/${b.id}/audit`).expect(200)).body;
        expect(audit).toMatchObject({ status: 'unpriceable', reason: NOT_TARIFFED });
      });
    }
  });

  it('the analytics count fuel oil bills in the annual cost, as billed, with usage in kBtu', async () => {
    const owner = await registerUser(t);
    await setTier(t, owner.user.id, 'pro');
    const p = await createProperty(t, owner.token, NYC_OFFICE);
    // A delivery a month, March 2025 to February 2026 (the 12 complete months on 2026-03-15): 300 gallons and $1,050.00 each.
    for (let i = 0; i < 12; i++) {
      const first = new Date(Date.UTC(2025, 2 + i, 1));
      const last = new Date(Date.UTC(2025, 3 + i, 0));
      await as(t, owner.token)
        .post(`/pm/properties/${p.id}/bills`, {
          utility_type: 'fuel_oil_2',
          amount: 1050,
          usage: 300,
          period_start: first.toISOString().slice(0, 10),
          period_end: last.toISOString().slice(0, 10),
        })
        .expect(201);
    }
    // 12 x $1,050 = $12,600; 12 x 300 gallons x 138 kBtu = 496,800 kBtu.
    await eventually(async () => {
      const stats = (await as(t, owner.token).get('/pm/dashboard/stats').expect(200)).body;
      expect(stats).toMatchObject({ total_annual_cost: 12600 });
      expect(stats.cost_by_utility).toEqual([{ utility_type: 'fuel_oil_2', cost: 12600, usage: 496800, unit: 'kBtu', basis: 'actual' }]);
    });
  });

  it('what-if electrifies a fuel oil meter as a gas one: kBtu to kWh at the stated efficiencies', async () => {
    const p = await createProperty(t, alice, NYC_OFFICE);
    const electric = await meter(p.id, { utility_type: 'electric', name: 'Main electric' });
    const oil = await meter(p.id, { utility_type: 'fuel_oil_2', name: 'Boiler oil' });
    await createBill(t, alice, p.id, { meter_id: electric.id, amount: 2000, usage_kwh: 10000, ...JANUARY });
    await createBill(t, alice, p.id, { meter_id: oil.id, amount: 3500, usage: 1000, ...JANUARY });
    const res = await as(t, alice)
      .post(`/pm/properties/${p.id}/what-if`, {
        year: 2025,
        changes: [{ kind: 'electrify', meter_id: oil.id, gas_efficiency: 0.853, electric_efficiency: 2.5 }],
      })
      .expect(200);
    // 138,000 kBtu / 3.412 x 0.853 / 2.5 = 13,800 kWh onto the January electric bill: 23,800 kWh.
    expect(res.body.changes[0]).toMatchObject({ kind: 'electrify', meter_id: oil.id, to_meter_id: electric.id, kwh_per_therm: 10 });
    expect(res.body.changes[0].description).toContain('fuel oil (fuel_oil_2) meter Boiler oil electrified onto Main electric');
    expect(res.body.after.energy).toEqual([
      { utility_type: 'electric', usage: 23800, unit: 'kWh' },
      { utility_type: 'fuel_oil_2', usage: 0, unit: 'kBtu' },
    ]);
    // Location-based (NYCW 886.58 lb/MWh): before 10 MWh = 4.0214592 t + 10.2415044 t = 14.2629636 t; after 23.8 MWh = 9.5710730 t.
    expect(res.body.before.total_tco2e).toBe(14.263);
    expect(res.body.after.total_tco2e).toBe(9.571);
    expect(res.body.delta.total_tco2e).toBe(-4.692);
    // Neither meter has a tariff: each bill scaled from its billed amount. Electric $2,000 x 23,800 / 10,000 = $4,760;
    // the oil, never tariffed, $3,500 x 0 / 1,000 = $0. Before $5,500, after $4,760.
    // The meters in name order: "Boiler oil", "Main electric".
    expect(res.body.meters).toEqual([
      expect.objectContaining({
        meter_id: oil.id,
        utility_type: 'fuel_oil_2',
        unit: 'kBtu',
        tariff_id: null,
        cost_basis: 'scaled_from_billed',
        reasons: [NOT_TARIFFED],
        usage_before: 138000,
        usage_after: 0,
        cost_before: 3500,
        cost_after: 0,
      }),
      expect.objectContaining({ meter_id: electric.id, cost_basis: 'scaled_from_billed', cost_before: 2000, cost_after: 4760 }),
    ]);
    expect(res.body.before.energy_cost).toBe(5500);
    expect(res.body.after.energy_cost).toBe(4760);
    expect(res.body.delta.energy_cost).toBe(-740);
    expect(res.body.factors.map((f: { utility_type: string }) => f.utility_type)).toEqual(['electric', 'fuel_oil_2']);

    // A cut is still of electricity or gas only; a water meter is not electrified.
    const water = await meter(p.id, { utility_type: 'water' });
    const refused = await as(t, alice)
      .post(`/pm/properties/${p.id}/what-if`, {
        changes: [{ kind: 'electrify', meter_id: water.id, gas_efficiency: 0.8, electric_efficiency: 3 }],
      })
      .expect(422);
    expect(refused.body.errors).toEqual([
      { field: 'changes.0.meter_id', message: `meter ${water.id} is not a gas or fuel oil meter of this property` },
    ]);
  });
});
