import type { TestApp } from '../helpers/app';
import { setTier, type RegisteredTestUser } from '../helpers/users';
import { as, createProperty } from '../pm/helpers';
import { aliceMidwestAndBob, postBill, postMonthlyBills } from './helpers';

/**
 * Issue 29: a New York building with a year of electric bills ($1,000.00 and 10,000 kWh a month), quarterly
 * water bills ($3,000.00 and 30 kgal each) and half a year of gas ($500.00 a month). Before, per-kWh figures
 * divided the water dollars by electric kWh, and the dashboard, global and portfolio analytics gave three
 * annual costs. Now (as of 2026-11-15, the 12 complete months being Nov 2025..Oct 2026):
 *   electric: 12 billed months, $12,000.00 and 120,000 kWh a year;
 *   water: every month billed (calendarised), $12,000.00 and 120 kgal = 120,000 gallons;
 *   gas: 6 billed months, fewer than 10: no annual figure.
 * One annual cost everywhere, $24,000.00; $ per kWh is electric over electric, $0.10.
 */
describe('analytics by utility type: one annual cost, per-kWh on electric only', () => {
  let t: TestApp;
  let nina: RegisteredTestUser;
  let tower: string;
  let portfolio: string;
  const electric = { utility_type: 'electric', cost: 12000, usage: 120000, unit: 'kWh', basis: 'actual' };
  const water = { utility_type: 'water', cost: 12000, usage: 120000, unit: 'gallons', basis: 'actual' };

  beforeAll(async () => {
    ({ t, alice: nina } = await aliceMidwestAndBob());
    await setTier(t, nina.user.id, 'pro');
    portfolio = (await as(t, nina.token).post('/pm/portfolios', { name: 'Manhattan' }).expect(201)).body.id;
    tower = (
      await createProperty(t, nina.token, {
        name: 'Tower',
        state: 'NY',
        zip_code: '10001',
        sqft: 20000,
        noi: 120000,
        portfolio_id: portfolio,
      })
    ).id;
    await postMonthlyBills(t, nina.token, tower, '2025-11', Array(12).fill(1000), Array(12).fill(10000));
    for (const [start, end] of [
      ['2025-11-01', '2026-01-31'],
      ['2026-02-01', '2026-04-30'],
      ['2026-05-01', '2026-07-31'],
      ['2026-08-01', '2026-10-31'],
    ]) {
      await postBill(t, nina.token, tower, { utility_type: 'water', period_start: start!, period_end: end!, amount: 3000, usage: 30 });
    }
    for (const month of ['01', '02', '03', '04', '05', '06']) {
      await postBill(t, nina.token, tower, {
        utility_type: 'gas',
        period_start: `2026-${month}-01`,
        period_end: `2026-${month}-28`,
        amount: 500,
        usage: 400,
      });
    }
  });
  afterAll(() => t.stop());

  it('dashboard stats, global and portfolio analytics and benchmarks show the same annual cost', async () => {
    const stats = (await as(t, nina.token).get('/pm/dashboard/stats').expect(200)).body;
    expect(stats).toMatchObject({ total_annual_cost: 24000, total_monthly_cost: 2000, avg_cost_per_kwh: 0.1, avg_cost_per_sqft: 1.2 });
    expect(stats.cost_by_utility).toEqual([electric, water]);
    const global = (await as(t, nina.token).get('/pm/dashboard/global-analytics').expect(200)).body;
    expect(global).toMatchObject({ total_annual_cost: 24000, total_annual_kwh: 120000, avg_cost_per_kwh: 0.1 });
    expect(global.cost_by_utility).toEqual([electric, water]);
    const port = (await as(t, nina.token).get(`/pm/portfolios/${portfolio}/analytics`).expect(200)).body;
    expect(port).toMatchObject({
      total_annual_cost: 24000,
      cost_by_property: [{ property_id: tower, name: 'Tower', annual_cost: 24000, basis: 'actual' }],
    });
    const bench = (await as(t, nina.token).get('/pm/analytics/benchmarks?metric=cost_per_sqft').expect(200)).body;
    expect(bench.rankings).toEqual([expect.objectContaining({ property_id: tower, value: 1.2, basis: 'actual' })]);
  });

  it('anything per kWh is electric dollars over electric kWh', async () => {
    const perKwh = (await as(t, nina.token).get('/pm/analytics/benchmarks?metric=cost_per_kwh').expect(200)).body;
    expect(perKwh.rankings[0].value).toBe(0.1); // not ($12,000 + $12,000 + gas) / 120,000 kWh
    // Issue 47 replaced the portfolio's raw bills of the 12 months ending with November (electric Dec..Oct, $11,000 and
    // 110,000 kWh; gas and water as billed) with the one annual cost: electric and water, gas without a figure.
    const port = (await as(t, nina.token).get(`/pm/portfolios/${portfolio}/analytics`).expect(200)).body;
    expect(port).toMatchObject({ total_cost: 24000, total_usage_kwh: 120000, avg_rate_per_kwh: 0.1 });
    expect(port.cost_by_utility).toEqual([electric, water]);
  });

  it('site EUI: kBtu of site energy per sqft a year, ENERGY STAR factors (120,000 kWh x 3.412 / 20,000 sqft)', async () => {
    const eui = (await as(t, nina.token).get('/pm/analytics/benchmarks?metric=site_eui').expect(200)).body;
    expect(eui.rankings[0].value).toBe(20.472); // gas has no annual figure; water is not energy
  });

  it('the cost trend gives each month by utility type; total_kwh is electric', async () => {
    const trend = (await as(t, nina.token).get('/pm/dashboard/cost-trend?months=12').expect(200)).body;
    const january = trend.months.find((m: { month: string }) => m.month === '2026-01');
    // water: $3,000.00 over Nov 1..Jan 31 (92 days): January's share R(300000 x 92 / 92) - R(300000 x 61 / 92) = 101,087 cents
    expect(january).toEqual({
      month: '2026-01',
      total_cost: 2510.87,
      total_kwh: 10000,
      property_count: 1,
      cost_by_utility: [
        { utility_type: 'electric', cost: 1000, usage: 10000, unit: 'kWh' },
        { utility_type: 'gas', cost: 500, usage: 400, unit: 'therms' },
        { utility_type: 'water', cost: 1010.87, usage: 10108.696, unit: 'gallons' },
      ],
    });
  });

  it('property detail: the annual cost by utility type, and energy_pct_of_noi from it', async () => {
    const detail = (await as(t, nina.token).get(`/pm/properties/${tower}`).expect(200)).body;
    expect(detail).toMatchObject({
      annual_cost: 24000,
      annual_cost_basis: 'actual',
      energy_pct_of_noi: 20,
      cost_by_utility: [electric, water],
    });
    const patched = (await as(t, nina.token).patch(`/pm/properties/${tower}`, { noi: 240000 }).expect(200)).body;
    expect(patched.energy_pct_of_noi).toBe(10);
  });

  it('health checks each meter: an electric jump against the same period a year earlier shows, whatever the water bills', async () => {
    // Annex: electric read from the 12th to the 11th, $1,000.00 for 2025-10-12..2025-11-11 and $1,470.00 for the same
    // days of 2026 (47 % more per day); a quarterly water bill in between; one estimated water read.
    const annex = (await createProperty(t, nina.token, { name: 'Annex', state: 'NY', zip_code: '10001', sqft: 5000 })).id;
    const electricBill = (start: string, end: string, amount: number) =>
      postBill(t, nina.token, annex, { period_start: start, period_end: end, amount });
    await electricBill('2025-10-12', '2025-11-11', 1000);
    await electricBill('2026-09-12', '2026-10-11', 1000);
    await electricBill('2026-10-12', '2026-11-11', 1470);
    await postBill(t, nina.token, annex, {
      utility_type: 'water',
      period_start: '2026-07-01',
      period_end: '2026-09-30',
      amount: 3000,
      is_estimated: true,
    });
    const health = (await as(t, nina.token).get('/pm/properties/health').expect(200)).body;
    const row = health.properties.find((p: { property_id: string }) => p.property_id === annex);
    expect(row.issues).toEqual([
      'No tariff set',
      'No monthly usage set',
      'Bills cover only 5 of the last 12 months', // July..November
      'Water meter: 1 estimated read in the last 12 months',
      'Bill anomaly: Electric meter, 2026-10-12 to 2026-11-11, cost 47% more per day than the same period a year earlier',
    ]);
    expect(row.score).toBe(100 - 10 - 10 - 10 - 5 - 15);
  });
});
