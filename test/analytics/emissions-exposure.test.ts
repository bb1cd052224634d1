import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser, setTier, type RegisteredTestUser } from '../helpers/users';
import { as, createProperty, quartersOf } from '../pm/helpers';

/**
 * Issue 52 items 1 and 4: emissions and building-performance exposure in the analytics the workers
 * keep current, beside cost in the dashboard and benchmarks, and one notification of a projected
 * penalty (analytics README "Emissions and building-performance exposure").
 *
 * As of 2026-03-15 the latest complete calendar year is 2025. Two offices at ZIP 10001 (New York
 * County; eGRID NYCW, 886.58 lb CO2e/MWh), each 40,000 sf of occupancy group B, billed quarterly in 2025:
 * - Over: 1,000,000 kWh and 20,000 therms. Location-based: 1,000 MWh x 886.58 lb x 0.45359237 = 402,145.92 kg,
 *   2,000 mmBtu x 53.1148 kg = 106,229.60 kg; 508,375.52 kg = 508.376 t; 508,376 / 40,000 = 12.709 kg/sf
 *   (12.7094 as a benchmark value). Local Law 97: 1,000,000 x 0.000288962 = 288.962 t + 2,000,000 kBtu x
 *   0.00005311 = 106.22 t = 395.182 t; limit 0.00846 x 40,000 = 338.4 t; 56.782 t over x $268 = $15,217.58.
 * - Under: half of each. Location-based 201,072.96 + 53,114.80 = 254,187.76 kg = 254.188 t, 6.3547 kg/sf;
 *   Local Law 97 144.481 + 53.11 = 197.591 t, under 338.4 t: no penalty.
 * Together: 508.376 + 254.188 = 762.564 t over 80,000 sf = 9.53205, 9.532 kg CO2e/sf.
 */
const NOW = new Date('2026-03-15T12:00:00Z');
const OFFICE = { city: 'New York', state: 'NY', zip_code: '10001', sqft: 40000 };
const QUARTERS = quartersOf(2025);
const STANDARD = 'New York City Local Law 97 of 2019 (Administrative Code § 28-320)';

