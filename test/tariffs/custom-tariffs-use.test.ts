import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser, setTier, type RegisteredTestUser } from '../helpers/users';
import { seedTariffs } from '../helpers/tariffs';
import { as, createProperty, GLADSTONE } from '../pm/helpers';
import { createWaterTariff } from '../../src/modules/tariffs/custom/examples';

const ALL_MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/**
 * Issue 31, item 5: an account's own tariffs wherever a tariff is used: search with include_custom,
 * rate analysis (alternatives beside the catalog's, same utility and sector), due diligence (a
 * tariff of the serving utility counts).
 */
describe('custom tariffs in search, rate analysis and due diligence (issue 31)', () => {
  let t: TestApp;
  let alice: RegisteredTestUser;
  let gladstoneUtility: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-15T12:00:00Z') });
    await seedTariffs(t.deps.database, [GLADSTONE.C1]);
    alice = await registerUser(t);
    await setTier(t, alice.user.id, 'pro');
    gladstoneUtility = (await request(t.app).get(`/api/v1/tariffs/${GLADSTONE.C1}`).expect(200)).body.utility_id;
  });
  afterAll(() => t.stop());

  /** A negotiated commercial rate of the Gladstone utility: $0.09/kWh + $10/month (cheaper than C1's $0.1217 + $13.54). */
  const negotiated = () => ({
    name: 'Negotiated commercial service',
    utility_id: gladstoneUtility,
    sector: 'commercial',
    energy_rates: [{ period: 'all_year', months: ALL_MONTHS, rate_per_kwh: 0.09 }],
    fixed_charges: [{ name: 'Customer charge', amount: 10, frequency: 'monthly' }],
  });

  it("search lists the caller's own matching tariffs first with include_custom=true, and only then", async () => {
    const own = (await as(t, alice.token).post('/tariffs/custom', negotiated()).expect(201)).body;
    // The utility's name and state come from the utility records.
    expect(own).toMatchObject({ utility_id: gladstoneUtility, state: 'MI', utility_type: 'electric', unit: 'kWh' });
    const plain = (await as(t, alice.token).get(`/tariffs/search?zip_code=${GLADSTONE.zip}`).expect(200)).body;
    expect(plain.items.map((i: { id: string }) => i.id)).toEqual([GLADSTONE.C1]);
    const withOwn = (await as(t, alice.token).get(`/tariffs/search?zip_code=${GLADSTONE.zip}&include_custom=true`).expect(200)).body;
    expect(withOwn.items.map((i: { id: string }) => i.id)).toEqual([own.id, GLADSTONE.C1]);
    expect(withOwn.total).toBe(2);
    expect(withOwn.items[0]).toMatchObject({ custom: true, utility_type: 'electric' });
    // Filters apply to them as to the catalog's; a second page continues after them.
    expect(
      (await as(t, alice.token).get('/tariffs/search?include_custom=true&sector=residential').expect(200)).body.items.some(
        (i: { id: string }) => i.id === own.id,
      ),
    ).toBe(false);
    const page2 = (
      await as(t, alice.token).get(`/tariffs/search?zip_code=${GLADSTONE.zip}&include_custom=true&per_page=1&page=2`).expect(200)
    ).body;
    expect(page2.items.map((i: { id: string }) => i.id)).toEqual([GLADSTONE.C1]);
    // Another account does not see them; without a caller, include_custom is a 401.
    const bob = await registerUser(t);
    expect((await as(t, bob.token).get(`/tariffs/search?zip_code=${GLADSTONE.zip}&include_custom=true`).expect(200)).body.total).toBe(1);
    await request(t.app).get('/api/v1/tariffs/search?include_custom=true').expect(401);
  });

  it("rate analysis puts the owner's tariffs of the same utility and sector beside the catalog's", async () => {
    // Issue 45 replaced the name 'Negotiated B': a tariff is recommended only when its words show the property may take it,
    // and "Negotiated" in a name states a program (a contract rate). An own tariff named as an ordinary rate is an alternative.
    const own = (
      await as(t, alice.token)
        .post('/tariffs/custom', { ...negotiated(), name: 'Commercial service B' })
        .expect(201)
    ).body;
    const water = (await as(t, alice.token).post('/tariffs/custom', createWaterTariff).expect(201)).body;
    const p = await createProperty(t, alice.token, { tariff_id: GLADSTONE.C1, monthly_usage_kwh: 1000 });
    const analysis = (await as(t, alice.token).post(`/pm/properties/${p.id}/analyze-rates`).expect(200)).body;
    // C1: 1,000 x 0.1217 + 13.54 = 135.24; own: 1,000 x 0.09 + 10 = 100.00 a month: saves 35.24, 422.88 a year,
    // 35.24 / 135.24 = 26.06 % -> 26.1.
    expect(analysis.current_tariff).toMatchObject({ id: GLADSTONE.C1, estimated_monthly_cost: 135.24 });
    expect(analysis.alternatives).toEqual([
      {
        tariff_id: own.id,
        name: 'Commercial service B',
        estimated_monthly_cost: 100,
        monthly_savings: 35.24,
        annual_savings: 422.88,
        savings_percent: 26.1,
      },
    ]);
    expect(analysis.recommendation).toBe(own.id);
    // The first test's 'Negotiated commercial service' (same utility and sector) is the owner's too, and excluded by its name.
    expect(analysis.excluded.map((e: { name: string; reason: string }) => [e.name, e.reason])).toEqual([
      ['Negotiated commercial service', 'limited to a program (pilot, limited enrolment, incentive): "Negotiated" in its name'],
    ]);
    expect(analysis.alternatives.some((a: { tariff_id: string }) => a.tariff_id === water.id)).toBe(false);
    // A property may take it as its tariff.
    const moved = (await as(t, alice.token).patch(`/pm/properties/${p.id}`, { tariff_id: own.id }).expect(200)).body;
    expect(moved.tariff_id).toBe(own.id);
    // Its rates took effect today: the health score does not call them stale (they have no catalog row to date them).
    const health = (await as(t, alice.token).get('/pm/properties/health').expect(200)).body;
    const item = health.properties.find((h: { property_id: string }) => h.property_id === p.id);
    expect(item.issues.filter((i: string) => i.startsWith('Tariff'))).toEqual([]);
    const water422 = await as(t, alice.token).patch(`/pm/properties/${p.id}`, { tariff_id: water.id }).expect(422);
    expect(water422.body.errors[0]).toEqual({
      field: 'tariff_id',
      message: `tariff_id must be an electric tariff: ${water.id} prices water`,
    });
  });

  it("due diligence prices the owner's tariff of the serving utility where the catalog has none of the sector", async () => {
    const body = {
      address: '1 Main St',
      city: 'Gladstone',
      state: 'MI',
      zip_code: GLADSTONE.zip,
      property_type: 'residential',
      unit_count: 10,
    };
    const before = (await as(t, alice.token).post('/pm/due-diligence', body).expect(200)).body;
    expect(before.basis.kind).toBe('average_rate');
    // Issue 45 replaced the name 'Residential service (current sheet)': words of a name the eligibility rules do not read
    // ("current", "sheet") send the tariff to review, and due diligence prices only tariffs shown eligible.
    const own = (
      await as(t, alice.token)
        .post('/tariffs/custom', {
          ...negotiated(),
          name: 'Residential service',
          sector: 'residential',
        })
        .expect(201)
    ).body;
    const after = (await as(t, alice.token).post('/pm/due-diligence', body).expect(200)).body;
    expect(after.basis.kind).toBe('tariffs');
    expect(after.best_tariff).toMatchObject({ name: own.name });
    // Another account's due diligence does not see it.
    const bob = await registerUser(t);
    await setTier(t, bob.user.id, 'pro');
    expect((await as(t, bob.token).post('/pm/due-diligence', body).expect(200)).body.basis.kind).toBe('average_rate');
  });
});
