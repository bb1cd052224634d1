import { atOffset, isFederalHoliday, parseOffsetDateTime, ZoneClock } from './local-time';

describe('local clock time of interval data', () => {
  it('reads an ISO 8601 date and time with its offset, and nothing else', () => {
    expect(parseOffsetDateTime('2018-07-01T00:00:00-07:00')).toEqual({ ms: Date.UTC(2018, 6, 1, 7), offsetMinutes: -420 });
    expect(parseOffsetDateTime('2018-07-01T07:00Z')).toEqual({ ms: Date.UTC(2018, 6, 1, 7), offsetMinutes: 0 });
    expect(parseOffsetDateTime('2018-07-01T05:45:00+05:45')?.ms).toBe(Date.UTC(2018, 6, 1, 0));
    for (const bad of ['2018-07-01T00:00:00', '2018-07-01', '2018-02-30T00:00:00Z', '2018-07-01T24:00:00Z', '2018-07-01T00:00:00+25:00']) {
      expect(parseOffsetDateTime(bad)).toBeNull();
    }
  });

  it("follows a zone's transitions, on the hour or half past (St. John's springs forward at 05:30 UTC)", () => {
    const denver = new ZoneClock('America/Denver');
    expect([denver.offsetAt(Date.UTC(2018, 2, 11, 8, 45)), denver.offsetAt(Date.UTC(2018, 2, 11, 9))]).toEqual([-420, -360]);
    const stJohns = new ZoneClock('America/St_Johns');
    // 02:00 NST (-03:30) is 05:30 UTC: 05:15 UTC is 01:45 NST, 05:30 UTC is 03:00 NDT (-02:30).
    expect([stJohns.offsetAt(Date.UTC(2018, 2, 11, 5, 15)), stJohns.offsetAt(Date.UTC(2018, 2, 11, 5, 30))]).toEqual([-210, -150]);
    expect(stJohns.at(Date.UTC(2018, 2, 11, 5, 30))).toEqual({ year: 2018, month: 3, day: 11, hour: 3, minute: 0, weekday: 0 });
    expect(atOffset(Date.UTC(2018, 6, 16, 21), -360)).toEqual({ year: 2018, month: 7, day: 16, hour: 15, minute: 0, weekday: 1 });
  });

  it('federal holidays of 2018 on their dates; the day after Thanksgiving and Juneteenth are not', () => {
    const day = (month: number, d: number) => ({ month, day: d, weekday: new Date(Date.UTC(2018, month - 1, d)).getUTCDay() });
    const holidays = [
      [1, 1],
      [1, 15],
      [2, 19],
      [5, 28],
      [7, 4],
      [9, 3],
      [10, 8],
      [11, 11],
      [11, 22],
      [12, 25],
    ];
    for (const [m, d] of holidays) expect({ m, d, holiday: isFederalHoliday(day(m, d)) }).toEqual({ m, d, holiday: true });
    for (const [m, d] of [
      [1, 8],
      [1, 22],
      [5, 21],
      [11, 23],
      [6, 19],
      [9, 10],
      [10, 15],
    ])
      expect({ m, d, holiday: isFederalHoliday(day(m, d)) }).toEqual({ m, d, holiday: false });
  });
});
