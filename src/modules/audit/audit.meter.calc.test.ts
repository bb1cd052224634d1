import { audit, auditOne, bill, findingsOf, priced } from './audit.calc.fixtures';
import type { AuditBill, BillPricing } from './audit.types';

/** Three monthly bills of 2025 (ids jan, feb, mar), each priced by `p`. */
const quarter = (extra: Partial<AuditBill> = {}) => [
  bill('2025-01-01', '2025-01-31', { id: 'jan', ...extra }),
  bill('2025-02-01', '2025-02-28', { id: 'feb', ...extra }),
  bill('2025-03-01', '2025-03-31', { id: 'mar', ...extra }),
];
const pricedAll = (bills: AuditBill[], p: (b: AuditBill) => BillPricing) => Object.fromEntries(bills.map((b) => [b.id, p(b)]));

describe('expired_tariff, once per meter and cause (issue 47 item 4)', () => {
  it('a tariff in force over the period: none', () => {
    expect(findingsOf(auditOne(bill('2025-01-01', '2025-01-31'), { expiredOn: null }), 'expired_tariff')).toEqual([]);
  });

  it('three bills on a tariff that expired: one finding, on the first, listing the three (before: one per bill, three)', () => {
    const bills = quarter();
    const audits = audit(
      bills,
      pricedAll(bills, () => priced(10000, { expiredOn: '2024-12-31' })),
    );
    expect(audits.map((a) => findingsOf(a, 'expired_tariff').length)).toEqual([1, 0, 0]);
    expect(findingsOf(audits[0]!, 'expired_tariff')).toEqual([
      {
        billId: 'jan',
        reason: 'expired_tariff',
        severity: 'medium',
        amountCents: null,
        message:
          'E-1 expired on 2024-12-31, before the end of 3 bills priced on it (2025-01-01 to 2025-03-31): the utility bills other rates now',
        details: {
          expired_on: '2024-12-31',
          tariff_id: 't1',
          bill_count: 3,
          bills: [
            { bill_id: 'jan', period_start: '2025-01-01', period_end: '2025-01-31' },
            { bill_id: 'feb', period_start: '2025-02-01', period_end: '2025-02-28' },
            { bill_id: 'mar', period_start: '2025-03-01', period_end: '2025-03-31' },
          ],
        },
      },
    ]);
  });

  it('one bill: "1 bill"', () => {
    expect(findingsOf(auditOne(bill('2025-01-01', '2025-01-31'), { expiredOn: '2025-01-15' }), 'expired_tariff')[0]!.message).toBe(
      'E-1 expired on 2025-01-15, before the end of 1 bill priced on it (2025-01-01 to 2025-01-31): the utility bills other rates now',
    );
  });

  it('a meter moved from one expired tariff to another: a finding each; a bill priced on a current one is in neither', () => {
    const bills = [...quarter(), bill('2025-04-01', '2025-04-30', { id: 'apr' })];
    const audits = audit(bills, {
      jan: priced(10000, { expiredOn: '2024-12-31' }),
      feb: priced(10000, { expiredOn: '2024-12-31' }),
      mar: priced(10000, { tariffId: 't2', tariffName: 'E-2', expiredOn: '2025-03-15' }),
      apr: priced(10000, { tariffId: 't3', tariffName: 'E-3' }),
    });
    expect(
      audits.flatMap((a) => findingsOf(a, 'expired_tariff').map((f) => [f.billId, f.details.tariff_id, f.details.bill_count])),
    ).toEqual([
      ['jan', 't1', 2],
      ['mar', 't2', 1],
    ]);
  });
});

describe('demand_above_applicability, once per meter and cause (issue 47 item 4)', () => {
  const withDemand = (demands: Array<number | null>, demandKwMax: number | null = 50) => {
    const bills = quarter().map((b, i) => ({ ...b, demandKw: demands[i] ?? null }));
    return audit(
      bills,
      pricedAll(bills, () => priced(10000, { demandKwMax })),
    );
  };

  it("demand at the tariff's limit is fine; no limit published or no demand on the bill: nothing to compare", () => {
    expect(withDemand([50, 50, 50]).flatMap((a) => findingsOf(a, 'demand_above_applicability'))).toEqual([]);
    expect(withDemand([500, 500, 500], null).flatMap((a) => findingsOf(a, 'demand_above_applicability'))).toEqual([]);
    expect(withDemand([null, null, null]).flatMap((a) => findingsOf(a, 'demand_above_applicability'))).toEqual([]);
  });

  it('above it on two bills: one high finding on the first of them, with both and the highest demand', () => {
    const audits = withDemand([50, 50.5, 62.5]);
    expect(audits.map((a) => findingsOf(a, 'demand_above_applicability'))).toEqual([
      [],
      [
        {
          billId: 'feb',
          reason: 'demand_above_applicability',
          severity: 'high',
          amountCents: null,
          message:
            "demand above E-1's limit of 50 kW on 2 bills (2025-02-01 to 2025-03-31; up to 62.5 kW): the meter may belong on another rate class",
          details: {
            demand_kw_max: 50,
            tariff_id: 't1',
            highest_demand_kw: 62.5,
            bill_count: 2,
            bills: [
              { bill_id: 'feb', period_start: '2025-02-01', period_end: '2025-02-28', demand_kw: 50.5 },
              { bill_id: 'mar', period_start: '2025-03-01', period_end: '2025-03-31', demand_kw: 62.5 },
            ],
          },
        },
      ],
      [],
    ]);
  });
});
