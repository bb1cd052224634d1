import { RULES } from './audit.thresholds';
import { isMonthly } from './audit.history.calc';
import type { AuditBill, SiblingBill } from './audit.types';
import { audit, bill, findingsOf, june2024, priced, sibling } from './audit.calc.fixtures';
import { dayNumber, isoDateOfDay } from '../../platform/dates';

describe('isMonthly', () => {
  // Days count both ends: 2025-02-01..2025-02-25 is 25 days.
  const days = (n: number) => bill('2025-02-01', isoDateOfDay(dayNumber('2025-02-01') + n - 1));

  it('one bill: monthly when it lasts 25 to 35 days', () => {
    expect([days(24), days(25), days(35), days(36)].map((b) => isMonthly([b]))).toEqual([false, true, true, false]);
    expect([days(24), days(25), days(35), days(36)].map((b) => b.periodEnd)).toEqual([
      '2025-02-24',
      '2025-02-25',
      '2025-03-07',
      '2025-03-08',
    ]); // 28 February days + 7 March
  });

  it('several: monthly when more than half of them are', () => {
    expect(isMonthly([days(30), days(30), days(60)])).toBe(true); // 2 of 3
    expect(isMonthly([days(30), days(30), days(30), days(90)])).toBe(true); // 3 of 4
    expect(isMonthly([days(30), days(60)])).toBe(false); // 1 of 2 is not most
    expect(isMonthly([days(30), days(30), days(60), days(60)])).toBe(false); // 2 of 4
    expect(isMonthly([])).toBe(false);
  });
});

describe('duplicate_bill', () => {
  const jan = bill('2025-01-01', '2025-01-31', { id: 'b1', amountCents: 12345, createdAt: new Date('2025-02-10T12:00:00Z') });
  const dupes = (siblings: SiblingBill[]) => findingsOf(audit([jan], { b1: priced(12345) }, { siblings })[0]!, 'duplicate_bill');

  it("another meter's bill of the same period and amount, written earlier: high, the bill's whole amount", () => {
    expect(
      dupes([
        sibling('s0', '2024-12-01', '2024-12-31', 12345, '2025-01-05T00:00:00Z'),
        sibling('s1', '2025-01-01', '2025-01-31', 12345, '2025-02-10T11:59:59Z'),
      ]),
    ).toEqual([
      {
        billId: 'b1',
        reason: 'duplicate_bill',
        severity: 'high',
        amountCents: 12345,
        message: 'the same period and amount as bill s1 of another meter of this property: charged twice?',
        details: { duplicate_of: 's1', meter_id: 'm2' },
      },
    ]);
  });

  it('the earlier of the two is not flagged (the twin was written later, or at the same instant)', () => {
    expect(dupes([sibling('s1', '2025-01-01', '2025-01-31', 12345, '2025-02-10T12:00:01Z')])).toEqual([]);
    expect(dupes([sibling('s1', '2025-01-01', '2025-01-31', 12345, '2025-02-10T12:00:00Z')])).toEqual([]);
  });

  it('a cent or a day apart is not a duplicate', () => {
    expect(dupes([sibling('s1', '2025-01-01', '2025-01-31', 12346, '2025-02-01T00:00:00Z')])).toEqual([]);
    expect(dupes([sibling('s1', '2025-01-01', '2025-01-30', 12345, '2025-02-01T00:00:00Z')])).toEqual([]);
    expect(dupes([sibling('s1', '2025-01-02', '2025-01-31', 12345, '2025-02-01T00:00:00Z')])).toEqual([]);
  });
});

describe('billing_gap', () => {
  const jan = bill('2025-01-01', '2025-01-31', { id: 'jan' });
  const gaps = (next: AuditBill) => audit([jan, next]).map((a) => findingsOf(a, 'billing_gap'));

  it('consecutive bills (Jan 31 then Feb 1) have no gap; nor has the first bill', () => {
    expect(gaps(bill('2025-02-01', '2025-02-28'))).toEqual([[], []]);
  });

  it('a day unbilled: medium, naming both ends and the previous bill', () => {
    // Feb 1 not billed: 2025-02-02 - 2025-01-31 - 1 = 1 day
    expect(gaps(bill('2025-02-02', '2025-02-28', { id: 'feb' }))).toEqual([
      [],
      [
        {
          billId: 'feb',
          reason: 'billing_gap',
          severity: 'medium',
          amountCents: null,
          message: '1 day between the previous bill (ending 2025-01-31) and this one (starting 2025-02-02) was not billed',
          details: { gap_days: 1, previous_bill_id: 'jan' },
        },
      ],
    ]);
  });

  it('counts the days between', () => {
    // Feb 1 .. Feb 10 unbilled: 10 days
    expect(gaps(bill('2025-02-11', '2025-03-10'))[1]).toEqual([
      expect.objectContaining({
        severity: 'medium',
        message: '10 days between the previous bill (ending 2025-01-31) and this one (starting 2025-02-11) were not billed',
        details: { gap_days: 10, previous_bill_id: 'jan' },
      }),
    ]);
  });
});

