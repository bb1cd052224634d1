import { createTestApp, type TestApp } from '../helpers/app';
import { eventually } from '../helpers/eventually';
import { registerUser } from '../helpers/users';
import { seedTariffs } from '../helpers/tariffs';
import { as, createProperty, GLADSTONE } from './helpers';

describe('rate analysis', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    t = await createTestApp({ jobs: true });
    await seedTariffs(t.deps.database, [GLADSTONE.C1, GLADSTONE.C3_NON_CITY, GLADSTONE.SP1]);
    alice = (await registerUser(t)).token;
    bob = (await registerUser(t)).token;
  });
  afterAll(() => t.stop());

  it('compares the current tariff with every other one for the ZIP (hand-checked arithmetic)', async () => {
    const p = await createProperty(t, alice, { tariff_id: GLADSTONE.C1, monthly_usage_kwh: 10000 });
    const res = await as(t, alice).post(`/pm/properties/${p.id}/analyze-rates`).expect(200);
    // C1: 10,000 x 0.1217 + 13.54 = 1,230.54. SP1: 10,000 x 0.10 + 18.54 = 1,018.54. C3 non-city: 10,000 x 0.1241 + 14.54 = 1,255.54.
    expect(res.body).toEqual({
      property_id: p.id,
      current_tariff: { id: GLADSTONE.C1, name: 'Rate schedule C1-Commercial Service 1PH', estimated_monthly_cost: 1230.54 },
      alternatives: [
        // 1,230.54 - 1,018.54 = 212.00; x 12 = 2,544.00; 212 / 1,230.54 = 17.23 % -> 17.2
        { tariff_id: GLADSTONE.SP1, name: expect.stringContaining('SP1'), estimated_monthly_cost: 1018.54,
          monthly_savings: 212, annual_savings: 2544, savings_percent: 17.2 },
        // 1,230.54 - 1,255.54 = -25.00; x 12 = -300.00; -25 / 1,230.54 = -2.03 % -> -2.0
        { tariff_id: GLADSTONE.C3_NON_CITY, name: expect.stringContaining('C3'), estimated_monthly_cost: 1255.54,
          monthly_savings: -25, annual_savings: -300, savings_percent: -2 },
      ],
      excluded: [],
      recommendation: GLADSTONE.SP1,
      analyzed_at: expect.any(String),
      // The data-age rule (issue 26): the answer says how old the current and recommended tariffs' rates are.
      assumptions: [
        "Rate schedule C1-Commercial Service 1PH: the tariff's rates took effect on 2011-08-01, more than 5 years ago: the utility's current rates may differ",
        expect.stringMatching(/^Rate Schedule SP1.*: the tariff's rates took effect on 2011-08-01, more than 5 years ago/),
      ],
    });
    const stored = await t.services.rateAnalysis.latestForProperty(p.id);
    expect(stored).toMatchObject({ recommendedTariffId: GLADSTONE.SP1, monthlySavings: 212, annualSavings: 2544, currentMonthlyCost: 1230.54 });
    // The analysis queued when the property was created may be stored just after this one: same result, later time.
    expect({ ...(stored!.result as object), analyzed_at: null }).toEqual({ ...res.body, analyzed_at: null });
  });

  it('keeps the current tariff when no alternative saves money', async () => {
    const p = await createProperty(t, alice, { tariff_id: GLADSTONE.SP1, monthly_usage_kwh: 10000 });
    const res = await as(t, alice).post(`/pm/properties/${p.id}/analyze-rates`).expect(200);
    expect(res.body.recommendation).toBe(GLADSTONE.SP1);
    // 1,018.54 - 1,230.54 = -212.00 (-20.8 %); 1,018.54 - 1,255.54 = -237.00 (-23.3 %)
    expect(res.body.alternatives.map((a: Record<string, unknown>) => [a.tariff_id, a.monthly_savings, a.annual_savings, a.savings_percent]))
      .toEqual([[GLADSTONE.C1, -212, -2544, -20.8], [GLADSTONE.C3_NON_CITY, -237, -2844, -23.3]]);
  });

  it('uses monthly_demand_kw when set; a flat tariff without demand charges is unaffected', async () => {
    const p = await createProperty(t, alice, { tariff_id: GLADSTONE.C1, monthly_usage_kwh: 500, monthly_demand_kw: 80 });
    const res = await as(t, alice).post(`/pm/properties/${p.id}/analyze-rates`).expect(200);
    // C1: 500 x 0.1217 + 13.54 = 74.39; SP1: 50 + 18.54 = 68.54 (saves 5.85, 7.9 %); C3: 62.05 + 14.54 = 76.59
    expect(res.body.current_tariff.estimated_monthly_cost).toBe(74.39);
    expect(res.body.alternatives[0]).toMatchObject({ tariff_id: GLADSTONE.SP1, monthly_savings: 5.85, annual_savings: 70.2, savings_percent: 7.9 });
  });

  it('without a current tariff: current_tariff null, savings null, the cheapest is recommended', async () => {
    const p = await createProperty(t, alice, { monthly_usage_kwh: 1000 });
    const res = await as(t, alice).post(`/pm/properties/${p.id}/analyze-rates`).expect(200);
    expect(res.body.current_tariff).toBeNull();
    expect(res.body.recommendation).toBe(GLADSTONE.SP1); // 118.54 vs C1 135.24 vs C3 138.64
    expect(res.body.alternatives.map((a: { estimated_monthly_cost: number }) => a.estimated_monthly_cost)).toEqual([118.54, 135.24, 138.64]);
    expect(res.body.alternatives[0]).toMatchObject({ monthly_savings: null, annual_savings: null, savings_percent: null });
  });

  it('400 Property has no usage data; 400 No tariffs available for this service area; 404 for others\' properties', async () => {
    const noUsage = await createProperty(t, alice, { tariff_id: GLADSTONE.C1 });
    expect((await as(t, alice).post(`/pm/properties/${noUsage.id}/analyze-rates`).expect(400)).body.detail)
      .toBe('Property has no usage data');
    const elsewhere = await createProperty(t, alice, { zip_code: '10001', state: 'NY', monthly_usage_kwh: 1000 });
    expect((await as(t, alice).post(`/pm/properties/${elsewhere.id}/analyze-rates`).expect(400)).body.detail)
      .toBe('No tariffs available for this service area');
    // A small residential building sees residential tariffs only, and Gladstone publishes none.
    const residential = await createProperty(t, alice, { property_type: 'residential', unit_count: 4, monthly_usage_kwh: 1000 });
    expect((await as(t, alice).post(`/pm/properties/${residential.id}/analyze-rates`).expect(400)).body.detail)
      .toBe('No tariffs available for this service area');
    const mine = await createProperty(t, alice, { tariff_id: GLADSTONE.C1, monthly_usage_kwh: 1000 });
    expect((await as(t, bob).post(`/pm/properties/${mine.id}/analyze-rates`).expect(404)).body.detail).toBe('Property not found');
    expect((await as(t, alice).post('/pm/properties/nope/analyze-rates').expect(404)).body.detail).toBe('Property not found');
  });

  it('the rate-analysis queue re-analyses a property when its usage changes and notifies a saving once', async () => {
    const carol = (await registerUser(t)).token;
    const p = await createProperty(t, carol, { tariff_id: GLADSTONE.C1, monthly_usage_kwh: 10000 });
    await eventually(async () => {
      expect(await t.services.rateAnalysis.latestForProperty(p.id)).toMatchObject({ monthlySavings: 212 });
    });
    await as(t, carol).patch(`/pm/properties/${p.id}`, { monthly_usage_kwh: 20000 }).expect(200);
    // 20,000 kWh: C1 2,447.54, SP1 2,018.54: saves 429.00 a month
    await eventually(async () => {
      expect(await t.services.rateAnalysis.latestForProperty(p.id)).toMatchObject({ monthlySavings: 429, annualSavings: 5148 });
    });
    await eventually(async () => {
      const list = await as(t, carol).get('/pm/notifications').expect(200);
      expect(list.body.items.map((n: { message: string }) => n.message)).toEqual([
        expect.stringContaining('could save $5148.00 a year'),
        expect.stringContaining('could save $2544.00 a year'),
      ]);
      expect(list.body.items[0]).toMatchObject({ type: 'rate_savings', property_id: p.id, read_at: null });
    });
    const carolId = (await as(t, carol).get('/auth/me').expect(200)).body.id;
    const latest = await t.services.rateAnalysis.latestForOwner(carolId);
    expect(latest.map((a) => [a.propertyId, a.monthlySavings])).toEqual([[p.id, 429]]);
    // The same state analysed again (a retried or repeated job) does not notify twice.
    await t.services.rateAnalysis.process({ property_id: p.id });
    expect((await as(t, carol).get('/pm/notifications').expect(200)).body.total).toBe(2);
  });

  it('after a tariff re-import every property of every owner is re-analysed', async () => {
    const dave = (await registerUser(t)).token;
    const a = await createProperty(t, dave, { tariff_id: GLADSTONE.C3_NON_CITY, monthly_usage_kwh: 100 });
    const b = await createProperty(t, dave, { monthly_usage_kwh: 100 });
    // Both were analysed once when created (tariff or usage set).
    const first = new Map<string, string>();
    await eventually(async () => {
      for (const id of [a.id, b.id]) {
        const latest = await t.services.rateAnalysis.latestForProperty(id);
        expect(latest).not.toBeNull();
        first.set(id, latest!.id);
      }
    });
    const owners = await t.services.rateAnalysis.requestAnalysisAfterTariffImport('2026-11-22T00-00-00Z');
    expect(owners).toBeGreaterThanOrEqual(1);
    await eventually(async () => {
      const latestA = await t.services.rateAnalysis.latestForProperty(a.id);
      const latestB = await t.services.rateAnalysis.latestForProperty(b.id);
      expect(latestA!.id).not.toBe(first.get(a.id));
      expect(latestB!.id).not.toBe(first.get(b.id));
      // C3 at 100 kWh: 12.41 + 14.54 = 26.95; SP1: 10 + 18.54 = 28.54; C1: 12.17 + 13.54 = 25.71 -> C1 saves 1.24
      expect(latestA).toMatchObject({ recommendedTariffId: GLADSTONE.C1, monthlySavings: 1.24 });
    });
  });
});
