import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { errorBody } from '../helpers/error-body';
import { as, createBill, createMeter, createProperty, quartersOf } from '../pm/helpers';
import * as ex from '../../src/modules/emissions/what-if.examples';
import { allYear } from '../fixtures/rates-tariff';

const NYC_OFFICE = { name: 'Midtown office', address: '350 5th Ave', city: 'New York', state: 'NY', zip_code: '10001', sqft: 40000 };
const QUARTERS = quartersOf(2025);

/**
 * README "What-if", worked by hand: the 40,000 sf group B office of "Local Law 97, worked by hand"
 * (1,000,000 kWh and 20,000 therms in 2025, quarterly), its electric meter on $0.20/kWh + $50 a
 * month, its gas meter on $1.00/therm + $30 a month. A quarter: electric 250,000 x 0.20 + 3 x 50 =
 * $50,150, gas 5,000 x 1.00 + 3 x 30 = $5,090; the year $200,600 + $20,360 = $220,960.
 */
describe('POST /pm/properties/{id}/what-if', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let office: { id: string; electric: string; gas: string };
  let untariffed: { id: string; electric: string; gas: string };

  async function seed(token: string, tariffs: { electric?: string; gas?: string }) {
    const p = await createProperty(t, token, NYC_OFFICE);
    await request(t.app)
      .put(`/api/v1/pm/properties/${p.id}/occupancy`)
      .set('Authorization', `Bearer ${token}`)
      .send({ areas: [{ occupancy_group: 'B', gross_floor_area: 40000 }] })
      .expect(200);
    const meter = async (utility_type: string, unit: string, name: string, tariff_id?: string) =>
      (await createMeter(t, token, p.id, { utility_type, unit, name, tariff_id })).id;
    const electric = await meter('electric', 'kWh', 'Main electric', tariffs.electric);
    const gas = await meter('gas', 'therms', 'Boiler gas', tariffs.gas);
    for (const [period_start, period_end] of QUARTERS) {
      const bill = { period_start, period_end };
      await createBill(t, token, p.id, { ...bill, meter_id: electric, amount: 50150, usage_kwh: 250000 });
      await createBill(t, token, p.id, { ...bill, meter_id: gas, amount: 5090, usage: 5000 });
    }
    return { id: p.id as string, electric, gas };
  }

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-03-15T12:00:00Z') });
    alice = (await registerUser(t)).token;
    bob = (await registerUser(t)).token;
    const custom = async (utility_type: string, unit: string, rate: number, fixed: number) =>
      (
        await as(t, alice)
          .post('/tariffs/custom', {
            utility_type,
            unit,
            state: 'NY',
            sector: 'commercial',
            name: `Office ${utility_type}`,
            utility_name: 'Example Utility',
            service_type: 'bundled',
            effective_date: '2024-01-01',
            energy_rates: [{ ...allYear, rate_per_unit: rate }],
            fixed_charges: [{ name: 'Customer charge', amount: fixed, frequency: 'monthly' }],
          })
          .expect(201)
      ).body.id as string;
    office = await seed(alice, { electric: await custom('electric', 'kWh', 0.2, 50), gas: await custom('gas', 'therms', 1, 30) });
    untariffed = await seed(alice, {});
  });
  afterAll(() => t.stop());

  const whatIf = (token: string, id: string, body: unknown) => as(t, token).post(`/pm/properties/${id}/what-if`, body as object);
  const ll97 = (side: { building_performance: { periods: Array<{ period: string }> } }) =>
    side.building_performance.periods.find((p) => p.period === '2024-2029');

  it('a 20 % gas cut: 16,000 therms, 373.938 t against 338.4 t, $9,524.18, and $4,000.00 less gas cost', async () => {
    const reads = jest.spyOn(t.services.pricing, 'tariffOverPeriods');
    const res = await whatIf(alice, office.id, { year: 2025, changes: [{ kind: 'cut', utility_type: 'gas', percent: 20 }] }).expect(200);
    // Eight bills priced on two tariffs: each tariff read once for the request, not once a bill.
    expect(reads).toHaveBeenCalledTimes(2);
    reads.mockRestore();
    const { before, after, delta } = res.body;
    expect(before.energy).toEqual([
      { utility_type: 'electric', usage: 1_000_000, unit: 'kWh' },
      { utility_type: 'gas', usage: 20_000, unit: 'therms' },
    ]);
    expect(after.energy[1]).toEqual({ utility_type: 'gas', usage: 16_000, unit: 'therms' });
    // Location-based: 402.14592 + 20,000 x 5.31148 kg = 508.37552 t; after 402.14592 + 84.98368 = 487.1296 t.
    expect([before.total_tco2e, after.total_tco2e, delta.total_tco2e]).toEqual([508.376, 487.13, -21.246]);
    expect(ll97(before)).toMatchObject({
      status: 'computed',
      emissions_tco2e: 395.182,
      limit_tco2e: 338.4,
      excess_tco2e: 56.782,
      projected_penalty: 15217.58,
    });
    // 288.962 + 1,600,000 kBtu x 0.00005311 = 288.962 + 84.976 = 373.938 t; 35.538 t over; x $268 = $9,524.184.
    expect(ll97(after)).toMatchObject({ emissions_tco2e: 373.938, excess_tco2e: 35.538, projected_penalty: 9524.18 });
    expect(delta.projected_penalty.find((p: { period: string }) => p.period === '2024-2029').projected_penalty).toBe(-5693.4);
    // Gas a quarter 4,000 x $1.00 + $90 = $4,090: the year $16,360, $4,000.00 less; electric unchanged.
    expect([before.energy_cost, after.energy_cost, delta.energy_cost]).toEqual([220960, 216960, -4000]);
    expect(
      res.body.meters.map((m: { cost_basis: string; cost_before: number; cost_after: number }) => [
        m.cost_basis,
        m.cost_before,
        m.cost_after,
      ]),
    ).toEqual([
      ['tariff', 20360, 16360],
      ['tariff', 200600, 200600],
    ]);
  });

  it('electrifying the gas at 85.3 % / COP 2.5: +200,000 kWh priced on the electric tariff, gas down to its customer charge', async () => {
    const body = { year: 2025, changes: [{ kind: 'electrify', meter_id: office.gas, gas_efficiency: 0.853, electric_efficiency: 2.5 }] };
    const res = await whatIf(alice, office.id, body).expect(200);
    // 10 kWh a therm: 20,000 therms -> 200,000 kWh; LL97 1,200,000 x 0.000288962 = 346.7544 t, 8.354 t over, $2,238.87.
    // Cost: electric 300,000 x 0.20 + $150 = $60,150 a quarter, $240,600; gas 0 therms, $90 a quarter, $360: $240,960.
    expect(res.body).toEqual({
      ...ex.whatIfAnswer,
      property_id: office.id,
      changes: [{ ...ex.whatIfAnswer.changes[0], meter_id: office.gas, to_meter_id: office.electric }],
      meters: [
        { ...ex.whatIfAnswer.meters[0], meter_id: office.gas, tariff_id: expect.any(String) },
        { ...ex.whatIfAnswer.meters[1], meter_id: office.electric, tariff_id: expect.any(String) },
      ],
    });
  });

  it("electrifying with added_demand_kw: the kW priced on each electric bill carrying the load, by the tariff's demand charge", async () => {
    // One January: 100,000 kWh at 200 kW on $0.20/kWh + $15/kW; 2,000 therms on $1.00/therm. 10 kWh a therm: +20,000 kWh.
    // Electric after: 120,000 x 0.20 + (200 + 50) x 15 = $24,000 + $3,750 = $27,750 (before $23,000); without the kW, $27,000.
    // Gas after $0 (before $2,000): the year's cost +$2,750 (+$2,000 without the kW).
    const electricTariff = (
      await as(t, alice)
        .post('/tariffs/custom', {
          utility_type: 'electric',
          unit: 'kWh',
          state: 'NY',
          sector: 'commercial',
          name: 'Office electric with demand',
          utility_name: 'Example Utility',
          service_type: 'bundled',
          effective_date: '2024-01-01',
          energy_rates: [{ ...allYear, rate_per_unit: 0.2 }],
          demand_rates: [{ period: 'all_year', months: allYear.months, type: 'facility', rate_per_kw: 15 }],
        })
        .expect(201)
    ).body.id as string;
    const gasTariff = (
      await as(t, alice)
        .post('/tariffs/custom', {
          utility_type: 'gas',
          unit: 'therms',
          state: 'NY',
          sector: 'commercial',
          name: 'Office gas, energy only',
          utility_name: 'Example Utility',
          service_type: 'bundled',
          effective_date: '2024-01-01',
          energy_rates: [{ ...allYear, rate_per_unit: 1 }],
        })
        .expect(201)
    ).body.id as string;
    const p = await createProperty(t, alice, NYC_OFFICE);
    const meter = async (utility_type: string, unit: string, name: string, tariff_id: string) =>
      (await createMeter(t, alice, p.id, { utility_type, unit, name, tariff_id })).id;
    const electric = await meter('electric', 'kWh', 'Main electric', electricTariff);
    const gas = await meter('gas', 'therms', 'Boiler gas', gasTariff);
    const january = { period_start: '2025-01-01', period_end: '2025-01-31' };
    await createBill(t, alice, p.id, { ...january, meter_id: electric, amount: 23000, usage_kwh: 100000, demand_kw: 200 });
    await createBill(t, alice, p.id, { ...january, meter_id: gas, amount: 2000, usage: 2000 });
    const electrify = (added?: number) => ({
      year: 2025,
      changes: [
        {
          kind: 'electrify',
          meter_id: gas,
          gas_efficiency: 0.853,
          electric_efficiency: 2.5,
          ...(added === undefined ? {} : { added_demand_kw: added }),
        },
      ],
    });
    const withKw = (await whatIf(alice, p.id, electrify(50)).expect(200)).body;
    const electricOf = (body: { meters: Array<{ utility_type: string; cost_before: number; cost_after: number }> }) =>
      body.meters.find((m) => m.utility_type === 'electric')!;
    expect(withKw.changes[0].added_demand_kw).toBe(50);
    expect(electricOf(withKw)).toMatchObject({ cost_basis: 'tariff', cost_before: 23000, cost_after: 27750 });
    expect(withKw.delta.energy_cost).toBe(2750);
    const withoutKw = (await whatIf(alice, p.id, electrify()).expect(200)).body;
    expect(withoutKw.changes[0].added_demand_kw).toBe(0);
    expect(electricOf(withoutKw)).toMatchObject({ cost_before: 23000, cost_after: 27000 });
    expect(withoutKw.delta.energy_cost).toBe(2000);
    // More than three decimals of a kW is a typo, not a figure.
    const refused = await whatIf(alice, p.id, electrify(1.2345)).expect(422);
    expect(refused.body.errors[0].field).toBe('changes.0.added_demand_kw');
  });

  it('a meter without a tariff: its billed amount scaled by usage, and the answer says so', async () => {
    const res = await whatIf(alice, untariffed.id, { year: 2025, changes: [{ kind: 'cut', utility_type: 'gas', percent: 20 }] }).expect(
      200,
    );
    // $5,090 a quarter x 4,000 / 5,000 = $4,072: the year $20,360 -> $16,288, $4,072.00 less.
    expect(res.body.meters).toEqual([
      expect.objectContaining({
        utility_type: 'gas',
        tariff_id: null,
        cost_basis: 'scaled_from_billed',
        reasons: ['the gas meter has no tariff'],
        cost_before: 20360,
        cost_after: 16288,
      }),
      expect.objectContaining({
        utility_type: 'electric',
        cost_basis: 'scaled_from_billed',
        reasons: ['neither the meter nor its property has a tariff'],
        cost_after: 200600,
      }),
    ]);
    expect(res.body.delta.energy_cost).toBe(-4072);
  });

  it('refuses nonsense with a 422 naming the field, and another owner with a 404', async () => {
    const refused = async (changes: unknown, field: string) => {
      const res = await whatIf(alice, office.id, { year: 2025, changes }).expect(422);
      expect(res.body).toEqual(errorBody({ detail: expect.any(String), errors: [expect.objectContaining({ field })] }));
    };
    await refused([], 'changes');
    await refused([{ kind: 'cut', utility_type: 'gas', percent: 0 }], 'changes.0.percent');
    await refused([{ kind: 'cut', utility_type: 'gas', percent: 100.5 }], 'changes.0.percent');
    await refused([{ kind: 'cut', utility_type: 'gas', percent: 12.345 }], 'changes.0.percent');
    await refused([{ kind: 'cut', utility_type: 'water', percent: 10 }], 'changes.0.utility_type');
    await refused([{ kind: 'cut', utility_type: 'gas', percent: 10, meter_id: office.gas }], 'changes.0');
    await refused([{ kind: 'solar', percent: 10 }], 'changes.0.kind');
    await refused(
      [
        { kind: 'cut', utility_type: 'gas', percent: 10 },
        { kind: 'cut', utility_type: 'gas', percent: 5 },
      ],
      'changes',
    );
    const heatPump = { kind: 'electrify', gas_efficiency: 0.8, electric_efficiency: 3 };
    await refused([{ ...heatPump, meter_id: office.gas, gas_efficiency: 1.2 }], 'changes.0.gas_efficiency');
    await refused([{ ...heatPump, meter_id: office.gas, electric_efficiency: 0 }], 'changes.0.electric_efficiency');
    await refused([{ ...heatPump, meter_id: office.electric }], 'changes.0.meter_id');
    await refused([{ ...heatPump, meter_id: untariffed.gas }], 'changes.0.meter_id');
    await refused([{ ...heatPump, meter_id: office.gas, to_meter_id: office.gas }], 'changes.0.to_meter_id');
    await whatIf(bob, office.id, { changes: [{ kind: 'cut', utility_type: 'gas', percent: 20 }] }).expect(404);
  });
});