describe('period_length', () => {
  // Jan (31 days) and Feb (28) make the meter monthly (2 of 3) whatever the third bill lasts.
  const lengthFindings = (marchEnd: string) => {
    const audits = audit([bill('2025-01-01', '2025-01-31'), bill('2025-02-01', '2025-02-28'), bill('2025-03-01', marchEnd, { id: 'mar' })]);
    return audits.map((a) => findingsOf(a, 'period_length'));
  };

  it('25 and 35 days are fine', () => {
    expect(lengthFindings('2025-03-25')).toEqual([[], [], []]); // Mar 1..25: 25 days
    expect(lengthFindings('2025-04-04')).toEqual([[], [], []]); // Mar 1..Apr 4: 31 + 4 = 35 days
  });

  it('24 days is too short: medium', () => {
    expect(lengthFindings('2025-03-24')[2]).toEqual([
      {
        billId: 'mar',
        reason: 'period_length',
        severity: 'medium',
        amountCents: null,
        message: 'a 24-day period on a meter read monthly (25 to 35 days)',
        details: { days: 24 },
      },
    ]);
  });

  it('36 days is too long: medium', () => {
    // Mar 1..Apr 5: 31 + 5 = 36 days
    expect(lengthFindings('2025-04-05')[2]).toEqual([
      expect.objectContaining({
        severity: 'medium',
        message: 'a 36-day period on a meter read monthly (25 to 35 days)',
        details: { days: 36 },
      }),
    ]);
  });

  it('does not apply to a meter not read monthly', () => {
    // two 60-day bills (Jan 1..Mar 1: 31 + 28 + 1; Mar 2..Apr 30: 30 + 30); then one monthly of two is not most
    expect(
      audit([bill('2025-01-01', '2025-03-01'), bill('2025-03-02', '2025-04-30')]).flatMap((a) => findingsOf(a, 'period_length')),
    ).toEqual([]);
    expect(
      audit([bill('2025-01-01', '2025-01-31'), bill('2025-02-01', '2025-03-31')]).flatMap((a) => findingsOf(a, 'period_length')),
    ).toEqual([]);
  });
});

describe('estimated_read', () => {
  const months = (estimated: boolean[]) =>
    estimated.map((e, i) => {
      const m = String(i + 1).padStart(2, '0');
      return bill(`2025-${m}-01`, `2025-${m}-28`, { id: `m${m}`, isEstimated: e });
    });
  const estimates = (estimated: boolean[]) => audit(months(estimated)).map((a) => findingsOf(a, 'estimated_read'));

  it('an actual read has none', () => {
    expect(estimates([false, false])).toEqual([[], []]);
  });

  it("one estimated read: low, trued up by the next bill's actual read", () => {
    expect(estimates([true, false])[0]).toEqual([
      {
        billId: 'm01',
        reason: 'estimated_read',
        severity: 'low',
        amountCents: null,
        message:
          "an estimated read, trued up by the actual read of the next bill (2025-02-01 to 2025-02-28): check that bill's usage makes up the difference",
        details: { trued_up_by: 'm02', estimates_in_a_row: 1 },
      },
    ]);
  });

  /** The one estimated_read finding of a bill, as found. */
  const estimated = (severity: string, message: string, truedUpBy: string | null, inARow: number) => [
    expect.objectContaining({ severity, message, details: { trued_up_by: truedUpBy, estimates_in_a_row: inARow } }),
  ];
  const NOT_TRUED_UP = 'an estimated read, not yet trued up by an actual read';

  it('one estimated read, the last bill: low, not yet trued up', () => {
    expect(estimates([false, true])[1]).toEqual(estimated('low', NOT_TRUED_UP, null, 1));
  });

  it('the second estimate in a row is high (the first of the run, one in a row so far, stays low)', () => {
    const [first, second, third] = estimates([true, true, false]);
    expect(first).toEqual(estimated('low', NOT_TRUED_UP, null, 1));
    const truedUp =
      "an estimated read, trued up by the actual read of the next bill (2025-03-01 to 2025-03-28): check that bill's usage makes up the difference";
    expect(second).toEqual(estimated('high', truedUp, 'm03', 2));
    expect(third).toEqual([]);
  });

  it('a run not yet trued up says how long it is', () => {
    const [, second, third, fourth] = estimates([true, true, true, true]);
    expect(second).toEqual(estimated('high', 'an estimated read, 2 in a row, not yet trued up by an actual read', null, 2));
    expect(third).toEqual([
      expect.objectContaining({ severity: 'high', message: 'an estimated read, 3 in a row, not yet trued up by an actual read' }),
    ]);
    expect(fourth).toEqual([
      expect.objectContaining({ severity: 'high', message: 'an estimated read, 4 in a row, not yet trued up by an actual read' }),
    ]);
  });

  it('an actual read between two estimates ends the run: both low', () => {
    const found = estimates([true, false, true]);
    expect(found.map((f) => f.map((x) => [x.severity, x.details.estimates_in_a_row]))).toEqual([[['low', 1]], [], [['low', 1]]]);
  });
});

