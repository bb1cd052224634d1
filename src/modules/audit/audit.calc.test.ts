import {
  auditMeterBills, compareLines, isMonthly, RULES,
  type AuditBill, type BillAudit, type BillPricing, type Finding, type ReasonCode, type SiblingBill,
} from './audit.calc';
import { dayNumber, isoDateOfDay } from '../../platform/dates';

type Priced = Extract<BillPricing, { kind: 'priced' }>;

/** A bill of meter m1 (id: its start date unless given), $100.00 for 1000 kWh, actual read, no lines. */
const bill = (periodStart: string, periodEnd: string, extra: Partial<AuditBill> = {}): AuditBill => ({
  id: periodStart, meterId: 'm1', periodStart, periodEnd, amountCents: 10000, usage: 1000, unit: 'kWh', demandKw: null,
  isEstimated: false, lineItems: null, createdAt: new Date('2025-08-01T00:00:00Z'), ...extra,
});

/** The engine's price of a bill on tariff E-1 (t1): nothing but the expected amount unless given. */
const priced = (expectedCents: number, extra: Partial<Priced> = {}): Priced => ({
  kind: 'priced', tariffId: 't1', tariffName: 'E-1', expectedCents, expectedLines: [], demandKwMax: null, expiredOn: null,
  yearRangeCents: null, explanation: null, ...extra,
});

const sibling = (id: string, periodStart: string, periodEnd: string, amountCents: number, createdAt: string): SiblingBill =>
  ({ id, meterId: 'm2', periodStart, periodEnd, amountCents, createdAt: new Date(createdAt) });

/** Audits a meter's bills; pricing by bill id (a bill without one is unpriceable). */
const audit = (bills: AuditBill[], pricing: Record<string, BillPricing> = {}, options: { siblings?: SiblingBill[]; tolerancePercent?: number } = {}) =>
  auditMeterBills({
    bills, pricing: new Map(Object.entries(pricing)), siblings: options.siblings ?? [], settings: { tolerancePercent: options.tolerancePercent ?? 3 },
  });

/** The audit of a one-bill meter priced at `expectedCents` (by default what was billed). */
const auditOne = (b: AuditBill, p: Partial<Priced> = {}, tolerancePercent = 3): BillAudit =>
  audit([b], { [b.id]: priced(p.expectedCents ?? b.amountCents, p) }, { tolerancePercent })[0]!;

const findingsOf = (a: BillAudit, reason: ReasonCode): Finding[] => a.findings.filter((f) => f.reason === reason);
const reasons = (a: BillAudit): ReasonCode[] => a.findings.map((f) => f.reason);

describe('compareLines', () => {
  const expected = [
    { category: 'energy', name: 'Energy summer', amount: 60.1 },
    { category: 'energy', name: 'Energy winter', amount: 20.2 },
    { category: 'fixed', name: 'Customer charge', amount: 15 },
    { category: 'tax', name: 'Sales tax', amount: 4.7 },
  ];

  it('sums both sides by category in cents and keeps only the categories that differ', () => {
    // energy: expected 6010 + 2020 = 8030 c; billed 5000 + 3030 = 8030 c: equal, dropped (in dollars 60.1 + 20.2 is 80.30000000000001)
    // fixed: expected 1500, billed 1600: +100 c; tax: expected 470, billed 469: -1 c
    expect(compareLines(expected, [
      { category: 'energy', description: 'Energy on-peak', amount: 50 },
      { category: 'energy', description: 'Energy off-peak', amount: 30.3 },
      { category: 'fixed', description: 'Basic service', amount: 16 },
      { category: 'tax', description: 'Tax', amount: 4.69 },
    ])).toEqual([
      { category: 'fixed', expected: 15, billed: 16, difference: 1 },
      { category: 'tax', expected: 4.7, billed: 4.69, difference: -0.01 },
    ]);
  });

  it('a category on one side only differs by its whole sum; expected categories come first, then printed-only ones', () => {
    // tax not printed: 0 - 470 = -470 c; late fee only printed: +1250 c
    expect(compareLines(expected, [
      { category: 'energy', description: 'Energy', amount: 80.3 },
      { category: 'fixed', description: 'Basic service', amount: 15 },
      { category: 'late_fee', description: 'Late payment', amount: 12.5 },
    ])).toEqual([
      { category: 'tax', expected: 4.7, billed: 0, difference: -4.7 },
      { category: 'late_fee', expected: 0, billed: 12.5, difference: 12.5 },
    ]);
  });

  it('lines that match are no lines at all', () => {
    expect(compareLines(expected, [
      { category: 'tax', description: 'Tax', amount: 4.7 },
      { category: 'fixed', description: 'Basic service', amount: 15 },
      { category: 'energy', description: 'Energy', amount: 80.3 },
    ])).toEqual([]);
    expect(compareLines([], [])).toEqual([]);
  });
});

