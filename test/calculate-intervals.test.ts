import request from 'supertest';
import { createTestApp, type TestApp } from './helpers/app';
import { seedTariffs } from './helpers/tariffs';

// General Service - Time of Day (GS-TOD-G): May-October weekdays 13:00-21:00 at 0.04712 + 0.01485 = $0.06197/kWh,
// other hours 0.01758 + 0.001353 = $0.018933; facility demand $5.13/kW May-October; $36.66 a month; fuel adjustments
// of $0.0201/kWh in July and $0.0262 in August.
const GS_TOD = '58f675d45457a36350156660';
const MUNICIPAL = '539f6adcec4f024411ec9565'; // 0.094782 + adj 0.016079 = $0.110861/kWh; minimum $6.99

/** Monday July 16, 2018: 10 kWh an hour, 30 kWh from 15:00. */
const MONDAY = {
  start: '2018-07-16T00:00:00-06:00',
  interval_minutes: 60,
  kwh: Array.from({ length: 24 }, (_, h) => (h === 15 ? 30 : 10)),
};

describe('POST /calculate with interval data (issue 50)', () => {
  let t: TestApp;
  const calc = (body: unknown) =>
    request(t.app)
      .post('/api/v1/calculate')
      .send(body as object);

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-03-15T12:00:00Z') });
    await seedTariffs(t.deps.database, [GS_TOD, MUNICIPAL]);
  });
  afterAll(() => t.stop());

  it('prices each hour in its period, the month from the intervals, demand from their peak (no usage_kwh, demand_kw or month sent)', async () => {
    const res = await calc({ tariff_id: GS_TOD, intervals: MONDAY }).expect(200);
    // On-peak 13:00-21:00: 7 x 10 + 30 = 100 kWh x $0.06197 = 6.197 -> 6.20; off-peak 16 x 10 = 160 kWh x $0.018933 = 3.02928
    // -> 3.03; facility demand 30 kW (the 15:00 hour: hourly data is averaged over its hour) x $5.13 = 153.90; $36.66;
    // fuel 260 x $0.0201 = 5.226 -> 5.23. Total 205.02.
    expect(res.body.month).toBe(7);
    expect(res.body.usage).toBe(260);
    expect(res.body.line_items.map((i: { name: string; amount: number }) => [i.name, i.amount])).toEqual([
      ['Energy off_peak: 160 kWh x $0.018933/kWh', 3.03],
      ['Energy summer_on_peak: 100 kWh x $0.06197/kWh', 6.2],
      ['Facility demand (largest 60-minute average, 2018-07-16 15:00): 30 kW x $5.13/kW', 153.9],
      ['Fixed customer charge: $36.66/month', 36.66],
      ['Fuel adjustment (July): 260 kWh x $0.0201/kWh', 5.23],
    ]);
    expect(res.body.total_cost).toBe(205.02);
    expect(
      res.body.assumptions.some((a: string) =>
        a.startsWith('priced from 24 60-minute intervals, 2018-07-16 00:00 to 2018-07-16 23:00 (UTC-06:00 clock time;'),
      ),
    ).toBe(true);
    expect(res.body.assumptions.join(' ')).not.toMatch(/load shape|split over/);
  });

  it('usage_kwh and demand_kw sent beside the intervals must agree with them', async () => {
    expect((await calc({ tariff_id: GS_TOD, intervals: MONDAY, usage_kwh: 260, demand_kw: 30 }).expect(200)).body.total_cost).toBe(205.02);
    const usage = await calc({ tariff_id: GS_TOD, intervals: MONDAY, usage_kwh: 250 }).expect(422);
    expect(usage.body.errors).toEqual([
      {
        field: 'usage_kwh',
        message: 'usage_kwh is 250 but the intervals add up to 260 kWh (they must agree within 0.01 kWh; usage_kwh may be left out)',
      },
    ]);
    const demand = await calc({ tariff_id: GS_TOD, intervals: MONDAY, demand_kw: 40 }).expect(422);
    expect(demand.body.errors[0].field).toBe('demand_kw');
    const month = await calc({ tariff_id: GS_TOD, intervals: MONDAY, month: 8 }).expect(422);
    expect(month.body.errors).toEqual([{ field: 'month', message: 'month is 8 but the intervals are in July' }]);
  });

  it('refuses intervals that are not: their length, kWh, start without offset, zone, count, a profile beside them', async () => {
    const refused = async (intervals: object, extra: object = {}) =>
      (await calc({ tariff_id: MUNICIPAL, intervals: { ...MONDAY, ...intervals }, ...extra }).expect(422)).body.errors[0];
    expect(await refused({ interval_minutes: 20 })).toEqual({
      field: 'intervals.interval_minutes',
      message: 'interval_minutes must be 15, 30 or 60',
    });
    expect((await refused({ kwh: [1, -2] })).field).toBe('intervals.kwh.1');
    expect(await refused({ kwh: [] })).toEqual({ field: 'intervals.kwh', message: 'ensure this value has at least 1 items' });
    expect(await refused({ kwh: Array(8929).fill(1) })).toEqual({
      field: 'intervals.kwh',
      message: 'ensure this value has at most 8928 items',
    });
    expect(await refused({ start: '2018-07-16T00:00:00' })).toEqual({
      field: 'intervals.start',
      message: 'start must be an ISO 8601 date and time with its UTC offset, such as 2018-07-01T00:00:00-07:00',
    });
    expect(await refused({ timezone: 'America/Gotham' })).toEqual({
      field: 'intervals.timezone',
      message: 'timezone must be an IANA time zone such as America/Denver',
    });
    expect((await refused({}, { usage_profile: { on_peak_kwh: 100, off_peak_kwh: 160 } })).field).toBe('usage_profile');
    const twoMonths = { start: '2018-07-31T00:00:00-06:00', kwh: Array(48).fill(1) };
    expect((await refused(twoMonths)).field).toBe('intervals');
  });

  it('prices a 25-hour day by its zone clock', async () => {
    // November 4, 2018 in America/Denver: 25 hours of 1 kWh at $0.110861 = 2.771525 -> 2.77, below the $6.99 minimum.
    const res = await calc({
      tariff_id: MUNICIPAL,
      intervals: { start: '2018-11-04T00:00:00-06:00', interval_minutes: 60, kwh: Array(25).fill(1), timezone: 'America/Denver' },
    }).expect(200);
    expect([res.body.month, res.body.usage, res.body.total_cost]).toEqual([11, 25, 6.99]);
  });

  it('POST /calculate/compare prices every tariff on the same intervals', async () => {
    const res = await request(t.app)
      .post('/api/v1/calculate/compare')
      .send({ tariff_ids: [GS_TOD, MUNICIPAL], intervals: MONDAY })
      .expect(200);
    // Municipal: 260 x $0.110861 = 28.82386 -> 28.82.
    expect([res.body.usage_kwh, res.body.month, res.body.cheapest]).toEqual([260, 7, MUNICIPAL]);
    expect(res.body.results.map((r: { tariff_id: string; total_cost: number }) => [r.tariff_id, r.total_cost])).toEqual([
      [MUNICIPAL, 28.82],
      [GS_TOD, 205.02],
    ]);
  });

  it('a billing period prices the intervals inside it, and refuses intervals outside it', async () => {
    // July 16 to August 14, 2018 (30 days: one month), 10 kWh every hour: 22 weekdays x 8 on-peak hours = 1760 kWh x $0.06197
    // = 109.0672 -> 109.07; 7200 - 1760 = 5440 kWh x $0.018933 = 102.99552 -> 103.00; 10 kW x $5.13 = 51.30; $36.66.
    // Both months are summer: each line is the same in July's 16 days and August's 14, rounded once over the period
    // (300.03); fuel is each month's: 7200 x $0.0201 x 16/30 = 77.184 -> 77.18, 7200 x $0.0262 x 14/30 = 88.032 -> 88.03.
    const intervals = { start: '2018-07-16T00:00:00-06:00', interval_minutes: 60, kwh: Array(30 * 24).fill(10) };
    const res = await calc({ tariff_id: GS_TOD, intervals, period_start: '2018-07-16', period_end: '2018-08-14' }).expect(200);
    expect(res.body.total_cost).toBe(465.24);
    expect(res.body.usage).toBe(7200);
    const outside = await calc({ tariff_id: GS_TOD, intervals, period_start: '2018-07-16', period_end: '2018-08-13' }).expect(422);
    expect(outside.body.errors).toEqual([
      {
        field: 'intervals',
        message: 'the intervals run from 2018-07-16 to 2018-08-14 (local time), outside the billing period 2018-07-16 to 2018-08-13',
      },
    ]);
  });
});