// Year over year: 2024-06-01 + 365 days = 2025-06-01 (no Feb 29 between), so June 2025 looks back at June 2024.
const yearOverYear = (reason: 'usage_change' | 'cost_change', now: Partial<AuditBill>, before: AuditBill = june2024()) =>
  findingsOf(audit([before, bill('2025-06-01', '2025-06-30', { id: 'now', usage: 3000, amountCents: 30000, ...now })])[1]!, reason);

// The same threshold for both: June 2024 is 100 kWh and $10.00 a day; a change of more than 50 % a day is a medium finding.
describe('usage_change and cost_change', () => {
  it.each([
    // 4500 / 30 = 150 a day: (150 - 100) / 100 = +50.0 %; 1500 / 30 = 50 a day: -50.0 %
    ['usage_change', { usage: 4500 }, { usage: 1500 }],
    // 45000 c / 30 = $15.00 a day vs $10.00: +50.0 %; 15000 c: $5.00 a day, -50.0 %
    ['cost_change', { amountCents: 45000 }, { amountCents: 15000 }],
  ] as const)('%s: exactly 50 %% more or less per day is fine', (reason, more, less) => {
    expect(yearOverYear(reason, more)).toEqual([]);
    expect(yearOverYear(reason, less)).toEqual([]);
  });

  it.each([
    // 4503 / 30 = 150.1 a day: +50.1 %
    ['usage_change', { usage: 4503 }, 'usage per day rose 50.1 % from the same period a year earlier (150.100 vs 100.000 kWh a day)'],
    // 45030 c / 30 = $15.01 a day: +50.1 %
    ['cost_change', { amountCents: 45030 }, 'cost per day rose 50.1 % from the same period a year earlier (15.01 vs 10.00 $ a day)'],
  ] as const)('%s: 50.1 %% more per day: medium', (reason, now, message) => {
    expect(yearOverYear(reason, now)).toEqual([
      {
        billId: 'now',
        reason,
        severity: 'medium',
        amountCents: null,
        message,
        details: { change_percent: 50.1, year_earlier_bill_id: 'y1' },
      },
    ]);
  });

  it.each([
    // 1497 / 30 = 49.9 a day: -50.1 %
    ['usage_change', { usage: 1497 }, 'usage per day fell 50.1 % from the same period a year earlier (49.900 vs 100.000 kWh a day)'],
    // 14970 c / 30 = $4.99 a day: -50.1 %
    ['cost_change', { amountCents: 14970 }, 'cost per day fell 50.1 % from the same period a year earlier (4.99 vs 10.00 $ a day)'],
  ] as const)('%s: 50.1 %% less per day: medium', (reason, now, message) => {
    expect(yearOverYear(reason, now)).toEqual([
      expect.objectContaining({ severity: 'medium', message, details: { change_percent: -50.1, year_earlier_bill_id: 'y1' } }),
    ]);
  });
});

describe('usage_change', () => {
  it('per day: a longer period with the same daily usage is no change', () => {
    // June 1..July 1 2025: 31 days (its year-earlier window overlaps June 2024 by 30 days); 4650 / 31 = 150 a day: +50.0 %
    const audits = audit([june2024(), bill('2025-06-01', '2025-07-01', { usage: 4650, amountCents: 31000 })]);
    expect(findingsOf(audits[1]!, 'usage_change')).toEqual([]);
    // 4700 / 31 = 151.6 a day: +51.6 %
    expect(
      findingsOf(audit([june2024(), bill('2025-06-01', '2025-07-01', { usage: 4700, amountCents: 31000 })])[1]!, 'usage_change'),
    ).toEqual([expect.objectContaining({ details: expect.objectContaining({ change_percent: 51.6 }) })]);
  });

  it('only in the same unit, and only where both bills give usage', () => {
    expect(yearOverYear('usage_change', { usage: 9000, unit: 'therms' })).toEqual([]);
    expect(yearOverYear('usage_change', { usage: null })).toEqual([]);
    expect(yearOverYear('usage_change', { usage: 9000 }, june2024({ usage: null }))).toEqual([]);
  });
});

