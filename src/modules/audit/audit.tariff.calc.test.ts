import { RULES } from './audit.thresholds';
import { auditOne, bill, findingsOf } from './audit.calc.fixtures';

// demand_above_applicability and expired_tariff: replaced by one finding per meter and cause (issue 47 item 4), audit.meter.calc.test.ts.

describe('unit_price_out_of_range', () => {
  // Range $100.00..$200.00 for 1000 kWh, widened 5 %: 10000 - 500 = 9500 c to 20000 + 1000 = 21000 c. Expected $150.00 with a
  // tolerance of 50 %: the bills below are no price variance, which would state the same cause (issue 47 item 4).
  const outOfRange = (
    amountCents: number,
    yearRangeCents: { min: number; max: number } | null = { min: 10000, max: 20000 },
    usage: number | null = 1000,
  ) =>
    findingsOf(
      auditOne(bill('2025-01-01', '2025-01-31', { amountCents, usage }), { expectedCents: 15000, yearRangeCents }, 50),
      'unit_price_out_of_range',
    );

  it('up to the widened ends is fine', () => {
    expect(outOfRange(21000)).toEqual([]);
    expect(outOfRange(9500)).toEqual([]);
    expect(RULES.unitPriceSlackPercent).toBe(5);
  });

  it("a cent above: high, the amount above the range's max", () => {
    // 21001 - 20000 = 1001 c; $210.01 / 1000 kWh = $0.21001 -> 0.2100
    expect(outOfRange(21001)).toEqual([
      {
        billId: '2025-01-01',
        reason: 'unit_price_out_of_range',
        severity: 'high',
        amountCents: 1001,
        message: '$0.2100 per kWh is outside what E-1 bills for 1000 kWh in any month ($0.1000 to $0.2000)',
        details: { billed_per_unit: 0.21, min_per_unit: 0.1, max_per_unit: 0.2 },
      },
    ]);
  });

  it("a cent below: high, the (negative) amount below the range's min", () => {
    // 9499 - 10000 = -501 c; $94.99 / 1000 = $0.09499 -> 0.0950
    expect(outOfRange(9499)).toEqual([
      expect.objectContaining({
        severity: 'high',
        amountCents: -501,
        message: '$0.0950 per kWh is outside what E-1 bills for 1000 kWh in any month ($0.1000 to $0.2000)',
        details: { billed_per_unit: 0.095, min_per_unit: 0.1, max_per_unit: 0.2 },
      }),
    ]);
  });

  it('the 5 % is rounded half away from zero to a cent', () => {
    // max 20010: 5 % = 1000.5 -> 1001, up to 21011 c; min 10010: 500.5 -> 501, down to 9509 c
    expect(outOfRange(21011, { min: 10010, max: 20010 })).toEqual([]);
    expect(outOfRange(21012, { min: 10010, max: 20010 })).toEqual([expect.objectContaining({ amountCents: 21012 - 20010 })]);
    expect(outOfRange(9509, { min: 10010, max: 20010 })).toEqual([]);
    expect(outOfRange(9508, { min: 10010, max: 20010 })).toEqual([expect.objectContaining({ amountCents: 9508 - 10010 })]);
  });

  it('a bill that is a price variance is that finding only: its unit price states the same cause', () => {
    // $210.01 against $150.00 expected is +40.0 %: over the default tolerance of 3 %, a price variance and nothing more.
    const a = auditOne(bill('2025-01-01', '2025-01-31', { amountCents: 21001 }), {
      expectedCents: 15000,
      yearRangeCents: { min: 10000, max: 20000 },
    });
    expect(a.findings.map((f) => [f.reason, f.amountCents])).toEqual([['price_variance', 6001]]);
  });

  it('no range, or no usage to price a unit of: not checked', () => {
    expect(outOfRange(99999, null)).toEqual([]);
    expect(outOfRange(99999, undefined, null)).toEqual([]);
    expect(outOfRange(99999, undefined, 0)).toEqual([]);
  });
});
