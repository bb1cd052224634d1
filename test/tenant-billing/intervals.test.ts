/**
 * Interval proration through the API (tenant-billing README "Interval proration", issue 50): an
 * electric bill of a property whose whole-building meter has hourly readings for the period is
 * prorated by the kWh of each day; with a reading missing it counts days and says why.
 */
import type { TestApp } from '../helpers/app';
import { as, calculateBody, createConfig, createProperty, startBillingApp } from './helpers';
import { createMeter } from '../pm/helpers';

/** Hourly readings in Denver (MDT, -06:00) from July 1 to `lastDay`, 2026: 20 kWh an hour for five days, then 40. */
function hourlyCsv(lastDay: number, skip: string | null = null): string {
  const rows = ['start,end,kwh'];
  const at = (day: number, hour: number) =>
    `2026-07-${String(day + Math.floor(hour / 24)).padStart(2, '0')}T${String(hour % 24).padStart(2, '0')}:00:00-06:00`;
  for (let day = 1; day <= lastDay; day++) {
    for (let hour = 0; hour < 24; hour++) {
      const start = at(day, hour);
      if (start !== skip) rows.push(`${start},${at(day, hour + 1)},${day <= 5 ? 20 : 40}`);
    }
  }
  return rows.join('\n');
}

/** Unit C turned over: Cy to July 5, two empty days, Dee from July 8. */
const UNITS = [
  { unit_id: 'A', tenant_name: 'Ana', sqft: 1000 },
  { unit_id: 'B', tenant_name: 'Ben', sqft: 1000 },
  {
    unit_id: 'C',
    tenant_name: '',
    sqft: 1000,
    occupancies: [
      { tenant_name: 'Cy', move_out: '2026-07-05' },
      { tenant_name: 'Dee', move_in: '2026-07-08' },
    ],
  },
];

describe('calculate-rubs: interval proration (issue 50)', () => {
  let t: TestApp;
  let alice: string;
  beforeAll(async () => {
    ({ t, alice } = await startBillingApp());
  });
  afterAll(() => t.stop());

  /** A Denver property billing electric by sqft (no deduction, no fee), with a whole-building meter holding `csv`. */
  async function meteredProperty(csv: string | null) {
    const p = await createProperty(t, alice, { city: 'Denver', state: 'CO', zip_code: '80202' });
    await as(t, alice).patch(`/pm/properties/${p.id}`, { timezone: 'America/Denver' }).expect(200);
    const cfg = await createConfig(t, alice, p.id, { utility_types: ['electric', 'water'], common_area_percent: 0, admin_fee_percent: 0 });
    const meter = await createMeter(t, alice, p.id, { utility_type: 'electric' });
    if (csv) await as(t, alice).upload(`/pm/meters/${meter.id}/intervals`, csv, 'usage.csv').expect(200);
    const body = (overrides: Record<string, unknown> = {}) =>
      calculateBody(p.id, cfg.id, {
        billing_period_start: '2026-07-01',
        billing_period_end: '2026-07-10',
        total_amount: 1200,
        utility_type: 'electric',
        units: UNITS,
        ...overrides,
      });
    return { meterId: meter.id, body };
  }
  const charges = (r: { body: { unit_bills: Array<{ tenant_name: string; base_charge: number }> } }) =>
    r.body.unit_bills.map((u) => [u.tenant_name, u.base_charge]);

  it('every day metered: each occupancy pays for the kWh of its own days, and the answer says so', async () => {
    const { meterId, body } = await meteredProperty(hourlyCsv(10));
    const res = await as(t, alice).post('/billing/calculate-rubs', body()).expect(200);
    // 7,200 kWh: A and B all of it, Cy July 1-5 (2,400), Dee July 8-10 (2,880); 19,680,000 billed sqft-kWh.
    // A $1,200.00 x 7,200 / 19,680 = $439.024 -> $439.02; Cy x 2,400 -> $146.341 -> $146.34; Dee x 2,880 -> $175.609 -> $175.60.
    expect(charges(res)).toEqual([
      ['Ana', 439.02],
      ['Ben', 439.02],
      ['Cy', 146.34],
      ['Dee', 175.6],
    ]);
    expect(res.body.unit_bills.map((u: { occupied_kwh?: number }) => u.occupied_kwh)).toEqual([undefined, undefined, 2400, 2880]);
    expect(res.body.allocation_basis).toEqual({
      period_days: 10,
      basis: 'intervals',
      meter_id: meterId,
      period_kwh: 7200,
      factors: [
        {
          factor: 'sqft',
          weight_percent: 100,
          billed_total: 2733.3333,
          all_total: 3000,
          billed_factor_kwh: 19_680_000,
          all_factor_kwh: 21_600_000,
        },
      ],
    });
    // C's two empty days, 1,920 kWh of 21,600: $106.67 carried by the others.
    expect(res.body.vacant_absorption).toBe(106.67);
    expect(res.body.reconciliation).toMatchObject({ billed_to_tenants: 1199.98, rounding_difference: 0.02 });
    const stored = await as(t, alice).get(`/billing/calculations/${res.body.id}`).expect(200);
    const { posting: _posting, ...storedAnswer } = stored.body;
    expect(storedAnswer).toEqual(res.body);
    const statement = await as(t, alice).get(`/billing/calculations/${res.body.id}/statements/C?occupancy=1`).expect(200);
    expect(statement.body.formula[1]).toBe(
      'Your share = 1,000 sqft x 2,880 kWh (3 days) / 19,680,000 sqft-kWh of the occupied units = 14.63%',
    );
  });

  it('a reading missing: days count the same, and the answer says why; other utilities count days', async () => {
    const { meterId, body } = await meteredProperty(hourlyCsv(10, '2026-07-10T13:00:00-06:00'));
    const res = await as(t, alice).post('/billing/calculate-rubs', body()).expect(200);
    // 28 billed unit-days of 1,000 sqft: A $1,200.00 x 10 / 28 = $428.57, Cy x 5 = $214.28, Dee x 3 = $128.57.
    expect(charges(res)).toEqual([
      ['Ana', 428.57],
      ['Ben', 428.57],
      ['Cy', 214.28],
      ['Dee', 128.57],
    ]);
    expect(res.body.allocation_basis).toMatchObject({
      basis: 'days',
      basis_reason: `meter ${meterId} lacks readings on 1 of the period's 10 days (the first: 2026-07-10, America/Denver)`,
      factors: [{ billed_factor_days: 28_000, all_factor_days: 30_000 }],
    });
    expect(res.body.unit_bills.some((u: object) => 'occupied_kwh' in u)).toBe(false);
    const water = await as(t, alice)
      .post('/billing/calculate-rubs', body({ utility_type: 'water' }))
      .expect(200);
    expect(Object.keys(water.body.allocation_basis)).toEqual(['period_days', 'basis', 'factors']);
    expect(water.body.allocation_basis.basis).toBe('days');
  });

  it('readings that stop before the period ends, or no readings at all: days, with the reason', async () => {
    const short = await meteredProperty(hourlyCsv(9));
    const a = await as(t, alice).post('/billing/calculate-rubs', short.body()).expect(200);
    expect(a.body.allocation_basis.basis_reason).toBe(
      `meter ${short.meterId} lacks readings on 1 of the period's 10 days (the first: 2026-07-10, America/Denver)`,
    );
    const none = await meteredProperty(null);
    const b = await as(t, alice).post('/billing/calculate-rubs', none.body()).expect(200);
    expect(b.body.allocation_basis).toMatchObject({
      basis: 'days',
      basis_reason: 'no whole-building electric meter of the property has interval readings in the period',
    });
  });
});
