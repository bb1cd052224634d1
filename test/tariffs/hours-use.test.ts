/**
 * Issue 45 item 6, "Show what a tariff means", through HTTP: hours-use tiers (kWh per kW of
 * demand) stated in tariff detail and in bill line items, and a charge a record's description
 * names but its rates lack stated in the bill's assumptions. The pricing README's worked examples
 * ("Tier bounds per kW of demand or per day", "Charges the rates lack").
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { seedTariffs } from '../helpers/tariffs';

// City of Sikeston (MO) Large General Service: $0.05 up to 180 kWh per kW, $0.045 up to 360 kWh per kW, $0.04 above;
// $6.47/kW; minimum $647/month; a 50 % demand ratchet; effective 2015-10-08.
const SIKESTON = '5616cc4d5457a3945e35c496';
// Columbia River PUD (OR) Primary Voltage Service Commercial: $0.0415/kWh and $50/month; its description states
// "Demand Charge (7 a.m. to 10 p.m., Daily, Excluding Sunday): $4.75 per kW"; effective 2011-10-01.
const COLUMBIA = '539fb9a5ec4f024bc1dc2515';
// City of Calhoun (GA) Medium Power Service: 6,000 kWh at $0.10, to 200 kWh per kW at $0.09, to 400 at $0.044, then $0.04.
const CALHOUN = '539fba9dec4f024bc1dc3011';

const README = fs.readFileSync(path.resolve(__dirname, '../../src/modules/pricing/README.md'), 'utf8');
const DEMAND_NAMED =
  'The tariff\'s description names a demand charge ("Demand Charge (7 a.m. to 10 p.m., Daily, Excluding Sunday): ' +
  '$4.75 per kW") that its rates do not have: the bill leaves it out';

describe('what a tariff means: hours-use tiers and charges its rates lack', () => {
  let t: TestApp;
  const calc = (body: object) => request(t.app).post('/api/v1/calculate').send(body);

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-07-15T12:00:00Z') });
    await seedTariffs(t.deps.database, [SIKESTON, COLUMBIA, CALHOUN]);
  });
  afterAll(() => t.stop());

  it('GET /tariffs/{id} states the unit of an hours-use bound and the band in words', async () => {
    const res = await request(t.app).get(`/api/v1/tariffs/${SIKESTON}`).expect(200);
    expect(res.body.energy_rates.map((r: Record<string, unknown>) => [r.tier, r.tier_max_kwh, r.tier_max_unit, r.bound])).toEqual([
      [1, 180, 'kWh/kW', 'up to 180 kWh per kW of billing demand'],
      [2, 360, 'kWh/kW', 'above 180 and up to 360 kWh per kW of billing demand'],
      [3, null, null, 'above 360 kWh per kW of billing demand'],
    ]);
    const calhoun = await request(t.app).get(`/api/v1/tariffs/${CALHOUN}`).expect(200);
    expect(calhoun.body.energy_rates[1]).toMatchObject({
      tier_max_kwh: 200,
      tier_max_unit: 'kWh/kW',
      bound: 'above 6000 kWh a month and up to 200 kWh per kW of billing demand',
    });
  });

  it("POST /calculate states each hours-use band converted with the bill's demand (the README's worked example)", async () => {
    const res = await calc({ tariff_id: SIKESTON, usage_kwh: 200_000, demand_kw: 800, month: 7 }).expect(200);
    // bounds 180 x 800 = 144,000 and 360 x 800 = 288,000 kWh
    // 144,000 x 0.05 = 7,200.00; 56,000 x 0.045 = 2,520.00; demand 800 x 6.47 = 5,176.00; total 14,896.00
    expect(res.body.line_items).toEqual([
      {
        category: 'energy',
        name: 'Energy all_year tier 1 (first 180 kWh per kW x 800 kW = 144000 kWh): 144000 kWh x $0.05/kWh',
        amount: 7200,
      },
      {
        category: 'energy',
        name: 'Energy all_year tier 2 (kWh from 180 to 360 kWh per kW x 800 kW = 144000 to 288000 kWh): 56000 kWh x $0.045/kWh',
        amount: 2520,
      },
      { category: 'demand', name: 'Facility demand: 800 kW x $6.47/kW', amount: 5176 },
    ]);
    expect(res.body.total_cost).toBe(14896);
    expect(res.body.summary).toMatchObject({ energy_charge: 9720, demand_charge: 5176 });
    // The README's table holds these very lines.
    for (const item of res.body.line_items as Array<{ name: string }>) expect(README).toContain(`| \`${item.name}\` |`);
    expect(README).toContain('**$14,896.00**');
    expect(res.body.assumptions).toEqual([
      'demand ratchet not applied: the tariff bills at least 50% of the highest demand of earlier months, and the request carries no ' +
        'demand history, so demand_kw is taken as the billing demand',
      "the tariff's rates took effect on 2015-10-08, more than 5 years ago: the utility's current rates may differ",
    ]);
  });

  it('POST /calculate says when a converted bound leaves a tier empty', async () => {
    const res = await calc({ tariff_id: CALHOUN, usage_kwh: 10_000, demand_kw: 20, month: 7 }).expect(200);
    // 6,000 x 0.10 = 600.00; tier 2 ends at 200 x 20 = 4,000 kWh: empty; 2,000 x 0.044 = 88.00; 2,000 x 0.04 = 80.00;
    // demand 20 x 2.50 = 50.00; fixed 60.00; total 878.00
    expect(res.body.total_cost).toBe(878);
    expect(res.body.line_items[1].name).toBe(
      'Energy all_year tier 3 (kWh from 6000 kWh to 400 kWh per kW x 20 kW = 8000 kWh): 2000 kWh x $0.044/kWh',
    );
    expect(res.body.assumptions).toContain(
      'Energy all_year tier 2 covers no kWh this month: its bound (200 kWh per kW x 20 kW = 4000 kWh) is not above the 6000 kWh where the tiers before it end',
    );
  });

  it('the bill names the demand charge the description states and the rates lack: calculate, a billing period, compare', async () => {
    const res = await calc({ tariff_id: COLUMBIA, usage_kwh: 300_000, demand_kw: 800, month: 7 }).expect(200);
    // 300,000 x 0.0415 = 12,450.00; fixed 50.00; total 12,500.00 (the $4.75/kW x 800 kW = $3,800 is not in it)
    expect(res.body.line_items.map((i: { amount: number }) => i.amount)).toEqual([12450, 50]);
    expect(res.body.total_cost).toBe(12500);
    expect(res.body.assumptions).toEqual([
      DEMAND_NAMED,
      "the tariff's rates took effect on 2011-10-01, more than 5 years ago: the utility's current rates may differ",
    ]);
    expect(README).toContain('**$12,500.00**');

    const period = await calc({
      tariff_id: COLUMBIA,
      usage_kwh: 300_000,
      demand_kw: 800,
      period_start: '2026-06-16',
      period_end: '2026-07-15',
    }).expect(200);
    expect(period.body.total_cost).toBe(12500);
    expect(period.body.assumptions).toContain(DEMAND_NAMED);

    const compare = await request(t.app)
      .post('/api/v1/calculate/compare')
      .send({ tariff_ids: [COLUMBIA, SIKESTON], usage_kwh: 200_000, demand_kw: 800, month: 7 })
      .expect(200);
    const byId = new Map<string, { assumptions: string[] }>(compare.body.results.map((r: { tariff_id: string }) => [r.tariff_id, r]));
    expect(byId.get(COLUMBIA)?.assumptions).toContain(DEMAND_NAMED);
    expect(byId.get(SIKESTON)?.assumptions.some((a) => a.startsWith("The tariff's description names"))).toBe(false);
  });
});
