/**
 * Bills priced from interval data (pricing README "Interval data"), worked by hand: periods by local
 * clock time (weekends and federal holidays on the weekend schedule), daylight saving's 23- and
 * 25-hour days, demand over the tariff's window per period, tiers over the month's total.
 */
import type { Schedule12x24, Tariff, TariffStructure } from '../../tariffs/tariff.model';
import { EMPTY_STRUCTURE, tariffOf as fixtureTariff } from '../../tariffs/tariff.fixtures';
import { bill } from './engine.fixtures';
import { BillingError, type IntervalData } from './types';
import { MAX_USAGE_KWH } from './limits';

const SUMMER = [5, 6, 7, 8]; // June to September (0-based months)
/** 12x24 schedule: `on` in hours [from, to) of the months listed, `off` elsewhere. */
function schedule(months: number[], from: number, to: number, on = 1, off = 0): Schedule12x24 {
  return Array.from({ length: 12 }, (_, m) => Array.from({ length: 24 }, (_, h) => (months.includes(m) && h >= from && h < to ? on : off)));
}
const ALL_MONTHS = Array.from({ length: 12 }, (_, m) => m);
const never = schedule([], 0, 0);

/** A tariff of `structure`'s charges, summary fields as in the worked examples (a 2018 Colorado TOU rate). */
function tariffOf(id: string, structure: Partial<TariffStructure>): Tariff {
  return fixtureTariff({
    id,
    utilityId: 'u',
    state: 'CO',
    rateType: 'tou',
    hasTou: true,
    hasDemand: !!(structure.demandTou || structure.demandFlat),
    hasNetMetering: false,
    effectiveDate: '2018-01-01',
    lastUpdated: '2018-01-01T00:00:00.000Z',
    structure: { ...EMPTY_STRUCTURE, ...structure },
  });
}

const flatTier = (rate: number) => [{ max: null, unit: 'kWh' as const, rate, sell: null }];

/**
 * Summer weekdays 14:00-19:00 on-peak ($0.30/kWh, $10/kW), every other hour off-peak ($0.10/kWh,
 * $2/kW); facility demand $5/kW every month; $20 a month.
 */
const touDemand = tariffOf('tou-demand', {
  energy: {
    periods: [flatTier(0.1), flatTier(0.3)],
    weekday: schedule(SUMMER, 14, 19),
    weekend: never,
    periodNames: ['off_peak', 'summer_on_peak'],
  },
  demandTou: {
    periods: [[{ max: null, rate: 2 }], [{ max: null, rate: 10 }]],
    weekday: schedule(SUMMER, 14, 19),
    weekend: never,
    unit: 'kW',
    periodNames: ['off_peak', 'on_peak'],
  },
  demandFlat: { periods: [[{ max: null, rate: 5 }]], months: ALL_MONTHS.map(() => 0), unit: 'kW' },
  fixedCharges: [{ name: 'Customer charge', amount: 20, frequency: 'monthly' }],
});

/** 14:00-19:00 every day of the year on-peak $0.20, else $0.10 (weekday and weekend alike). */
const everyDay = tariffOf('every-day', {
  energy: {
    periods: [flatTier(0.1), flatTier(0.2)],
    weekday: schedule(ALL_MONTHS, 14, 19),
    weekend: schedule(ALL_MONTHS, 14, 19),
    periodNames: ['off_peak', 'on_peak'],
  },
});

const hours = (n: number, kwh: (i: number) => number) => Array.from({ length: n }, (_, i) => kwh(i));
const intervals = (start: string, intervalMinutes: number, kwh: number[], timezone?: string): IntervalData => ({
  start,
  intervalMinutes,
  kwh,
  timezone,
});
const total = (kwh: number[]) => kwh.reduce((s, x) => s + Math.round(x * 1000), 0) / 1000;
const priced = (t: Tariff, data: IntervalData, month: number, extra: object = {}) =>
  bill(t, { usageKwh: total(data.kwh), month, intervals: data, ...extra });