describe('isMonthly', () => {
  // Days count both ends: 2025-02-01..2025-02-25 is 25 days.
  const days = (n: number) => bill('2025-02-01', isoDateOfDay(dayNumber('2025-02-01') + n - 1));

  it('one bill: monthly when it lasts 25 to 35 days', () => {
    expect([days(24), days(25), days(35), days(36)].map((b) => isMonthly([b]))).toEqual([false, true, true, false]);
    expect([days(24), days(25), days(35), days(36)].map((b) => b.periodEnd)).toEqual(['2025-02-24', '2025-02-25', '2025-03-07', '2025-03-08']); // 28 February days + 7 March
  });

  it('several: monthly when more than half of them are', () => {
    expect(isMonthly([days(30), days(30), days(60)])).toBe(true); // 2 of 3
    expect(isMonthly([days(30), days(30), days(30), days(90)])).toBe(true); // 3 of 4
    expect(isMonthly([days(30), days(60)])).toBe(false); // 1 of 2 is not most
    expect(isMonthly([days(30), days(30), days(60), days(60)])).toBe(false); // 2 of 4
    expect(isMonthly([])).toBe(false);
  });
});

describe('price_variance', () => {
  // Expected $100.00 (10000 c) unless said; percent = variance x 1000 / expected, rounded half away from zero, / 10.
  const jan = (amountCents: number, extra: Partial<AuditBill> = {}) => bill('2025-01-01', '2025-01-31', { amountCents, ...extra });

  it('billed what was expected: ok, no finding', () => {
    expect(auditOne(jan(10000))).toEqual({
      billId: '2025-01-01', status: 'ok', reason: null, expectedCents: 10000, varianceCents: 0, variancePercent: 0, tariffId: 't1',
      expectedLines: [], findings: [],
    });
  });

  it('exactly the tolerance (3.0 %) either way is ok, the figures still reported', () => {
    // +300 c: 300000 / 10000 = 30 -> 3.0 %; -300 c -> -3.0 %
    expect(auditOne(jan(10300), { expectedCents: 10000 })).toMatchObject({ status: 'ok', varianceCents: 300, variancePercent: 3, findings: [] });
    expect(auditOne(jan(9700), { expectedCents: 10000 })).toMatchObject({ status: 'ok', varianceCents: -300, variancePercent: -3, findings: [] });
  });

  it('3.1 % over is a medium finding of the variance', () => {
    // +310 c: 310000 / 10000 = 31 -> 3.1 % (> 3, < 10, $3.10 < $500): medium, amount 310
    const a = auditOne(jan(10310), { expectedCents: 10000 });
    expect(a).toMatchObject({ status: 'variance', expectedCents: 10000, varianceCents: 310, variancePercent: 3.1 });
    expect(a.findings).toEqual([{
      billId: '2025-01-01', reason: 'price_variance', severity: 'medium', amountCents: 310,
      message: 'billed $103.10, expected $100.00 on E-1: +$3.10 (+3.1 %)',
      details: { expected: 100, billed: 103.1, variance_percent: 3.1, tariff_id: 't1', lines: null },
    }]);
  });

  it('3.1 % under is a medium finding of a negative amount', () => {
    // -310 c -> -3.1 %
    expect(auditOne(jan(9690), { expectedCents: 10000 }).findings).toEqual([expect.objectContaining({
      reason: 'price_variance', severity: 'medium', amountCents: -310,
      message: 'billed $96.90, expected $100.00 on E-1: -$3.10 (-3.1 %)',
      details: expect.objectContaining({ variance_percent: -3.1 }),
    })]);
  });

  it('the percent is rounded half away from zero before the tolerance applies', () => {
    // +304 c: 30.4 -> 30 -> 3.0 % ok; +305 c: 30.5 -> 31 -> 3.1 % a finding; -305 c: -30.5 -> -31 -> -3.1 % a finding
    expect(auditOne(jan(10304), { expectedCents: 10000 })).toMatchObject({ status: 'ok', variancePercent: 3, findings: [] });
    expect(auditOne(jan(10305), { expectedCents: 10000 })).toMatchObject({ status: 'variance', variancePercent: 3.1 });
    expect(auditOne(jan(9695), { expectedCents: 10000 })).toMatchObject({ status: 'variance', variancePercent: -3.1 });
  });

  it('the tolerance comes from the settings', () => {
    // tolerance 5: +500 c = 5.0 % ok; +510 c = 5.1 % medium
    expect(auditOne(jan(10500), { expectedCents: 10000 }, 5)).toMatchObject({ status: 'ok', findings: [] });
    expect(auditOne(jan(10510), { expectedCents: 10000 }, 5).findings).toEqual([
      expect.objectContaining({ reason: 'price_variance', severity: 'medium', amountCents: 510 }),
    ]);
  });

  it('high from 10 % (after rounding)', () => {
    // +994 c: 99.4 -> 99 -> 9.9 % medium; +995 c: 99.5 -> 100 -> 10.0 % high; -1000 c: -10.0 % high
    expect(findingsOf(auditOne(jan(10994), { expectedCents: 10000 }), 'price_variance')).toEqual([
      expect.objectContaining({ severity: 'medium', amountCents: 994, message: 'billed $109.94, expected $100.00 on E-1: +$9.94 (+9.9 %)' }),
    ]);
    expect(findingsOf(auditOne(jan(10995), { expectedCents: 10000 }), 'price_variance')).toEqual([
      expect.objectContaining({ severity: 'high', amountCents: 995, message: 'billed $109.95, expected $100.00 on E-1: +$9.95 (+10 %)' }),
    ]);
    expect(findingsOf(auditOne(jan(9000), { expectedCents: 10000 }), 'price_variance')).toEqual([
      expect.objectContaining({ severity: 'high', amountCents: -1000 }),
    ]);
    expect(RULES.highVariancePercent).toBe(10);
  });

  it('high from $500 whatever the percent', () => {
    // expected $10,000.00 (1000000 c): +49999 c = 49.999 -> 50 -> 5.0 % medium; +50000 c = $500.00, 5.0 %: high
    expect(findingsOf(auditOne(jan(1049999), { expectedCents: 1000000 }), 'price_variance')).toEqual([
      expect.objectContaining({ severity: 'medium', amountCents: 49999, message: 'billed $10499.99, expected $10000.00 on E-1: +$499.99 (+5 %)' }),
    ]);
    expect(findingsOf(auditOne(jan(1050000), { expectedCents: 1000000 }), 'price_variance')).toEqual([
      expect.objectContaining({ severity: 'high', amountCents: 50000 }),
    ]);
    // -50000 c: -5.0 %, $500 under: high
    expect(findingsOf(auditOne(jan(950000), { expectedCents: 1000000 }), 'price_variance')).toEqual([
      expect.objectContaining({ severity: 'high', amountCents: -50000, message: 'billed $9500.00, expected $10000.00 on E-1: -$500.00 (-5 %)' }),
    ]);
    expect(RULES.highVarianceCents).toBe(50000);
  });

  it('nothing expected but something billed: no percent, high', () => {
    expect(auditOne(jan(100), { expectedCents: 0 })).toMatchObject({
      status: 'variance', varianceCents: 100, variancePercent: null,
      findings: [expect.objectContaining({
        reason: 'price_variance', severity: 'high', amountCents: 100, message: 'billed $1.00, expected $0.00 on E-1: +$1.00',
        details: expect.objectContaining({ variance_percent: null }),
      })],
    });
  });

  it('without printed lines the message appends the caller\'s explanation', () => {
    // +1800 c = 18.0 %: high
    expect(auditOne(jan(11800), { expectedCents: 10000, explanation: 'matches at 18 % more usage' }).findings).toEqual([expect.objectContaining({
      severity: 'high', amountCents: 1800,
      message: 'billed $118.00, expected $100.00 on E-1: +$18.00 (+18 %); matches at 18 % more usage',
      details: expect.objectContaining({ lines: null }),
    })]);
  });

  it('with printed lines the message lists the categories that differ (not the explanation)', () => {
    const expectedLines = [
      { category: 'energy', name: 'Energy', amount: 80 },
      { category: 'fixed', name: 'Customer charge', amount: 20 },
    ];
    // energy billed $85.50 vs $80.00: +550 c; fixed equal. Bill $105.50: +550 c = 5.5 % medium
    const a = auditOne(jan(10550, {
      lineItems: [
        { category: 'energy', description: 'Energy 1000 kWh', amount: 85.5 },
        { category: 'fixed', description: 'Basic charge', amount: 20 },
      ],
    }), { expectedCents: 10000, expectedLines, explanation: 'matches at 7 % more usage' });
    expect(a).toMatchObject({ status: 'variance', expectedLines });
    expect(a.findings).toEqual([{
      billId: '2025-01-01', reason: 'price_variance', severity: 'medium', amountCents: 550,
      message: 'billed $105.50, expected $100.00 on E-1: +$5.50 (+5.5 %); lines that differ: energy billed $85.50, expected $80.00 (+$5.50)',
      details: { expected: 100, billed: 105.5, variance_percent: 5.5, tariff_id: 't1', lines: [{ category: 'energy', expected: 80, billed: 85.5, difference: 5.5 }] },
    }]);
  });

  it('printed lines that all match the expected ones fall back to the explanation', () => {
    // the bill's total ($105.50) is not the sum of its printed lines ($100.00)
    const a = auditOne(jan(10550, { lineItems: [{ category: 'energy', description: 'Energy', amount: 100 }] }), {
      expectedCents: 10000, expectedLines: [{ category: 'energy', name: 'Energy', amount: 100 }], explanation: 'matches at 7 % more usage',
    });
    expect(a.findings).toEqual([expect.objectContaining({
      message: 'billed $105.50, expected $100.00 on E-1: +$5.50 (+5.5 %); matches at 7 % more usage',
      details: expect.objectContaining({ lines: [] }),
    })]);
  });
});

