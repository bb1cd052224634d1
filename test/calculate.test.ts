import request from 'supertest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from './helpers/app';
import { seedTariffs } from './helpers/tariffs';
import { createApiKey, registerUser } from './helpers/users';
import { errorBody } from './helpers/error-body';

const SCRIBNER = '539f6a0aec4f024411ec8aa7'; // Jun-Sep: 200 kWh @0.1373 then 0.0544; $60/month
const WINNSBORO = '539f6a45ec4f024411ec8d1d'; // 800 kWh @0.0879 then 0.0854; min $7.23
const MUNICIPAL = '539f6adcec4f024411ec9565'; // 0.094782 + adj 0.016079 = 0.110861; min $6.99
const GS_TOD = '58f675d45457a36350156660'; // TOU energy, facility demand (a demand tariff)
const NO_FIXED_A = '539f6a0aec4f024411ec8ad9'; // 0.0525 + 0.045, no fixed or minimum charge
const NO_FIXED_B = '539f6a8eec4f024411ec911f'; // 0.0882, no fixed or minimum charge
const MISSING = 'ffffffffffffffffffffffff';

describe('POST /calculate and /calculate/compare', () => {
  let t: TestApp;
  const calc = (body: unknown) =>
    request(t.app)
      .post('/api/v1/calculate')
      .send(body as object);
  const compare = (body: unknown) =>
    request(t.app)
      .post('/api/v1/calculate/compare')
      .send(body as object);

  beforeAll(async () => {
    // A fixed clock in July 2026 makes the default month 7.
    t = await createTestApp({ now: () => new Date('2026-07-15T12:00:00Z') });
    await seedTariffs(t.deps.database, [SCRIBNER, WINNSBORO, MUNICIPAL, GS_TOD, NO_FIXED_A, NO_FIXED_B]);
  });
  afterAll(() => t.stop());

  describe('POST /calculate', () => {
    it('prices a bill anonymously, itemised', async () => {
      const res = await calc({ tariff_id: SCRIBNER, usage_kwh: 500, month: 7 }).expect(200);
      // 200 x 0.1373 = 27.46; 300 x 0.0544 = 16.32; fixed 60; total 103.78; 103.78 / 500 = 0.20756 -> 0.2076
      expect(res.body).toEqual({
        tariff_id: SCRIBNER,
        tariff_name: 'Commercial & Industrial Demand, Single Phase (EL 10)',
        month: 7,
        season: 'summer',
        total_cost: 103.78,
        line_items: [
          { category: 'energy', name: 'Energy summer tier 1: 200 kWh x $0.1373/kWh', amount: 27.46 },
          { category: 'energy', name: 'Energy summer tier 2: 300 kWh x $0.0544/kWh', amount: 16.32 },
          { category: 'fixed', name: 'Fixed customer charge: $60/month', amount: 60 },
        ],
        summary: {
          energy_charge: 43.78,
          demand_charge: 0,
          fixed_charge: 60,
          riders: 0,
          taxes_estimate: 0,
          effective_rate_per_kwh: 0.2076,
          // Issue 31 (gas, water and sewer tariffs) added the rate per unit and the usage priced in its unit.
          effective_rate_per_unit: 0.2076,
        },
        utility_type: 'electric',
        usage: 500,
        unit: 'kWh',
        // The data-age rule (issue 26, "honest age") replaced the empty list: rates of 2013 are more than 5 years old.
        assumptions: ["the tariff's rates took effect on 2013-01-01, more than 5 years ago: the utility's current rates may differ"],
      });
    });

    it('works with a bearer token and with an API key', async () => {
      const user = await registerUser(t);
      const key = await createApiKey(t, user.token);
      const body = { tariff_id: MUNICIPAL, usage_kwh: 1000, month: 3 };
      const withToken = await calc(body).set('Authorization', `Bearer ${user.token}`).expect(200);
      const withKey = await calc(body).set('X-API-Key', key.key).expect(200);
      // 1000 x 0.110861 = 110.861 -> 110.86
      expect(withToken.body.total_cost).toBe(110.86);
      expect(withKey.body).toEqual(withToken.body);
    });

    it('month defaults to the current UTC month; taxes_estimate uses tax_rate_percent', async () => {
      const res = await calc({ tariff_id: SCRIBNER, usage_kwh: 500, tax_rate_percent: 10 }).expect(200);
      expect(res.body.month).toBe(7);
      expect(res.body.season).toBe('summer');
      // 103.78 x 10 / 100 = 10.378 -> 10.38, not added to the total
      expect(res.body.summary.taxes_estimate).toBe(10.38);
      expect(res.body.total_cost).toBe(103.78);
    });

    it('splits TOU usage with the typical load shape and lists the assumption', async () => {
      const res = await calc({ tariff_id: GS_TOD, usage_kwh: 1000, demand_kw: 10, month: 7 }).expect(200);
      expect(res.body.assumptions[0]).toMatch(/^usage_kwh split over the tariff's July periods with the typical commercial load shape/);
      const kwh = res.body.line_items
        .filter((i: { category: string }) => i.category === 'energy')
        .map((i: { name: string }) => Number(/: ([\d.]+) kWh/.exec(i.name)?.[1]));
      expect(kwh.reduce((a: number, b: number) => a + b, 0)).toBeCloseTo(1000, 6);
    });

    it('404 Tariff not found', async () => {
      const res = await calc({ tariff_id: MISSING, usage_kwh: 100 }).expect(404);
      expect(res.body).toEqual(errorBody({ detail: 'Tariff not found' }));
    });

    it('422 demand_kw required for demand tariffs', async () => {
      const res = await calc({ tariff_id: GS_TOD, usage_kwh: 100, month: 7 }).expect(422);
      expect(res.body).toEqual(
        errorBody({
          detail: 'demand_kw required for demand tariffs',
          errors: [{ field: 'demand_kw', message: 'demand_kw required for demand tariffs' }],
        }),
      );
    });

    it('422 month must be between 1 and 12', async () => {
      for (const month of [0, 13, -1]) {
        const res = await calc({ tariff_id: SCRIBNER, usage_kwh: 100, month }).expect(422);
        expect(res.body.detail).toBe('month must be between 1 and 12');
        expect(res.body.errors[0].field).toBe('month');
      }
    });

    it('422 for missing, negative or absurd numbers', async () => {
      expect((await calc({ tariff_id: SCRIBNER }).expect(422)).body.errors[0]).toEqual({ field: 'usage_kwh', message: 'field required' });
      expect((await calc({ usage_kwh: 1 }).expect(422)).body.errors[0]).toEqual({ field: 'tariff_id', message: 'field required' });
      expect((await calc({ tariff_id: SCRIBNER, usage_kwh: -1 }).expect(422)).body.detail).toBe(
        'ensure this value is greater than or equal to 0',
      );
      expect((await calc({ tariff_id: SCRIBNER, usage_kwh: 1e20 }).expect(422)).body.errors[0].field).toBe('usage_kwh');
      expect((await calc({ tariff_id: SCRIBNER, usage_kwh: '100' }).expect(422)).body.detail).toBe('value is not a valid number');
      expect((await calc({ tariff_id: SCRIBNER, usage_kwh: 100, demand_kw: -5 }).expect(422)).body.errors[0].field).toBe('demand_kw');
      expect((await calc({ tariff_id: SCRIBNER, usage_kwh: 100, solar_generation_kwh: -5 }).expect(422)).body.errors[0].field).toBe(
        'solar_generation_kwh',
      );
      expect((await calc({ tariff_id: SCRIBNER, usage_kwh: 100, month: 7.5 }).expect(422)).body.errors[0].field).toBe('month');
    });

    it('422 for a usage profile that does not add up or uses a period the tariff lacks', async () => {
      const base = { tariff_id: GS_TOD, usage_kwh: 1000, demand_kw: 10, month: 7 };
      const total = await calc({ ...base, usage_profile: { on_peak_kwh: 300, off_peak_kwh: 600 } }).expect(422);
      expect(total.body.detail).toBe('usage_profile adds up to 900 kWh but usage_kwh is 1000 (they must agree within 0.01 kWh)');
      expect(total.body.errors[0].field).toBe('usage_profile');
      const mid = await calc({ ...base, usage_profile: { on_peak_kwh: 300, mid_peak_kwh: 100, off_peak_kwh: 600 } }).expect(422);
      expect(mid.body.detail).toBe(`usage_profile.mid_peak_kwh is 100 kWh but tariff ${GS_TOD} has no mid-peak period in July`);
      expect(mid.body.errors[0].field).toBe('usage_profile.mid_peak_kwh');
      // a profile that fits: on 300 x 0.06197 = 18.59, off 700 x 0.018933 = 13.25
      const ok = await calc({ ...base, usage_profile: { on_peak_kwh: 300, off_peak_kwh: 700 } }).expect(200);
      expect(ok.body.summary.energy_charge).toBe(31.84);
    });

    it('400 for a body that is not JSON', async () => {
      const res = await request(t.app).post('/api/v1/calculate').set('Content-Type', 'application/json').send('{"tariff_id":').expect(400);
      expect(res.body).toEqual(errorBody({ detail: 'Invalid JSON body' }));
    });

    // Decision record 0015: catalog tariffs are read when priced (no 60 s cache), so a re-import's rates price at once.
    it('prices the rates the database holds now: a catalog tariff changed since the last request', async () => {
      const setFixedCharge = (amount: number) =>
        t.deps.database.db.execute(
          sql`update tariffs set structure = jsonb_set(structure, '{fixedCharges,0,amount}', to_jsonb(${amount}::numeric)) where id = ${SCRIBNER}`,
        );
      expect((await calc({ tariff_id: SCRIBNER, usage_kwh: 500, month: 7 }).expect(200)).body.total_cost).toBe(103.78);
      await setFixedCharge(70);
      try {
        // 27.46 + 16.32 + 70 = 113.78
        expect((await calc({ tariff_id: SCRIBNER, usage_kwh: 500, month: 7 }).expect(200)).body.total_cost).toBe(113.78);
      } finally {
        await setFixedCharge(60);
      }
    });
  });

  describe('POST /calculate/compare', () => {
    it('ranks tariffs by total cost with the cheapest and the savings', async () => {
      const res = await compare({ tariff_ids: [SCRIBNER, MUNICIPAL, WINNSBORO], usage_kwh: 500, month: 7 }).expect(200);
      // Winnsboro 500 x 0.0879 = 43.95; Municipal 500 x 0.110861 = 55.4305 -> 55.43; Scribner 103.78
      // savings 103.78 - 43.95 = 59.83; 59.83 / 103.78 = 57.65% -> 57.7
      expect(res.body).toEqual({
        usage_kwh: 500,
        // Issue 31 (gas, water and sewer tariffs): the usage compared in its unit.
        utility_type: 'electric',
        usage: 500,
        unit: 'kWh',
        demand_kw: null,
        month: 7,
        results: [
          // Each result now carries its bill's assumptions (issue 26: the data age of every compared tariff).
          {
            tariff_id: WINNSBORO,
            tariff_name: 'General Service',
            total_cost: 43.95,
            effective_rate_per_kwh: 0.0879,
            effective_rate_per_unit: 0.0879,
            rank: 1,
            assumptions: ["the tariff's rates took effect on 2011-07-01, more than 5 years ago: the utility's current rates may differ"],
          },
          {
            tariff_id: MUNICIPAL,
            tariff_name: 'Municipal Power',
            total_cost: 55.43,
            effective_rate_per_kwh: 0.1109,
            effective_rate_per_unit: 0.1109,
            rank: 2,
            assumptions: [
              'the tariff expired on 2014-12-31: the utility no longer bills these rates, so its current tariff may cost more or less',
              "the tariff's rates took effect on 2014-06-01, more than 5 years ago: the utility's current rates may differ",
            ],
          },
          {
            tariff_id: SCRIBNER,
            tariff_name: 'Commercial & Industrial Demand, Single Phase (EL 10)',
            total_cost: 103.78,
            effective_rate_per_kwh: 0.2076,
            effective_rate_per_unit: 0.2076,
            rank: 3,
            assumptions: ["the tariff's rates took effect on 2013-01-01, more than 5 years ago: the utility's current rates may differ"],
          },
        ],
        cheapest: WINNSBORO,
        potential_savings: { vs_most_expensive: 59.83, vs_most_expensive_percent: 57.7 },
      });
    });

    it('works authenticated; month defaults to the current month; demand_kw is echoed', async () => {
      const user = await registerUser(t);
      const res = await compare({ tariff_ids: [GS_TOD, SCRIBNER], usage_kwh: 500, demand_kw: 20 })
        .set('Authorization', `Bearer ${user.token}`)
        .expect(200);
      expect(res.body.month).toBe(7);
      expect(res.body.demand_kw).toBe(20);
      expect(res.body.results.map((r: { rank: number }) => r.rank)).toEqual([1, 2]);
    });

    it('equal totals keep the request order; the percent is 0 when the most expensive total is 0', async () => {
      const res = await compare({ tariff_ids: [NO_FIXED_B, NO_FIXED_A], usage_kwh: 0, month: 2 }).expect(200);
      expect(res.body.results.map((r: { tariff_id: string }) => r.tariff_id)).toEqual([NO_FIXED_B, NO_FIXED_A]);
      expect(res.body.cheapest).toBe(NO_FIXED_B);
      expect(res.body.potential_savings).toEqual({ vs_most_expensive: 0, vs_most_expensive_percent: 0 });
    });

    it('422 tariff_ids must contain at least 2 items / at most 10 items', async () => {
      for (const ids of [[], [SCRIBNER]]) {
        const res = await compare({ tariff_ids: ids, usage_kwh: 100 }).expect(422);
        expect(res.body.detail).toBe('tariff_ids must contain at least 2 items');
      }
      const eleven = Array.from({ length: 11 }, (_, i) => `${i}`.padStart(24, 'a'));
      const res = await compare({ tariff_ids: eleven, usage_kwh: 100 }).expect(422);
      expect(res.body.detail).toBe('tariff_ids must contain at most 10 items');
      expect((await compare({ usage_kwh: 100 }).expect(422)).body.errors[0]).toEqual({ field: 'tariff_ids', message: 'field required' });
      expect((await compare({ tariff_ids: [SCRIBNER, SCRIBNER], usage_kwh: 100 }).expect(422)).body.detail).toBe(
        'tariff_ids must not contain duplicates',
      );
    });

    it('404 Tariff not found: <tariff_id>', async () => {
      const res = await compare({ tariff_ids: [SCRIBNER, MISSING, 'also-missing'], usage_kwh: 100 }).expect(404);
      expect(res.body).toEqual(errorBody({ detail: `Tariff not found: ${MISSING}` }));
    });

    it('422 month must be between 1 and 12; demand_kw required names the tariff', async () => {
      const month = await compare({ tariff_ids: [SCRIBNER, MUNICIPAL], usage_kwh: 100, month: 13 }).expect(422);
      expect(month.body.detail).toBe('month must be between 1 and 12');
      const demand = await compare({ tariff_ids: [SCRIBNER, GS_TOD], usage_kwh: 100 }).expect(422);
      expect(demand.body.detail).toBe(`demand_kw required for demand tariffs: ${GS_TOD}`);
    });
  });

  it('documents both endpoints in /openapi.json', async () => {
    const doc = await request(t.app).get('/openapi.json').expect(200);
    expect(doc.body.paths['/api/v1/calculate'].post).toBeDefined();
    expect(doc.body.paths['/api/v1/calculate/compare'].post).toBeDefined();
  });
});
