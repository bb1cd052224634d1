import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { seedTariffs } from '../helpers/tariffs';
import { as, createBill, createProperty, GLADSTONE } from './helpers';

/** Real DTE Electric (EIA 5109) commercial records: every current one is restricted; the general D3 and D4 expired in 2022. */
const DTE = {
  D3_FULL: '5d95018e5457a3912e61b9f1', // General Service D3 (Full Service), ended 2022-08-23
  D4_FULL: '5d9502ee5457a3912e61b9f2', // Large General Service Rate D4 (Full Service), ended 2022-08-23
  SCHOOLS_RETAIL: '5b9034245457a3ce6cfe082c', // Secondary Educational Institution D3.2 (Retail Service), current
  SCHOOLS_FULL: '5b9030a55457a38a68fe082e', // Secondary Educational Institution D3.2 (Full Service), current
  GEOTHERMAL: '5b86cbcb5457a3311b8b4568', // Geothermal Time of Day Rate Full Service Commercial, current
  INTERRUPTIBLE: '56df61505457a3b16ffe444a', // Interruptible General Service D3.3, current
  ALL_ELECTRIC_SCHOOL: '5b9056f85457a3ff38fe082f', // ALL-ELECTRIC SCHOOL BUILDING SERVICE RATE D10-FULL SERVICE, current
};

describe('advice that holds for customers no test names (issue 45)', () => {
  let t: TestApp;
  let owner: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-28T12:00:00Z') });
    await seedTariffs(t.deps.database, [...Object.values(DTE), GLADSTONE.C1, GLADSTONE.C3_NON_CITY, GLADSTONE.SP1]);
    owner = (await registerUser(t)).token;
  });
  afterAll(() => t.stop());

  it('a Detroit house meter is told nothing current fits, not to move to a schools or retail-access rate', async () => {
    const p = await createProperty(t, owner, {
      name: 'Woodward Flats',
      address: '1 Woodward Ave',
      city: 'Detroit',
      state: 'MI',
      zip_code: '48226',
      property_type: 'residential',
      unit_count: 60,
      tariff_id: DTE.D3_FULL,
      monthly_usage_kwh: 40000,
      monthly_demand_kw: 110,
    });
    const res = await as(t, owner).post(`/pm/properties/${p.id}/analyze-rates`).expect(200);
    expect(res.body.recommendation).toBe(DTE.D3_FULL);
    expect(res.body.alternatives).toEqual([]);
    const excluded = Object.fromEntries(res.body.excluded.map((e: { tariff_id: string; reason: string }) => [e.tariff_id, e.reason]));
    expect(excluded).toMatchObject({
      [DTE.SCHOOLS_RETAIL]: "service type delivery_only: the property's service is bundled",
      [DTE.SCHOOLS_FULL]: 'limited to a kind of customer (institution): "Educational" in its name',
      [DTE.GEOTHERMAL]: 'limited to equipment the property would need: "Geothermal" in its name',
      [DTE.INTERRUPTIBLE]: 'a special-purpose tariff (interruptible), not a general rate the property could take',
      [DTE.ALL_ELECTRIC_SCHOOL]: 'a special-purpose tariff (institutional), not a general rate the property could take',
    });
    // Nothing current to compare: said in a field and in words, with the latest end date; the expired D4 is priced for review only.
    expect(res.body.catalog_current).toBe(false);
    expect(res.body.latest_tariff_end_date).toBe('2022-08-23');
    expect(res.body.assumptions[0]).toMatch(
      /^DTE Electric Company has no current tariff in the catalog the property could take \(its 5 current ones are all excluded for this property, e\.g\. ALL-ELECTRIC SCHOOL BUILDING SERVICE RATE D10-FULL SERVICE: a special-purpose tariff \(institutional\), not a general rate the property could take\); its latest records ended on 2022-08-23: nothing current could be compared/,
    );
    expect(res.body.needs_review.map((r: { tariff_id: string; reason: string }) => [r.tariff_id, r.reason.split(':')[0]])).toEqual([
      [DTE.D4_FULL, 'expired on 2022-08-23'],
    ]);
    expect(res.body.basis).toEqual({ kind: 'typed_usage' });
    // No saving reaches the dashboard.
    const stored = await t.services.rateAnalysis.latestForProperty(p.id);
    expect(stored).toMatchObject({ recommendedTariffId: DTE.D3_FULL, monthlySavings: 0, annualSavings: 0 });
  });

  it('prices the last 12 months of bills per billing period when the property has them (basis: bills)', async () => {
    // No typed usage at all: before issue 45 this was 400 "Property has no usage data".
    const p = await createProperty(t, owner, { tariff_id: GLADSTONE.C1 });
    const bills = [
      // 57,000 kWh over 92 days: 18,858 kWh a month, above SP1's 15,000 kWh minimum.
      { period_start: '2025-11-20', period_end: '2025-12-19', usage_kwh: 18000 }, // 30 days
      { period_start: '2025-12-20', period_end: '2026-01-21', usage_kwh: 20000 }, // 33 days
      { period_start: '2026-01-22', period_end: '2026-02-19', usage_kwh: 19000 }, // 29 days
      { period_start: '2024-06-01', period_end: '2024-06-30', usage_kwh: 50000 }, // more than a year old: not used
    ];
    for (const b of bills) await createBill(t, owner, p.id, { ...b, utility_type: 'electric', amount: 1200 });
    const res = await as(t, owner).post(`/pm/properties/${p.id}/analyze-rates`).expect(200);
    expect(res.body.basis).toEqual({
      kind: 'bills',
      months: ['2025-11', '2025-12', '2026-01', '2026-02'],
      // Issue 50 item 3 added the bills priced from interval readings (none here: the meter has none).
      bills_from_intervals: 0,
      meters: [{ meter_id: expect.any(String), bills: 3, bills_from_intervals: 0, months: ['2025-11', '2025-12', '2026-01', '2026-02'] }],
    });
    // Each tariff's monthly cost = its three period bills (POST /calculate with the same periods) x 30.4375 / 92 days.
    const periodTotal = async (tariff: string) => {
      let cents = 0;
      for (const b of bills.slice(0, 3)) {
        const r = await as(t, owner)
          .post('/calculate', { tariff_id: tariff, usage_kwh: b.usage_kwh, period_start: b.period_start, period_end: b.period_end })
          .expect(200);
        cents += Math.round(r.body.total_cost * 100);
      }
      return Math.round((cents * 487) / (16 * 92)) / 100;
    };
    expect(res.body.current_tariff.estimated_monthly_cost).toBe(await periodTotal(GLADSTONE.C1));
    const sp1 = res.body.alternatives.find((a: { tariff_id: string }) => a.tariff_id === GLADSTONE.SP1);
    expect(sp1.estimated_monthly_cost).toBe(await periodTotal(GLADSTONE.SP1));
    expect(res.body.assumptions[0]).toMatch(/^Priced from 3 electric bills of 1 meter \(2025-11 to 2026-02\)/);
  });
});