describe('duplicate_bill', () => {
  const jan = bill('2025-01-01', '2025-01-31', { id: 'b1', amountCents: 12345, createdAt: new Date('2025-02-10T12:00:00Z') });
  const dupes = (siblings: SiblingBill[]) => findingsOf(audit([jan], { b1: priced(12345) }, { siblings })[0]!, 'duplicate_bill');

  it('another meter\'s bill of the same period and amount, written earlier: high, the bill\'s whole amount', () => {
    expect(dupes([
      sibling('s0', '2024-12-01', '2024-12-31', 12345, '2025-01-05T00:00:00Z'),
      sibling('s1', '2025-01-01', '2025-01-31', 12345, '2025-02-10T11:59:59Z'),
    ])).toEqual([{
      billId: 'b1', reason: 'duplicate_bill', severity: 'high', amountCents: 12345,
      message: 'the same period and amount as bill s1 of another meter of this property: charged twice?',
      details: { duplicate_of: 's1', meter_id: 'm2' },
    }]);
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
    expect(gaps(bill('2025-02-02', '2025-02-28', { id: 'feb' }))).toEqual([[], [{
      billId: 'feb', reason: 'billing_gap', severity: 'medium', amountCents: null,
      message: '1 day between the previous bill (ending 2025-01-31) and this one (starting 2025-02-02) was not billed',
      details: { gap_days: 1, previous_bill_id: 'jan' },
    }]]);
  });

  it('counts the days between', () => {
    // Feb 1 .. Feb 10 unbilled: 10 days
    expect(gaps(bill('2025-02-11', '2025-03-10'))[1]).toEqual([expect.objectContaining({
      severity: 'medium',
      message: '10 days between the previous bill (ending 2025-01-31) and this one (starting 2025-02-11) were not billed',
      details: { gap_days: 10, previous_bill_id: 'jan' },
    })]);
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
    expect(lengthFindings('2025-03-24')[2]).toEqual([{
      billId: 'mar', reason: 'period_length', severity: 'medium', amountCents: null,
      message: 'a 24-day period on a meter read monthly (25 to 35 days)', details: { days: 24 },
    }]);
  });

  it('36 days is too long: medium', () => {
    // Mar 1..Apr 5: 31 + 5 = 36 days
    expect(lengthFindings('2025-04-05')[2]).toEqual([expect.objectContaining({
      severity: 'medium', message: 'a 36-day period on a meter read monthly (25 to 35 days)', details: { days: 36 },
    })]);
  });

  it('does not apply to a meter not read monthly', () => {
    // two 60-day bills (Jan 1..Mar 1: 31 + 28 + 1; Mar 2..Apr 30: 30 + 30); then one monthly of two is not most
    expect(audit([bill('2025-01-01', '2025-03-01'), bill('2025-03-02', '2025-04-30')]).flatMap((a) => findingsOf(a, 'period_length'))).toEqual([]);
    expect(audit([bill('2025-01-01', '2025-01-31'), bill('2025-02-01', '2025-03-31')]).flatMap((a) => findingsOf(a, 'period_length'))).toEqual([]);
  });
});

