import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as, createBill, createProperty, quartersOf } from '../pm/helpers';

const DENVER_OFFICE = { name: 'Larimer office', address: '1600 Larimer St', city: 'Denver', state: 'CO', zip_code: '80202', sqft: 50000 };

const QUARTERS = quartersOf(2025);

describe('Energize Denver through the API: property uses and the building-performance answer', () => {
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

  it("gives a Denver office's 2025 site EUI against its final target, worked by hand (README)", async () => {
    const p = await createProperty(t, alice, DENVER_OFFICE);
    for (const [period_start, period_end] of QUARTERS) {
      await createBill(t, alice, p.id, { utility_type: 'electric', amount: 15000, period_start, period_end, usage_kwh: 150000 });
      await createBill(t, alice, p.id, { utility_type: 'gas', amount: 5000, period_start, period_end, usage: 5000, unit: 'therms' });
    }
    // Without property uses: the site energy, and how to get a target.
    const before = await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=2025`).expect(200);
    expect(before.body).toMatchObject({ jurisdiction: 'denver', applies: true });
    expect(before.body.standards[0]).toMatchObject({
      standard: expect.stringContaining('Energize Denver'),
      status: 'partly_confirmed',
      periods: [],
      energize_denver: {
        status: 'no_property_uses',
        site_energy_kbtu: 4_047_200,
        site_eui: null,
        final_target_eui: null,
        kbtu_over_final_target: null,
        notes: expect.arrayContaining([expect.stringContaining('PUT /pm/properties/{id}/property-uses')]),
      },
    });

    await put(alice, `/pm/properties/${p.id}/property-uses`, { uses: [{ property_type: 'Office', gross_floor_area: 50000 }] }).expect(200);
    // Hand-worked: 600,000 kWh x 3.412 = 2,047,200 kBtu; 20,000 therms x 100 = 2,000,000 kBtu; 4,047,200 kBtu.
    // Site EUI 4,047,200 / 50,000 sf = 80.944 -> 80.9 kBtu/sf; final target Office 48.3 -> 2,415,000 kBtu; 1,632,200 kBtu over.
    const res = await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=2025`).expect(200);
    const d = res.body.standards[0].energize_denver;
    expect(d).toMatchObject({
      status: 'computed',
      year: 2025,
      site_energy_kbtu: 4_047_200,
      energy_lines: [
        { utility_type: 'electric', energy: 600_000, energy_unit: 'kWh', kbtu_per_unit: 3.412, kbtu: 2_047_200 },
        { utility_type: 'gas', energy: 20_000, energy_unit: 'therms', kbtu_per_unit: 100, kbtu: 2_000_000 },
      ],
      gross_floor_area: 50_000,
      site_eui: 80.9,
      weather_normalized: false,
      final_target_year: 2032,
      final_target_eui: 48.3,
      target_lines: [{ property_type: 'Office', gross_floor_area: 50_000, target_eui: 48.3, target_kbtu: 2_415_000, note: null }],
      kbtu_over_final_target: 1_632_200,
      projected_penalty: null,
    });
    expect(d.notes.join(' ')).toContain('not weather normalized');

    // Mixed use: 40,000 sf Office + 10,000 sf Multifamily Housing: 1,932,000 + 442,000 = 2,374,000 kBtu, 47.48 kBtu/sf;
    // 4,047,200 - 2,374,000 = 1,673,200 kBtu over.
    await put(alice, `/pm/properties/${p.id}/property-uses`, {
      uses: [
        { property_type: 'Office', gross_floor_area: 40000 },
        { property_type: 'Multifamily Housing', gross_floor_area: 10000 },
      ],
    }).expect(200);
    const mixed = await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=2025`).expect(200);
    expect(mixed.body.standards[0].energize_denver).toMatchObject({
      status: 'computed',
      site_eui: 80.9,
      final_target_eui: 47.48,
      kbtu_over_final_target: 1_673_200,
    });

    // A use whose target the city sets from the building's own baseline: no blended target.
    await put(alice, `/pm/properties/${p.id}/property-uses`, { uses: [{ property_type: 'Museum', gross_floor_area: 50000 }] }).expect(200);
    const museum = await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=2025`).expect(200);
    expect(museum.body.standards[0].energize_denver).toMatchObject({
      status: 'target_not_confirmed',
      final_target_eui: null,
      kbtu_over_final_target: null,
    });
  });

  it('records property uses: replaced as a whole, each type once, validated, the owner only', async () => {
    const p = await createProperty(t, alice, DENVER_OFFICE);
    expect((await as(t, alice).get(`/pm/properties/${p.id}/property-uses`).expect(200)).body).toEqual({
      property_id: p.id,
      uses: [],
      gross_floor_area: 0,
    });
    await put(alice, `/pm/properties/${p.id}/property-uses`, {
      uses: [
        { property_type: 'Retail Store', gross_floor_area: 10000 },
        { property_type: 'Hospital (General Medical & Surgical)', gross_floor_area: 30000 },
      ],
    }).expect(200);
    expect((await as(t, alice).get(`/pm/properties/${p.id}/property-uses`).expect(200)).body).toEqual({
      property_id: p.id,
      uses: [
        { property_type: 'Hospital (General Medical & Surgical)', gross_floor_area: 30000 },
        { property_type: 'Retail Store', gross_floor_area: 10000 },
      ],
      gross_floor_area: 40000,
    });
    const twice = await put(alice, `/pm/properties/${p.id}/property-uses`, {
      uses: [
        { property_type: 'Office', gross_floor_area: 1 },
        { property_type: 'Office', gross_floor_area: 2 },
      ],
    }).expect(422);
    expect(twice.body).toMatchObject({ detail: 'each property_type at most once', errors: [{ field: 'uses' }] });
    // Not Portfolio Manager's spelling: refused, not guessed.
    const unknown = await put(alice, `/pm/properties/${p.id}/property-uses`, {
      uses: [{ property_type: 'office', gross_floor_area: 1 }],
    }).expect(422);
    expect(unknown.body.errors[0].field).toBe('uses.0.property_type');
    await put(alice, `/pm/properties/${p.id}/property-uses`, { uses: [{ property_type: 'Office', gross_floor_area: 0 }] }).expect(422);
    await put(alice, `/pm/properties/${p.id}/property-uses`, { uses: [{ property_type: 'Office', gross_floor_area: 1.5 }] }).expect(422);
    await put(alice, `/pm/properties/${p.id}/property-uses`, {}).expect(422);
    // A refused PUT changed nothing.
    expect((await as(t, alice).get(`/pm/properties/${p.id}/property-uses`).expect(200)).body.gross_floor_area).toBe(40000);
    await put(bob, `/pm/properties/${p.id}/property-uses`, { uses: [] }).expect(404);
    await as(t, bob).get(`/pm/properties/${p.id}/property-uses`).expect(404);
    await as(t, alice).get(`/pm/properties/00000000-0000-0000-0000-000000000000/property-uses`).expect(404);
    await put(alice, `/pm/properties/${p.id}/property-uses`, { uses: [] }).expect(200);
    expect((await as(t, alice).get(`/pm/properties/${p.id}/property-uses`).expect(200)).body.uses).toEqual([]);
  });

  it('leaves New York and Boston answers without an Energize Denver part', async () => {
    const ny = await createProperty(t, alice, { city: 'New York', state: 'NY', zip_code: '10001' });
    await put(alice, `/pm/properties/${ny.id}/property-uses`, { uses: [{ property_type: 'Office', gross_floor_area: 40000 }] }).expect(200);
    const res = await as(t, alice).get(`/pm/properties/${ny.id}/building-performance?year=2025`).expect(200);
    expect(res.body.jurisdiction).toBe('new_york_city');
    expect(res.body.standards[0].energize_denver).toBeUndefined();
    const boston = await createProperty(t, alice, { city: 'Boston', state: 'MA', zip_code: '02108' });
    const b = await as(t, alice).get(`/pm/properties/${boston.id}/building-performance?year=2025`).expect(200);
    expect(b.body).toMatchObject({
      jurisdiction: 'boston',
      standards: [{ status: 'partly_confirmed', berdo: { status: 'no_property_uses' } }],
    });
    expect(b.body.standards[0].energize_denver).toBeUndefined();
  });
});