const amounts = (b: { lineItems: Array<{ name: string; amount: number }> }) => b.lineItems.map((i) => [i.name, i.amount]);

describe('interval data: periods by local clock time', () => {
  it('a July of 10 kWh an hour and one 20 kWh hour: July 4 is priced on the weekend schedule, the peaks per period', () => {
    // July 2018: 31 days, 9 Saturdays and Sundays, July 4 (a Wednesday) a holiday: 21 weekdays x 5 on-peak hours = 105 hours.
    const kwh = hours(31 * 24, () => 10);
    kwh[15 * 24 + 15] = 20; // Monday July 16, 15:00-16:00
    const b = priced(touDemand, intervals('2018-07-01T00:00:00-06:00', 60, kwh), 7);
    // On-peak 104 x 10 + 20 = 1060 kWh x $0.30 = 318.00; off-peak 7450 - 1060 = 6390 kWh x $0.10 = 639.00.
    // Demand: 60-minute intervals are longer than the 15-minute window, so each hour's average: on-peak 20 kW, off-peak 10 kW, facility 20 kW.
    expect(amounts(b)).toEqual([
      ['Energy off_peak: 6390 kWh x $0.1/kWh', 639],
      ['Energy summer_on_peak: 1060 kWh x $0.3/kWh', 318],
      ['Facility demand (largest 60-minute average, 2018-07-16 15:00): 20 kW x $5/kW', 100],
      ['TOU demand off_peak (largest 60-minute average, 2018-07-01 00:00): 10 kW x $2/kW', 20],
      ['TOU demand on_peak (largest 60-minute average, 2018-07-16 15:00): 20 kW x $10/kW', 200],
      ['Customer charge: $20/month', 20],
    ]);
    expect(b.totalCost).toBe(1297);
    expect(b.assumptions.join(' ')).not.toMatch(/load shape|split over/);
    expect(b.assumptions[0]).toBe(
      'priced from 744 60-minute intervals, 2018-07-01 00:00 to 2018-07-31 23:00 (UTC-06:00 clock time; ' +
        'Saturdays, Sundays and federal holidays on the weekend schedule): 7450 kWh; energy periods: off_peak 6390 kWh, summer_on_peak 1060 kWh; ' +
        'peak demand 20 kW (largest 60-minute average, 2018-07-16 15:00); TOU demand periods: off_peak 10 kW, on_peak 20 kW',
    );
  });

  it('demand is the largest average over the window, within one period; a window across a period boundary counts for facility demand only', () => {
    // Wednesday August 1, 2018, 15-minute data of 1 kWh (4 kW), with 3 kWh at 13:45, 14:00 and 15:00 and 2 kWh at 15:15.
    const kwh = hours(96, () => 1);
    for (const [q, v] of [
      [55, 3],
      [56, 3],
      [60, 3],
      [61, 2],
    ])
      kwh[q] = v;
    const data = intervals('2018-08-01T00:00:00-06:00', 15, kwh);
    const fifteen = priced(touDemand, data, 8);
    // 15-minute window: 3 kWh in 15 minutes = 12 kW, on-peak first at 14:00, off-peak at 13:45, facility at 13:45.
    expect(fifteen.lineItems.filter((i) => i.name.includes('demand')).map((i) => i.name)).toEqual([
      'Facility demand (largest 15-minute average, 2018-08-01 13:45): 12 kW x $5/kW',
      'TOU demand off_peak (largest 15-minute average, 2018-08-01 13:45): 12 kW x $2/kW',
      'TOU demand on_peak (largest 15-minute average, 2018-08-01 14:00): 12 kW x $10/kW',
    ]);
    const thirty = priced(tariffOf('window-30', { ...touDemand.structure, demandWindowMinutes: 30 }), data, 8);
    // 30-minute window: 13:45-14:15 averages (3 + 3) x 2 = 12 kW but crosses 14:00; off-peak's best is 13:30-14:00,
    // (1 + 3) x 2 = 8 kW; on-peak's 15:00-15:30, (3 + 2) x 2 = 10 kW.
    expect(thirty.lineItems.filter((i) => i.name.includes('demand')).map((i) => [i.name, i.amount])).toEqual([
      ['Facility demand (largest 30-minute average, 2018-08-01 13:45): 12 kW x $5/kW', 60],
      ['TOU demand off_peak (largest 30-minute average, 2018-08-01 13:30): 8 kW x $2/kW', 16],
      ['TOU demand on_peak (largest 30-minute average, 2018-08-01 15:00): 10 kW x $10/kW', 100],
    ]);
  });
});

