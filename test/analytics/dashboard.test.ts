import { defaultMeter } from '../helpers/meters';
import { sql } from 'drizzle-orm';
import type { TestApp } from '../helpers/app';
import { registerUser, type RegisteredTestUser } from '../helpers/users';
import { as, createPortfolio, createProperty, GLADSTONE } from '../pm/helpers';
import { aliceMidwestAndBob, postBill, postMonthlyBills } from './helpers';
import { errorBody } from '../helpers/error-body';

const months12 = [
  '2025-12',
  '2026-01',
  '2026-02',
  '2026-03',
  '2026-04',
  '2026-05',
  '2026-06',
  '2026-07',
  '2026-08',
  '2026-09',
  '2026-10',
  '2026-11',
];

/**
 * Alice: portfolio Midwest with Harbor (commercial, MI, 2,000 sqft, tariff C1 at 20,000 kWh a month:
 * $0.1217 x 20,000 + $13.54 = $2,447.54 a month, $29,370.48 a year), billed $200.00 and 20,000 kWh for
 * every whole month Jan..Nov 2026; Elm (residential, OH, 1,000 sqft, no tariff), one bill
 * 2026-10-20..2026-11-19 of $310.00 and 310 kWh (12 days in October, 19 in November).
 * Issue 45 replaced Harbor's 1,000 kWh a month: SP1, the rate analysis's saving, is open from 15,000 kWh a month.
 */
