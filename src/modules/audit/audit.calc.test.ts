import { compareLines } from './audit.calc';
import { RULES } from './audit.thresholds';
import type { AuditBill } from './audit.types';
import { audit, auditOne, bill, findingsOf, june2024, priced, pricedAudit, reasons, sibling, unpricedAudit } from './audit.calc.fixtures';

describe('compareLines', () => {
  const expected = [
    { category: 'energy', name: 'Energy summer', amount: 60.1 },
    { category: 'energy', name: 'Energy winter', amount: 20.2 },
    { category: 'fixed', name: 'Customer charge', amount: 15 },
    { category: 'tax', name: 'Sales tax', amount: 4.7 },
  ];

  // Each: the billed lines against `expected`, and the categories that differ.
  it.each([
    {
      what: 'sums both sides by category in cents and keeps only the categories that differ',
      // energy: expected 6010 + 2020 = 8030 c; billed 5000 + 3030 = 8030 c: equal, dropped (in dollars 60.1 + 20.2 is 80.30000000000001)
      // fixed: expected 1500, billed 1600: +100 c; tax: expected 470, billed 469: -1 c
      billed: [
        { category: 'energy', description: 'Energy on-peak', amount: 50 },
        { category: 'energy', description: 'Energy off-peak', amount: 30.3 },
        { category: 'fixed', description: 'Basic service', amount: 16 },
        { category: 'tax', description: 'Tax', amount: 4.69 },
      ],
      differing: [
        { category: 'fixed', expected: 15, billed: 16, difference: 1 },
        { category: 'tax', expected: 4.7, billed: 4.69, difference: -0.01 },
      ],
    },
    {
      what: 'a category on one side only differs by its whole sum; expected categories come first, then printed-only ones',
      // tax not printed: 0 - 470 = -470 c; late fee only printed: +1250 c
      billed: [
        { category: 'energy', description: 'Energy', amount: 80.3 },
        { category: 'fixed', description: 'Basic service', amount: 15 },
        { category: 'late_fee', description: 'Late payment', amount: 12.5 },
      ],
      differing: [
        { category: 'tax', expected: 4.7, billed: 0, difference: -4.7 },
        { category: 'late_fee', expected: 0, billed: 12.5, difference: 12.5 },
      ],
    },
    {
      what: 'lines that match are no lines at all',
      billed: [
        { category: 'tax', description: 'Tax', amount: 4.7 },
        { category: 'fixed', description: 'Basic service', amount: 15 },
        { category: 'energy', description: 'Energy', amount: 80.3 },
      ],
      differing: [],
    },
  ])('$what', ({ billed, differing }) => {
    expect(compareLines(expected, billed)).toEqual(differing);
  });

  it('no lines on either side are no lines either', () => {
    expect(compareLines([], [])).toEqual([]);
  });
});