describe('emissions and building-performance exposure in the analytics', () => {
  let t: TestApp;
  let owner: RegisteredTestUser;
  let over: string;
  let under: string;

  const put = (path: string, body: unknown) => as(t, owner.token).put(path, body);
  const occupancy = (id: string, group: string) =>
    put(`/pm/properties/${id}/occupancy`, { areas: [{ occupancy_group: group, gross_floor_area: 40000 }] }).expect(200);
  const penaltyNotes = async () =>
    (await as(t, owner.token).get('/pm/notifications?per_page=100').expect(200)).body.items.filter(
      (n: { type: string }) => n.type === 'building_performance_penalty',
    );

  async function office(name: string, quarterKwh: number, quarterTherms: number): Promise<string> {
    const { id } = await createProperty(t, owner.token, { ...OFFICE, name });
    await occupancy(id, 'B');
    for (const [period_start, period_end] of QUARTERS) {
      await as(t, owner.token)
        .post(`/pm/properties/${id}/bills`, { utility_type: 'electric', amount: 40000, period_start, period_end, usage_kwh: quarterKwh })
        .expect(201);
      await as(t, owner.token)
        .post(`/pm/properties/${id}/bills`, {
          utility_type: 'gas',
          amount: 6000,
          period_start,
          period_end,
          usage: quarterTherms,
          unit: 'therms',
        })
        .expect(201);
    }
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp({ now: () => NOW });
    owner = await registerUser(t);
    await setTier(t, owner.user.id, 'pro');
    over = await office('Midtown office', 250000, 5000);
    under = await office('Chelsea office', 125000, 2500);
  });
  afterAll(() => t.stop());

  it('the recompute the workers run stores each property’s emissions; the dashboard totals them beside cost', async () => {
    await t.services.analytics.processRollup({ owner_id: owner.user.id, full: true });
    const stats = (await as(t, owner.token).get('/pm/dashboard/stats').expect(200)).body;
    expect(stats).toMatchObject({
      total_sqft: 80000,
      emissions_year: 2025,
      emissions_tco2e: 762.564,
      emissions_kg_co2e_per_sqft: 9.532,
      properties_over_emissions_limit: 1,
      projected_emissions_penalty: 15217.58,
    });
    // The same figures as the emissions module's own answer for the year.
    const portfolio = (await as(t, owner.token).get('/pm/emissions?year=2025').expect(200)).body;
    expect([portfolio.total_tco2e, portfolio.kg_co2e_per_sqft]).toEqual([stats.emissions_tco2e, stats.emissions_kg_co2e_per_sqft]);
  });

  it('benchmarks carry each property’s emissions and intensity, and rank by kg CO2e per sqft', async () => {
    const cost = (await as(t, owner.token).get('/pm/analytics/benchmarks').expect(200)).body;
    expect(cost.emissions_year).toBe(2025);
    expect(
      cost.rankings.map((r: { name: string; tco2e: number; kg_co2e_per_sqft: number }) => [r.name, r.tco2e, r.kg_co2e_per_sqft]),
    ).toEqual(
      expect.arrayContaining([
        ['Midtown office', 508.376, 12.709],
        ['Chelsea office', 254.188, 6.355],
      ]),
    );
    const res = (await as(t, owner.token).get('/pm/analytics/benchmarks?metric=kg_co2e_per_sqft').expect(200)).body;
    // Ascending: 6.3547, 12.7094; mean 19.0641 / 2 = 9.53205 -> 9.5321 (half away from zero).
    expect(res).toMatchObject({
      metric: 'kg_co2e_per_sqft',
      emissions_year: 2025,
      portfolio_avg: 9.5321,
      portfolio_median: 9.5321,
      rankings: [
        { property_id: under, value: 6.3547, percentile: 0, tco2e: 254.188, kg_co2e_per_sqft: 6.355, basis: 'actual' },
        { property_id: over, value: 12.7094, percentile: 100, tco2e: 508.376, kg_co2e_per_sqft: 12.709, basis: 'actual' },
      ],
    });
  });

  it('a projected penalty raises one notification naming the standard, the excess and the penalty; recomputes raise no second', async () => {
    const notes = await penaltyNotes();
    expect(notes).toEqual([
      expect.objectContaining({
        property_id: over,
        message:
          `Midtown office: projected ${STANDARD} penalty of $15,217.58 for 2025 (2024-2029 period): ` +
          '395.182 t CO2e against a limit of 338.4 t, 56.782 t over',
      }),
    ]);
    // A full recompute, and a write that keeps the penalty (a January 2026 bill) with its own recompute: still one.
    await t.services.analytics.recompute(owner.user.id, { full: true });
    await as(t, owner.token)
      .post(`/pm/properties/${over}/bills`, {
        utility_type: 'electric',
        amount: 100,
        period_start: '2026-01-01',
        period_end: '2026-01-31',
        usage_kwh: 1000,
      })
      .expect(201);
    await t.services.analytics.recompute(owner.user.id);
    expect(await penaltyNotes()).toHaveLength(1);
  });

  it('a penalty cleared and back raises a new one; a property under its limit raises none', async () => {
    // Ambulatory health care (23.81 kg/sf): limit 952.4 t, no excess. The occupancy change marks the property (a trigger),
    // so the next read recomputes it: without the mark the dashboard would still show the penalty.
    await occupancy(over, 'B-ambulatory-health');
    expect((await as(t, owner.token).get('/pm/dashboard/stats').expect(200)).body).toMatchObject({
      properties_over_emissions_limit: 0,
      projected_emissions_penalty: 0,
    });
    expect(await penaltyNotes()).toHaveLength(1);
    await occupancy(over, 'B');
    await t.services.analytics.recompute(owner.user.id);
    const notes = await penaltyNotes();
    expect(notes).toHaveLength(2);
    expect(notes.every((n: { property_id: string }) => n.property_id === over)).toBe(true);
  });

  it("a property recorded by its Portfolio Manager uses is stored with the rule's limit, as its own answer gives it", async () => {
    // 2025, Office only, no occupancy groups: 0.00758 x 40,000 = 303.2 t; 395.182 t, 91.982 t over x $268 = $24,651.18.
    const { id } = await createProperty(t, owner.token, { ...OFFICE, name: 'Hudson Yards office' });
    for (const [period_start, period_end] of QUARTERS) {
      await as(t, owner.token)
        .post(`/pm/properties/${id}/bills`, { utility_type: 'electric', amount: 40000, period_start, period_end, usage_kwh: 250000 })
        .expect(201);
      await as(t, owner.token)
        .post(`/pm/properties/${id}/bills`, { utility_type: 'gas', amount: 6000, period_start, period_end, usage: 5000, unit: 'therms' })
        .expect(201);
    }
    await put(`/pm/properties/${id}/property-uses`, { uses: [{ property_type: 'Office', gross_floor_area: 40000 }] }).expect(200);
    await t.services.analytics.recompute(owner.user.id, { full: true });
    const answer = (await as(t, owner.token).get(`/pm/properties/${id}/building-performance?year=2025`).expect(200)).body;
    expect(answer.standards[0].periods[0]).toMatchObject({
      limit_basis: 'property_types',
      limit_tco2e: 303.2,
      projected_penalty: 24651.18,
    });
    // The dashboard: the Midtown office's $15,217.58 and this one's $24,651.18 = $39,868.76.
    expect((await as(t, owner.token).get('/pm/dashboard/stats').expect(200)).body).toMatchObject({
      properties_over_emissions_limit: 2,
      projected_emissions_penalty: 39868.76,
    });
    const notes = (await penaltyNotes()).filter((n: { property_id: string }) => n.property_id === id);
    expect(notes).toEqual([
      expect.objectContaining({
        message:
          `Hudson Yards office: projected ${STANDARD} penalty of $24,651.18 for 2025 (2024-2029 period): ` +
          '395.182 t CO2e against a limit of 303.2 t, 91.982 t over',
      }),
    ]);
  });

  it('a change of property uses marks the property (a trigger, as occupancy does): the next read recomputes it', async () => {
    // Hudson Yards recorded as Hospital (General Medical & Surgical): 0.02381 x 40,000 = 952.4 t in 2024-2029, no excess.
    const hudson = (await as(t, owner.token).get('/pm/properties?per_page=100').expect(200)).body.items.find(
      (p: { name: string }) => p.name === 'Hudson Yards office',
    ).id;
    await put(`/pm/properties/${hudson}/property-uses`, {
      uses: [{ property_type: 'Hospital (General Medical & Surgical)', gross_floor_area: 40000 }],
    }).expect(200);
    expect((await as(t, owner.token).get('/pm/dashboard/stats').expect(200)).body).toMatchObject({
      properties_over_emissions_limit: 1,
      projected_emissions_penalty: 15217.58,
    });
  });

  it("a Boston office's BERDO alternative compliance payment is stored and notified as its projected penalty", async () => {
    // The emissions README's BERDO example: 50,000 sf Office, 800,000 kWh, 20,000 therms and 500,000 kBtu of steam in 2025:
    // 284.836 t against 5.3 x 50,000 = 265 t, 19.836 t over x $234 = $4,641.62.
    const { id } = await createProperty(t, owner.token, {
      city: 'Boston',
      state: 'MA',
      zip_code: '02109',
      sqft: 50000,
      name: 'State Street office',
    });
    for (const [period_start, period_end] of QUARTERS) {
      const period = { period_start, period_end };
      await as(t, owner.token)
        .post(`/pm/properties/${id}/bills`, { utility_type: 'electric', amount: 20000, ...period, usage_kwh: 200000 })
        .expect(201);
      await as(t, owner.token)
        .post(`/pm/properties/${id}/bills`, { utility_type: 'gas', amount: 5000, ...period, usage: 5000, unit: 'therms' })
        .expect(201);
      await as(t, owner.token)
        .post(`/pm/properties/${id}/bills`, { utility_type: 'steam', amount: 3000, ...period, usage: 125000, unit: 'kBtu' })
        .expect(201);
    }
    await put(`/pm/properties/${id}/property-uses`, { uses: [{ property_type: 'Office', gross_floor_area: 50000 }] }).expect(200);
    await t.services.analytics.recompute(owner.user.id);
    // The Midtown office's $15,217.58 and this one's $4,641.62 = $19,859.20.
    expect((await as(t, owner.token).get('/pm/dashboard/stats').expect(200)).body).toMatchObject({
      properties_over_emissions_limit: 2,
      projected_emissions_penalty: 19859.2,
    });
    const notes = (await penaltyNotes()).filter((n: { property_id: string }) => n.property_id === id);
    expect(notes).toEqual([
      expect.objectContaining({
        message:
          'State Street office: projected Boston BERDO 2.0 (Building Emissions Reduction and Disclosure Ordinance, City of Boston ' +
          'Code § 7-2.2) penalty of $4,641.62 for 2025 (2025-2029 period): 284.836 t CO2e against a limit of 265 t, 19.836 t over',
      }),
    ]);
  });
});
