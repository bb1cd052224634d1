import type { TestApp } from '../helpers/app';
import { setTier, type RegisteredTestUser } from '../helpers/users';
import { as, createProperty } from '../pm/helpers';
import { aliceMidwestAndBob, postBill, postMonthlyBills } from './helpers';

/**
 * Issue 47 item 8: a meter says what it covers, and benchmarks rank only properties whose meters behind
 * the figure cover the whole building (analytics README "Benchmarks", meters README "What a meter covers").
 * Three New York buildings of 10,000 sqft with a year of monthly electric bills (Nov 2025..Oct 2026, as of
 * 2026-11-15): Whole 10,000 kWh a month, Common (its one meter: the common areas) 2,000, Tower 15,000.
 * Site EUI = kWh x 3.412 / sqft: Whole 120,000 x 3.412 / 10,000 = 40.944, Common 24,000 x 3.412 / 10,000 =
 * 8.1888, Tower 180,000 x 3.412 / 10,000 = 61.416.
 */
describe('what a meter covers (issue 47 item 8)', () => {
  let t: TestApp;
  let owner: RegisteredTestUser;
  let whole: string;
  let common: string;
  let tower: string;
  let houseMeter: string;

  beforeAll(async () => {
    ({ t, alice: owner } = await aliceMidwestAndBob());
    await setTier(t, owner.user.id, 'pro');
    const building = (name: string) => createProperty(t, owner.token, { name, state: 'NY', zip_code: '10001', sqft: 10000 });
    whole = (await building('Whole')).id;
    common = (await building('Common')).id;
    tower = (await building('Tower')).id;
    houseMeter = (
      await as(t, owner.token)
        .post(`/pm/properties/${common}/meters`, { utility_type: 'electric', name: 'House panel', covers: 'common_area' })
        .expect(201)
    ).body.id;
    await postMonthlyBills(t, owner.token, whole, '2025-11', Array(12).fill(1000), Array(12).fill(10000));
    await postMonthlyBills(t, owner.token, common, '2025-11', Array(12).fill(200), Array(12).fill(2000));
    await postMonthlyBills(t, owner.token, tower, '2025-11', Array(12).fill(1500), Array(12).fill(15000));
  });
  afterAll(() => t.stop());

  const benchmarks = async (metric: string) => (await as(t, owner.token).get(`/pm/analytics/benchmarks?metric=${metric}`).expect(200)).body;

  it('a meter covers the whole building unless it says otherwise; covers is one of three', async () => {
    const meters = (await as(t, owner.token).get(`/pm/properties/${whole}/meters`).expect(200)).body.items;
    expect(meters).toEqual([expect.objectContaining({ utility_type: 'electric', covers: 'whole_building', is_default: true })]);
    const bad = await as(t, owner.token).post(`/pm/properties/${whole}/meters`, { utility_type: 'gas', covers: 'roof' }).expect(422);
    expect(bad.body.errors[0].field).toBe('covers');
  });

  it('site EUI ranks the whole buildings and lists the common-area one apart', async () => {
    const eui = await benchmarks('site_eui');
    // Ranked: 40.944 (0) and 61.416 (100); mean and median (40.944 + 61.416) / 2 = 51.18. With Common ranked, the
    // common areas' 8.1888 would have been the "best" building and the mean 36.8496.
    expect(eui.rankings.map((r: { name: string; value: number; percentile: number }) => [r.name, r.value, r.percentile])).toEqual([
      ['Whole', 40.944, 0],
      ['Tower', 61.416, 100],
    ]);
    expect(eui).toMatchObject({ portfolio_avg: 51.18, portfolio_median: 51.18, outlier_count: 0 });
    expect(eui.partial_coverage).toEqual([
      {
        property_id: common,
        name: 'Common',
        value: 8.1888,
        basis: 'actual',
        // Issue 52: its 2025 emissions, November and December's 4,000 kWh at eGRID NYCW (886.58 lb/MWh):
        // 4 MWh x 886.58 x 0.45359237 = 1,608.58 kg, 1.609 t; 1,609 kg / 10,000 sqft = 0.1609 -> 0.161.
        tco2e: 1.609,
        kg_co2e_per_sqft: 0.161,
        meters: [{ meter_id: houseMeter, name: 'House panel', utility_type: 'electric', covers: 'common_area' }],
      },
    ]);
  });

  it("a tenant's water meter makes the cost figures partial, not the energy ones", async () => {
    const suite = (
      await as(t, owner.token)
        .post(`/pm/properties/${whole}/meters`, { utility_type: 'water', name: 'Suite 200', covers: 'tenant' })
        .expect(201)
    ).body.id;
    await postBill(t, owner.token, whole, {
      meter_id: suite,
      utility_type: 'water',
      period_start: '2026-10-01',
      period_end: '2026-10-31',
      amount: 90,
      usage: 10,
    });
    expect((await benchmarks('site_eui')).rankings.map((r: { name: string }) => r.name)).toEqual(['Whole', 'Tower']);
    const cost = await benchmarks('cost_per_sqft');
    // Tower $18,000.00 / 10,000 sqft = 1.80, alone: percentile 50.
    expect(cost.rankings).toEqual([expect.objectContaining({ name: 'Tower', value: 1.8, percentile: 50 })]);
    expect(
      cost.partial_coverage.map((p: { name: string; meters: Array<{ name: string }> }) => [p.name, p.meters.map((m) => m.name)]),
    ).toEqual([
      ['Common', ['House panel']],
      ['Whole', ['Suite 200']],
    ]);
  });

  it('a meter marked as covering the whole building is ranked at once', async () => {
    const patched = (await as(t, owner.token).patch(`/pm/meters/${houseMeter}`, { covers: 'whole_building' }).expect(200)).body;
    expect(patched.covers).toBe('whole_building');
    const eui = await benchmarks('site_eui');
    expect(eui.rankings.map((r: { name: string; percentile: number }) => [r.name, r.percentile])).toEqual([
      ['Common', 0],
      ['Whole', 50],
      ['Tower', 100],
    ]);
    expect(eui.partial_coverage).toEqual([]);
  });
});
