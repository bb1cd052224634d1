import type { TestApp } from '../helpers/app';
import type { RegisteredTestUser } from '../helpers/users';
import { as, createPortfolio, createProperty, GLADSTONE } from '../pm/helpers';
import { aliceMidwestAndBob, postBill, postMonthlyBills } from './helpers';

/**
 * Issue 47 item 9: GET /pm/portfolios/{id}'s summary is the properties' one annual cost (analytics README "One annual
 * cost"), the figure portfolio analytics gives, not the sum of the stored tariff estimates. As of 2026-11-15 the 12
 * complete months are Nov 2025..Oct 2026; Gladstone's C1 is $0.1217/kWh + $13.54 a month.
 *
 * - Eleven (10,000 sqft; C1 and 5,000 kWh a month typed: an estimate of (5,000 x 0.1217 + 13.54) x 12 = $7,464.48):
 *   electric $1,000.00 and 10,000 kWh billed Dec 2025..Oct 2026, 11 of the 12 months, so actual:
 *   1,100,000 cents x 12 / 11 = $12,000.00 and 120,000 kWh; water $250.00 and 9,000 gallons every month
 *   Nov 2025..Oct 2026: $3,000.00 actual. Its annual cost: $15,000.00.
 * - Typed (5,000 sqft; C1 and 10,000 kWh a month typed, no bills): its estimate (10,000 x 0.1217 + 13.54) x 12
 *   = 1,230.54 x 12 = $14,766.48 and 120,000 kWh.
 * - Bare (700 sqft, no tariff, no usage, no bills): no annual cost; it counts in property_count and total_sqft.
 *
 * total_annual_cost 15,000.00 + 14,766.48 = $29,766.48; total_monthly_cost 2,976,648 / 12 = 248,054 cents = $2,480.54;
 * avg_cost_per_kwh electric dollars over electric kWh: (1,200,000 + 1,476,648) cents / 240,000 kWh = $0.111527 -> 0.1115
 * (water's dollars are not per kWh). The stored estimates summed gave $22,230.96 (7,464.48 + 14,766.48), $1,852.58 a
 * month and 2,223,096 / 180,000 = $0.1235 per kWh.
 */
describe('portfolio detail: the one annual cost (issue 47 item 9)', () => {
  let t: TestApp;
  let owner: RegisteredTestUser;
  let portfolio: string;
  let eleven: string;

  beforeAll(async () => {
    ({ t, alice: owner } = await aliceMidwestAndBob());
    portfolio = (await createPortfolio(t, owner.token, 'Mixed')).id;
    eleven = (
      await createProperty(t, owner.token, {
        name: 'Eleven',
        portfolio_id: portfolio,
        sqft: 10000,
        tariff_id: GLADSTONE.C1,
        monthly_usage_kwh: 5000,
      })
    ).id;
    await postMonthlyBills(t, owner.token, eleven, '2025-12', Array(11).fill(1000), Array(11).fill(10000));
    for (let i = 0; i < 12; i++) {
      const month = new Date(Date.UTC(2025, 10 + i, 1));
      const end = new Date(Date.UTC(2025, 11 + i, 0));
      await postBill(t, owner.token, eleven, {
        utility_type: 'water',
        period_start: month.toISOString().slice(0, 10),
        period_end: end.toISOString().slice(0, 10),
        amount: 250,
        usage: 9000,
        unit: 'gallons',
      });
    }
    await createProperty(t, owner.token, {
      name: 'Typed',
      portfolio_id: portfolio,
      sqft: 5000,
      tariff_id: GLADSTONE.C1,
      monthly_usage_kwh: 10000,
    });
    await createProperty(t, owner.token, { name: 'Bare', portfolio_id: portfolio, sqft: 700 });
  });
  afterAll(() => t.stop());

  it("sums each property's one annual cost: actual bills scaled to the year, else the tariff estimate", async () => {
    const res = (await as(t, owner.token).get(`/pm/portfolios/${portfolio}`).expect(200)).body;
    expect(res.summary).toEqual({
      property_count: 3,
      total_monthly_cost: 2480.54,
      total_annual_cost: 29766.48,
      avg_cost_per_kwh: 0.1115,
      total_sqft: 15700,
    });
  });

  it('gives the total portfolio analytics gives', async () => {
    const analytics = (await as(t, owner.token).get(`/pm/portfolios/${portfolio}/analytics`).expect(200)).body;
    expect(analytics).toMatchObject({ total_annual_cost: 29766.48, avg_rate_per_kwh: 0.1115 });
  });

  it('follows a write at once: a twelfth electric month of $2,200.00 makes electric $13,200.00', async () => {
    // November 2025 at $2,200.00: (1,100,000 + 220,000) x 12 / 12 = $13,200.00 of electric, 1,200 more than before.
    await postBill(t, owner.token, eleven, { period_start: '2025-11-01', period_end: '2025-11-30', amount: 2200, usage_kwh: 10000 });
    const res = (await as(t, owner.token).get(`/pm/portfolios/${portfolio}`).expect(200)).body;
    // 30,966.48; monthly 3,096,648 / 12 = 258,054 cents; per kWh (1,320,000 + 1,476,648) / 240,000 = 11.6527 cents.
    expect(res.summary).toMatchObject({ total_annual_cost: 30966.48, total_monthly_cost: 2580.54, avg_cost_per_kwh: 0.1165 });
  });
});
