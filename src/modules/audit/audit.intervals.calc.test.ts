import { intervalUsageMismatch } from './audit.intervals.calc';
import { bill, priced } from './audit.calc.fixtures';

const fromIntervals = (kwh: number, billKwh: number | null) => priced(10000, { basis: 'intervals', intervals: { kwh, billKwh } });

describe('interval_usage_mismatch: the bill usage against its meter readings', () => {
  it('more than 2 % of the readings apart is a medium finding without dollars; 2.0 % is not', () => {
    const b = bill('2025-09-01', '2025-09-30', { id: 'b1' });
    // 1,469 / 1,440: +29 kWh, 2.01 % -> 2.0 %: within. 1,470: +30, 2.08 % -> 2.1 %: a finding.
    expect(intervalUsageMismatch(b, fromIntervals(1440, 1469))).toBeNull();
    expect(intervalUsageMismatch(b, fromIntervals(1440, 1470))).toMatchObject({
      reason: 'interval_usage_mismatch',
      severity: 'medium',
      amountCents: null,
      details: { bill_kwh: 1470, interval_kwh: 1440, difference_percent: 2.1, basis: 'intervals' },
    });
    // Less: 1,400 is 40 / 1,440 = 2.78 % -> 2.8 % less.
    expect(intervalUsageMismatch(b, fromIntervals(1440, 1400))?.message).toMatch(
      /^the bill's usage, 1,400 kWh, is 2\.8 % less than the meter's interval readings over its period, 1,440 kWh: /,
    );
  });

  it('nothing to compare: a bill without usage, or one priced from its own usage', () => {
    const b = bill('2025-09-01', '2025-09-30', { id: 'b1' });
    expect(intervalUsageMismatch(b, fromIntervals(1440, null))).toBeNull();
    expect(intervalUsageMismatch(b, priced(10000))).toBeNull();
  });
});
