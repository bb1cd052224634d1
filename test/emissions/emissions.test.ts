import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as, createPortfolio, createProperty } from '../pm/helpers';
import * as ex from '../../src/modules/emissions/examples';

const NYC_OFFICE = { name: 'Midtown office', address: '350 5th Ave', city: 'New York', state: 'NY', zip_code: '10001', sqft: 50000 };

describe('GET /pm/properties/{id}/emissions', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-03-15T12:00:00Z') });
    alice = (await registerUser(t)).token;
    bob = (await registerUser(t)).token;
  });
  afterAll(() => t.stop());

  const bill = (
    utility_type: string,
    usage: Record<string, unknown>,
    period = { period_start: '2025-01-01', period_end: '2025-01-31' },
  ) => ({ utility_type, amount: 1000, ...period, ...usage });

  it('answers the worked example: a New York office, 100,000 kWh and 5,000 therms in January 2025', async () => {
    const p = await createProperty(t, alice, NYC_OFFICE);
    await as(t, alice)
      .post(`/pm/properties/${p.id}/bills`, bill('electric', { usage_kwh: 100000 }))
      .expect(201);
    await as(t, alice)
      .post(`/pm/properties/${p.id}/bills`, bill('gas', { usage: 5000, unit: 'therms' }))
      .expect(201);
    const res = await as(t, alice).get(`/pm/properties/${p.id}/emissions?year=2025`).expect(200);
    // Hand-worked: 100 MWh x 886.58 lb/MWh x 0.45359237 kg/lb = 40,214.59 kg; 500 mmBtu x 53.1148 kg = 26,557.40 kg.
    const meterIds = res.body.meters.map((m: { meter_id: string }) => m.meter_id);
    expect(res.body).toEqual({
      ...ex.propertyEmissions,
      property_id: p.id,
      meters: ex.propertyEmissions.meters.map((m, i) => ({ ...m, meter_id: meterIds[i] })),
    });
    // Without ?year: the year of the latest bill.
    expect((await as(t, alice).get(`/pm/properties/${p.id}/emissions`).expect(200)).body.year).toBe(2025);
  });

  it('calendarises a bill across years and converts ccf to therms (1 ccf = 1.026 therms)', async () => {
    const p = await createProperty(t, alice, { ...NYC_OFFICE, sqft: null });
    // 31 days, 16 in December 2024 and 15 in January 2025: 15/31 of 3,100 ccf = 1,500 ccf = 1,539 therms in 2025.
    await as(t, alice)
      .post(
        `/pm/properties/${p.id}/bills`,
        bill('gas', { usage: 3100, unit: 'ccf' }, { period_start: '2024-12-16', period_end: '2025-01-15' }),
      )
      .expect(201);
    const res = await as(t, alice).get(`/pm/properties/${p.id}/emissions?year=2025`).expect(200);
    // 1,539 therms x 0.00531148 t = 8.17436772 t.
    expect(res.body.meters[0]).toMatchObject({
      usage: 1539,
      usage_unit: 'therms',
      tco2e: 8.174,
      months: [{ month: '2025-01', usage: 1539, tco2e: 8.174 }],
    });
    expect(res.body).toMatchObject({ total_tco2e: 8.174, sqft: null, kg_co2e_per_sqft: null });
    expect(res.body.factors.map((f: { utility_type: string }) => f.utility_type)).toEqual(['gas']);
  });

  it('counts steam by the EPA Hub factor, lists water as not counted, and names the first of several subregions', async () => {
    // ZIP 00019 lists CAMX then NWPP in the Power Profiler map; GeoNames has no state for it, so the property says CA.
    const p = await createProperty(t, alice, { name: 'Two grids', address: '1 A St', city: 'Somewhere', state: 'CA', zip_code: '00019' });
    await as(t, alice)
      .post(`/pm/properties/${p.id}/bills`, bill('electric', { usage_kwh: 1000 }))
      .expect(201);
    await as(t, alice)
      .post(`/pm/properties/${p.id}/bills`, bill('water', { usage: 10, unit: 'kgal' }))
      .expect(201);
    await as(t, alice)
      .post(`/pm/properties/${p.id}/bills`, bill('steam', { usage: 100, unit: 'klbs' }))
      .expect(201);
    const res = await as(t, alice).get(`/pm/properties/${p.id}/emissions?year=2025`).expect(200);
    const byType = Object.fromEntries(res.body.meters.map((m: { utility_type: string }) => [m.utility_type, m]));
    expect(byType.water).toMatchObject({ counted: false, tco2e: null, reason: expect.stringContaining('not energy') });
    // Replaced rule: steam was not counted until the EPA Hub Table 7 factor (README "Factors").
    // 100 klbs = 119,400 kBtu = 119.4 mmBtu x 66.3985 kg = 7,927.98 kg.
    expect(byType.steam).toMatchObject({ counted: true, usage: 119400, usage_unit: 'kBtu', tco2e: 7.928, reason: null });
    // CAMX 499.278 lb/MWh: 1 MWh = 226.4688 kg.
    expect(byType.electric).toMatchObject({ counted: true, tco2e: 0.226 });
    expect(res.body.factors).toEqual([
      expect.objectContaining({
        subregion: 'CAMX',
        value: 499.278,
        note: expect.stringContaining('CAMX, NWPP: the first (CAMX) is used'),
      }),
      expect.objectContaining({ utility_type: 'steam', value: 66.3985, unit: 'kg CO2e/mmBtu', per_unit: 'kBtu', year: 2018 }),
    ]);
    // 0.2264688 + 7.9279809 = 8.1544497 t.
    expect(res.body.total_tco2e).toBe(8.154);
  });

  it("is the owner's only: 404 for another user and an unknown id; 422 for a bad year", async () => {
    const p = await createProperty(t, alice, NYC_OFFICE);
    await as(t, bob).get(`/pm/properties/${p.id}/emissions?year=2025`).expect(404);
    await as(t, alice).get('/pm/properties/no-such-property/emissions').expect(404);
    const bad = await as(t, alice).get(`/pm/properties/${p.id}/emissions?year=twenty`).expect(422);
    expect(bad.body.detail).toBeDefined();
    await as(t, alice).get(`/pm/properties/${p.id}/emissions?year=1999`).expect(422);
  });

  it('answers an empty year with every month at zero', async () => {
    const p = await createProperty(t, alice, NYC_OFFICE);
    const res = await as(t, alice).get(`/pm/properties/${p.id}/emissions?year=2024`).expect(200);
    expect(res.body).toMatchObject({ year: 2024, total_tco2e: 0, meters: [], factors: [] });
    expect(res.body.months).toHaveLength(12);
  });

  it("totals an owner's properties with their intensities (GET /pm/emissions), of one portfolio when asked", async () => {
    const carol = (await registerUser(t)).token;
    const portfolio = await createPortfolio(t, carol, 'New York');
    const office = await createProperty(t, carol, { ...NYC_OFFICE, portfolio_id: portfolio.id });
    const lofts = await createProperty(t, carol, { sqft: 10000 });
    await as(t, carol)
      .post(`/pm/properties/${office.id}/bills`, bill('electric', { usage_kwh: 100000 }))
      .expect(201);
    await as(t, carol)
      .post(`/pm/properties/${office.id}/bills`, bill('gas', { usage: 5000, unit: 'therms' }))
      .expect(201);
    const res = await as(t, carol).get('/pm/emissions?year=2025').expect(200);
    // 66.772 t over 60,000 sqft = 1.113 kg/sqft.
    expect(res.body).toEqual({
      ...ex.portfolioEmissions,
      properties: [
        { ...ex.portfolioEmissions.properties[0], property_id: lofts.id },
        { ...ex.portfolioEmissions.properties[1], property_id: office.id },
      ],
    });
    const one = await as(t, carol).get(`/pm/emissions?portfolio_id=${portfolio.id}`).expect(200);
    expect(one.body).toMatchObject({ year: 2025, total_tco2e: 66.772, kg_co2e_per_sqft: 1.335, properties: [{ property_id: office.id }] });
    await as(t, bob).get(`/pm/emissions?portfolio_id=${portfolio.id}`).expect(404);
    expect((await as(t, bob).get('/pm/emissions?year=2025').expect(200)).body).toMatchObject({
      total_tco2e: 0,
      properties: [],
      kg_co2e_per_sqft: null,
    });
  });
});
