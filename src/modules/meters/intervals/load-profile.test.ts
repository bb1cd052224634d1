import { loadProfile, nearestRank } from './load-profile';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('loadProfile (hand-computed)', () => {
  // America/Denver in July is UTC-6. Monday 2019-07-01 and Saturday 2019-07-06, hourly readings (kW = kWh).
  const points = [
    { start: at('2019-07-01T06:00:00-06:00'), kwh: 2 },
    { start: at('2019-07-01T07:00:00-06:00'), kwh: 4 },
    { start: at('2019-07-01T12:00:00-06:00'), kwh: 10 },
    { start: at('2019-07-01T18:00:00-06:00'), kwh: 4 },
    { start: at('2019-07-06T07:00:00-06:00'), kwh: 3 },
    { start: at('2019-07-06T12:00:00-06:00'), kwh: 5 },
  ];

  it('the worked example of the README', () => {
    const p = loadProfile(points, 60, 'America/Denver');
    // 28 kWh over 6 hours: 4.667 kW average; peak 10 kW on Monday at noon; 4.667 / 10 = 0.4667.
    expect(p).toMatchObject({
      readings: 6,
      energy_kwh: 28,
      average_kw: 4.667,
      peak_kw: 10,
      peak_at: '2019-07-01T12:00:00-06:00',
      load_factor: 0.4667,
    });
    // kW sorted 2, 3, 4, 4, 5, 10: the 2.5th percentile is rank ceil(0.025 x 6) = 1, 2 kW.
    expect(p.base_load_kw).toBe(2);
    // After hours: Monday 06:00 (2) and 18:00 (4), all of Saturday (3 + 5): 14 of 28 kWh.
    expect(p.after_hours_share).toBe(0.5);
    expect(p.weekday_by_hour.map((v, h) => (v === null ? null : [h, v])).filter(Boolean)).toEqual([
      [6, 2],
      [7, 4],
      [12, 10],
      [18, 4],
    ]);
    expect(p.weekend_by_hour.map((v, h) => (v === null ? null : [h, v])).filter(Boolean)).toEqual([
      [7, 3],
      [12, 5],
    ]);
  });

  it('15-minute readings: kW is kWh x 4, hours average the intervals that start in them', () => {
    const q = loadProfile(
      [
        { start: at('2019-07-01T13:00:00-06:00'), kwh: 1 },
        { start: at('2019-07-01T13:15:00-06:00'), kwh: 3 },
      ],
      15,
      'America/Denver',
    );
    expect(q).toMatchObject({ peak_kw: 12, average_kw: 8, load_factor: 0.6667, base_load_kw: 4, after_hours_share: 0 });
    expect(q.weekday_by_hour[13]).toBe(8);
  });

  it('no readings: nulls', () => {
    expect(loadProfile([], 15, 'America/Denver')).toMatchObject({
      readings: 0,
      energy_kwh: 0,
      peak_kw: null,
      load_factor: null,
      base_load_kw: null,
      after_hours_share: null,
    });
  });

  it('nearest rank', () => {
    const forty = Array.from({ length: 40 }, (_, i) => i + 1);
    expect(nearestRank(forty, 2.5)).toBe(1);
    expect(nearestRank([...forty, 41], 2.5)).toBe(2);
  });
});