describe('estimated_read', () => {
  const months = (estimated: boolean[]) => estimated.map((e, i) => {
    const m = String(i + 1).padStart(2, '0');
    return bill(`2025-${m}-01`, `2025-${m}-28`, { id: `m${m}`, isEstimated: e });
  });
  const estimates = (estimated: boolean[]) => audit(months(estimated)).map((a) => findingsOf(a, 'estimated_read'));

  it('an actual read has none', () => {
    expect(estimates([false, false])).toEqual([[], []]);
  });

  it('one estimated read: low, trued up by the next bill\'s actual read', () => {
    expect(estimates([true, false])[0]).toEqual([{
      billId: 'm01', reason: 'estimated_read', severity: 'low', amountCents: null,
      message: 'an estimated read, trued up by the actual read of the next bill (2025-02-01 to 2025-02-28): check that bill\'s usage makes up the difference',
      details: { trued_up_by: 'm02', estimates_in_a_row: 1 },
    }]);
  });

  it('one estimated read, the last bill: low, not yet trued up', () => {
    expect(estimates([false, true])[1]).toEqual([expect.objectContaining({
      severity: 'low', message: 'an estimated read, not yet trued up by an actual read', details: { trued_up_by: null, estimates_in_a_row: 1 },
    })]);
  });

  it('the second estimate in a row is high (the first of the run, one in a row so far, stays low)', () => {
    const [first, second, third] = estimates([true, true, false]);
    expect(first).toEqual([expect.objectContaining({
      severity: 'low', message: 'an estimated read, not yet trued up by an actual read', details: { trued_up_by: null, estimates_in_a_row: 1 },
    })]);
    expect(second).toEqual([expect.objectContaining({
      severity: 'high',
      message: 'an estimated read, trued up by the actual read of the next bill (2025-03-01 to 2025-03-28): check that bill\'s usage makes up the difference',
      details: { trued_up_by: 'm03', estimates_in_a_row: 2 },
    })]);
    expect(third).toEqual([]);
  });

  it('a run not yet trued up says how long it is', () => {
    const [, second, third, fourth] = estimates([true, true, true, true]);
    expect(second).toEqual([expect.objectContaining({
      severity: 'high', message: 'an estimated read, 2 in a row, not yet trued up by an actual read', details: { trued_up_by: null, estimates_in_a_row: 2 },
    })]);
    expect(third).toEqual([expect.objectContaining({ severity: 'high', message: 'an estimated read, 3 in a row, not yet trued up by an actual read' })]);
    expect(fourth).toEqual([expect.objectContaining({ severity: 'high', message: 'an estimated read, 4 in a row, not yet trued up by an actual read' })]);
  });

  it('an actual read between two estimates ends the run: both low', () => {
    const found = estimates([true, false, true]);
    expect(found.map((f) => f.map((x) => [x.severity, x.details.estimates_in_a_row]))).toEqual([[['low', 1]], [], [['low', 1]]]);
  });
});

