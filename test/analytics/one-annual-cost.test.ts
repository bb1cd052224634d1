import type { TestApp } from '../helpers/app';
import { setTier, type RegisteredTestUser } from '../helpers/users';
import { as, createPortfolio, createProperty, GLADSTONE } from '../pm/helpers';
import { aliceMidwestAndBob, postBill, postMonthlyBills } from './helpers';

/**
 * Issue 47 item 9: one annual cost everywhere (analytics README "One annual cost", worked example). As of
 * 2026-11-15 the 12 complete months are Nov 2025..Oct 2026. Gladstone's C1 is $0.1217/kWh + $13.54 a month.
 *
 * - Eleven (portfolio Eleven): $1,000.00 and 10,000 kWh billed Dec 2025..Oct 2026, 11 of the 12 months:
 *   1,100,000 cents x 12 / 11 = $12,000.00 and 120,000 kWh (the raw bills were $11,000.00).
 * - Six (portfolio Six): C1 and 10,000 kWh a month typed, $5,500.00 billed May..Oct 2026 (raw $33,000.00): 6 months
 *   are fewer than 10, so its estimate: (10,000 x 0.1217 + 13.54) x 12 = 1,230.54 x 12 = $14,766.48, 120,000 kWh.
 * - Meters (portfolio Meters): three buildings without a tariff_id of their own, each with one electric meter on C1,
 *   1,000 / 2,000 / 3,000 kWh a month typed, 10 / 20 / 30 units and one October bill: estimated on the meter's tariff,
 *   135.24 / 256.94 / 378.64 a month, $1,622.88 / $3,083.28 / $4,543.68 a year (benchmarks ranked nobody).
 */
