import fc from 'fast-check';
import { billedDaysByMonth, calendariseBill, calendariseMonths, runningShare } from './calendarise.calc';
import { dayNumber, daysInMonth, monthEndDate, monthIndexOfDate, monthKey } from './months';

const m = (key: string) => monthIndexOfDate(key);
const shares = (s: ReturnType<typeof calendariseBill>) => s.map((x) => [monthKey(x.month), x.days, x.cents, x.usageMilli]);

describe('calendarisation (README "Calendarisation")', () => {
  it('README example 1: $100.00 and 1,000 kWh over 2026-01-20..2026-02-19 (31 days: 12 in January, 19 in February)', () => {
    // January: R(10000 x 12 / 31) = R(3870.97) = 3871 cents; February: 10000 - 3871 = 6129.
    // kWh: R(1,000,000 x 12 / 31) = R(387,096.77) = 387,097 Wh; February 612,903 Wh.
    const s = calendariseBill({ periodStart: '2026-01-20', periodEnd: '2026-02-19', cents: 10000, usageMilli: 1_000_000 });
    expect(shares(s)).toEqual([
      ['2026-01', 12, 3871, 387097],
      ['2026-02', 19, 6129, 612903],
    ]);
  });

  it('README example 2: $100.00 over 2026-01-31..2026-03-01 (1 + 28 + 1 days): running totals 333, 9667, 10000', () => {
    const s = calendariseBill({ periodStart: '2026-01-31', periodEnd: '2026-03-01', cents: 10000, usageMilli: 0 });
    expect(shares(s)).toEqual([
      ['2026-01', 1, 333, 0],
      ['2026-02', 28, 9334, 0],
      ['2026-03', 1, 333, 0],
    ]);
  });

  it('a whole-month bill lands in its month; a one-day bill too', () => {
    expect(shares(calendariseBill({ periodStart: '2024-02-01', periodEnd: '2024-02-29', cents: 12345, usageMilli: 7 }))).toEqual([
      ['2024-02', 29, 12345, 7],
    ]);
    expect(shares(calendariseBill({ periodStart: '2026-05-31', periodEnd: '2026-05-31', cents: 1, usageMilli: 1 }))).toEqual([
      ['2026-05', 1, 1, 1],
    ]);
  });

  it("rounds half up on the running total: 1 cent over 2 days goes to the first day's month", () => {
    // R(1 x 1 / 2) = R(0.5) = 1
    expect(runningShare(1, 1, 2)).toBe(1);
    expect(shares(calendariseBill({ periodStart: '2026-01-31', periodEnd: '2026-02-01', cents: 1, usageMilli: 3 }))).toEqual([
      ['2026-01', 1, 1, 2],
      ['2026-02', 1, 0, 1],
    ]);
  });

  it('a credit (negative amount) is spread the same way, rounding half away from zero, and adds back exactly', () => {
    // R(-1 x 1 / 2) = R(-0.5) = -1: January -1 cent, February 0.
    expect(shares(calendariseBill({ periodStart: '2026-01-31', periodEnd: '2026-02-01', cents: -1, usageMilli: 0 }))).toEqual([
      ['2026-01', 1, -1, 0],
      ['2026-02', 1, 0, 0],
    ]);
    // -$100.00 over example 2's period: -333, -9334, -333.
    expect(shares(calendariseBill({ periodStart: '2026-01-31', periodEnd: '2026-03-01', cents: -10000, usageMilli: 0 }))).toEqual([
      ['2026-01', 1, -333, 0],
      ['2026-02', 28, -9334, 0],
      ['2026-03', 1, -333, 0],
    ]);
  });

  it('a window keeps exactly the shares the whole bill gives those months (a decades-long bill stays cheap)', () => {
    const bill = { periodStart: '1990-03-17', periodEnd: '2031-08-02', cents: 99_999_999_999_99, usageMilli: 123_456_789 };
    const window = { from: m('2024-01'), to: m('2026-12') };
    const cut = calendariseBill(bill, window);
    const whole = calendariseBill(bill).filter((s) => s.month >= window.from && s.month <= window.to);
    expect(cut).toEqual(whole);
    expect(cut).toHaveLength(36);
  });

  it('shares add back to the bill exactly and each is within one unit of the exact proportion', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: dayNumber('1999-01-01'), max: dayNumber('2030-12-31') }),
        fc.integer({ min: 0, max: 800 }),
        fc.integer({ min: 0, max: 9_999_999_999_999 }),
        (startDay, length, cents) => {
          const iso = (d: number) => new Date(d * 86_400_000).toISOString().slice(0, 10);
          const s = calendariseBill({
            periodStart: iso(startDay),
            periodEnd: iso(startDay + length),
            cents,
            usageMilli: cents % 1_000_003,
          });
          expect(s.reduce((a, x) => a + x.cents, 0)).toBe(cents);
          expect(s.reduce((a, x) => a + x.usageMilli, 0)).toBe(cents % 1_000_003);
          expect(s.reduce((a, x) => a + x.days, 0)).toBe(length + 1);
          for (const x of s) expect(Math.abs(x.cents - (cents * x.days) / (length + 1))).toBeLessThan(1);
        },
      ),
    );
  });

  it('billed days count each day once, whatever bills overlap it, inside the window only', () => {
    const days = billedDaysByMonth(
      [
        { periodStart: '2026-01-01', periodEnd: '2026-01-31' }, // electric
        { periodStart: '2026-01-10', periodEnd: '2026-02-05' }, // gas, overlapping
        { periodStart: '2026-02-20', periodEnd: '2026-03-10' },
        { periodStart: '2025-06-01', periodEnd: '2025-06-30' }, // outside the window
      ],
      { from: m('2026-01'), to: m('2026-03') },
    );
    expect([...days].map(([k, v]) => [monthKey(k), v])).toEqual([
      ['2026-01', 31],
      ['2026-02', 5 + 9],
      ['2026-03', 10],
    ]);
  });

  it("README example 3: a property's months sum its bills' shares, count its bills and its billed days once (examples 1 and 2 together)", () => {
    // Example 1's bill and example 2's (kWh 0): January 3871 + 333 cents, 12 billed days (20..31, the 31st in both), 2 bills;
    // February 6129 + 9334 cents, 28 days (1..19 and 1..28 overlap), 2 bills; March 333 cents, 1 day, 1 bill.
    const months = calendariseMonths(
      [
        { periodStart: '2026-01-20', periodEnd: '2026-02-19', cents: 10000, usageMilli: 1_000_000 },
        { periodStart: '2026-01-31', periodEnd: '2026-03-01', cents: 10000, usageMilli: 0 },
      ],
      { from: m('2025-12'), to: m('2026-03') },
    );
    expect(months.map((x) => [monthKey(x.month), x.cents, x.usageMilli, x.billedDays, x.billCount])).toEqual([
      ['2026-01', 4204, 387097, 12, 2],
      ['2026-02', 15463, 612903, 28, 2],
      ['2026-03', 333, 0, 1, 1],
    ]);
    // the window cuts months, never shares
    expect(
      calendariseMonths([{ periodStart: '2026-01-31', periodEnd: '2026-03-01', cents: 10000, usageMilli: 0 }], {
        from: m('2026-02'),
        to: m('2026-02'),
      }),
    ).toEqual([{ month: m('2026-02'), cents: 9334, usageMilli: 0, billedDays: 28, billCount: 1 }]);
  });
});

describe('months', () => {
  it('counts days in proleptic Gregorian calendar, also for years below 100 (which Date.UTC maps to 19xx)', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayNumber('0099-03-01') - dayNumber('0099-02-28')).toBe(1);
    expect(dayNumber('0100-03-01') - dayNumber('0100-02-28')).toBe(1); // 100 is not a leap year
    expect(dayNumber('2000-03-01') - dayNumber('2000-02-28')).toBe(2);
    expect(daysInMonth(m('2024-02'))).toBe(29);
    expect(monthEndDate(m('0050-02'))).toBe('0050-02-28');
    expect(monthEndDate(m('2026-12'))).toBe('2026-12-31');
  });
});