// Year over year: 2024-06-01 + 365 days = 2025-06-01 (no Feb 29 between), so June 2025 looks back at June 2024.
// The year-earlier bill: June 2024, 30 days, 3000 kWh (100 kWh a day), $300.00 (30000 c, $10.00 a day).
const june2024 = (extra: Partial<AuditBill> = {}) => bill('2024-06-01', '2024-06-30', { id: 'y1', usage: 3000, amountCents: 30000, ...extra });
const yearOverYear = (reason: 'usage_change' | 'cost_change', now: Partial<AuditBill>, before: AuditBill = june2024()) =>
  findingsOf(audit([before, bill('2025-06-01', '2025-06-30', { id: 'now', usage: 3000, amountCents: 30000, ...now })])[1]!, reason);

describe('usage_change', () => {
  it('exactly 50 % more or less per day is fine', () => {
    // 4500 / 30 = 150 a day: (150 - 100) / 100 = +50.0 %; 1500 / 30 = 50 a day: -50.0 %
    expect(yearOverYear('usage_change', { usage: 4500 })).toEqual([]);
    expect(yearOverYear('usage_change', { usage: 1500 })).toEqual([]);
  });

  it('50.1 % more per day: medium', () => {
    // 4503 / 30 = 150.1 a day: +50.1 %
    expect(yearOverYear('usage_change', { usage: 4503 })).toEqual([{
      billId: 'now', reason: 'usage_change', severity: 'medium', amountCents: null,
      message: 'usage per day rose 50.1 % from the same period a year earlier (150.100 vs 100.000 kWh a day)',
      details: { change_percent: 50.1, year_earlier_bill_id: 'y1' },
    }]);
  });

  it('50.1 % less per day: medium', () => {
    // 1497 / 30 = 49.9 a day: -50.1 %
    expect(yearOverYear('usage_change', { usage: 1497 })).toEqual([expect.objectContaining({
      severity: 'medium', message: 'usage per day fell 50.1 % from the same period a year earlier (49.900 vs 100.000 kWh a day)',
      details: { change_percent: -50.1, year_earlier_bill_id: 'y1' },
    })]);
  });

  it('per day: a longer period with the same daily usage is no change', () => {
    // June 1..July 1 2025: 31 days (its year-earlier window overlaps June 2024 by 30 days); 4650 / 31 = 150 a day: +50.0 %
    const audits = audit([june2024(), bill('2025-06-01', '2025-07-01', { usage: 4650, amountCents: 31000 })]);
    expect(findingsOf(audits[1]!, 'usage_change')).toEqual([]);
    // 4700 / 31 = 151.6 a day: +51.6 %
    expect(findingsOf(audit([june2024(), bill('2025-06-01', '2025-07-01', { usage: 4700, amountCents: 31000 })])[1]!, 'usage_change'))
      .toEqual([expect.objectContaining({ details: expect.objectContaining({ change_percent: 51.6 }) })]);
  });

  it('only in the same unit, and only where both bills give usage', () => {
    expect(yearOverYear('usage_change', { usage: 9000, unit: 'therms' })).toEqual([]);
    expect(yearOverYear('usage_change', { usage: null })).toEqual([]);
    expect(yearOverYear('usage_change', { usage: 9000 }, june2024({ usage: null }))).toEqual([]);
  });
});

