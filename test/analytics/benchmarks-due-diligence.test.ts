import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { seedTariffs } from '../helpers/tariffs';
import { registerUser, setTier, type RegisteredTestUser } from '../helpers/users';
import { as, createPortfolio, createProperty, GLADSTONE } from '../pm/helpers';
import { readCsv, REFERENCE_DIR } from '../../src/modules/utilities/reference';
import { normalizeBundle, readUrdbLines } from '../../src/modules/tariffs/bundled';
import { bundledResidentialUsage, residentialUsage } from '../../src/modules/analytics/residential-usage';
import { dueDiligenceRequest, dueDiligenceResponse } from '../../src/modules/analytics/examples';
import { utilityReference } from '../helpers/tariffs';
import { createJemezNeighbours, NOW, postMonthlyBills } from './helpers';
import { errorBody } from '../helpers/error-body';

/**
 * Jemez Mountains Electric Coop (EIA 9699, the only utility of ZIP 87024, Jemez Pueblo NM): its two current
 * residential tariffs, Residential Service and Residential Time of Use Rates.
 */
const JEMEZ = { zip: '87024', RESIDENTIAL: '539f6a9eec4f024411ec91f5', TOU: '539fb981ec4f024bc1dc2335' };

const BENCHMARKS_UPGRADE = 'Benchmarks require the Pro or Enterprise tier: upgrade your plan';
const DUE_DILIGENCE_UPGRADE = 'Due diligence requires the Pro or Enterprise tier: upgrade your plan';

interface Shape {
  weekday: number[][];
  weekend: number[][];
  monthly_share_of_annual: number[];
}

/**
 * The README's consumption rule, written out independently: annual Wh spread by the shape's monthly
 * shares (weights in millionths, running totals rounded half up), demand = month kWh x the largest hourly share.
 */
function monthlyUsage(annualWh: number, sector: string): Array<{ kwh: number; kw: number }> {
  const data = JSON.parse(fs.readFileSync(path.join(REFERENCE_DIR, 'load-shapes.json'), 'utf8')) as {
    defaults: Record<string, string>;
    shapes: Record<string, Shape>;
  };
  const shape = data.shapes[data.defaults[sector]!]!;
  const w = shape.monthly_share_of_annual.map((s) => Math.round(s * 1e6));
  const total = w.reduce((a, b) => a + b, 0);
  const at = (k: number) => Number((2n * BigInt(annualWh) * BigInt(k) + BigInt(total)) / (2n * BigInt(total)));
  let before = 0;
  return w.map((wm, m) => {
    const wh = at(before + wm) - at(before);
    before += wm;
    const peak = Math.max(...shape.weekday[m]!, ...shape.weekend[m]!);
    return { kwh: wh / 1000, kw: Math.round(wh * peak) / 1000 };
  });
}

/** A year's cost of one meter on a tariff, priced month by month through POST /calculate. */
async function yearOnTariff(t: TestApp, tariffId: string, months: Array<{ kwh: number; kw: number }>): Promise<number> {
  let cents = 0;
  for (let m = 0; m < 12; m++) {
    const res = await request(t.app)
      .post('/api/v1/calculate')
      .send({ tariff_id: tariffId, usage_kwh: months[m]!.kwh, demand_kw: months[m]!.kw, month: m + 1 })
      .expect(200);
    cents += Math.round(res.body.total_cost * 100);
  }
  return cents;
}