describe('dashboard stats, cost trend and global analytics', () => {
  let t: TestApp;
  let alice: RegisteredTestUser;
  let bob: RegisteredTestUser;
  let midwest: string;
  let harbor: string;
  let elm: string;

  beforeAll(async () => {
    ({ t, alice, bob, midwest } = await aliceMidwestAndBob());
    harbor = (
      await createProperty(t, alice.token, {
        name: 'Harbor',
        sqft: 2000,
        unit_count: 10,
        tariff_id: GLADSTONE.C1,
        monthly_usage_kwh: 20000,
        portfolio_id: midwest,
      })
    ).id;
    elm = (await createProperty(t, alice.token, { name: 'Elm', state: 'OH', zip_code: '43004', property_type: 'residential', sqft: 1000 }))
      .id;
    await postMonthlyBills(t, alice.token, harbor, '2026-01', Array(11).fill(200), Array(11).fill(20000));
    await postBill(t, alice.token, elm, { period_start: '2026-10-20', period_end: '2026-11-19', amount: 310, usage_kwh: 310 });
  });
  afterAll(() => t.stop());

  describe('GET /pm/dashboard/stats', () => {
    // Issue 29 replaced "dashboard stats total the estimates" ($1,622.88 here) with the one annual cost.
    it('totals the one annual cost; ratios over properties with both numbers; bills overlapping this month', async () => {
      const res = await as(t, alice.token).get('/pm/dashboard/stats').expect(200);
      // Harbor: 10 of the 12 complete months (Nov 2025..Oct 2026) billed $200.00 and 20,000 kWh: x 12 / 10 = $2,400.00, 240,000 kWh.
      // Elm: 1 complete month billed and no estimate: no annual cost.
      expect(res.body).toEqual({
        total_properties: 2,
        total_portfolios: 1,
        total_sqft: 3000,
        total_monthly_cost: 200,
        total_annual_cost: 2400,
        avg_cost_per_sqft: 1.2, // 2400 / 2000 (Elm has no annual cost)
        avg_cost_per_kwh: 0.01, // electric 2400 / 240,000 kWh
        properties_with_savings: 0,
        total_potential_savings: 0,
        alerts_unread: 0,
        bills_this_month: 2, // Harbor's November bill and Elm's October-November bill
        cost_by_utility: [{ utility_type: 'electric', cost: 2400, usage: 240000, unit: 'kWh', basis: 'actual' }],
        // Issue 52 items 1 and 4: emissions of the latest complete year (2025) beside cost; these bills are all of 2026,
        // so 0 t over the 3,000 sqft of the properties with sqft.
        emissions_year: 2025,
        emissions_tco2e: 0,
        emissions_kg_co2e_per_sqft: 0,
        properties_over_emissions_limit: 0,
        projected_emissions_penalty: 0,
        // Issue 32 (bill audit): open findings and the dollars at issue, read live; these bills' meters have no tariff.
        audit_findings_open: 0,
        audit_amount_at_issue: 0,
        // Issue 47 item 10: money claimed from the utilities, recovered and written off (no disputes here).
        audit_amount_claimed: 0,
        audit_amount_recovered: 0,
        audit_amount_written_off: 0,
        audit_recovery: [],
      });
      expect(Object.keys(res.body)).toEqual([
        'total_properties',
        'total_portfolios',
        'total_sqft',
        'total_monthly_cost',
        'total_annual_cost',
        'avg_cost_per_sqft',
        'avg_cost_per_kwh',
        'properties_with_savings',
        'total_potential_savings',
        'alerts_unread',
        'bills_this_month',
        'cost_by_utility',
        'emissions_year',
        'emissions_tco2e',
        'emissions_kg_co2e_per_sqft',
        'properties_over_emissions_limit',
        'projected_emissions_penalty',
        'audit_findings_open',
        'audit_amount_at_issue',
        'audit_amount_claimed',
        'audit_amount_recovered',
        'audit_amount_written_off',
        'audit_recovery',
      ]);
    });

    it('savings come from the latest rate analysis, unread alerts are counted live', async () => {
      const analysis = await as(t, alice.token).post(`/pm/properties/${harbor}/analyze-rates`).expect(200);
      // Priced from Harbor's bills of the last 365 days (periods ending 2025-11-15..2026-11-15): Jan..Oct 2026, 10 bills of
      // 20,000 kWh over 304 days. Each bill on C1: 20,000 x 0.1217 + 13.54 = 2,447.54; on SP1: 20,000 x 0.1016 + 18.54 = 2,050.54.
      // Per 30.4375 days: C1 10 x 2,447.54 x 30.4375 / 304 = 2,450.559 -> 2,450.56; SP1 10 x 2,050.54 x 30.4375 / 304
      // = 2,053.073 -> 2,053.07; SP1 saves 397.49 a month, 4,769.88 a year (SP1 sees 200,000 x 30.4375 / 304 = 20,025 kWh a month).
      expect(analysis.body.basis).toMatchObject({ kind: 'bills' });
      expect(analysis.body.current_tariff).toMatchObject({ id: GLADSTONE.C1, estimated_monthly_cost: 2450.56 });
      expect(analysis.body.recommendation).toBe(GLADSTONE.SP1);
      const recommended = analysis.body.alternatives.find((a: { tariff_id: string }) => a.tariff_id === analysis.body.recommendation);
      expect(recommended).toMatchObject({ estimated_monthly_cost: 2053.07, monthly_savings: 397.49, annual_savings: 4769.88 });
      await t.services.notifications.notify({ userId: alice.user.id, type: 'test', propertyId: harbor, message: 'hello', dedupeKey: 'x' });
      const res = await as(t, alice.token).get('/pm/dashboard/stats').expect(200);
      expect(res.body).toMatchObject({ properties_with_savings: 1, total_potential_savings: 4769.88, alerts_unread: 1 });
    });

    it('a user without data gets zeros and null ratios; nothing of Alice shows', async () => {
      const res = await as(t, bob.token).get('/pm/dashboard/stats').expect(200);
      expect(res.body).toEqual({
        total_properties: 0,
        total_portfolios: 0,
        total_sqft: 0,
        total_monthly_cost: 0,
        total_annual_cost: 0,
        avg_cost_per_sqft: null,
        avg_cost_per_kwh: null,
        properties_with_savings: 0,
        total_potential_savings: 0,
        alerts_unread: 0,
        bills_this_month: 0,
        cost_by_utility: [],
        // Issue 52: no property, so no sqft: no intensity.
        emissions_year: 2025,
        emissions_tco2e: 0,
        emissions_kg_co2e_per_sqft: null,
        properties_over_emissions_limit: 0,
        projected_emissions_penalty: 0,
        audit_findings_open: 0,
        audit_amount_at_issue: 0,
        audit_amount_claimed: 0,
        audit_amount_recovered: 0,
        audit_amount_written_off: 0,
        audit_recovery: [],
      });
    });

    it('401 without credentials', async () => {
      const res = await as(t, 'not-a-token').get('/pm/dashboard/stats').expect(401);
      expect(res.body).toEqual(errorBody({ detail: 'Not authenticated' }));
    });
  });

  describe('GET /pm/dashboard/cost-trend', () => {
    it('default 12 months ending with the current UTC month, zeros where nothing was billed, calendarised', async () => {
      const res = await as(t, alice.token).get('/pm/dashboard/cost-trend').expect(200);
      expect(res.body.months.map((m: { month: string }) => m.month)).toEqual(months12);
      const electric = (cost: number, usage: number) => [{ utility_type: 'electric', cost, usage, unit: 'kWh' }];
      expect(res.body.months[0]).toEqual({ month: '2025-12', total_cost: 0, total_kwh: 0, property_count: 0, cost_by_utility: [] });
      expect(res.body.months[1]).toEqual({
        month: '2026-01',
        total_cost: 200,
        total_kwh: 20000,
        property_count: 1,
        cost_by_utility: electric(200, 20000),
      });
      // Elm's $310.00 and 310 kWh over 31 days: October 12 days = $120.00 and 120 kWh, November 19 days = $190.00 and 190 kWh
      expect(res.body.months[10]).toEqual({
        month: '2026-10',
        total_cost: 320,
        total_kwh: 20120,
        property_count: 2,
        cost_by_utility: electric(320, 20120),
      });
      expect(res.body.months[11]).toEqual({
        month: '2026-11',
        total_cost: 390,
        total_kwh: 20190,
        property_count: 2,
        cost_by_utility: electric(390, 20190),
      });
      // Issue 29 replaced "the trend and the mean over every billed month, the current one included" (then
      // increasing, $228.18): complete months only, and the fit over the properties billed in all of them
      // (Harbor: flat). Mean over the 10 complete billed months: (9 x 200 + 320) / 10 = 212.00.
      expect(res.body).toMatchObject({ trend_direction: 'stable', avg_monthly_cost: 212 });
    });

    it('months=3 and months=36; the current month alone is insufficient_data', async () => {
      const three = await as(t, alice.token).get('/pm/dashboard/cost-trend?months=3').expect(200);
      expect(three.body.months.map((m: { total_cost: number }) => m.total_cost)).toEqual([200, 320, 390]);
      // complete months September and October only (issue 29): two points, $260.00 on average
      expect(three.body).toMatchObject({ trend_direction: 'insufficient_data', avg_monthly_cost: 260 });
      const long = await as(t, alice.token).get('/pm/dashboard/cost-trend?months=36').expect(200);
      expect(long.body.months).toHaveLength(36);
      expect(long.body.months[0].month).toBe('2023-12');
      const one = await as(t, alice.token).get('/pm/dashboard/cost-trend?months=1').expect(200);
      // the current month alone is no complete month: no average (issue 29; it was 390)
      expect(one.body).toEqual({
        months: [
          {
            month: '2026-11',
            total_cost: 390,
            total_kwh: 20190,
            property_count: 2,
            cost_by_utility: [{ utility_type: 'electric', cost: 390, usage: 20190, unit: 'kWh' }],
          },
        ],
        trend_direction: 'insufficient_data',
        avg_monthly_cost: 0,
      });
    });

    it('portfolio_id narrows to the portfolio: Harbor alone is flat', async () => {
      const res = await as(t, alice.token).get(`/pm/dashboard/cost-trend?portfolio_id=${midwest}`).expect(200);
      expect(res.body).toMatchObject({ trend_direction: 'stable', avg_monthly_cost: 200 });
      expect(res.body.months[11]).toEqual({
        month: '2026-11',
        total_cost: 200,
        total_kwh: 20000,
        property_count: 1,
        cost_by_utility: [{ utility_type: 'electric', cost: 200, usage: 20000, unit: 'kWh' }],
      });
    });

    it.each([
      ['months=0', 'months', 'ensure this value is greater than or equal to 1'],
      ['months=37', 'months', 'ensure this value is less than or equal to 36'],
      ['months=abc', 'months', 'value is not a valid number'],
      ['months=1.5', 'months', 'value is not a valid integer'],
      ['months=', 'months', 'ensure this value is greater than or equal to 1'],
      ['months=3&months=4', 'months', 'value is not a valid number'],
    ])('%s is 422', async (query, field, message) => {
      const res = await as(t, alice.token).get(`/pm/dashboard/cost-trend?${query}`).expect(422);
      expect(res.body).toEqual(errorBody({ detail: message, errors: [{ field, message }] }));
    });

    it("another owner's portfolio, or an unknown one, is 404", async () => {
      for (const token of [bob.token]) {
        const res = await as(t, token).get(`/pm/dashboard/cost-trend?portfolio_id=${midwest}`).expect(404);
        expect(res.body).toEqual(errorBody({ detail: 'Portfolio not found' }));
      }
      await as(t, alice.token).get('/pm/dashboard/cost-trend?portfolio_id=nope').expect(404);
      // and after Alice's answer is cached, Bob still gets 404
      await as(t, alice.token).get(`/pm/dashboard/cost-trend?portfolio_id=${midwest}&months=5`).expect(200);
      await as(t, bob.token).get(`/pm/dashboard/cost-trend?portfolio_id=${midwest}&months=5`).expect(404);
    });

    it('Bob sees only zeros', async () => {
      const res = await as(t, bob.token).get('/pm/dashboard/cost-trend?months=2').expect(200);
      expect(res.body).toEqual({
        months: [
          { month: '2026-10', total_cost: 0, total_kwh: 0, property_count: 0, cost_by_utility: [] },
          { month: '2026-11', total_cost: 0, total_kwh: 0, property_count: 0, cost_by_utility: [] },
        ],
        trend_direction: 'insufficient_data',
        avg_monthly_cost: 0,
      });
    });
  });

  describe('GET /pm/dashboard/global-analytics', () => {
    // Issue 29 replaced "the 12 months ending with the current one, annualised by days" ($2,404.19 here) with
    // the one annual cost: the 12 complete months, at least 10 billed, x 12 / billed months (the dashboard's figure).
    it('annual cost: the one annual cost of the dashboard stats; by state and type', async () => {
      const res = await as(t, alice.token).get('/pm/dashboard/global-analytics').expect(200);
      // Harbor: 10 billed complete months of $200.00 and 20,000 kWh -> $2,400.00, 240,000 kWh.
      // Elm: 1 billed complete month and no estimate -> counted, without a cost.
      expect(res.body).toEqual({
        total_properties: 2,
        total_portfolios: 1,
        total_annual_cost: 2400,
        total_annual_kwh: 240000,
        avg_cost_per_kwh: 0.01,
        avg_cost_per_sqft: 1.2,
        cost_by_state: [
          { state: 'MI', annual_cost: 2400, property_count: 1 },
          { state: 'OH', annual_cost: 0, property_count: 1 },
        ],
        cost_by_property_type: [
          { type: 'commercial', annual_cost: 2400, property_count: 1 },
          { type: 'residential', annual_cost: 0, property_count: 1 },
        ],
        // Harbor's rate analysis above: SP1 saves 4,769.88 a year.
        total_potential_savings: 4769.88,
        properties_with_savings: 1,
        cost_by_utility: [{ utility_type: 'electric', cost: 2400, usage: 240000, unit: 'kWh', basis: 'actual' }],
      });
      const stats = await as(t, alice.token).get('/pm/dashboard/stats').expect(200);
      expect(stats.body.total_annual_cost).toBe(res.body.total_annual_cost);
    });

    it("another owner sees none of Alice's data: zeros without data, only their own with it", async () => {
      const empty = await as(t, bob.token).get('/pm/dashboard/global-analytics').expect(200);
      expect(empty.body).toEqual({
        total_properties: 0,
        total_portfolios: 0,
        total_annual_cost: 0,
        total_annual_kwh: 0,
        avg_cost_per_kwh: null,
        avg_cost_per_sqft: null,
        cost_by_state: [],
        cost_by_property_type: [],
        total_potential_savings: 0,
        properties_with_savings: 0,
        cost_by_utility: [],
      });
      // Carol: one TX property billed $50.00 and 100 kWh for each whole month Jan..Nov 2026: 10 complete months billed,
      // $500.00 x 12 / 10 = $600.00, 1,200 kWh
      const carol = await registerUser(t);
      const home = (
        await createProperty(t, carol.token, {
          name: 'Carol House',
          state: 'TX',
          zip_code: '75001',
          property_type: 'residential',
          sqft: 500,
        })
      ).id;
      await postMonthlyBills(t, carol.token, home, '2026-01', Array(11).fill(50), Array(11).fill(100));
      const own = await as(t, carol.token).get('/pm/dashboard/global-analytics').expect(200);
      expect(own.body).toEqual({
        total_properties: 1,
        total_portfolios: 0,
        total_annual_cost: 600,
        total_annual_kwh: 1200,
        avg_cost_per_kwh: 0.5,
        avg_cost_per_sqft: 1.2,
        cost_by_state: [{ state: 'TX', annual_cost: 600, property_count: 1 }],
        cost_by_property_type: [{ type: 'residential', annual_cost: 600, property_count: 1 }],
        total_potential_savings: 0,
        properties_with_savings: 0,
        cost_by_utility: [{ utility_type: 'electric', cost: 600, usage: 1200, unit: 'kWh', basis: 'actual' }],
      });
      // and Alice's answer is still hers alone
      const alices = await as(t, alice.token).get('/pm/dashboard/global-analytics').expect(200);
      expect(alices.body).toMatchObject({ total_properties: 2, total_annual_cost: 2400 });
      expect(alices.body.cost_by_state.map((c: { state: string }) => c.state)).toEqual(['MI', 'OH']);
    });
  });

  describe('freshness: reads reflect every finished write, even with the precompute in place', () => {
    it('a bill posted right after a read shows in the next read', async () => {
      await t.services.analytics.recompute(alice.user.id);
      const before = await as(t, alice.token).get('/pm/dashboard/cost-trend?months=1').expect(200);
      await postBill(t, alice.token, elm, { period_start: '2026-11-20', period_end: '2026-11-20', amount: 0.01, utility_type: 'water' });
      const after = await as(t, alice.token).get('/pm/dashboard/cost-trend?months=1').expect(200);
      expect(after.body.months[0].total_cost).toBe(before.body.months[0].total_cost + 0.01);
      // the read rebuilt the one property that changed, and says so
      expect(after.headers['server-timing']).toMatch(/^analytics-recompute;dur=\d+;desc="1"$/);
      const again = await as(t, alice.token).get('/pm/dashboard/cost-trend?months=1').expect(200);
      expect(again.headers['server-timing']).toBeUndefined();
      const stats = await as(t, alice.token).get('/pm/dashboard/stats').expect(200);
      expect(stats.body.bills_this_month).toBe(3);
    });

    it('a write in raw SQL (no service call, no job) shows too: the database triggers move the version', async () => {
      await t.deps.database.db.execute(sql`
        insert into utility_bills (property_id, meter_id, unit, utility_type, period_start, period_end, amount)
        values (${elm}, ${(await defaultMeter(t.deps.database.db, elm, 'gas')).id}, 'therms', 'gas', '2026-11-01', '2026-11-30', 1000)`);
      const res = await as(t, alice.token).get('/pm/dashboard/cost-trend?months=1').expect(200);
      expect(res.body.months[0].total_cost).toBe(1390.01);
      await t.deps.database.db.execute(sql`delete from utility_bills where property_id = ${elm} and utility_type = 'gas'`);
      const back = await as(t, alice.token).get('/pm/dashboard/cost-trend?months=1').expect(200);
      expect(back.body.months[0].total_cost).toBe(390.01);
    });

    it('property and portfolio changes show at once', async () => {
      await as(t, alice.token).patch(`/pm/properties/${elm}`, { sqft: 1500 }).expect(200);
      await createPortfolio(t, alice.token, 'Second');
      const res = await as(t, alice.token).get('/pm/dashboard/stats').expect(200);
      expect(res.body).toMatchObject({ total_sqft: 3500, total_portfolios: 2 });
      const global = await as(t, alice.token).get('/pm/dashboard/global-analytics').expect(200);
      expect(global.body.total_portfolios).toBe(2);
    });

    it('a CSV import shows in the very next cost trend and stats (read-your-writes)', async () => {
      type Month = { month: string; total_cost: number; total_kwh: number; property_count: number };
      // fresh, cached answers before the import
      await t.services.analytics.recompute(alice.user.id);
      const before = await as(t, alice.token).get('/pm/dashboard/cost-trend?months=2').expect(200);
      const statsBefore = await as(t, alice.token).get('/pm/dashboard/stats').expect(200);
      await as(t, alice.token).get('/pm/dashboard/cost-trend?months=2').expect(200);
      const csv = [
        'period_start,period_end,utility_type,amount,usage',
        '2026-10-01,2026-10-31,sewer,5.00,50',
        '2026-11-01,2026-11-30,sewer,12.34,100',
      ].join('\n');
      const imported = await as(t, alice.token).upload(`/pm/properties/${elm}/bills/import`, csv).expect(200);
      expect(imported.body).toMatchObject({ imported: 2, duplicates: 0, rejected_count: 0 });
      // the very next reads
      const after = await as(t, alice.token).get('/pm/dashboard/cost-trend?months=2').expect(200);
      const stats = await as(t, alice.token).get('/pm/dashboard/stats').expect(200);
      const cents = (m: Month) => Math.round(m.total_cost * 100);
      const [octBefore, novBefore] = before.body.months as Month[];
      const [oct, nov] = after.body.months as Month[];
      expect(after.headers['server-timing']).toMatch(/^analytics-recompute;dur=\d+;desc="1"$/);
      expect([oct!.month, nov!.month]).toEqual(['2026-10', '2026-11']);
      expect(cents(oct!)).toBe(cents(octBefore!) + 500);
      expect(cents(nov!)).toBe(cents(novBefore!) + 1234);
      // Issue 29: a sewer bill's usage is in its own unit (kgal); kWh are electric kWh only.
      expect(oct!.total_kwh).toBe(octBefore!.total_kwh);
      expect(nov!.total_kwh).toBe(novBefore!.total_kwh);
      // the November sewer bill overlaps this month, the October one does not
      expect(stats.body.bills_this_month).toBe(statsBefore.body.bills_this_month + 1);
    });
  });
});