describe('price_variance', () => {
  // Expected $100.00 (10000 c) unless said; percent = variance x 1000 / expected, rounded half away from zero, / 10.
  const jan = (amountCents: number, extra: Partial<AuditBill> = {}) => bill('2025-01-01', '2025-01-31', { amountCents, ...extra });

  it('billed what was expected: ok, no finding', () => {
    // status ok, variance 0 (0 %), tariff t1, no lines, priced from the bill, no note, no findings
    expect(auditOne(jan(10000))).toEqual(pricedAudit('2025-01-01', 10000));
  });

  it('exactly the tolerance (3.0 %) either way is ok, the figures still reported', () => {
    // +300 c: 300000 / 10000 = 30 -> 3.0 %; -300 c -> -3.0 %
    expect(auditOne(jan(10300), { expectedCents: 10000 })).toMatchObject({
      status: 'ok',
      varianceCents: 300,
      variancePercent: 3,
      findings: [],
    });
    expect(auditOne(jan(9700), { expectedCents: 10000 })).toMatchObject({
      status: 'ok',
      varianceCents: -300,
      variancePercent: -3,
      findings: [],
    });
  });

  it('3.1 % over is a medium finding of the variance', () => {
    // +310 c: 310000 / 10000 = 31 -> 3.1 % (> 3, < 10, $3.10 < $500): medium, amount 310
    const a = auditOne(jan(10310), { expectedCents: 10000 });
    expect(a).toMatchObject({ status: 'variance', expectedCents: 10000, varianceCents: 310, variancePercent: 3.1 });
    expect(a.findings).toEqual([
      {
        billId: '2025-01-01',
        reason: 'price_variance',
        severity: 'medium',
        amountCents: 310,
        message: 'billed $103.10, expected $100.00 on E-1: +$3.10 (+3.1 %)',
        details: { expected: 100, billed: 103.1, variance_percent: 3.1, tariff_id: 't1', lines: null, basis: 'bill' },
      },
    ]);
  });

  it('3.1 % under is a medium finding of a negative amount', () => {
    // -310 c -> -3.1 %
    expect(auditOne(jan(9690), { expectedCents: 10000 }).findings).toEqual([
      expect.objectContaining({
        reason: 'price_variance',
        severity: 'medium',
        amountCents: -310,
        message: 'billed $96.90, expected $100.00 on E-1: -$3.10 (-3.1 %)',
        details: expect.objectContaining({ variance_percent: -3.1 }),
      }),
    ]);
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

  // High from 10 % (after rounding) or from $500 whatever the percent; medium below both.
  it.each([
    // +994 c: 99.4 -> 99 -> 9.9 % medium
    [10994, 10000, 'medium', 994, 'billed $109.94, expected $100.00 on E-1: +$9.94 (+9.9 %)'],
    // +995 c: 99.5 -> 100 -> 10.0 % high
    [10995, 10000, 'high', 995, 'billed $109.95, expected $100.00 on E-1: +$9.95 (+10 %)'],
    // -1000 c: -10.0 % high
    [9000, 10000, 'high', -1000, 'billed $90.00, expected $100.00 on E-1: -$10.00 (-10 %)'],
    // expected $10,000.00 (1000000 c): +49999 c = 49.999 -> 50 -> 5.0 % medium
    [1049999, 1000000, 'medium', 49999, 'billed $10499.99, expected $10000.00 on E-1: +$499.99 (+5 %)'],
    // +50000 c = $500.00, 5.0 %: high
    [1050000, 1000000, 'high', 50000, 'billed $10500.00, expected $10000.00 on E-1: +$500.00 (+5 %)'],
    // -50000 c: -5.0 %, $500 under: high
    [950000, 1000000, 'high', -50000, 'billed $9500.00, expected $10000.00 on E-1: -$500.00 (-5 %)'],
  ])('billed %i c, expected %i c: %s, %i c', (billed, expectedCents, severity, amountCents, message) => {
    expect(findingsOf(auditOne(jan(billed), { expectedCents }), 'price_variance')).toEqual([
      expect.objectContaining({ severity, amountCents, message }),
    ]);
  });

  it('the high thresholds are 10 % and $500', () => {
    expect(RULES.highVariancePercent).toBe(10);
    expect(RULES.highVarianceCents).toBe(50000);
  });

  it('nothing expected but something billed: no percent, high', () => {
    expect(auditOne(jan(100), { expectedCents: 0 })).toMatchObject({
      status: 'variance',
      varianceCents: 100,
      variancePercent: null,
      findings: [
        expect.objectContaining({
          reason: 'price_variance',
          severity: 'high',
          amountCents: 100,
          message: 'billed $1.00, expected $0.00 on E-1: +$1.00',
          details: expect.objectContaining({ variance_percent: null }),
        }),
      ],
    });
  });

  it("without printed lines the message appends the caller's explanation", () => {
    // +1800 c = 18.0 %: high
    expect(auditOne(jan(11800), { expectedCents: 10000, explanation: 'matches at 18 % more usage' }).findings).toEqual([
      expect.objectContaining({
        severity: 'high',
        amountCents: 1800,
        message: 'billed $118.00, expected $100.00 on E-1: +$18.00 (+18 %); matches at 18 % more usage',
        details: expect.objectContaining({ lines: null }),
      }),
    ]);
  });

  it('with printed lines the message lists the categories that differ (not the explanation)', () => {
    const expectedLines = [
      { category: 'energy', name: 'Energy', amount: 80 },
      { category: 'fixed', name: 'Customer charge', amount: 20 },
    ];
    // energy billed $85.50 vs $80.00: +550 c; fixed equal. Bill $105.50: +550 c = 5.5 % medium
    const a = auditOne(
      jan(10550, {
        lineItems: [
          { category: 'energy', description: 'Energy 1000 kWh', amount: 85.5 },
          { category: 'fixed', description: 'Basic charge', amount: 20 },
        ],
      }),
      { expectedCents: 10000, expectedLines, explanation: 'matches at 7 % more usage' },
    );
    expect(a).toMatchObject({ status: 'variance', expectedLines });
    expect(a.findings).toEqual([
      {
        billId: '2025-01-01',
        reason: 'price_variance',
        severity: 'medium',
        amountCents: 550,
        message:
          'billed $105.50, expected $100.00 on E-1: +$5.50 (+5.5 %); lines that differ: energy billed $85.50, expected $80.00 (+$5.50)',
        details: {
          expected: 100,
          billed: 105.5,
          variance_percent: 5.5,
          tariff_id: 't1',
          lines: [{ category: 'energy', expected: 80, billed: 85.5, difference: 5.5 }],
          // Issue 50 item 3: what the expected amount was priced from (the bill's usage here; intervals where readings cover it).
          basis: 'bill',
        },
      },
    ]);
  });

  it('printed lines that all match the expected ones fall back to the explanation', () => {
    // the bill's total ($105.50) is not the sum of its printed lines ($100.00)
    const a = auditOne(jan(10550, { lineItems: [{ category: 'energy', description: 'Energy', amount: 100 }] }), {
      expectedCents: 10000,
      expectedLines: [{ category: 'energy', name: 'Energy', amount: 100 }],
      explanation: 'matches at 7 % more usage',
    });
    expect(a.findings).toEqual([
      expect.objectContaining({
        message: 'billed $105.50, expected $100.00 on E-1: +$5.50 (+5.5 %); matches at 7 % more usage',
        details: expect.objectContaining({ lines: [] }),
      }),
    ]);
  });
});

describe('dollars at issue never exceed what was billed (CONTRACT, fourth round)', () => {
  const jan = (amountCents: number) => bill('2025-01-01', '2025-01-31', { amountCents });

  it("a variance larger than the bill is the bill's amount at issue; the message keeps the variance", () => {
    // Billed $100.00, expected $250.00: -$150.00 (-60 %), $100.00 at issue.
    const a = auditOne(jan(10000), { expectedCents: 25000 });
    expect(a).toMatchObject({ varianceCents: -15000, variancePercent: -60 });
    expect(a.findings.map((f) => [f.reason, f.amountCents])).toEqual([['price_variance', -10000]]);
    expect(a.findings[0]!.message).toBe('billed $100.00, expected $250.00 on E-1: -$150.00 (-60 %)');
    // With a tolerance of 70 % it is no price variance; the year's range $250.00..$300.00 is: $100 - $250 = -$150.00, also -$100.00.
    expect(
      auditOne(jan(10000), { expectedCents: 25000, yearRangeCents: { min: 25000, max: 30000 } }, 70).findings.map((f) => [
        f.reason,
        f.amountCents,
      ]),
    ).toEqual([['unit_price_out_of_range', -10000]]);
  });

  it('a bill expecting a credit: billed $20.00 where -$50.00 was expected is +$70.00, $20.00 at issue; a bill of $0.00 has $0.00', () => {
    expect(findingsOf(auditOne(jan(2000), { expectedCents: -5000 }), 'price_variance')[0]!.amountCents).toBe(2000);
    expect(findingsOf(auditOne(jan(0), { expectedCents: 5000 }), 'price_variance')[0]!.amountCents).toBe(0);
  });

  it('within the bill it is the variance itself', () => {
    expect(findingsOf(auditOne(jan(10000), { expectedCents: 19999 }), 'price_variance')[0]!.amountCents).toBe(-9999);
  });
});

describe('unpriceable', () => {
  it('a bill the engine cannot price: status unpriceable with the reason, no expected figures', () => {
    expect(
      audit([bill('2025-01-01', '2025-01-31', { id: 'b1' })], { b1: { kind: 'unpriceable', reason: 'no tariff version covers 2025-01' } }),
    ).toEqual([unpricedAudit('b1', 'no tariff version covers 2025-01')]);
  });

  it('a bill given no pricing at all is unpriceable, "not priced"', () => {
    expect(audit([bill('2025-01-01', '2025-01-31', { id: 'b1' })])[0]).toMatchObject({
      status: 'unpriceable',
      reason: 'not priced',
      findings: [],
    });
  });

  it('the rules that need no tariff still apply', () => {
    // y1: June 2024, 30 days, $300.00 ($10.00 a day), 3000 kWh (100 a day).
    // now: June 1..24 2025 (24 days), unpriceable, estimated, $480.00 ($20.00 a day: +100 %), 2400 kWh (100 a day: no usage change);
    //   gap: 2025-06-01 - 2024-06-30 - 1 = 335 days; 24 days on a monthly meter (y1 30 and next 30 days: 2 of 3);
    //   a sibling of the same period and amount written earlier; trued up by `next`.
    // next: June 25..July 24 2025 (30 days), priced as billed; its year-earlier window overlaps y1 6 days only.
    const audits = audit(
      [
        june2024(),
        bill('2025-06-01', '2025-06-24', { id: 'now', usage: 2400, amountCents: 48000, isEstimated: true }),
        bill('2025-06-25', '2025-07-24', { id: 'next' }),
      ],
      {
        y1: priced(30000),
        now: { kind: 'unpriceable', reason: 'no tariff' },
        next: priced(10000),
      },
      { siblings: [sibling('s1', '2025-06-01', '2025-06-24', 48000, '2025-07-01T00:00:00Z')] },
    );
    expect(audits.map((a) => [a.billId, a.status])).toEqual([
      ['y1', 'ok'],
      ['now', 'unpriceable'],
      ['next', 'ok'],
    ]);
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
    const audits = audit(
      bills,
      Object.fromEntries(bills.map((b) => [b.id, priced(10000, { demandKwMax: 50, yearRangeCents: { min: 9000, max: 11000 } })])),
    );
    expect(audits.map((a) => [a.billId, a.status, a.findings])).toEqual([
      ['2025-01-01', 'ok', []],
      ['2025-02-01', 'ok', []],
      ['2025-03-01', 'ok', []],
    ]);
  });
});
