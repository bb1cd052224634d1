import request from 'supertest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/app';
import { loadBundledTariffs, seedTariffs } from '../helpers/tariffs';
import { findTariffById } from '../../src/modules/tariffs/repository';
import { errorBody } from '../helpers/error-body';

// City of Lexington (TN) Coincident Peak Rate -1: coincident demand (7.33 / 25.07 $/kW), kWh/kW tiers, 100-500 kW
const LEXINGTON = '539f6dfcec4f024411ecbcbf';
// Memphis TMSC: $350/month per additional meter, reactive power 1.49 $/kVAR, 15,000-25,000 kW
const MEMPHIS = '5edfb0a95457a33c1acfd350';
// A & N Electric Coop TOU-B (Three Phase): 3,500 kWh tier shared by the periods; $17.50/month
const AN_TOU_B = '539f70d5ec4f024411ecdf43';

describe('tariff rows: applicability and the structure fields added later', () => {
  let t: TestApp;
  const calc = (body: object) => request(t.app).post('/api/v1/calculate').send(body);

  beforeAll(async () => {
    t = await createTestApp();
    await seedTariffs(t.deps.database, [LEXINGTON, MEMPHIS, AN_TOU_B]);
  });
  afterAll(() => t.stop());

  it('stores and reads back coincident demand, the unbilled charges and applicability exactly', async () => {
    const [lexington, memphis] = await loadBundledTariffs([LEXINGTON, MEMPHIS]);
    expect(await findTariffById(t.deps.database.db, LEXINGTON)).toEqual(lexington);
    expect(await findTariffById(t.deps.database.db, MEMPHIS)).toEqual(memphis);
    expect(memphis.applicability).toMatchObject({ demandKwMin: 15000, demandKwMax: 25000, phaseWiring: 'Single and 3-Phase' });
    const stored = (await t.deps.database.db.execute(sql`select applicability, structure->'demandCoincident'->'schedule' as schedule
      from tariffs where id = ${LEXINGTON}`)) as unknown as { rows: Array<{ applicability: unknown; schedule: unknown }> };
    expect(stored.rows[0].applicability).toEqual({
      demandKwMin: 100,
      demandKwMax: 500,
      usageKwhMin: null,
      usageKwhMax: null,
      voltageCategory: null,
      phaseWiring: null,
    });
    // Issue 28 replaced storing each month as a string of 24 base-36 digits with storing the engine's number arrays.
    expect(stored.rows[0].schedule).toEqual([
      ...Array(5).fill(Array(24).fill(0)),
      ...Array(4).fill(Array(24).fill(1)),
      ...Array(3).fill(Array(24).fill(0)),
    ]);
  });

  it('a row stored before the fields existed reads as "none published", and still prices', async () => {
    await t.deps.database.db.execute(sql`update tariffs set applicability = null,
      structure = structure - 'demandCoincident' - 'additionalMeterCharge' - 'reactivePowerCharge' - 'demandRatchet'
      where id = ${MEMPHIS}`);
    const old = await findTariffById(t.deps.database.db, MEMPHIS);
    expect(old?.applicability).toEqual({
      demandKwMin: null,
      demandKwMax: null,
      usageKwhMin: null,
      usageKwhMax: null,
      voltageCategory: null,
      phaseWiring: null,
    });
    expect(old?.structure).toMatchObject({
      demandCoincident: null,
      additionalMeterCharge: null,
      reactivePowerCharge: null,
      demandRatchet: null,
    });
    const res = await calc({ tariff_id: MEMPHIS, usage_kwh: 1_000_000, demand_kw: 30_000, month: 7 }).expect(200);
    expect(res.body.assumptions.some((a: string) => /additional meter|reactive|applicability/.test(a))).toBe(false);
  });

  it('POST /calculate: the shared tiers, the coincident charge and the applicability sentences', async () => {
    const an = await calc({
      tariff_id: AN_TOU_B,
      usage_kwh: 20_000,
      month: 7,
      usage_profile: { on_peak_kwh: 5000, off_peak_kwh: 15_000 },
    }).expect(200);
    // worked in src/modules/pricing/engine/engine.tiers.test.ts: 160.48 + 570.95 + 171.62 + 747.19 + 17.50
    expect(an.body.line_items.map((i: { amount: number }) => i.amount)).toEqual([160.48, 570.95, 171.62, 747.19, 17.5]);
    expect(an.body.total_cost).toBe(1667.74);

    const missing = await calc({ tariff_id: LEXINGTON, usage_kwh: 1000, month: 7 }).expect(422);
    expect(missing.body).toEqual(
      errorBody({
        detail: 'demand_kw required for demand tariffs',
        errors: [{ field: 'demand_kw', message: 'demand_kw required for demand tariffs' }],
      }),
    );

    // tier bound 438 kWh/kW x 600 kW = 262,800 kWh: all 100,000 kWh x 0.0511 = 5,110.00;
    // coincident 600 kW x 25.07 = 15,042.00; total 20,152.00
    const lex = await calc({ tariff_id: LEXINGTON, usage_kwh: 100_000, demand_kw: 600, month: 7 }).expect(200);
    expect(lex.body.summary.demand_charge).toBe(15042);
    expect(lex.body.total_cost).toBe(20152);
    expect(lex.body.assumptions).toEqual([
      expect.stringMatching(/^demand_kw \(600 kW\) taken as the customer's demand at the utility's coincident \(system\) peak in July/),
      "demand 600 kW is above this tariff's applicability maximum of 500 kW: the utility may not offer it to this customer",
      // Added by the data-age rule (issue 26).
      "the tariff's rates took effect on 2014-07-01, more than 5 years ago: the utility's current rates may differ",
    ]);
  });

  it('a row imported before 2026-11-26.2, with base-36 schedule strings, reads and prices the same', async () => {
    const [lexington] = await loadBundledTariffs([LEXINGTON]);
    const base36 = (s: number[][]) => s.map((row) => row.map((v) => v.toString(36)).join(''));
    const { energy, demandCoincident } = lexington.structure;
    const legacy = {
      ...lexington.structure,
      energy: energy && { ...energy, weekday: base36(energy.weekday), weekend: base36(energy.weekend) },
      demandCoincident: demandCoincident && { ...demandCoincident, schedule: base36(demandCoincident.schedule) },
    };
    await t.deps.database.db.execute(sql`update tariffs set structure = ${JSON.stringify(legacy)}::jsonb where id = ${LEXINGTON}`);
    expect(await findTariffById(t.deps.database.db, LEXINGTON)).toEqual(lexington);
    const lex = await calc({ tariff_id: LEXINGTON, usage_kwh: 100_000, demand_kw: 600, month: 7 }).expect(200);
    expect(lex.body.total_cost).toBe(20152);
  });
});
