import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as, createBill, createMeter, createProperty } from '../pm/helpers';

const NYC_OFFICE = { name: 'Midtown office', address: '350 5th Ave', city: 'New York', state: 'NY', zip_code: '10001', sqft: 50000 };

/**
 * Issue 52 item 1: an electric meter's month whose every interval has a reading is counted from the
 * readings' sum instead of its bills calendarised (emissions README "How a year's emissions are
 * computed", rule 2); a month they do not cover keeps the bills.
 */
describe('emissions from interval readings where they cover a whole month', () => {
  let t: TestApp;
  let alice: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-03-15T12:00:00Z') });
    alice = (await registerUser(t)).token;
  });
  afterAll(() => t.stop());

  /** Hourly readings (generic CSV, New York winter time, -05:00) of each day of [from, to], `kwh(day)` each hour. */
  function hourly(from: string, to: string, kwh: (date: string) => number): string[] {
    const rows: string[] = [];
    const p = (n: number) => String(n).padStart(2, '0');
    for (let day = Date.parse(`${from}T00:00:00Z`); day <= Date.parse(`${to}T00:00:00Z`); day += 86_400_000) {
      const date = new Date(day).toISOString().slice(0, 10);
      const next = new Date(day + 86_400_000).toISOString().slice(0, 10);
      for (let h = 0; h < 24; h++) {
        const end = h === 23 ? `${next}T00:00:00-05:00` : `${date}T${p(h + 1)}:00:00-05:00`;
        rows.push(`${date}T${p(h)}:00:00-05:00,${end},${kwh(date)}`);
      }
    }
    return rows;
  }

  it("counts January from the readings (9,000 kWh, not the bill's 10,000) and February from its bill", async () => {
    const p = await createProperty(t, alice, NYC_OFFICE);
    const meter = (await createMeter(t, alice, p.id, { utility_type: 'electric' })).id;
    const bill = (period_start: string, period_end: string, usage_kwh: number) =>
      as(t, alice).post(`/pm/properties/${p.id}/bills`, { meter_id: meter, period_start, period_end, usage_kwh, amount: 1000 }).expect(201);
    // 62 days, 31 in December 2024 and 31 in January 2025: 10,000 kWh of its 20,000 calendarised into January.
    await bill('2024-12-01', '2025-01-31', 20000);
    await bill('2025-02-01', '2025-02-28', 8000);
    const emissions = async () => (await as(t, alice).get(`/pm/properties/${p.id}/emissions?year=2025`).expect(200)).body;

    // Bills alone: 18 MWh x 886.58 lb x 0.45359237 / 1000 = 7.23862662 t.
    const before = await emissions();
    expect(before.total_tco2e).toBe(7.239);
    expect(before.meters[0]).toMatchObject({ usage: 18000, months_from_intervals: 0 });
    expect(before.notes).toHaveLength(1);

    // January whole: 30 days x 24 h x 12 kWh = 8,640 + 24 h x 15 kWh = 360: 9,000 kWh in 744 readings.
    // February without its last day: not covered, so its bill stays.
    const csv = [
      'start,end,kwh',
      ...hourly('2025-01-01', '2025-01-31', (d) => (d === '2025-01-31' ? 15 : 12)),
      ...hourly('2025-02-01', '2025-02-27', () => 10),
    ];
    const imported = await as(t, alice).upload(`/pm/meters/${meter}/intervals`, csv.join('\n'), 'usage.csv').expect(200);
    expect(imported.body).toMatchObject({ format: 'csv_generic', stored: (31 + 27) * 24 });

    const after = await emissions();
    // January: 9 MWh x 886.58 x 0.45359237 / 1000 = 3.61931331 t; February 8 MWh = 3.21716739 t; 6.83648070 t.
    expect(after.meters).toEqual([
      expect.objectContaining({
        meter_id: meter,
        usage: 17000,
        tco2e: 6.836,
        months_from_intervals: 1,
        months: [
          { month: '2025-01', usage: 9000, tco2e: 3.619, basis: 'intervals' },
          { month: '2025-02', usage: 8000, tco2e: 3.217, basis: 'bills' },
        ],
      }),
    ]);
    expect(after.total_tco2e).toBe(6.836);
    expect(after.months.slice(0, 3)).toEqual([
      { month: '2025-01', tco2e: 3.619 },
      { month: '2025-02', tco2e: 3.217 },
      { month: '2025-03', tco2e: 0 },
    ]);
    // 6,836 kg / 50,000 sqft.
    expect(after.kg_co2e_per_sqft).toBe(0.137);
    expect(after.notes[1]).toMatch(/^1 meter-month of 2025 counted from interval readings/);
    // Factors unchanged.
    expect(after.factors).toEqual(before.factors);

    // The portfolio answer: the same total, and how many meter-months came from readings.
    const portfolio = (await as(t, alice).get('/pm/emissions?year=2025').expect(200)).body;
    expect(portfolio.properties).toEqual([expect.objectContaining({ property_id: p.id, tco2e: 6.836, meter_months_from_intervals: 1 })]);
    expect(portfolio.total_tco2e).toBe(6.836);
    expect(portfolio.notes[2]).toMatch(/^1 meter-month of 2025 counted from interval readings/);

    // The building-performance answer takes the same year's energy: 17,000 kWh x 0.000288962 t (LL97 2024-2029) = 4.912354 t.
    const bp = (await as(t, alice).get(`/pm/properties/${p.id}/building-performance?year=2025`).expect(200)).body;
    expect(bp.standards[0].periods[0]).toMatchObject({
      emissions_tco2e: 4.912,
      emissions_lines: [expect.objectContaining({ utility_type: 'electric', energy: 17000 })],
    });
  });

  it('counts a month of readings on a meter without a bill that month, and none twice', async () => {
    const p = await createProperty(t, alice, NYC_OFFICE);
    const meter = (await createMeter(t, alice, p.id, { utility_type: 'electric' })).id;
    await createBill(t, alice, p.id, {
      meter_id: meter,
      period_start: '2025-02-01',
      period_end: '2025-02-28',
      usage_kwh: 8000,
      amount: 1,
    });
    // January 2025: 744 hours x 1 kWh = 744 kWh; no bill covers it.
    const csv = ['start,end,kwh', ...hourly('2025-01-01', '2025-01-31', () => 1)];
    await as(t, alice).upload(`/pm/meters/${meter}/intervals`, csv.join('\n'), 'usage.csv').expect(200);
    const res = (await as(t, alice).get(`/pm/properties/${p.id}/emissions?year=2025`).expect(200)).body;
    // 8.744 MWh x 0.40214592339 = 3.51636395 t.
    expect(res.meters[0]).toMatchObject({ usage: 8744, tco2e: 3.516, months_from_intervals: 1 });
    expect(res.meters[0].months.map((m: { basis: string }) => m.basis)).toEqual(['intervals', 'bills']);
    // Another year: the readings cover none of 2024's months; the note still says how many came from readings.
    const other = (await as(t, alice).get(`/pm/properties/${p.id}/emissions?year=2024`).expect(200)).body;
    expect(other).toMatchObject({ total_tco2e: 0, meters: [] });
    expect(other.notes[1]).toMatch(/^0 meter-months of 2024 counted from interval readings/);
  });

  it('the what-if starts from the same energy (January from readings) and carries its changes into the covered month', async () => {
    const p = await createProperty(t, alice, NYC_OFFICE);
    const meter = async (utility_type: string, unit: string) => (await createMeter(t, alice, p.id, { utility_type, unit })).id;
    const electric = await meter('electric', 'kWh');
    const gas = await meter('gas', 'therms');
    const bill = (meter_id: string, period_start: string, period_end: string, usage: object) =>
      as(t, alice)
        .post(`/pm/properties/${p.id}/bills`, { meter_id, period_start, period_end, amount: 1000, ...usage })
        .expect(201);
    await bill(electric, '2025-01-01', '2025-01-31', { usage_kwh: 10000 });
    await bill(electric, '2025-02-01', '2025-02-28', { usage_kwh: 8000 });
    await bill(gas, '2025-01-01', '2025-01-31', { usage: 1000 });
    // January's readings: 744 hours x 12.5 kWh = 9,300 kWh, replacing the bill's 10,000.
    const csv = ['start,end,kwh', ...hourly('2025-01-01', '2025-01-31', () => 12.5)];
    await as(t, alice).upload(`/pm/meters/${electric}/intervals`, csv.join('\n'), 'usage.csv').expect(200);
    const emissions = (await as(t, alice).get(`/pm/properties/${p.id}/emissions?year=2025`).expect(200)).body;
    const whatIf = async (changes: object[]) =>
      (await as(t, alice).post(`/pm/properties/${p.id}/what-if`, { year: 2025, changes }).expect(200)).body;
    const electricOf = (side: { energy: Array<{ utility_type: string; usage: number }> }) =>
      side.energy.find((e) => e.utility_type === 'electric')!.usage;

    // Electrifying the gas at 85.3 % / COP 2.5: 1,000 therms -> 10,000 kWh, all in January, on top of the readings.
    const electrified = await whatIf([{ kind: 'electrify', meter_id: gas, gas_efficiency: 0.853, electric_efficiency: 2.5 }]);
    expect(electrified.before.total_tco2e).toBe(emissions.total_tco2e);
    expect(electricOf(electrified.before)).toBe(17300); // 9,300 (readings) + 8,000 (February's bill)
    expect(electricOf(electrified.after)).toBe(27300);
    // 27.3 MWh x 886.58 lb x 0.45359237 / 1000 = 10.978583 t, no gas left.
    expect(electrified.after.total_tco2e).toBe(10.979);

    // A 10 % electric cut cuts the readings as it cuts the bills: 8,370 + 7,200 = 15,570 kWh.
    const cut = await whatIf([{ kind: 'cut', utility_type: 'electric', percent: 10 }]);
    expect(electricOf(cut.after)).toBe(15570);
  });
});