describe('one annual cost in portfolio analytics and benchmarks (issue 47 item 9)', () => {
  let t: TestApp;
  let owner: RegisteredTestUser;
  let eleven: { portfolio: string; property: string };
  let six: { portfolio: string; property: string };
  let metersPortfolio: string;
  const buildings: Record<string, string> = {};

  async function inNewPortfolio(name: string, property: Record<string, unknown>) {
    const portfolio = (await createPortfolio(t, owner.token, name)).id;
    return { portfolio, property: (await createProperty(t, owner.token, { name, portfolio_id: portfolio, ...property })).id };
  }

  async function meterOn(propertyId: string, tariffId: string, name = 'Main'): Promise<string> {
    return (
      await as(t, owner.token)
        .post(`/pm/properties/${propertyId}/meters`, { utility_type: 'electric', name, tariff_id: tariffId })
        .expect(201)
    ).body.id;
  }

  beforeAll(async () => {
    ({ t, alice: owner } = await aliceMidwestAndBob());
    await setTier(t, owner.user.id, 'pro');
    eleven = await inNewPortfolio('Eleven', { sqft: 10000 });
    await postMonthlyBills(t, owner.token, eleven.property, '2025-12', Array(11).fill(1000), Array(11).fill(10000));
    six = await inNewPortfolio('Six', { tariff_id: GLADSTONE.C1, monthly_usage_kwh: 10000, noi: 147664.8 });
    await postMonthlyBills(t, owner.token, six.property, '2026-05', Array(6).fill(5500), Array(6).fill(10000));
    metersPortfolio = (await createPortfolio(t, owner.token, 'Meters')).id;
    for (const [name, kwh, units, amount] of [
      ['Ash', 1000, 10, 135.24],
      ['Birch', 2000, 20, 256.94],
      ['Cedar', 3000, 30, 378.64],
    ] as const) {
      const id = (await createProperty(t, owner.token, { name, portfolio_id: metersPortfolio, monthly_usage_kwh: kwh, unit_count: units }))
        .id;
      buildings[name] = id;
      const meter = await meterOn(id, GLADSTONE.C1);
      await postBill(t, owner.token, id, {
        meter_id: meter,
        period_start: '2026-10-01',
        period_end: '2026-10-31',
        amount,
        usage_kwh: kwh,
      });
    }
  });
  afterAll(() => t.stop());

  it('11 of 12 months billed: the portfolio shows $12,000.00 of electric, not the $11,000.00 billed', async () => {
    const res = (await as(t, owner.token).get(`/pm/portfolios/${eleven.portfolio}/analytics`).expect(200)).body;
    const electric = { utility_type: 'electric', cost: 12000, usage: 120000, unit: 'kWh', basis: 'actual' };
    expect(res).toMatchObject({
      total_cost: 12000,
      total_usage_kwh: 120000,
      avg_rate_per_kwh: 0.1,
      cost_by_utility: [electric],
      total_annual_cost: 12000,
      cost_by_property: [{ property_id: eleven.property, name: 'Eleven', annual_cost: 12000, basis: 'actual' }],
    });
    // The months stay what was billed: December..October $1,000.00, November nothing yet.
    expect(res.cost_by_month.reduce((s: number, m: { cost: number }) => s + m.cost, 0)).toBe(11000);
    const detail = (await as(t, owner.token).get(`/pm/properties/${eleven.property}`).expect(200)).body;
    expect(detail).toMatchObject({ annual_cost: 12000, annual_cost_basis: 'actual', cost_by_utility: [electric] });
  });

  it('6 months billed: the portfolio shows the tariff estimate $14,766.48, not the $33,000.00 billed', async () => {
    const res = (await as(t, owner.token).get(`/pm/portfolios/${six.portfolio}/analytics`).expect(200)).body;
    expect(res).toMatchObject({
      total_cost: 14766.48,
      total_usage_kwh: 120000,
      total_annual_cost: 14766.48,
      avg_rate_per_kwh: 0.1231, // 1,476,648 cents / 120,000 kWh = $0.123054
      cost_by_utility: [{ utility_type: 'electric', cost: 14766.48, usage: 120000, unit: 'kWh', basis: 'estimate' }],
    });
    // energy_pct_of_noi: $14,766.48 / $147,664.80 = 10.00 %
    expect((await as(t, owner.token).get(`/pm/properties/${six.property}`).expect(200)).body.energy_pct_of_noi).toBe(10);
  });

  it('the dashboard and global analytics add the same figures', async () => {
    // 12,000.00 + 14,766.48 + 1,622.88 + 3,083.28 + 4,543.68
    const stats = (await as(t, owner.token).get('/pm/dashboard/stats').expect(200)).body;
    expect(stats.total_annual_cost).toBe(36016.32);
    expect((await as(t, owner.token).get('/pm/dashboard/global-analytics').expect(200)).body.total_annual_cost).toBe(36016.32);
  });

  it("benchmarks rank the three buildings estimated on their meter's tariff", async () => {
    const res = (await as(t, owner.token).get(`/pm/analytics/benchmarks?metric=cost_per_unit&portfolio_id=${metersPortfolio}`).expect(200))
      .body;
    // $ a unit: 1,622.88 / 10 = 162.288, 3,083.28 / 20 = 154.164, 4,543.68 / 30 = 151.456. Mean 467.908 / 3 = 155.9693;
    // Q1 = 151.456 + 0.5 x 2.708 = 152.81, Q3 = 154.164 + 0.5 x 8.124 = 158.226, threshold 158.226 + 1.5 x 5.416 = 166.35.
    // Issue 52 item 1: each entry's emissions of 2025 (no bills that year: 0 t; no sqft: no intensity).
    const co2 = { tco2e: 0, kg_co2e_per_sqft: null };
    expect(res).toEqual({
      metric: 'cost_per_unit',
      emissions_year: 2025,
      portfolio_avg: 155.9693,
      portfolio_median: 154.164,
      rankings: [
        { property_id: buildings.Cedar, name: 'Cedar', value: 151.456, percentile: 0, outlier: false, basis: 'estimate', ...co2 },
        { property_id: buildings.Birch, name: 'Birch', value: 154.164, percentile: 50, outlier: false, basis: 'estimate', ...co2 },
        { property_id: buildings.Ash, name: 'Ash', value: 162.288, percentile: 100, outlier: false, basis: 'estimate', ...co2 },
      ],
      outlier_threshold: 166.35,
      outlier_count: 0,
      partial_coverage: [],
      total: 3,
      page: 1,
      per_page: 100,
      pages: 1,
    });
    // The rate-analysis job (a tariff import, an own tariff's new version) prices the estimates again: the meters' tariff too.
    await t.services.rateAnalysis.process({ user_id: owner.user.id });
    const again = (
      await as(t, owner.token).get(`/pm/analytics/benchmarks?metric=cost_per_unit&portfolio_id=${metersPortfolio}`).expect(200)
    ).body;
    expect(again.rankings.map((r: { value: number }) => r.value)).toEqual([151.456, 154.164, 162.288]);
  });

  it("meters naming two tariffs leave no estimate; the estimate follows the meter's tariff", async () => {
    const id = (
      await createProperty(t, owner.token, { name: 'Dogwood', portfolio_id: metersPortfolio, monthly_usage_kwh: 1000, unit_count: 10 })
    ).id;
    const first = await meterOn(id, GLADSTONE.C1);
    const ranked = async () =>
      (
        await as(t, owner.token).get(`/pm/analytics/benchmarks?metric=cost_per_unit&portfolio_id=${metersPortfolio}`).expect(200)
      ).body.rankings.find((r: { property_id: string }) => r.property_id === id)?.value ?? null;
    expect(await ranked()).toBe(162.288);
    const second = await meterOn(id, GLADSTONE.C3_NON_CITY, 'Annex');
    expect(await ranked()).toBeNull(); // 1,000 kWh typed for the building: not split between C1 and C3
    await as(t, owner.token).patch(`/pm/meters/${first}`, { is_active: false }).expect(200);
    // C3 alone: (1,000 x 0.1241 + 14.54) x 12 = 138.64 x 12 = 1,663.68, 166.368 a unit
    expect(await ranked()).toBe(166.368);
    await as(t, owner.token).patch(`/pm/meters/${second}`, { tariff_id: null }).expect(200);
    expect(await ranked()).toBeNull();
  });
});
