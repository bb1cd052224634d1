import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as, createProperty } from '../pm/helpers';
import * as ex from '../../src/modules/emissions/examples';

const NYC_OFFICE = { name: 'Midtown office', address: '350 5th Ave', city: 'New York', state: 'NY', zip_code: '10001', sqft: 50000 };

describe('GET /pm/properties/{id}/building-performance', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-03-15T12:00:00Z') });
    alice = (await registerUser(t)).token;
    bob = (await registerUser(t)).token;
  });
  afterAll(() => t.stop());

  const january = { amount: 1000, period_start: '2025-01-01', period_end: '2025-01-31' };

  it("gives a New York office's Local Law 97 emissions, and the penalty against the limit its report states", async () => {
    const p = await createProperty(t, alice, NYC_OFFICE);
    await as(t, alice).post(`/pm/properties/${p.id}/bills`, { ...january, utility_type: 'electric', usage_kwh: 100000 }).expect(201);
    await as(t, alice).post(`/pm/properties/${p.id}/bills`, { ...january, utility_type: 'gas', usage: 5000, unit: 'therms' }).expect(201);
    // Hand-worked: 100,000 kWh x 0.000288962 = 28.8962 t; 500,000 kBtu x 0.00005311 = 26.555 t; 55.4512 t.
    // Over a 40 t limit by 15.451 t: 15.451 x $268 = $4,140.868 -> $4,140.87.
    const res = await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=2025&limit_tco2e=40`).expect(200);
    expect(res.body).toEqual({ ...ex.buildingPerformance, property_id: p.id });
    const plain = await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=2025`).expect(200);
    expect(plain.body.standards[0].periods[0]).toMatchObject({
      status: 'limit_not_confirmed', emissions_tco2e: 55.451, limit_tco2e: null, excess_tco2e: null, projected_penalty: null,
    });
  });

  it('says no standard applies outside the three cities, and names Boston and Denver as not confirmed', async () => {
    const mi = await createProperty(t, alice);
    const none = await as(t, alice).get(`/pm/properties/${mi.id}/building-performance?year=2025`).expect(200);
    expect(none.body).toMatchObject({ jurisdiction: null, applies: false, standards: [], message: expect.stringContaining('Gladstone, MI 49837') });
    // Nassau County, next to Queens: not New York City.
    const nassau = await createProperty(t, alice, { city: 'Floral Park', state: 'NY', zip_code: '11001' });
    expect((await as(t, alice).get(`/pm/properties/${nassau.id}/building-performance`).expect(200)).body.applies).toBe(false);
    const boston = await createProperty(t, alice, { city: 'Boston', state: 'MA', zip_code: '02108' });
    const b = await as(t, alice).get(`/pm/properties/${boston.id}/building-performance?year=2025`).expect(200);
    expect(b.body).toMatchObject({ jurisdiction: 'boston', applies: true, standards: [{ status: 'not_confirmed', periods: [] }] });
    const denver = await createProperty(t, alice, { city: 'Denver', state: 'CO', zip_code: '80202' });
    const d = await as(t, alice).get(`/pm/properties/${denver.id}/building-performance?year=2025`).expect(200);
    expect(d.body).toMatchObject({ jurisdiction: 'denver', standards: [{ standard: expect.stringContaining('Energize Denver'), status: 'not_confirmed' }] });
  });

  it("is the owner's only, and refuses a bad limit or year", async () => {
    const p = await createProperty(t, alice, NYC_OFFICE);
    await as(t, bob).get(`/pm/properties/${p.id}/building-performance`).expect(404);
    await as(t, alice).get(`/pm/properties/${p.id}/building-performance?limit_tco2e=-1`).expect(422);
    await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=abc`).expect(422);
  });
});