describe('cost_change', () => {
  it('exactly 50 % more or less per day is fine', () => {
    // 45000 c / 30 = $15.00 a day vs $10.00: +50.0 %; 15000 c: $5.00 a day, -50.0 %
    expect(yearOverYear('cost_change', { amountCents: 45000 })).toEqual([]);
    expect(yearOverYear('cost_change', { amountCents: 15000 })).toEqual([]);
  });

  it('50.1 % more per day: medium', () => {
    // 45030 c / 30 = $15.01 a day: +50.1 %
    expect(yearOverYear('cost_change', { amountCents: 45030 })).toEqual([{
      billId: 'now', reason: 'cost_change', severity: 'medium', amountCents: null,
      message: 'cost per day rose 50.1 % from the same period a year earlier (15.01 vs 10.00 $ a day)',
      details: { change_percent: 50.1, year_earlier_bill_id: 'y1' },
    }]);
  });

  it('50.1 % less per day: medium', () => {
    // 14970 c / 30 = $4.99 a day: -50.1 %
    expect(yearOverYear('cost_change', { amountCents: 14970 })).toEqual([expect.objectContaining({
      severity: 'medium', message: 'cost per day fell 50.1 % from the same period a year earlier (4.99 vs 10.00 $ a day)',
      details: { change_percent: -50.1, year_earlier_bill_id: 'y1' },
    })]);
  });

  it('the year-earlier bill must overlap at least half the period', () => {
    // cost doubled ($20.00 a day: +100 %). Window 2024-06-01..2024-06-30 (30 days).
    // June 16..July 15 2024 overlaps it June 16..30 = 15 days = half: compared
    expect(yearOverYear('cost_change', { amountCents: 60000 }, bill('2024-06-16', '2024-07-15', { id: 'y1', amountCents: 30000 })))
      .toEqual([expect.objectContaining({ details: { change_percent: 100, year_earlier_bill_id: 'y1' } })]);
    // June 17..July 16 2024 overlaps it 14 days: no comparison
    expect(yearOverYear('cost_change', { amountCents: 60000 }, bill('2024-06-17', '2024-07-16', { id: 'y1', amountCents: 30000 }))).toEqual([]);
  });

  it('compares with the earlier bill that overlaps the window the most', () => {
    // May 20..June 10 2024 overlaps 10 days ($10.00 a day over 22 days = 22000 c); June 11..July 10 overlaps 20 ($5.00 a day over 30 = 15000 c)
    // $15.00 a day now: +200 % on the second (+50 % on the first would be no finding)
    const audits = audit([
      bill('2024-05-20', '2024-06-10', { id: 'a', amountCents: 22000 }),
      bill('2024-06-11', '2024-07-10', { id: 'b', amountCents: 15000 }),
      bill('2025-06-01', '2025-06-30', { id: 'now', amountCents: 45000 }),
    ]);
    expect(findingsOf(audits[2]!, 'cost_change')).toEqual([expect.objectContaining({
      message: 'cost per day rose 200 % from the same period a year earlier (15.00 vs 5.00 $ a day)', details: { change_percent: 200, year_earlier_bill_id: 'b' },
    })]);
  });

  it('no bill a year earlier, no comparison', () => {
    expect(findingsOf(audit([bill('2025-05-01', '2025-05-31', { amountCents: 1000 }), bill('2025-06-01', '2025-06-30', { amountCents: 90000 })])[1]!, 'cost_change'))
      .toEqual([]);
  });
});