describe('interval data: daylight saving', () => {
  it('the 23-hour day (March 11, 2018, America/Denver): 02:00 never happens, so the 14th interval starts at 14:00', () => {
    const kwh = hours(23, (i) => i + 1);
    const data = intervals('2018-03-11T00:00:00-07:00', 60, kwh, 'America/Denver');
    // Local hours 0, 1, 3, 4, ..., 23: interval i starts at hour i + 1 from i = 2. On-peak 14:00-19:00 is i = 13..17,
    // kWh 14 + 15 + 16 + 17 + 18 = 80 x $0.20 = 16.00; off-peak 276 - 80 = 196 x $0.10 = 19.60.
    expect(amounts(priced(everyDay, data, 3))).toEqual([
      ['Energy off_peak: 196 kWh x $0.1/kWh', 19.6],
      ['Energy on_peak: 80 kWh x $0.2/kWh', 16],
    ]);
    // At the fixed offset of start (-07:00 all day) interval i is hour i: on-peak i = 14..18, 85 kWh.
    const fixed = priced(everyDay, { ...data, timezone: null }, 3);
    expect(amounts(fixed)).toEqual([
      ['Energy off_peak: 191 kWh x $0.1/kWh', 19.1],
      ['Energy on_peak: 85 kWh x $0.2/kWh', 17],
    ]);
  });

  it('the 25-hour day (November 4, 2018, America/Denver): 01:00 twice, so the 16th interval starts at 14:00', () => {
    const kwh = hours(25, (i) => i + 1);
    const b = priced(everyDay, intervals('2018-11-04T00:00:00-06:00', 60, kwh, 'America/Denver'), 11);
    // Local hours 0, 1 (MDT), 1 (MST), 2, ..., 23: interval i starts at hour i - 1 from i = 2. On-peak is i = 15..19,
    // kWh 16 + 17 + 18 + 19 + 20 = 90 x $0.20 = 18.00; off-peak 325 - 90 = 235 x $0.10 = 23.50.
    expect(amounts(b)).toEqual([
      ['Energy off_peak: 235 kWh x $0.1/kWh', 23.5],
      ['Energy on_peak: 90 kWh x $0.2/kWh', 18],
    ]);
    expect(b.assumptions[0]).toMatch(
      /^priced from 25 60-minute intervals, 2018-11-04 00:00 to 2018-11-04 23:00 \(America\/Denver clock time;/,
    );
  });
});

describe('interval data: tiers on the month total', () => {
  it("the month's first 500 kWh are shared by the periods in proportion to their kWh", () => {
    const tiered = tariffOf('tiered', {
      energy: {
        periods: [
          [
            { max: 500, unit: 'kWh', rate: 0.1, sell: null },
            { max: null, unit: 'kWh', rate: 0.12, sell: null },
          ],
          [
            { max: 500, unit: 'kWh', rate: 0.2, sell: null },
            { max: null, unit: 'kWh', rate: 0.25, sell: null },
          ],
        ],
        weekday: schedule(ALL_MONTHS, 14, 19),
        weekend: schedule(ALL_MONTHS, 14, 19),
        periodNames: ['off_peak', 'on_peak'],
      },
    });
    // The 23-hour day x 10: on-peak 800 kWh, off-peak 1960, 2760 in all. Tier 1 holds 500 kWh: on-peak 500 x 800 / 2760
    // = 144.928 kWh (to the Wh), off-peak 355.072; tier 2 on-peak 655.072, off-peak 1604.928.
    const b = priced(
      tiered,
      intervals(
        '2018-03-11T00:00:00-07:00',
        60,
        hours(23, (i) => 10 * (i + 1)),
        'America/Denver',
      ),
      3,
    );
    expect(amounts(b)).toEqual([
      ["Energy off_peak tier 1 (share of the month's first 500 kWh): 355.072 kWh x $0.1/kWh", 35.51],
      ["Energy off_peak tier 2 (share of the month's kWh above 500): 1604.928 kWh x $0.12/kWh", 192.59],
      ["Energy on_peak tier 1 (share of the month's first 500 kWh): 144.928 kWh x $0.2/kWh", 28.99],
      ["Energy on_peak tier 2 (share of the month's kWh above 500): 655.072 kWh x $0.25/kWh", 163.77],
    ]);
    expect(b.totalCost).toBe(420.86);
  });
});

describe('interval data: what is refused', () => {
  const july = intervals(
    '2018-07-01T00:00:00-06:00',
    60,
    hours(24, () => 1),
  );
  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      if (err instanceof BillingError) return [err.field, err.message];
      throw err;
    }
    return null;
  };

  it('names the field: interval length, kWh, start, zone, months, usage_kwh and demand_kw that disagree, a profile beside them', () => {
    expect(refusal(() => priced(everyDay, { ...july, intervalMinutes: 20 }, 7))).toEqual([
      'intervals.interval_minutes',
      'interval_minutes must be 15, 30 or 60',
    ]);
    expect(refusal(() => priced(everyDay, { ...july, kwh: [1, -1] }, 7))).toEqual([
      'intervals.kwh.1',
      `kwh[1] must be a number between 0 and ${MAX_USAGE_KWH}`,
    ]);
    expect(refusal(() => bill(everyDay, { usageKwh: 1, month: 7, intervals: { ...july, kwh: [1, Number.NaN] } }))?.[0]).toBe(
      'intervals.kwh.1',
    );
    expect(refusal(() => priced(everyDay, { ...july, kwh: [] }, 7))?.[0]).toBe('intervals.kwh');
    expect(refusal(() => priced(everyDay, { ...july, start: '2018-07-01T00:00:00' }, 7))?.[0]).toBe('intervals.start');
    expect(refusal(() => priced(everyDay, { ...july, timezone: 'Mars/Olympus' }, 7))).toEqual([
      'intervals.timezone',
      'timezone must be an IANA time zone such as America/Denver: Mars/Olympus is not one',
    ]);
    const twoMonths = intervals(
      '2018-07-31T00:00:00-06:00',
      60,
      hours(48, () => 1),
    );
    expect(refusal(() => priced(everyDay, twoMonths, 7))).toEqual([
      'intervals',
      'the intervals run from 2018-07-31 to 2018-08-01, over more than one month: price them as a billing period (period_start, period_end)',
    ]);
    expect(refusal(() => priced(everyDay, july, 8))).toEqual(['month', 'month is 8 but the intervals are in July']);
    expect(refusal(() => bill(everyDay, { usageKwh: 25, month: 7, intervals: july }))).toEqual([
      'usage_kwh',
      'usage_kwh is 25 but the intervals add up to 24 kWh (they must agree within 0.01 kWh; usage_kwh may be left out)',
    ]);
    expect(refusal(() => priced(touDemand, july, 7, { demandKw: 2 }))).toEqual([
      'demand_kw',
      "demand_kw is 2 but the intervals' largest 60-minute average is 1 kW (they must agree within 0.01 kW; demand_kw may be left out)",
    ]);
    expect(priced(touDemand, july, 7, { demandKw: 1.005 }).totalCost).toBe(priced(touDemand, july, 7).totalCost);
    expect(refusal(() => priced(everyDay, july, 7, { usageProfile: { onPeakKwh: 5, offPeakKwh: 19 } }))?.[0]).toBe('usage_profile');
  });

  it('a demand tariff needs no demand_kw with intervals', () => {
    expect(priced(touDemand, july, 7).summary.demandCharge).toBe(1 * 5 + 1 * 2);
  });
});
