import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as, createBill, createProperty, quartersOf } from '../pm/helpers';

const BOSTON_OFFICE = { name: 'State Street office', address: '1 State St', city: 'Boston', state: 'MA', zip_code: '02109', sqft: 50000 };

describe('Boston BERDO 2.0 through the API: property uses and the building-performance answer', () => {
  let t: TestApp;
  let alice: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2028-03-15T12:00:00Z') });
    alice = (await registerUser(t)).token;
  });
  afterAll(() => t.stop());

  const put = (path: string, body: unknown) => as(t, alice).put(path, body);

  /** A year billed quarterly: kWh, therms and kBtu of steam a year, a quarter of each per bill. */
  async function billYear(propertyId: string, year: number, kwh: number, therms: number, steamKbtu: number) {
    for (const [period_start, period_end] of quartersOf(year)) {
      const period = { period_start, period_end };
      await createBill(t, alice, propertyId, { utility_type: 'electric', amount: 20000, ...period, usage_kwh: kwh / 4 });
      await createBill(t, alice, propertyId, { utility_type: 'gas', amount: 5000, ...period, usage: therms / 4, unit: 'therms' });
      if (steamKbtu) {
        await createBill(t, alice, propertyId, {
          utility_type: 'steam',
          amount: 3000,
          ...period,
          usage: steamKbtu / 4,
          unit: 'kBtu',
        });
      }
    }
  }

  it("computes a Boston office's 2025 BERDO emissions, standard and alternative compliance payment, worked by hand", async () => {
    const p = await createProperty(t, alice, BOSTON_OFFICE);
    await billYear(p.id, 2025, 800_000, 20_000, 500_000);
    const before = await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=2025`).expect(200);
    expect(before.body.standards[0].berdo).toMatchObject({
      status: 'no_property_uses',
      limit_tco2e: null,
      notes: [expect.stringContaining('PUT /pm/properties/{id}/property-uses')],
    });
    await put(`/pm/properties/${p.id}/property-uses`, { uses: [{ property_type: 'Office', gross_floor_area: 50000 }] }).expect(200);
    const res = await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=2025`).expect(200);
    expect(res.body).toMatchObject({ jurisdiction: 'boston', applies: true });
    const standard = res.body.standards[0];
    expect(standard).toMatchObject({ status: 'partly_confirmed', periods: [] });
    expect(standard.sources).toContainEqual(expect.stringContaining('§ 7-2.2, Table 1'));
    // Electricity 800 MWh x (1 - 0.27) x 249 kg/MWh = 145,416 kg; gas 2,000 MMBtu x 53.11 = 106,220 kg; steam 500 MMBtu x
    // 66.40 = 33,200 kg; 284.836 t against 5.3 x 50,000 = 265 t: 19.836 t over x $234 = $4,641.624 -> $4,641.62.
    expect(standard.berdo).toEqual({
      status: 'computed',
      year: 2025,
      period: '2025-2029',
      emissions_tco2e: 284.836,
      emission_lines: [
        {
          fuel: 'electricity',
          energy: 800_000,
          energy_unit: 'kWh',
          factor: 249,
          factor_unit: 'kgCO2e/MWh',
          rps_class_i_percent: 27,
          tco2e: 145.416,
        },
        {
          fuel: 'natural_gas',
          energy: 20_000,
          energy_unit: 'therms',
          factor: 53.11,
          factor_unit: 'kgCO2e/MMBtu',
          rps_class_i_percent: null,
          tco2e: 106.22,
        },
        {
          fuel: 'district_steam',
          energy: 500_000,
          energy_unit: 'kBtu',
          factor: 66.4,
          factor_unit: 'kgCO2e/MMBtu',
          rps_class_i_percent: null,
          tco2e: 33.2,
        },
      ],
      gross_floor_area: 50_000,
      blended_standard_kg_per_sf: 5.3,
      limit_tco2e: 265,
      limit_lines: [{ property_type: 'Office', berdo_use: 'Office', gross_floor_area: 50_000, standard_kg_per_sf: 5.3, tco2e: 265 }],
      excess_tco2e: 19.836,
      acp_per_ton: 234,
      alternative_compliance_payment: 4641.62,
      missing: [],
      notes: [expect.stringContaining('secondary sources'), expect.stringContaining('Not modelled')],
    });
  });

  it("blends 2026's standard over a mixed-use building's uses, and finds Other/Specialty Hospital as stored", async () => {
    const p = await createProperty(t, alice, BOSTON_OFFICE);
    await billYear(p.id, 2026, 600_000, 40_000, 0);
    await put(`/pm/properties/${p.id}/property-uses`, {
      uses: [
        { property_type: 'Office', gross_floor_area: 30000 },
        { property_type: 'Retail Store', gross_floor_area: 20000 },
      ],
    }).expect(200);
    // 5.3 x 30,000 + 7.1 x 20,000 = 159 + 142 = 301 t (6.02 kg/sf); 600 MWh x 0.70 x 242 = 101.64 t, 4,000 MMBtu x 53.11 =
    // 212.44 t: 314.08 t, 13.08 t over x $234 = $3,060.72.
    const res = await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=2026`).expect(200);
    expect(res.body.standards[0].berdo).toMatchObject({
      status: 'computed',
      emissions_tco2e: 314.08,
      blended_standard_kg_per_sf: 6.02,
      limit_tco2e: 301,
      excess_tco2e: 13.08,
      alternative_compliance_payment: 3060.72,
    });
    // Portfolio Manager's web-services name of the specialty hospital type, as stored: Healthcare, 15.4 (2025-2029) x 50,000 = 770 t.
    await put(`/pm/properties/${p.id}/property-uses`, {
      uses: [{ property_type: 'Other/Specialty Hospital', gross_floor_area: 50000 }],
    }).expect(200);
    const hospital = await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=2026`).expect(200);
    expect(hospital.body.standards[0].berdo).toMatchObject({
      status: 'computed',
      limit_tco2e: 770,
      limit_lines: [{ property_type: 'Other/Specialty Hospital', berdo_use: 'Healthcare' }],
      excess_tco2e: 0,
      alternative_compliance_payment: 0,
    });
  });

  it('names what is not confirmed: a later year, an unmapped type, fuel oil', async () => {
    const p = await createProperty(t, alice, BOSTON_OFFICE);
    await billYear(p.id, 2027, 600_000, 40_000, 0);
    await put(`/pm/properties/${p.id}/property-uses`, { uses: [{ property_type: 'Office', gross_floor_area: 50000 }] }).expect(200);
    const later = await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=2027`).expect(200);
    expect(later.body.standards[0]).toMatchObject({
      status: 'not_confirmed',
      berdo: {
        status: 'not_confirmed',
        period: '2025-2029',
        emissions_tco2e: null,
        limit_tco2e: null,
        alternative_compliance_payment: null,
        missing: [
          expect.stringContaining('projected grid emission factor for 2027'),
          expect.stringContaining('natural gas emission factor'),
        ],
      },
    });
    await put(`/pm/properties/${p.id}/property-uses`, {
      uses: [{ property_type: 'Senior Care Community', gross_floor_area: 50000 }],
    }).expect(200);
    const unmapped = await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=2027`).expect(200);
    expect(unmapped.body.standards[0].berdo.missing).toContainEqual(
      'BERDO building use of the Portfolio Manager type "Senior Care Community"',
    );
    // 1,000 gallons of No. 2 in January 2026 beside a year the factors are confirmed for: fuel oil is named.
    const q = await createProperty(t, alice, BOSTON_OFFICE);
    await billYear(q.id, 2026, 600_000, 40_000, 0);
    await createBill(t, alice, q.id, {
      utility_type: 'fuel_oil_2',
      amount: 3500,
      usage: 1000,
      unit: 'gallons',
      period_start: '2026-01-01',
      period_end: '2026-01-31',
    });
    await put(`/pm/properties/${q.id}/property-uses`, { uses: [{ property_type: 'Office', gross_floor_area: 50000 }] }).expect(200);
    const oil = await as(t, alice).get(`/pm/properties/${q.id}/building-performance?year=2026`).expect(200);
    expect(oil.body.standards[0].berdo).toMatchObject({
      status: 'not_confirmed',
      missing: [expect.stringContaining('fuel oil No. 2 emission factor')],
    });
  });

  it('the what-if prices BERDO as well: a 20 % gas cut brings the office under its standard, the payment to $0', async () => {
    // Gas 16,000 therms = 1,600 MMBtu x 53.11 = 84.976 t; 145.416 + 84.976 + 33.2 = 263.592 t, under 265 t: -$4,641.62.
    const p = await createProperty(t, alice, { ...BOSTON_OFFICE, name: 'What-if office' });
    await billYear(p.id, 2025, 800_000, 20_000, 500_000);
    await put(`/pm/properties/${p.id}/property-uses`, { uses: [{ property_type: 'Office', gross_floor_area: 50000 }] }).expect(200);
    const res = await as(t, alice)
      .post(`/pm/properties/${p.id}/what-if`, { year: 2025, changes: [{ kind: 'cut', utility_type: 'gas', percent: 20 }] })
      .expect(200);
    const berdo = (side: { building_performance: { periods: Array<{ standard: string }> } }) =>
      side.building_performance.periods.find((x) => x.standard.startsWith('Boston BERDO'));
    expect(berdo(res.body.before)).toMatchObject({
      period: '2025-2029',
      status: 'computed',
      emissions_tco2e: 284.836,
      limit_tco2e: 265,
      projected_penalty: 4641.62,
    });
    expect(berdo(res.body.after)).toMatchObject({ emissions_tco2e: 263.592, excess_tco2e: 0, projected_penalty: 0 });
    expect(res.body.delta.projected_penalty).toContainEqual(expect.objectContaining({ period: '2025-2029', projected_penalty: -4641.62 }));
  });
});
