import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { seedTariffs } from '../helpers/tariffs';
import { as, createProperty } from './helpers';

/** CenterPoint Houston (a Texas distribution utility): delivery only. $0.090629/kWh and $59.16 a month; expired 2015-01-31. */
const CENTERPOINT_SMALL = '53ac63c95257a3b968c32a35';

describe('a property on a delivery-only tariff with its own supply price (issue 26)', () => {
  let t: TestApp;
  let alice: string;
  beforeAll(async () => {
    t = await createTestApp();
    await seedTariffs(t.deps.database, [CENTERPOINT_SMALL]);
    alice = (await registerUser(t)).token;
  });
  afterAll(() => t.stop());

  const houston = { city: 'Houston', state: 'TX', zip_code: '77002', tariff_id: CENTERPOINT_SMALL, monthly_usage_kwh: 1000 };

  it("prices supply at the property's rate on top of delivery, and says when it has none", async () => {
    const bare = await createProperty(t, alice, houston);
    expect(bare.supply_rate_per_kwh).toBeNull();
    const without = (await as(t, alice).post(`/pm/properties/${bare.id}/analyze-rates`).expect(200)).body;
    // 1,000 kWh x $0.090629 = $90.629 -> $90.63; + $59.16 = $149.79 a month
    expect(without.current_tariff.estimated_monthly_cost).toBe(149.79);

    const withSupply = await createProperty(t, alice, { ...houston, supply_rate_per_kwh: 0.085 });
    expect(withSupply.supply_rate_per_kwh).toBe(0.085);
    const res = (await as(t, alice).post(`/pm/properties/${withSupply.id}/analyze-rates`).expect(200)).body;
    // + Supply 1,000 kWh x $0.0850 = $85.00: $234.79 a month
    expect(res.current_tariff.estimated_monthly_cost).toBe(234.79);
    expect(res.assumptions).toContain(
      'SmalL Non-Residential LSP POLR(Less Than 10KW-No Demand Meter): the tariff expired on 2015-01-31: the utility no longer bills these rates, so its current tariff may cost more or less',
    );

    // A change of the supply price re-prices the estimate.
    await as(t, alice).patch(`/pm/properties/${withSupply.id}`, { supply_rate_per_kwh: 0.1 }).expect(200);
    const after = (await as(t, alice).post(`/pm/properties/${withSupply.id}/analyze-rates`).expect(200)).body;
    // 1,000 x $0.10 = $100.00: $249.79
    expect(after.current_tariff.estimated_monthly_cost).toBe(249.79);
  });

  it('a property on the expired tariff loses health points for it, naming the date', async () => {
    const p = await createProperty(t, alice, { ...houston, sqft: 2000 });
    const health = (await as(t, alice).get('/pm/properties/health').expect(200)).body;
    const item = health.properties.find((h: { property_id: string }) => h.property_id === p.id);
    expect(item.issues).toContain('Tariff expired on 2015-01-31: its estimate and savings rest on rates the utility no longer bills');
  });

  it('422 for a supply price outside 0 to 5, and nothing is stored', async () => {
    for (const supply_rate_per_kwh of [-0.01, 5.01, '0.1']) {
      const res = await as(t, alice)
        .post('/pm/properties', { name: 'X', address: '1 Main', property_type: 'commercial', ...houston, supply_rate_per_kwh })
        .expect(422);
      expect(res.body.errors[0].field).toBe('supply_rate_per_kwh');
    }
    const before = (await as(t, alice).get('/pm/properties').expect(200)).body.total;
    await as(t, alice)
      .post('/pm/properties', { name: 'X', address: '1 Main', property_type: 'commercial', ...houston, supply_rate_per_kwh: 99 })
      .expect(422);
    expect((await as(t, alice).get('/pm/properties').expect(200)).body.total).toBe(before);
  });

  it('/calculate prices the same supply line, and compare applies it to delivery-only tariffs only', async () => {
    const res = await as(t, alice)
      .post('/calculate', { tariff_id: CENTERPOINT_SMALL, usage_kwh: 12000, month: 7, supply_rate_per_kwh: 0.085 })
      .expect(200);
    expect(res.body.line_items).toContainEqual({ category: 'energy', name: 'Supply 12,000 kWh x $0.0850', amount: 1020 });
    // 12,000 x $0.090629 = $1,087.548 -> $1,087.55; + $1,020.00 + $59.16 = $2,166.71
    expect(res.body.total_cost).toBe(2166.71);
    const bare = await as(t, alice).post('/calculate', { tariff_id: CENTERPOINT_SMALL, usage_kwh: 12000, month: 7 }).expect(200);
    expect(bare.body.total_cost).toBe(1146.71);
    expect(bare.body.assumptions[0]).toMatch(/^delivery-only tariff: supply .* is not included/);
    await as(t, alice).post('/calculate', { tariff_id: CENTERPOINT_SMALL, usage_kwh: 1, supply_rate_per_kwh: 5.5 }).expect(422);
  });
});