describe('benchmarks and due diligence', () => {
  let t: TestApp;
  let free: RegisteredTestUser;
  let pro: RegisteredTestUser;
  let enterprise: RegisteredTestUser;
  let bench: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({ now: () => NOW });
    await seedTariffs(t.deps.database, [GLADSTONE.C1, GLADSTONE.C3_NON_CITY, GLADSTONE.SP1, JEMEZ.RESIDENTIAL, JEMEZ.TOU]);
    free = await registerUser(t);
    pro = await registerUser(t);
    enterprise = await registerUser(t);
    await setTier(t, pro.user.id, 'pro');
    await setTier(t, enterprise.user.id, 'enterprise');
    // The README's benchmark example: $100.00 and 1,000 kWh every month Dec 2025..Nov 2026 ($1,200.00 a year),
    // sqft chosen so cost per sqft is 1.00, 1.20, 1.20, 1.50 and 4.00.
    bench = (await createPortfolio(t, pro.token, 'Bench')).id;
    for (const [name, sqft, units] of [
      ['A', 1200, 4],
      ['B', 1000, 3],
      ['C', 1000, null],
      ['D', 800, 2],
      ['E', 300, 1],
    ] as const) {
      ids[name] = (
        await createProperty(t, pro.token, { name, sqft, unit_count: units, portfolio_id: bench, state: 'OH', zip_code: '43004' })
      ).id;
      await postMonthlyBills(t, pro.token, ids[name]!, '2025-12', Array(12).fill(100), Array(12).fill(1000));
    }
    // Outside the portfolio: an estimate ($1,622.88 a year on C1) and a property with no cost at all.
    ids.F = (await createProperty(t, pro.token, { name: 'F', sqft: 1000, tariff_id: GLADSTONE.C1, monthly_usage_kwh: 1000 })).id;
    ids.G = (await createProperty(t, pro.token, { name: 'G', sqft: 1000 })).id;
  });
  afterAll(() => t.stop());

  describe('GET /pm/analytics/benchmarks', () => {
    it('Free tier: 403 with an upgrade prompt naming the Pro tier', async () => {
      const res = await as(t, free.token).get('/pm/analytics/benchmarks').expect(403);
      expect(res.body).toEqual(errorBody({ detail: BENCHMARKS_UPGRADE }));
    });

    it('README example: percentiles, quartile threshold, outliers, basis', async () => {
      const res = await as(t, pro.token).get(`/pm/analytics/benchmarks?portfolio_id=${bench}`).expect(200);
      // Issue 52 item 1: each property's emissions of 2025 (the latest complete year) beside its value: December 2025's
      // 1,000 kWh at ZIP 43004 (eGRID RFCW, 1,005.904 lb/MWh) = 1,005.904 x 0.45359237 = 456.27 kg = 0.456 t, over its sqft.
      // 456 kg / 1,200, 1,000, 1,000, 800 and 300 sqft.
      const co2 = (kgPerSqft: number) => ({ tco2e: 0.456, kg_co2e_per_sqft: kgPerSqft });
      expect(res.body).toEqual({
        metric: 'cost_per_sqft',
        emissions_year: 2025,
        portfolio_avg: 1.78,
        portfolio_median: 1.2,
        rankings: [
          { property_id: ids.A, name: 'A', value: 1, percentile: 0, outlier: false, basis: 'actual', ...co2(0.38) },
          { property_id: ids.B, name: 'B', value: 1.2, percentile: 38, outlier: false, basis: 'actual', ...co2(0.456) },
          { property_id: ids.C, name: 'C', value: 1.2, percentile: 38, outlier: false, basis: 'actual', ...co2(0.456) },
          { property_id: ids.D, name: 'D', value: 1.5, percentile: 75, outlier: false, basis: 'actual', ...co2(0.57) },
          { property_id: ids.E, name: 'E', value: 4, percentile: 100, outlier: true, basis: 'actual', ...co2(1.52) },
        ],
        outlier_threshold: 1.95,
        outlier_count: 1,
        partial_coverage: [], // issue 47 item 8: every meter covers the whole building
        total: 5,
        page: 1,
        per_page: 100,
        pages: 1, // issue 48 item 2: the rankings are paged
      });
    });

    it('pages the rankings; statistics stay those of the whole list (issue 48 item 2)', async () => {
      const whole = (await as(t, pro.token).get(`/pm/analytics/benchmarks?portfolio_id=${bench}`).expect(200)).body;
      const second = (await as(t, pro.token).get(`/pm/analytics/benchmarks?portfolio_id=${bench}&per_page=2&page=2`).expect(200)).body;
      expect(second).toEqual({ ...whole, rankings: whole.rankings.slice(2, 4), total: 5, page: 2, per_page: 2, pages: 3 });
      const past = (await as(t, pro.token).get(`/pm/analytics/benchmarks?portfolio_id=${bench}&per_page=2&page=4`).expect(200)).body;
      expect(past).toMatchObject({ rankings: [], total: 5, page: 4, pages: 3, outlier_count: 1, portfolio_median: 1.2 });
      for (const bad of ['per_page=0', 'per_page=1001', 'page=0', 'page=x']) {
        const res = await as(t, pro.token).get(`/pm/analytics/benchmarks?${bad}`).expect(422);
        expect(res.body.errors[0].field).toBe(bad.split('=')[0]);
      }
    });

    it('every metric; properties without the inputs are left out; estimates marked as such', async () => {
      const perUnit = await as(t, pro.token).get(`/pm/analytics/benchmarks?portfolio_id=${bench}&metric=cost_per_unit`).expect(200);
      expect(perUnit.body.rankings.map((r: { name: string; value: number }) => [r.name, r.value])).toEqual([
        ['A', 300],
        ['B', 400],
        ['D', 600],
        ['E', 1200],
      ]);
      const perKwh = await as(t, pro.token).get(`/pm/analytics/benchmarks?portfolio_id=${bench}&metric=cost_per_kwh`).expect(200);
      expect(perKwh.body).toMatchObject({ portfolio_avg: 0.1, portfolio_median: 0.1, outlier_count: 0 });
      expect(perKwh.body.rankings.map((r: { percentile: number }) => r.percentile)).toEqual([50, 50, 50, 50, 50]);
      const kwhSqft = await as(t, pro.token).get(`/pm/analytics/benchmarks?portfolio_id=${bench}&metric=kwh_per_sqft`).expect(200);
      expect(kwhSqft.body.rankings.map((r: { value: number }) => r.value)).toEqual([10, 12, 12, 15, 40]);
      const all = await as(t, pro.token).get('/pm/analytics/benchmarks').expect(200);
      expect(all.body.rankings.map((r: { name: string }) => r.name)).toEqual(['A', 'B', 'C', 'D', 'F', 'E']);
      // F: no bills, its estimate $1,622.88 / 1,000 sqft
      expect(all.body.rankings[4]).toMatchObject({ name: 'F', value: 1.6229, basis: 'estimate' });
    });

    it("Enterprise may; bad metric 422; another owner's portfolio 404; other owners' properties never show", async () => {
      const res = await as(t, enterprise.token).get('/pm/analytics/benchmarks').expect(200);
      expect(res.body).toEqual({
        metric: 'cost_per_sqft',
        emissions_year: 2025, // issue 52
        portfolio_avg: null,
        portfolio_median: null,
        rankings: [],
        outlier_threshold: null,
        outlier_count: 0,
        partial_coverage: [],
        total: 0,
        page: 1,
        per_page: 100,
        pages: 0,
      });
      const bad = await as(t, pro.token).get('/pm/analytics/benchmarks?metric=cost_per_acre').expect(422);
      expect(bad.body.errors[0].field).toBe('metric');
      // issue 29 added site_eui, issue 52 kg_co2e_per_sqft
      expect(bad.body.detail).toBe(
        "value is not a valid enumeration member; permitted: 'cost_per_sqft', 'cost_per_unit', 'cost_per_kwh', 'kwh_per_sqft', 'site_eui', " +
          "'kg_co2e_per_sqft'",
      );
      expect((await as(t, enterprise.token).get(`/pm/analytics/benchmarks?portfolio_id=${bench}`).expect(404)).body).toEqual(
        errorBody({ detail: 'Portfolio not found' }),
      );
    });

    it('a tier change applies at once', async () => {
      const user = await registerUser(t);
      await as(t, user.token).get('/pm/analytics/benchmarks').expect(403);
      await setTier(t, user.user.id, 'pro');
      await as(t, user.token).get('/pm/analytics/benchmarks').expect(200);
    });
  });

  describe('POST /pm/due-diligence', () => {
    const body = (overrides: Record<string, unknown> = {}) => ({
      address: '1200 Lakeshore Dr',
      city: 'Gladstone',
      state: 'MI',
      zip_code: GLADSTONE.zip,
      unit_count: 4,
      sqft: 10000,
      property_type: 'commercial',
      annual_revenue: 250000,
      ...overrides,
    });

    it('below Pro: 403 with an upgrade prompt', async () => {
      expect((await as(t, free.token).post('/pm/due-diligence', body()).expect(403)).body).toEqual(
        errorBody({ detail: DUE_DILIGENCE_UPGRADE }),
      );
    });

    it('commercial: sqft x 14.6 kWh; Gladstone has no tariff the building is shown eligible for, so its average rate', async () => {
      // comparables by sqft within +-50 % of 10,000: [5,000, 15,000] in MI, commercial, whatever the unit count
      for (const [state, zip, sqft, units, type] of [
        ['MI', '49837', 4_999, 4, 'commercial'],
        ['MI', '49837', 5_000, 40, 'commercial'],
        ['MI', '49837', 15_000, 1, 'commercial'],
        ['MI', '49837', 15_001, 4, 'commercial'],
        ['OH', '43004', 10_000, 4, 'commercial'],
        ['MI', '49837', 10_000, 4, 'residential'],
      ] as const) {
        await createProperty(t, free.token, { state, zip_code: zip, sqft, unit_count: units, property_type: type });
      }
      const res = await as(t, pro.token).post('/pm/due-diligence', body()).expect(200);
      // Issue 45 replaced the rule that priced all three Gladstone tariffs here: due diligence prices only tariffs the
      // building is positively eligible for. 146,000 kWh a year is 12,166.667 kWh a month, below SP1's 15,000 kWh
      // minimum; C1 is single-phase and C3 three-phase only, and a building of this size may take either, so neither
      // is shown eligible. The answer is the utility's EIA-861 average: 146,000 x $0.121622 = $17,756.812 -> 17,756.81.
      const annual = 17756.81;
      expect(res.body).toEqual({
        property_summary: {
          address: '1200 Lakeshore Dr',
          city: 'Gladstone',
          state: 'MI',
          zip_code: GLADSTONE.zip,
          unit_count: 4,
          sqft: 10000,
        },
        serving_utility: { id: 7265, name: expect.stringContaining('Gladstone') },
        utility_choice: {
          reason: expect.stringMatching(
            /^City of Gladstone is the only utility serving ZIP code 49837 in MI; it is priced at an average rate because City of Gladstone has no eligible commercial tariff in MI \(one the building is positively eligible for/,
          ),
          county: 'Delta',
          estimated_customers_in_county: expect.any(Number),
          other_utilities: [],
        },
        catalog_current: true,
        latest_tariff_end_date: null,
        // 17,756.81 / 12 = 1,479.734 -> 1,479.73; / 4 units = 4,439.2025 -> 4,439.20; / 10,000 sqft = 1.7757
        estimated_costs: { annual_energy_cost: annual, monthly_energy_cost: 1479.73, cost_per_unit: 4439.2, cost_per_sqft: 1.7757 },
        // MI commercial with 5,000..15,000 sqft: the 5,000 and 15,000 sqft ones (10,000 is residential, 4,999 and 15,001 out,
        // F and G have 1,000; the bench properties are in OH)
        comparable_properties: 2,
        available_tariffs: 0,
        best_tariff: {
          name: expect.stringMatching(/^No tariff priced: City of Gladstone's average commercial rate, \$0\.121622\/kWh/),
          estimated_annual_cost: annual,
        },
        // 17,756.81 / 250,000 = 7.10 %
        noi_impact: { annual_revenue: 250000, energy_pct_of_revenue: 7.1, estimated_noi_impact: -annual },
        basis: {
          kind: 'average_rate',
          source: 'EIA Form 861, sales to ultimate customers (revenue / sales)',
          year: 2018,
          service_type: null,
          rate_per_kwh: 0.121622,
          supply: null,
        },
        assumptions: expect.arrayContaining([
          'Consumption: 10,000 sqft x 14.6 kWh/sqft = 146,000 kWh a year (EIA CBECS 2012, Table C14, electricity per square foot of all buildings), billed as one meter',
          "Not eligible: 3 current commercial tariffs of City of Gladstone in MI (1 applicability not admitting the building's usage or demand; " +
            '2 eligibility not shown (a condition the rules cannot read, a phase the building may not have, no sign of a general rate))',
        ]),
      });
    });

    it('residential: each unit an EIA-861 average customer of the utility, billed on its residential tariffs', async () => {
      const res = await as(t, enterprise.token)
        .post('/pm/due-diligence', {
          address: '5 Plaza',
          city: 'Jemez Pueblo',
          state: 'NM',
          zip_code: JEMEZ.zip,
          unit_count: 10,
        })
        .expect(200);
      const rows = readCsv(REFERENCE_DIR, 'eia861_2018_sales_ult_cust.csv.gz').filter((r) => r.utility_number === '9699');
      const mwh = rows.reduce((s, r) => s + Number(r.residential_sales_mwh), 0);
      const customers = rows.reduce((s, r) => s + Number(r.residential_customers), 0);
      const months = monthlyUsage(Math.round((mwh * 1e6) / customers), 'residential');
      const perUnit = await Promise.all([JEMEZ.RESIDENTIAL, JEMEZ.TOU].map((id) => yearOnTariff(t, id, months)));
      const sorted = perUnit.map((c) => c * 10).sort((a, b) => a - b);
      expect(res.body).toMatchObject({
        property_summary: { unit_count: 10, sqft: null },
        serving_utility: { id: 9699 },
        estimated_costs: { annual_energy_cost: sorted[0]! / 100, cost_per_sqft: null },
        available_tariffs: 2,
        best_tariff: { estimated_annual_cost: sorted[0]! / 100 },
        noi_impact: { annual_revenue: null, energy_pct_of_revenue: null, estimated_noi_impact: -sorted[0]! / 100 },
      });
    });

    // Issue 45 moved the example from 87010 (Cerrillos), where Public Service Co of NM is now the primary utility, to 87024.
    it('README example: 24 units in ZIP 87024, every number worked out from the bundled data', async () => {
      // The seeded tariffs are every current residential tariff the bundle has for EIA 9699, the only utility the tables list
      // for 87024 (the ENERGY STAR table also names Los Alamos County's gas utility: not electric).
      const reference = utilityReference();
      expect(reference.zipPairs.filter((z) => z.zipCode === JEMEZ.zip).map((z) => z.utilityId)).toEqual(['9699']);
      const bundled = normalizeBundle(
        readUrdbLines(REFERENCE_DIR).filter((l) => String(l.record?.eiaid) === '9699'),
        reference,
        NOW,
      ).tariffs;
      expect(
        bundled
          .filter((x) => x.sector === 'residential' && (x.expirationDate === null || x.expirationDate >= '2026-11-15'))
          .map((x) => x.id)
          .sort(),
      ).toEqual([JEMEZ.RESIDENTIAL, JEMEZ.TOU].sort());
      // EIA-861 2018: 174,690 MWh / 27,327 residential customers = 6,392.579 kWh per customer
      expect(residentialUsage(bundledResidentialUsage(), '9699', 'NM')).toEqual({ kwhPerCustomer: 6392.579, basis: 'utility' });
      const months = monthlyUsage(6_392_579, 'residential');
      expect(months.map((x) => x.kwh)).toEqual([
        607.167, 525.47, 512.621, 458.092, 427.472, 548.355, 682.344, 600.264, 503.287, 465.252, 497.151, 565.104,
      ]);
      expect(Math.round(24 * months.reduce((sum, x) => sum + x.kwh * 1000, 0))).toBe(153_421_896); // Wh of the 24 units
      // one unit's year on each tariff, priced month by month by POST /calculate
      expect(await yearOnTariff(t, JEMEZ.RESIDENTIAL, months)).toBe(82_475);
      expect(await yearOnTariff(t, JEMEZ.TOU, months)).toBe(88_274);
      // x 24: $19,794.00 and $21,185.76; comparables: NM residential with 12 to 36 units
      await createJemezNeighbours(t, free.token);
      const res = await as(t, pro.token).post('/pm/due-diligence', dueDiligenceRequest).expect(200);
      expect(res.body).toEqual({
        property_summary: { address: '28 Main St', city: 'Jemez Pueblo', state: 'NM', zip_code: '87024', unit_count: 24, sqft: 21000 },
        serving_utility: { id: 9699, name: 'Jemez Mountains Elec Coop, Inc' },
        // 27,327 residential and every other EIA-861 customer in NM spread over Jemez's counties by their ZIP codes: Sandoval's share
        utility_choice: {
          reason:
            'Jemez Mountains Elec Coop, Inc is the only utility serving ZIP code 87024 in NM; its bundled residential tariffs are priced. ' +
            "No other utility's tariffs are priced.",
          county: 'Sandoval',
          estimated_customers_in_county: 5077,
          other_utilities: [],
        },
        catalog_current: true,
        latest_tariff_end_date: null,
        // Residential Service is both the median (the lower of two) and the cheapest
        estimated_costs: { annual_energy_cost: 19794, monthly_energy_cost: 1649.5, cost_per_unit: 824.75, cost_per_sqft: 0.9426 },
        comparable_properties: 3,
        available_tariffs: 2,
        best_tariff: { name: 'Residential Service', estimated_annual_cost: 19794 },
        // 19,794 / 360,000 = 5.498 %
        noi_impact: { annual_revenue: 360000, energy_pct_of_revenue: 5.5, estimated_noi_impact: -19794 },
        // both tariffs took effect on 2013-06-26; the median's year is the basis year
        basis: {
          kind: 'tariffs',
          source: 'U.S. Utility Rate Database (URDB, OpenEI/NREL)',
          year: 2013,
          service_type: 'bundled',
          rate_per_kwh: null,
          supply: null,
        },
        assumptions: [
          'Consumption: 24 units x 6,392.579 kWh a year, the EIA-861 2018 average residential customer (residential sales / customers) of ' +
            'Jemez Mountains Elec Coop, Inc; each unit is its own metered customer',
          'Months and demand: the residential load shape "residential" (data/reference/load-shapes.json) spreads the year by its monthly ' +
            "shares; a month's demand is its kWh x the shape's largest hourly share of that month",
          // eligibility: one unit's average month 6,392,579 Wh / 12 = 532,714.9 -> 532.715 kWh; its largest monthly demand 1.511 kW
          'Priced on the 2 eligible bundled residential tariffs of Jemez Mountains Elec Coop, Inc in NM (current, general purpose, secondary ' +
            'or unstated voltage, applicability admitting 532.715 kWh a month and a 1.511 kW peak per meter), month by month by the bill ' +
            'engine: estimated_costs use the median "Residential Service", best_tariff the cheapest "Residential Service"',
          // 2013-06-26 is before 2021-11-15, five years before the tests' today (2026-11-15)
          'Median and cheapest tariff "Residential Service": the tariff\'s rates took effect on 2013-06-26, more than 5 years ago: ' +
            "the utility's current rates may differ",
        ],
      });
      // the OpenAPI example is this answer
      expect(res.body).toEqual(dueDiligenceResponse);
    });

    it("no eligible tariff in the sector: 200 at the utility's EIA-861 average rate (never a 400)", async () => {
      // Only Gladstone's commercial tariffs are seeded. Its EIA-861 2018 part-A residential revenue / sales:
      // 2,223.1 thousand $ / 16,570 MWh = 0.134164 $/kWh; 4 units x 6,572.789 kWh (its average customer):
      // 6,572,789 Wh x 4 x 0.134164 / 10 = 352,732.67 cents -> $3,527.33
      const res = await as(t, pro.token)
        .post('/pm/due-diligence', body({ property_type: 'residential', sqft: null }))
        .expect(200);
      expect(res.body).toMatchObject({
        serving_utility: { id: 7265, name: 'City of Gladstone' },
        estimated_costs: { annual_energy_cost: 3527.33, monthly_energy_cost: 293.94, cost_per_unit: 881.83, cost_per_sqft: null },
        available_tariffs: 0,
        // Issue 45: best_tariff is never null; on an average rate it names that rate. The catalog has no residential tariff of
        // Gladstone, so catalog_current is false, with no end date to give.
        best_tariff: {
          name:
            "No tariff priced: City of Gladstone's average residential rate, $0.134164/kWh (EIA Form 861, sales to ultimate customers " +
            '(revenue / sales), 2018)',
          estimated_annual_cost: 3527.33,
        },
        catalog_current: false,
        latest_tariff_end_date: null,
        basis: {
          kind: 'average_rate',
          source: 'EIA Form 861, sales to ultimate customers (revenue / sales)',
          year: 2018,
          service_type: null,
          rate_per_kwh: 0.134164,
          supply: null,
        },
      });
      expect(res.body.assumptions).toContain(
        "Priced at City of Gladstone's average residential rate, $0.134164/kWh " +
          '(EIA Form 861, sales to ultimate customers (revenue / sales), 2018) x 26,291.156 kWh a year, because the catalog has no ' +
          'residential tariff of City of Gladstone in MI',
      );
    });

    it('404 when no utility serves the ZIP code (10001: none of the seeded utilities)', async () => {
      const res = await as(t, pro.token)
        .post('/pm/due-diligence', body({ zip_code: '10001', state: 'NY' }))
        .expect(404);
      expect(res.body).toEqual(errorBody({ detail: 'No utilities found for ZIP code' }));
    });

    it.each([
      [{ address: undefined }, 'address', 'field required'],
      [{ unit_count: undefined }, 'unit_count', 'field required'],
      [{ unit_count: 0 }, 'unit_count', 'ensure this value is greater than or equal to 1'],
      [{ unit_count: 2.5 }, 'unit_count', 'value is not a valid integer'],
      [{ unit_count: '4' }, 'unit_count', 'value is not a valid number'],
      [{ state: 'XX' }, 'state', 'Invalid state code'],
      [{ zip_code: '4983' }, 'zip_code', 'Invalid ZIP code format'],
      [
        { property_type: 'castle' },
        'property_type',
        "value is not a valid enumeration member; permitted: 'residential', 'commercial', 'industrial', 'mixed_use'",
      ],
      [{ sqft: 0 }, 'sqft', 'ensure this value is greater than or equal to 1'],
      [{ sqft: null }, 'sqft', 'sqft required for commercial properties'],
      [{ property_type: 'industrial', sqft: undefined }, 'sqft', 'sqft required for industrial properties'],
      [{ annual_revenue: -1 }, 'annual_revenue', 'ensure this value is greater than or equal to 0'],
    ])('422 for %j', async (overrides, field, message) => {
      const res = await as(t, pro.token).post('/pm/due-diligence', body(overrides)).expect(422);
      expect(res.body).toEqual(errorBody({ detail: message, errors: [{ field, message }] }));
    });

    it('400 for a body that is not JSON', async () => {
      const res = await request(t.app)
        .post('/api/v1/pm/due-diligence')
        .set('Authorization', `Bearer ${pro.token}`)
        .set('content-type', 'application/json')
        .send('{"address": ')
        .expect(400);
      expect(res.body).toEqual(errorBody({ detail: 'Invalid JSON body' }));
    });
  });
});