describe('demand_above_applicability', () => {
  const demand = (demandKw: number | null, demandKwMax: number | null) =>
    findingsOf(auditOne(bill('2025-01-01', '2025-01-31', { demandKw }), { demandKwMax }), 'demand_above_applicability');

  it('demand at the tariff\'s limit is fine', () => {
    expect(demand(50, 50)).toEqual([]);
  });

  it('above it: high', () => {
    expect(demand(50.5, 50)).toEqual([{
      billId: '2025-01-01', reason: 'demand_above_applicability', severity: 'high', amountCents: null,
      message: 'demand 50.5 kW is above E-1\'s limit of 50 kW: the meter may belong on another rate class',
      details: { demand_kw: 50.5, demand_kw_max: 50, tariff_id: 't1' },
    }]);
  });

  it('no limit published or no demand on the bill: nothing to compare', () => {
    expect(demand(500, null)).toEqual([]);
    expect(demand(null, 50)).toEqual([]);
  });
});

describe('expired_tariff', () => {
  const expired = (expiredOn: string | null) => findingsOf(auditOne(bill('2025-01-01', '2025-01-31'), { expiredOn }), 'expired_tariff');

  it('a tariff in force over the period: none', () => {
    expect(expired(null)).toEqual([]);
  });

  it('a tariff that expired before the period ended: medium', () => {
    expect(expired('2025-01-15')).toEqual([{
      billId: '2025-01-01', reason: 'expired_tariff', severity: 'medium', amountCents: null,
      message: 'E-1 expired on 2025-01-15, before this period ended: the utility bills other rates now',
      details: { expired_on: '2025-01-15', tariff_id: 't1' },
    }]);
  });
});

describe('unit_price_out_of_range', () => {
  // Range $100.00..$200.00 for 1000 kWh, widened 5 %: 10000 - 500 = 9500 c to 20000 + 1000 = 21000 c.
  const outOfRange = (amountCents: number, yearRangeCents: { min: number; max: number } | null = { min: 10000, max: 20000 }, usage: number | null = 1000) =>
    findingsOf(auditOne(bill('2025-01-01', '2025-01-31', { amountCents, usage }), { expectedCents: 15000, yearRangeCents }), 'unit_price_out_of_range');

  it('up to the widened ends is fine', () => {
    expect(outOfRange(21000)).toEqual([]);
    expect(outOfRange(9500)).toEqual([]);
    expect(RULES.unitPriceSlackPercent).toBe(5);
  });

  it('a cent above: high, the amount above the range\'s max', () => {
    // 21001 - 20000 = 1001 c; $210.01 / 1000 kWh = $0.21001 -> 0.2100
    expect(outOfRange(21001)).toEqual([{
      billId: '2025-01-01', reason: 'unit_price_out_of_range', severity: 'high', amountCents: 1001,
      message: '$0.2100 per kWh is outside what E-1 bills for 1000 kWh in any month ($0.1000 to $0.2000)',
      details: { billed_per_unit: 0.21, min_per_unit: 0.1, max_per_unit: 0.2 },
    }]);
  });

  it('a cent below: high, the (negative) amount below the range\'s min', () => {
    // 9499 - 10000 = -501 c; $94.99 / 1000 = $0.09499 -> 0.0950
    expect(outOfRange(9499)).toEqual([expect.objectContaining({
      severity: 'high', amountCents: -501,
      message: '$0.0950 per kWh is outside what E-1 bills for 1000 kWh in any month ($0.1000 to $0.2000)',
      details: { billed_per_unit: 0.095, min_per_unit: 0.1, max_per_unit: 0.2 },
    })]);
  });

  it('the 5 % is rounded half away from zero to a cent', () => {
    // max 20010: 5 % = 1000.5 -> 1001, up to 21011 c; min 10010: 500.5 -> 501, down to 9509 c
    expect(outOfRange(21011, { min: 10010, max: 20010 })).toEqual([]);
    expect(outOfRange(21012, { min: 10010, max: 20010 })).toEqual([expect.objectContaining({ amountCents: 21012 - 20010 })]);
    expect(outOfRange(9509, { min: 10010, max: 20010 })).toEqual([]);
    expect(outOfRange(9508, { min: 10010, max: 20010 })).toEqual([expect.objectContaining({ amountCents: 9508 - 10010 })]);
  });

  it('no range, or no usage to price a unit of: not checked', () => {
    expect(outOfRange(99999, null)).toEqual([]);
    expect(outOfRange(99999, undefined, null)).toEqual([]);
    expect(outOfRange(99999, undefined, 0)).toEqual([]);
  });
});

