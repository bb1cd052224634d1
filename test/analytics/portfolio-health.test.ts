import type { TestApp } from '../helpers/app';
import type { RegisteredTestUser } from '../helpers/users';
import { as, createPortfolio, createProperty, GLADSTONE } from '../pm/helpers';
import { aliceMidwestAndBob, postBill, postMonthlyBills } from './helpers';
import { errorBody } from '../helpers/error-body';

/**
 * Alice's portfolio Midwest: Alpha (complete: tariff C1 at 20,000 kWh, 2,000 sqft, $150.00 and 20,000 kWh every month
 * Dec 2025..Nov 2026, rate analysis run) and Beta (nothing but an address). Outside it: Gamma,
 * the README's health example (May..Oct $100.00, November 1..15 $80.00).
 * Issue 45 replaced Alpha's 1,000 kWh a month: SP1, the rate analysis's saving, is open from 15,000 kWh a month.
 */
describe('portfolio analytics and property health', () => {
  let t: TestApp;
  let alice: RegisteredTestUser;
  let bob: RegisteredTestUser;
  let midwest: string;
  let alpha: string;
  let beta: string;
  let gamma: string;

  beforeAll(async () => {
    ({ t, alice, bob, midwest } = await aliceMidwestAndBob());
    alpha = (
      await createProperty(t, alice.token, {
        name: 'Alpha',
        portfolio_id: midwest,
        tariff_id: GLADSTONE.C1,
        monthly_usage_kwh: 20000,
        sqft: 2000,
      })
    ).id;
    beta = (await createProperty(t, alice.token, { name: 'Beta', portfolio_id: midwest })).id;
    gamma = (await createProperty(t, alice.token, { name: 'Gamma', tariff_id: GLADSTONE.C1, monthly_usage_kwh: 500, sqft: 900 })).id;
    await postMonthlyBills(t, alice.token, alpha, '2025-12', Array(12).fill(150), Array(12).fill(20000));
    await postMonthlyBills(t, alice.token, gamma, '2026-05', Array(6).fill(100));
    await postBill(t, alice.token, gamma, { period_start: '2026-11-01', period_end: '2026-11-15', amount: 80 });
    const analysis = await as(t, alice.token).post(`/pm/properties/${alpha}/analyze-rates`).expect(200);
    // Priced from Alpha's bills of the last 365 days (periods ending 2025-11-15..2026-11-15): Dec 2025..Oct 2026, 11 bills of
    // 20,000 kWh over 335 days. Each bill on C1: 20,000 x 0.1217 + 13.54 = 2,447.54; on SP1: 20,000 x 0.1016 + 18.54 = 2,050.54.
    // Per 30.4375 days: C1 11 x 2,447.54 x 30.4375 / 335 = 2,446.170 -> 2,446.17; SP1 11 x 2,050.54 x 30.4375 / 335
    // = 2,049.392 -> 2,049.39; SP1 saves 396.78 a month, 4,761.36 a year.
    expect(analysis.body).toMatchObject({
      basis: { kind: 'bills' },
      recommendation: GLADSTONE.SP1,
      current_tariff: { id: GLADSTONE.C1, estimated_monthly_cost: 2446.17 },
    });
    expect(analysis.body.alternatives[0]).toMatchObject({
      tariff_id: GLADSTONE.SP1,
      estimated_monthly_cost: 2049.39,
      monthly_savings: 396.78,
      annual_savings: 4761.36,
    });
  });
  afterAll(() => t.stop());

  describe('GET /pm/properties/health', () => {
    // Issue 29 replaced the health rules: anomalies per meter on complete periods (Gamma's bill ending today is not
    // one yet), no least-squares "Costs rising" (Gamma lost 15 for it), and a stale tariff (C1's rates are over
    // 5 years old) is a data-completeness issue.
    it('scores every property with its deductions, worst first (the literal path wins over {id})', async () => {
      const res = await as(t, alice.token).get('/pm/properties/health').expect(200);
      const stale = `Tariff ${GLADSTONE.C1} has rates over 5 years old or of unknown date: they may be out of date`;
      // Alpha: savings on offer, -20 when at least a tenth of its estimate (C1 at 20,000 kWh: 2,447.54 x 12 = 29,370.48,
      // a tenth 2,937.05), else -10: 4,761.36 is more, so 100 - 20 - 5 (stale) = 75, yellow.
      const alphaRow = {
        property_id: alpha,
        name: 'Alpha',
        status: 'yellow',
        score: 75,
        issues: [stale, 'Rate savings available: $4,761.36 a year'],
      };
      const gamma_ = {
        property_id: gamma,
        name: 'Gamma',
        status: 'green',
        score: 85,
        issues: [stale, 'Bills cover only 7 of the last 12 months'],
      };
      expect(res.body).toEqual({
        summary: { green: 1, yellow: 2, red: 0, total: 3 },
        properties: [
          {
            property_id: beta,
            name: 'Beta',
            status: 'yellow',
            score: 55,
            issues: ['No tariff set', 'No monthly usage set', 'No square footage set', 'No bills in the last 12 months'],
          },
          alphaRow,
          gamma_,
        ],
        total: 3,
        page: 1,
        per_page: 100,
        pages: 1, // issue 48 item 2: the list is paged
      });
    });

    it('pages the list, worst first; the summary counts the whole scope (issue 48 item 2)', async () => {
      const all = (await as(t, alice.token).get('/pm/properties/health').expect(200)).body;
      const second = (await as(t, alice.token).get('/pm/properties/health?per_page=2&page=2').expect(200)).body;
      expect(second).toEqual({ summary: all.summary, properties: all.properties.slice(2), total: 3, page: 2, per_page: 2, pages: 2 });
      const yellow = (await as(t, alice.token).get('/pm/properties/health?status=yellow&per_page=1').expect(200)).body;
      expect(yellow).toMatchObject({ summary: all.summary, total: 2, pages: 2 });
      expect(yellow.properties.map((p: { name: string }) => p.name)).toEqual(['Beta']);
      const bad = await as(t, alice.token).get('/pm/properties/health?per_page=1001').expect(422);
      expect(bad.body.errors[0].field).toBe('per_page');
    });

    it('status filters the list; the summary still counts the whole scope', async () => {
      const all = (await as(t, alice.token).get('/pm/properties/health').expect(200)).body;
      const res = await as(t, alice.token).get('/pm/properties/health?status=yellow').expect(200);
      expect(res.body.summary).toEqual(all.summary);
      expect(res.body.properties.map((p: { name: string }) => p.name)).toEqual(
        all.properties.filter((p: { status: string }) => p.status === 'yellow').map((p: { name: string }) => p.name),
      );
      expect(res.body.properties.map((p: { name: string }) => p.name)).toContain('Beta');
      const none = await as(t, alice.token).get(`/pm/properties/health?status=red&portfolio_id=${midwest}`).expect(200);
      expect(none.body).toMatchObject({ summary: { red: 0, total: 2 }, properties: [] });
    });

    it('portfolio_id narrows the scope', async () => {
      const res = await as(t, alice.token).get(`/pm/properties/health?portfolio_id=${midwest}`).expect(200);
      expect(res.body.properties.map((p: { name: string }) => p.name)).toEqual(['Beta', 'Alpha']);
    });

    it('validates status and the portfolio; other owners see nothing of Alice', async () => {
      const bad = await as(t, alice.token).get('/pm/properties/health?status=purple').expect(422);
      expect(bad.body.errors).toEqual([
        { field: 'status', message: "value is not a valid enumeration member; permitted: 'green', 'yellow', 'red'" },
      ]);
      expect((await as(t, bob.token).get(`/pm/properties/health?portfolio_id=${midwest}`).expect(404)).body).toEqual(
        errorBody({ detail: 'Portfolio not found' }),
      );
      expect((await as(t, bob.token).get('/pm/properties/health').expect(200)).body).toEqual({
        summary: { green: 0, yellow: 0, red: 0, total: 0 },
        properties: [],
        total: 0,
        page: 1,
        per_page: 100,
        pages: 0,
      });
    });

    it("a fix shows at once: setting Beta's tariff, usage and sqft removes those deductions", async () => {
      // Unchanged, a conditional request is a 304 (Express's ETag of the answer);
      // after the write the ETag it held is no longer the answer's.
      const before = await as(t, alice.token).get(`/pm/properties/health?portfolio_id=${midwest}`).expect(200);
      await as(t, alice.token).get(`/pm/properties/health?portfolio_id=${midwest}`).set('If-None-Match', before.headers.etag).expect(304);
      await as(t, alice.token).patch(`/pm/properties/${beta}`, { tariff_id: GLADSTONE.C1, monthly_usage_kwh: 100, sqft: 500 }).expect(200);
      const res = await as(t, alice.token).get(`/pm/properties/health?portfolio_id=${midwest}`).expect(200);
      expect(res.body.properties.find((p: { name: string }) => p.name === 'Beta')).toEqual({
        property_id: beta,
        name: 'Beta',
        score: 75,
        status: 'yellow',
        issues: [
          `Tariff ${GLADSTONE.C1} has rates over 5 years old or of unknown date: they may be out of date`,
          'No bills in the last 12 months',
        ],
      });
      expect(res.headers.etag).not.toBe(before.headers.etag);
      await as(t, alice.token).get(`/pm/properties/health?portfolio_id=${midwest}`).set('If-None-Match', before.headers.etag).expect(200);
    });

    it("issue 47: a property priced on its meter's tariff has a tariff set", async () => {
      const health = async (id: string) =>
        (await as(t, alice.token).get('/pm/properties/health').expect(200)).body.properties.find(
          (p: { property_id: string }) => p.property_id === id,
        );
      const delta = (await createProperty(t, alice.token, { name: 'Delta', monthly_usage_kwh: 1000, sqft: 800 })).id;
      expect((await health(delta)).issues).toEqual(['No tariff set', 'No bills in the last 12 months']);
      await as(t, alice.token)
        .post(`/pm/properties/${delta}/meters`, { utility_type: 'electric', name: 'Main', tariff_id: GLADSTONE.C1 })
        .expect(201);
      // 100 - 5 (the meter's C1 is stale) - 20 (no bills) = 75
      expect(await health(delta)).toEqual({
        property_id: delta,
        name: 'Delta',
        status: 'yellow',
        score: 75,
        issues: [
          `Main: tariff ${GLADSTONE.C1} has rates over 5 years old or of unknown date: they may be out of date`,
          'No bills in the last 12 months',
        ],
      });
    });
  });

  describe('GET /pm/portfolios/{id}/analytics', () => {
    it('the one annual cost of its properties, the actual cost of the 12 months ending with this one by month; savings', async () => {
      const res = await as(t, alice.token).get(`/pm/portfolios/${midwest}/analytics`).expect(200);
      expect(res.body).toEqual({
        portfolio_id: midwest,
        period: '2025-12-01/2026-11-30',
        // Issue 47 replaced the raw bills of the period ($1,800.00, 240,000 kWh, 0.0075) with the one annual cost:
        // Alpha $1,800.00 and 240,000 kWh (actual) + Beta's estimate $308.52 and 12 x 100 = 1,200 kWh.
        total_cost: 2108.52,
        total_usage_kwh: 241200,
        avg_rate_per_kwh: 0.0087, // 210,852 cents / 241,200 kWh = 0.008742
        cost_by_utility: [{ utility_type: 'electric', cost: 2108.52, usage: 241200, unit: 'kWh', basis: 'mixed' }],
        cost_by_month: expect.any(Array),
        // Issue 29 replaced "a property's actual cost of the period" with its one annual cost (with its basis):
        // Alpha's 11 billed complete months x 12 / 11; Beta (given a tariff and usage above) its estimate.
        total_annual_cost: 2108.52,
        cost_by_property: [
          { property_id: alpha, name: 'Alpha', annual_cost: 1800, basis: 'actual' },
          { property_id: beta, name: 'Beta', annual_cost: 308.52, basis: 'estimate' },
        ],
        // Alpha's rate analysis (beforeAll): SP1 saves 4,761.36 a year.
        potential_savings: {
          total_annual: 4761.36,
          properties_with_savings: 1,
          top_opportunity: { property_id: alpha, current_tariff: GLADSTONE.C1, recommended_tariff: GLADSTONE.SP1, annual_savings: 4761.36 },
        },
      });
      expect(res.body.cost_by_month).toHaveLength(12);
      expect(res.body.cost_by_month[0]).toEqual({ month: '2025-12', cost: 150, usage_kwh: 20000 });
      expect(res.body.cost_by_month[11]).toEqual({ month: '2026-11', cost: 150, usage_kwh: 20000 });
    });

    it('an empty portfolio answers zeros and no opportunity', async () => {
      const empty = await createPortfolio(t, bob.token, 'Empty');
      const res = await as(t, bob.token).get(`/pm/portfolios/${empty.id}/analytics`).expect(200);
      expect(res.body).toMatchObject({
        total_cost: 0,
        total_usage_kwh: 0,
        avg_rate_per_kwh: 0,
        cost_by_property: [],
        cost_by_utility: [],
        total_annual_cost: 0,
        potential_savings: { total_annual: 0, properties_with_savings: 0, top_opportunity: null },
      });
    });

    it("another owner's portfolio is 404, cached answer or not; unknown too", async () => {
      expect((await as(t, bob.token).get(`/pm/portfolios/${midwest}/analytics`).expect(404)).body).toEqual(
        errorBody({ detail: 'Portfolio not found' }),
      );
      await as(t, alice.token).get('/pm/portfolios/nope/analytics').expect(404);
    });
  });
});