describe('cost_change', () => {
  it('the year-earlier bill must overlap at least half the period', () => {
    // cost doubled ($20.00 a day: +100 %). Window 2024-06-01..2024-06-30 (30 days).
    // June 16..July 15 2024 overlaps it June 16..30 = 15 days = half: compared
    expect(yearOverYear('cost_change', { amountCents: 60000 }, bill('2024-06-16', '2024-07-15', { id: 'y1', amountCents: 30000 }))).toEqual(
      [expect.objectContaining({ details: { change_percent: 100, year_earlier_bill_id: 'y1' } })],
    );
    // June 17..July 16 2024 overlaps it 14 days: no comparison
    expect(yearOverYear('cost_change', { amountCents: 60000 }, bill('2024-06-17', '2024-07-16', { id: 'y1', amountCents: 30000 }))).toEqual(
      [],
    );
  });

  it('compares with the earlier bill that overlaps the window the most', () => {
    // May 20..June 10 2024 overlaps 10 days ($10.00 a day over 22 days = 22000 c); June 11..July 10 overlaps 20 ($5.00 a day over 30 = 15000 c)
    // $15.00 a day now: +200 % on the second (+50 % on the first would be no finding)
    const audits = audit([
      bill('2024-05-20', '2024-06-10', { id: 'a', amountCents: 22000 }),
      bill('2024-06-11', '2024-07-10', { id: 'b', amountCents: 15000 }),
      bill('2025-06-01', '2025-06-30', { id: 'now', amountCents: 45000 }),
    ]);
    expect(findingsOf(audits[2]!, 'cost_change')).toEqual([
      expect.objectContaining({
        message: 'cost per day rose 200 % from the same period a year earlier (15.00 vs 5.00 $ a day)',
        details: { change_percent: 200, year_earlier_bill_id: 'b' },
      }),
    ]);
  });

  it('like with like (issue 47 item 5): a partial first bill is no baseline for a full period a year on', () => {
    // The meter's first bill, January 14..31 2024 (18 days): 180 kWh (10 a day), $90.00 ($5.00 a day); then February 2024 (29 days).
    // January 2025 (31 days): 310 kWh (10 a day), $310.78 ($10.025 a day). Its window, 2024-01-02..2024-02-01, overlaps the
    // partial bill 18 days (more than half of 31): before, "cost per day rose 100.5 %" with the usage a day unchanged.
    // 18 days is 58 % of 31 (under 80 %): no baseline; February overlaps 1 day: no comparison.
    const audits = audit([
      bill('2024-01-14', '2024-01-31', { id: 'first', usage: 180, amountCents: 9000 }),
      bill('2024-02-01', '2024-02-29', { id: 'feb', usage: 290, amountCents: 14500 }),
      bill('2025-01-01', '2025-01-31', { id: 'now', usage: 310, amountCents: 31078 }),
    ]);
    expect(audits[2]!.findings.filter((f) => f.reason === 'cost_change' || f.reason === 'usage_change')).toEqual([]);
    expect(RULES.baselineLengthPercent).toBe(80);
  });

  it('lengths of at least 80 % of each other are like: 24 days against 30 are compared, 23 are not', () => {
    // June 2024 (30 days, $10.00 a day); June 1..24 2025 (24 days, 80 %) at $20.00 a day: +100 %. June 1..23 (23 days, 76.7 %): none.
    const now = (end: string, days: number) =>
      audit([june2024(), bill('2025-06-01', end, { id: 'now', usage: 100 * days, amountCents: 2000 * days })])[1]!;
    expect(findingsOf(now('2025-06-24', 24), 'cost_change')).toEqual([
      expect.objectContaining({ details: { change_percent: 100, year_earlier_bill_id: 'y1' } }),
    ]);
    expect(findingsOf(now('2025-06-23', 23), 'cost_change')).toEqual([]);
  });

  it('no bill a year earlier, no comparison', () => {
    expect(
      findingsOf(
        audit([bill('2025-05-01', '2025-05-31', { amountCents: 1000 }), bill('2025-06-01', '2025-06-30', { amountCents: 90000 })])[1]!,
        'cost_change',
      ),
    ).toEqual([]);
  });
});