describe('unpriceable', () => {
  it('a bill the engine cannot price: status unpriceable with the reason, no expected figures', () => {
    expect(audit([bill('2025-01-01', '2025-01-31', { id: 'b1' })], { b1: { kind: 'unpriceable', reason: 'no tariff version covers 2025-01' } })).toEqual([{
      billId: 'b1', status: 'unpriceable', reason: 'no tariff version covers 2025-01', expectedCents: null, varianceCents: null,
      variancePercent: null, tariffId: null, expectedLines: null, findings: [],
    }]);
  });

  it('a bill given no pricing at all is unpriceable, "not priced"', () => {
    expect(audit([bill('2025-01-01', '2025-01-31', { id: 'b1' })])[0]).toMatchObject({ status: 'unpriceable', reason: 'not priced', findings: [] });
  });

  it('the rules that need no tariff still apply', () => {
    // y1: June 2024, 30 days, $300.00 ($10.00 a day), 3000 kWh (100 a day).
    // now: June 1..24 2025 (24 days), unpriceable, estimated, $480.00 ($20.00 a day: +100 %), 2400 kWh (100 a day: no usage change);
    //   gap: 2025-06-01 - 2024-06-30 - 1 = 335 days; 24 days on a monthly meter (y1 30 and next 30 days: 2 of 3);
    //   a sibling of the same period and amount written earlier; trued up by `next`.
    // next: June 25..July 24 2025 (30 days), priced as billed; its year-earlier window overlaps y1 6 days only.
    const audits = audit([
      june2024(),
      bill('2025-06-01', '2025-06-24', { id: 'now', usage: 2400, amountCents: 48000, isEstimated: true }),
      bill('2025-06-25', '2025-07-24', { id: 'next' }),
    ], {
      y1: priced(30000), now: { kind: 'unpriceable', reason: 'no tariff' }, next: priced(10000),
    }, { siblings: [sibling('s1', '2025-06-01', '2025-06-24', 48000, '2025-07-01T00:00:00Z')] });
    expect(audits.map((a) => [a.billId, a.status])).toEqual([['y1', 'ok'], ['now', 'unpriceable'], ['next', 'ok']]);
    expect(audits[1]).toMatchObject({ reason: 'no tariff', expectedCents: null, variancePercent: null });
    expect(reasons(audits[1]!)).toEqual(['billing_gap', 'period_length', 'estimated_read', 'duplicate_bill', 'cost_change']);
    expect(audits[1]!.findings.map((f) => [f.severity, f.amountCents, f.details])).toEqual([
      ['medium', null, { gap_days: 335, previous_bill_id: 'y1' }],
      ['medium', null, { days: 24 }],
      ['low', null, { trued_up_by: 'next', estimates_in_a_row: 1 }],
      ['high', 48000, { duplicate_of: 's1', meter_id: 'm2' }],
      ['medium', null, { change_percent: 100, year_earlier_bill_id: 'y1' }],
    ]);
    expect(audits[0]!.findings).toEqual([]);
    expect(audits[2]!.findings).toEqual([]);
  });
});

describe('a clean meter', () => {
  it('consecutive monthly actual reads billed as priced: every bill ok, no findings', () => {
    const bills = [bill('2025-01-01', '2025-01-31'), bill('2025-02-01', '2025-02-28'), bill('2025-03-01', '2025-03-31')];
    const audits = audit(bills, Object.fromEntries(bills.map((b) => [b.id, priced(10000, { demandKwMax: 50, yearRangeCents: { min: 9000, max: 11000 } })])));
    expect(audits.map((a) => [a.billId, a.status, a.findings])).toEqual([
      ['2025-01-01', 'ok', []], ['2025-02-01', 'ok', []], ['2025-03-01', 'ok', []],
    ]);
  });
});
