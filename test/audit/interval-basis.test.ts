import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser, setTier, type RegisteredTestUser } from '../helpers/users';
import { seedTariffs } from '../helpers/tariffs';
import { as, createProperty, GLADSTONE } from '../pm/helpers';

const ALL_MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/**
 * Issue 50 item 3: a bill whose meter has interval readings covering its whole period is priced from
 * them in the audit and in rate analysis (`basis`: intervals); a period they do not cover is priced as
 * before, and the answer says why the readings were not used (audit README "Interval data").
 */
describe('bills priced from the meter interval readings (issue 50 item 3)', () => {
  let t: TestApp;
  let alice: RegisteredTestUser;
  let utilityId: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-01-15T12:00:00Z') });
    await seedTariffs(t.deps.database, [GLADSTONE.C1]);
    alice = await registerUser(t);
    await setTier(t, alice.user.id, 'pro');
    utilityId = (await request(t.app).get(`/api/v1/tariffs/${GLADSTONE.C1}`).expect(200)).body.utility_id;
  });
  afterAll(() => t.stop());

  /** On-peak 12:00-18:00 on weekdays at $0.30/kWh, off-peak $0.10; $10.00/kW of the month's peak; $20.00 a month. */
  const touTariff = () => ({
    name: 'Commercial time-of-use service',
    utility_id: utilityId,
    sector: 'commercial',
    effective_date: '2025-01-01',
    energy_rates: [
      { period: 'on_peak', months: ALL_MONTHS, hours: '12:00-18:00', days: 'weekdays', rate_per_kwh: 0.3 },
      {
        period: 'off_peak',
        months: ALL_MONTHS,
        hours: 'weekdays 00:00-12:00, 18:00-24:00; weekends 00:00-24:00',
        days: 'all',
        rate_per_kwh: 0.1,
      },
    ],
    demand_rates: [{ period: 'all_year', months: ALL_MONTHS, type: 'facility', rate_per_kw: 10 }],
    fixed_charges: [{ name: 'Customer charge', amount: 20, frequency: 'monthly' }],
  });

  /**
   * 15-minute readings (generic CSV, the property's local time) for each day of [from, to]: 1.5 kWh (6 kW) from 12:00 to
   * 18:00 on Mondays to Fridays when `busy`, 0.5 kWh (2 kW) otherwise.
   */
  function readings(from: string, to: string, busy: boolean): string[] {
    const rows: string[] = [];
    const p = (n: number) => String(n).padStart(2, '0');
    for (let day = new Date(`${from}T00:00:00Z`); day <= new Date(`${to}T00:00:00Z`); day = new Date(day.getTime() + 86_400_000)) {
      const date = day.toISOString().slice(0, 10);
      const weekday = day.getUTCDay() >= 1 && day.getUTCDay() <= 5;
      for (let i = 0; i < 96; i++) {
        const start = `${date}T${p(Math.floor(i / 4))}:${p((i % 4) * 15)}:00`;
        const endMinute = i * 15 + 15;
        const end =
          endMinute === 1440
            ? `${new Date(day.getTime() + 86_400_000).toISOString().slice(0, 10)}T00:00:00`
            : `${date}T${p(Math.floor(endMinute / 60))}:${p(endMinute % 60)}:00`;
        rows.push(`${start},${end},${busy && weekday && i >= 48 && i < 72 ? 1.5 : 0.5}`);
      }
    }
    return rows;
  }

  it('prices a July from the readings (TOU split and demand measured), falls back on a partial August, and flags a September typed off', async () => {
    const tariff = (await as(t, alice.token).post('/tariffs/custom', touTariff()).expect(201)).body;
    const p = await createProperty(t, alice.token, { tariff_id: tariff.id, timezone: 'America/Detroit' });
    const meter = (await as(t, alice.token).post(`/pm/properties/${p.id}/meters`, { utility_type: 'electric' }).expect(201)).body.id;
    const bill = async (period_start: string, period_end: string, usage_kwh: number, demand_kw: number, amount: number) =>
      (
        await as(t, alice.token)
          .post(`/pm/properties/${p.id}/bills`, { meter_id: meter, period_start, period_end, usage_kwh, demand_kw, amount })
          .expect(201)
      ).body.id as string;
    const audit = async (id: string) => (await as(t, alice.token).post(`/pm/bills/${id}/audit`).expect(200)).body;

    // July 2025 (31 days): 23 weekdays; July 4, a Friday, is a holiday the engine prices as a weekend, so 22 on-peak days.
    // Readings: 23 x 24 intervals at 1.5 kWh = 828 kWh, 2,424 at 0.5 = 1,212 kWh; 2,040 kWh in all, a peak of 6 kW.
    // From them: on-peak 22 x 24 x 1.5 = 792 kWh x $0.30 = $237.60; off-peak 2,040 - 792 = 1,248 kWh x $0.10 = $124.80;
    // demand 6 kW x $10.00 = $60.00; customer charge $20.00: $442.40.
    const july = await bill('2025-07-01', '2025-07-31', 2040, 6, 442.4);
    const before = await audit(july);
    // Without readings: the bill's 2,040 kWh split by the load shape (an on-peak share the readings do not have).
    expect(before).toMatchObject({ basis: 'bill', basis_note: null });
    const onPeakLine = before.expected_line_items.find((l: { name: string }) => /on_peak/i.test(l.name));
    const shapeOnPeakKwh = Number(/([\d,.]+) kWh/.exec(onPeakLine.name)![1]!.replace(/,/g, ''));
    const cents = (x: number) => Math.round(x * 100);
    const shapeCents = cents(shapeOnPeakKwh * 0.3) + cents((2040 - shapeOnPeakKwh) * 0.1) + 6000 + 2000;
    expect(cents(before.expected_amount)).toBe(shapeCents);
    expect(shapeOnPeakKwh).not.toBe(792);

    // August 2025 with its last day missing, September 2025 whole (0.5 kWh every 15 minutes: 2,880 x 0.5 = 1,440 kWh, 2 kW).
    const csv = [
      'start,end,kwh',
      ...readings('2025-07-01', '2025-07-31', true),
      ...readings('2025-08-01', '2025-08-30', true),
      ...readings('2025-09-01', '2025-09-30', false),
    ];
    const imported = await as(t, alice.token).upload(`/pm/meters/${meter}/intervals`, csv.join('\n'), 'usage.csv').expect(200);
    expect(imported.body).toMatchObject({ stored: (31 + 30 + 30) * 96 });

    const after = await audit(july);
    expect(after).toMatchObject({ basis: 'intervals', basis_note: null, status: 'ok', expected_amount: 442.4, variance: 0 });
    // The difference from the load-shape estimate is in the energy lines alone: the on-peak kWh the shape put in the wrong hours.
    expect(cents(before.expected_amount) - cents(after.expected_amount)).toBe(
      cents(shapeOnPeakKwh * 0.3) + cents((2040 - shapeOnPeakKwh) * 0.1) - (23760 + 12480),
    );
    expect(after.expected_line_items.map((l: { amount: number }) => l.amount)).toEqual(expect.arrayContaining([237.6, 124.8, 60, 20]));

    // August: 2,880 of 2,976 intervals; priced from its typed usage, and the answer says why.
    const august = await bill('2025-08-01', '2025-08-31', 2000, 6, 400);
    expect(await audit(august)).toMatchObject({
      basis: 'bill',
      basis_note:
        "interval readings not used: the meter's interval readings cover 2,880 of the 2,976 15-minute intervals from 2025-08-01 to " +
        '2025-08-31 (America/Detroit); the first missing starts 2025-08-31T00:00:00-04:00',
    });

    // September 2025: 22 weekdays less Labor Day (September 1): 21 x 24 x 0.5 = 252 kWh x $0.30 = $75.60; 1,188 kWh x $0.10
    // = $118.80; 2 kW x $10.00 = $20.00; $20.00: $234.40. Typed 1,500 kWh: 60 / 1,440 = 4.17 % more than the readings.
    const september = await bill('2025-09-01', '2025-09-30', 1500, 2, 234.4);
    const sept = await audit(september);
    expect(sept).toMatchObject({ basis: 'intervals', status: 'ok', expected_amount: 234.4 });
    expect(sept.findings.map((f: { reason: string }) => f.reason)).toEqual(['interval_usage_mismatch']);
    expect(sept.findings[0]).toMatchObject({
      severity: 'medium',
      amount_at_issue: null,
      message:
        "the bill's usage, 1,500 kWh, is 4.2 % more than the meter's interval readings over its period, 1,440 kWh: the expected bill " +
        "is priced from the readings; check the bill's usage (a misread or estimated register) and that the readings are this meter's",
      details: { bill_kwh: 1500, interval_kwh: 1440, difference_percent: 4.2, basis: 'intervals' },
    });

    // Rate analysis prices July and September from the readings, August from its usage, on every tariff (C1: $0.1217/kWh
    // + $13.54 a month, flat: the readings' kWh, 2,040 and 1,440, not September's typed 1,500).
    const analysis = (await as(t, alice.token).post(`/pm/properties/${p.id}/analyze-rates`).expect(200)).body;
    expect(analysis.basis).toEqual({
      kind: 'bills',
      months: ['2025-07', '2025-08', '2025-09'],
      bills_from_intervals: 2,
      meters: [{ meter_id: meter, bills: 3, bills_from_intervals: 2, months: ['2025-07', '2025-08', '2025-09'] }],
    });
    expect(analysis.assumptions).toContain(
      "2 of the 3 bills were priced from the meter's interval readings covering the whole period: each interval in its " +
        'time-of-use period and the demand measured, on every tariff',
    );
    const augustExpected = cents((await audit(august)).expected_amount);
    // 31 + 31 + 30 = 92 days; monthly = total x 30.4375 / 92 = total x 487 / (16 x 92), half away from zero.
    const monthly = (totalCents: number) => Math.round((totalCents * 487) / (16 * 92)) / 100;
    expect(analysis.current_tariff).toMatchObject({ id: tariff.id, estimated_monthly_cost: monthly(44240 + augustExpected + 23440) });
    // C1 on July 2,040 kWh ($248.27 + $13.54), August 2,000 ($243.40 + $13.54), September 1,440 ($175.25 + $13.54).
    const c1 = [...analysis.alternatives, ...analysis.needs_review, ...analysis.excluded].find(
      (a: { tariff_id: string }) => a.tariff_id === GLADSTONE.C1,
    );
    expect(c1?.estimated_monthly_cost).toBe(monthly(24827 + 1354 + 24340 + 1354 + 17525 + 1354));
  });
});
