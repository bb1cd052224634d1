import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as, createBill, createProperty, quartersOf } from '../pm/helpers';
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

  const put = (token: string, path: string, body: unknown) => as(t, token).put(path, body);

  const QUARTERS = quartersOf(2025);

  it("gives a New York office's Local Law 97 limit, emissions, excess and penalty, worked by hand", async () => {
    const p = await createProperty(t, alice, { ...NYC_OFFICE, sqft: 40000 });
    for (const [period_start, period_end] of QUARTERS) {
      await createBill(t, alice, p.id, { utility_type: 'electric', amount: 40000, period_start, period_end, usage_kwh: 250000 });
      await createBill(t, alice, p.id, { utility_type: 'gas', amount: 6000, period_start, period_end, usage: 5000, unit: 'therms' });
    }
    // Without occupancy: emissions only, and how to get the limit.
    const before = await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=2025`).expect(200);
    expect(before.body.standards[0].periods[0]).toMatchObject({
      status: 'no_occupancy',
      emissions_tco2e: 395.182,
      limit_tco2e: null,
      projected_penalty: null,
    });
    expect(before.body.standards[0].periods[1]).toMatchObject({
      period: '2030-2034',
      limit_tco2e: null,
      notes: expect.arrayContaining([expect.stringContaining('No occupancy groups')]),
    });
    const occ = await put(alice, `/pm/properties/${p.id}/occupancy`, { areas: [{ occupancy_group: 'B', gross_floor_area: 40000 }] }).expect(
      200,
    );
    expect(occ.body).toEqual({ property_id: p.id, areas: [{ occupancy_group: 'B', gross_floor_area: 40000 }], gross_floor_area: 40000 });
    // Hand-worked: 1,000,000 kWh x 0.000288962 = 288.962 t; 2,000,000 kBtu x 0.00005311 = 106.22 t; 395.182 t.
    // Limit 0.00846 x 40,000 sf = 338.4 t; over by 56.782 t; 56.782 x $268 = $15,217.576 -> $15,217.58.
    const res = await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=2025`).expect(200);
    expect(res.body).toEqual({ ...ex.buildingPerformance, property_id: p.id });
    // 2030-2034: the law's own B limit, 0.00453 x 40,000 sf = 181.2 t, against the rule's coefficients (1 RCNY
    // § 103-14(d)(3)(ii), as quoted): 1,000,000 kWh x 0.000145 = 145 t + 2,000,000 kBtu x 0.00005311 = 106.22 t = 251.22 t;
    // 70.02 t over; 70.02 x $268 = $18,765.36.
    expect(res.body.standards[0].periods[1]).toMatchObject({
      status: 'computed',
      emissions_tco2e: 251.22,
      limit_tco2e: 181.2,
      excess_tco2e: 70.02,
      projected_penalty: 18765.36,
    });
    // The limit the owner's report states overrides: 395.182 - 300 = 95.182 t -> $25,508.78.
    const given = await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=2025&limit_tco2e=300`).expect(200);
    expect(given.body.standards[0].periods[0]).toMatchObject({
      status: 'computed_with_given_limit',
      limit_tco2e: 300,
      excess_tco2e: 95.182,
      projected_penalty: 25508.78,
    });
  });

  it('records occupancy: replaced as a whole, each group once, validated, the owner only', async () => {
    const p = await createProperty(t, alice, NYC_OFFICE);
    await put(alice, `/pm/properties/${p.id}/occupancy`, {
      areas: [
        { occupancy_group: 'R-2', gross_floor_area: 30000 },
        { occupancy_group: 'M', gross_floor_area: 10000 },
      ],
    }).expect(200);
    expect((await as(t, alice).get(`/pm/properties/${p.id}/occupancy`).expect(200)).body).toEqual({
      property_id: p.id,
      areas: [
        { occupancy_group: 'M', gross_floor_area: 10000 },
        { occupancy_group: 'R-2', gross_floor_area: 30000 },
      ],
      gross_floor_area: 40000,
    });
    // The law's limits of these groups, both periods (§ 28-320.3.1 items 7 and 9; § 28-320.3.2 items 7 and 9):
    // 2024-2029: M 0.01181 x 10,000 = 118.1 t + R-2 0.00675 x 30,000 = 202.5 t = 320.6 t;
    // 2030-2034: M 0.00403 x 10,000 = 40.3 t + R-2 0.00407 x 30,000 = 122.1 t = 162.4 t. No bills: 0 t, nothing owed.
    const bp = await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=2025`).expect(200);
    const [first, second] = bp.body.standards[0].periods;
    expect(first).toMatchObject({ status: 'computed', emissions_tco2e: 0, limit_tco2e: 320.6, excess_tco2e: 0, projected_penalty: 0 });
    expect(second).toMatchObject({ status: 'computed', emissions_tco2e: 0, limit_tco2e: 162.4, excess_tco2e: 0, projected_penalty: 0 });
    expect(second.limit_lines.map((l: { intensity_limit: number; tco2e: number }) => [l.intensity_limit, l.tco2e])).toEqual([
      [0.00403, 40.3],
      [0.00407, 122.1],
    ]);
    await put(alice, `/pm/properties/${p.id}/occupancy`, {
      areas: [
        { occupancy_group: 'B', gross_floor_area: 1 },
        { occupancy_group: 'B', gross_floor_area: 2 },
      ],
    }).expect(422);
    await put(alice, `/pm/properties/${p.id}/occupancy`, { areas: [{ occupancy_group: 'Z', gross_floor_area: 1 }] }).expect(422);
    await put(alice, `/pm/properties/${p.id}/occupancy`, { areas: [{ occupancy_group: 'B', gross_floor_area: 0 }] }).expect(422);
    await put(bob, `/pm/properties/${p.id}/occupancy`, { areas: [] }).expect(404);
    await as(t, bob).get(`/pm/properties/${p.id}/occupancy`).expect(404);
    await put(alice, `/pm/properties/${p.id}/occupancy`, { areas: [] }).expect(200);
    expect((await as(t, alice).get(`/pm/properties/${p.id}/occupancy`).expect(200)).body.areas).toEqual([]);
  });

  it("says no standard applies outside the three cities, Boston's BERDO without uses and Denver as partly", async () => {
    const mi = await createProperty(t, alice);
    const none = await as(t, alice).get(`/pm/properties/${mi.id}/building-performance?year=2025`).expect(200);
    expect(none.body).toMatchObject({
      jurisdiction: null,
      applies: false,
      standards: [],
      message: expect.stringContaining('Gladstone, MI 49837'),
    });
    // Nassau County, next to Queens: not New York City.
    const nassau = await createProperty(t, alice, { city: 'Floral Park', state: 'NY', zip_code: '11001' });
    expect((await as(t, alice).get(`/pm/properties/${nassau.id}/building-performance`).expect(200)).body.applies).toBe(false);
    const boston = await createProperty(t, alice, { city: 'Boston', state: 'MA', zip_code: '02108' });
    const b = await as(t, alice).get(`/pm/properties/${boston.id}/building-performance?year=2025`).expect(200);
    expect(b.body).toMatchObject({
      jurisdiction: 'boston',
      applies: true,
      standards: [{ status: 'partly_confirmed', periods: [], berdo: { status: 'no_property_uses', limit_tco2e: null } }],
    });
    const denver = await createProperty(t, alice, { city: 'Denver', state: 'CO', zip_code: '80202' });
    const d = await as(t, alice).get(`/pm/properties/${denver.id}/building-performance?year=2025`).expect(200);
    expect(d.body).toMatchObject({
      jurisdiction: 'denver',
      // Energize Denver's site EUI against targets: test/emissions/energize-denver.test.ts.
      standards: [{ standard: expect.stringContaining('Energize Denver'), status: 'partly_confirmed', periods: [] }],
    });
  });

  it("is the owner's only, and refuses a bad limit or year", async () => {
    const p = await createProperty(t, alice, NYC_OFFICE);
    await as(t, bob).get(`/pm/properties/${p.id}/building-performance`).expect(404);
    await as(t, alice).get(`/pm/properties/${p.id}/building-performance?limit_tco2e=-1`).expect(422);
    await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=abc`).expect(422);
  });
});

describe("GET /pm/properties/{id}/building-performance by a New York office's Portfolio Manager uses", () => {
  let t: TestApp;
  let alice: string;
  beforeAll(async () => {
    // 2027: the office's 2026 bills are complete.
    t = await createTestApp({ now: () => new Date('2027-03-15T12:00:00Z') });
    alice = (await registerUser(t)).token;
  });
  afterAll(() => t.stop());

  const put = (path: string, body: unknown) => as(t, alice).put(path, body);

  const QUARTERS = quartersOf(2026);

  it("gives a New York office recorded as Portfolio Manager's Office the rule's limits, as a new owner would see them", async () => {
    // A new owner: the property, its bills of 2026 and its one property use; no occupancy groups.
    const p = await createProperty(t, alice, { ...NYC_OFFICE, sqft: 40000 });
    for (const [period_start, period_end] of QUARTERS) {
      const [start, end] = [period_start, period_end];
      await createBill(t, alice, p.id, {
        utility_type: 'electric',
        amount: 40000,
        period_start: start,
        period_end: end,
        usage_kwh: 250000,
      });
      await createBill(t, alice, p.id, {
        utility_type: 'gas',
        amount: 6000,
        period_start: start,
        period_end: end,
        usage: 5000,
        unit: 'therms',
      });
    }
    await put(`/pm/properties/${p.id}/property-uses`, { uses: [{ property_type: 'Office', gross_floor_area: 40000 }] }).expect(200);
    const res = await as(t, alice).get(`/pm/properties/${p.id}/building-performance`).expect(200);
    expect(res.body).toMatchObject({ year: 2026, jurisdiction: 'new_york_city', applies: true });
    const [first, second] = res.body.standards[0].periods;
    // 2026: 1,000,000 kWh x 0.000288962 + 2,000,000 kBtu x 0.00005311 = 395.182 t against Office 0.00758 x 40,000 = 303.2 t:
    // 91.982 t over x $268 = $24,651.176 -> $24,651.18.
    expect(first).toMatchObject({
      period: '2024-2029',
      status: 'computed',
      emissions_tco2e: 395.182,
      limit_tco2e: 303.2,
      limit_basis: 'property_types',
      limit_lines: [{ occupancy_group: null, property_type: 'Office', gross_floor_area: 40000, intensity_limit: 0.00758, tco2e: 303.2 }],
      excess_tco2e: 91.982,
      projected_penalty: 24651.18,
    });
    // 2030-2034: 145 + 106.22 = 251.22 t against 0.002690852 x 40,000 = 107.634 t: 143.586 t x $268 = $38,481.048 -> $38,481.05.
    expect(second).toMatchObject({
      period: '2030-2034',
      status: 'computed',
      emissions_tco2e: 251.22,
      limit_tco2e: 107.634,
      limit_basis: 'property_types',
      excess_tco2e: 143.586,
      projected_penalty: 38481.05,
    });
    expect(res.body.standards[0].sources).toContainEqual(
      expect.stringContaining('(c)(3): building emissions limits per Portfolio Manager'),
    );
    // A use the rule's table has no limit for: no limit, the use named, never the Office's alone.
    await put(`/pm/properties/${p.id}/property-uses`, {
      uses: [
        { property_type: 'Office', gross_floor_area: 30000 },
        { property_type: 'Mixed Use Property', gross_floor_area: 10000 },
      ],
    }).expect(200);
    const mixed = await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=2026`).expect(200);
    for (const period of mixed.body.standards[0].periods) {
      expect(period).toMatchObject({
        status: 'limit_not_confirmed',
        emissions_tco2e: expect.any(Number),
        limit_tco2e: null,
        projected_penalty: null,
      });
      expect(period.notes.join(' ')).toContain('"Mixed Use Property"');
    }
  });
});
