import { auditDigests, DIGEST_LISTED, storeGroups, type AuditedMeter } from './audit-digest';
import type { Finding } from './audit.types';
import { pricedAudit } from './audit.calc.fixtures';

const finding = (
  billId: string,
  reason: Finding['reason'],
  severity: Finding['severity'],
  amountCents: number | null,
  message = `${reason} of ${billId}`,
  details: Record<string, unknown> = {},
): Finding => ({ billId, reason, severity, amountCents, message, details });

const meter = (propertyId: string, name: string, findings: Finding[]): AuditedMeter => ({
  property: { id: propertyId, name: `Property ${propertyId}`, ownerId: 'u1' },
  meter: { name },
  bills: [
    { id: 'b1', periodStart: '2025-01-01', periodEnd: '2025-01-31' },
    { id: 'b2', periodStart: '2025-02-01', periodEnd: '2025-02-28' },
  ],
  audits: [pricedAudit('b1', 0, { status: 'variance', findings })],
});

describe('auditDigests', () => {
  it('one per property, listing the new high findings; dollars per bill the largest, a unit error never', () => {
    const all = () => true;
    const digests = auditDigests(
      [
        meter('p1', 'North', [
          finding('b1', 'price_variance', 'high', 849),
          finding('b1', 'unit_price_out_of_range', 'high', 849),
          finding('b1', 'billing_gap', 'medium', null),
        ]),
        meter('p1', 'South', [finding('b2', 'price_variance', 'high', -315)]),
        meter('p2', 'Gas', [finding('b1', 'likely_unit_error', 'high', 500)]),
        meter('p3', 'Quiet', [finding('b1', 'period_length', 'medium', null)]),
      ],
      all,
    );
    // p1: b1 $8.49 (largest of 8.49 and 8.49) + b2 |-3.15| = $11.64; p2: a unit error, no dollars; p3: nothing high, no digest.
    expect(digests).toEqual([
      {
        userId: 'u1',
        type: 'bill_audit',
        propertyId: 'p1',
        message:
          'Bill audit: Property p1: 3 new high-severity findings, $11.64 at issue\n' +
          '- North, 2025-01-01 to 2025-01-31: price_variance of b1\n- North, 2025-01-01 to 2025-01-31: unit_price_out_of_range of b1\n' +
          '- South, 2025-02-01 to 2025-02-28: price_variance of b2',
      },
      {
        userId: 'u1',
        type: 'bill_audit',
        propertyId: 'p2',
        message: 'Bill audit: Property p2: 1 new high-severity finding\n- Gas, 2025-01-01 to 2025-01-31: likely_unit_error of b1',
      },
    ]);
  });

  it('only what the run stored new; nothing new, no digest', () => {
    const m = meter('p1', 'North', [finding('b1', 'price_variance', 'high', 849), finding('b1', 'unit_price_out_of_range', 'high', 849)]);
    expect(auditDigests([m], (_, reason) => reason === 'unit_price_out_of_range')[0]!.message).toBe(
      'Bill audit: Property p1: 1 new high-severity finding, $8.49 at issue\n- North, 2025-01-01 to 2025-01-31: unit_price_out_of_range of b1',
    );
    expect(auditDigests([m], () => false)).toEqual([]);
  });

  it('a meter-level cause names the days of the bills it covers; past 10 lines the rest are counted', () => {
    const cause = finding('b1', 'demand_above_applicability', 'high', null, 'demand above', {
      bills: [
        { bill_id: 'b1', period_start: '2025-01-01', period_end: '2025-01-31' },
        { bill_id: 'b2', period_start: '2025-02-01', period_end: '2025-02-28' },
      ],
    });
    expect(auditDigests([meter('p1', 'North', [cause])], () => true)[0]!.message).toBe(
      'Bill audit: Property p1: 1 new high-severity finding\n- North, 2025-01-01 to 2025-02-28: demand above',
    );
    const many = Array.from({ length: 13 }, (_, i) => finding('b1', 'price_variance', 'high', 100, `#${i}`));
    const lines = auditDigests([meter('p1', 'North', many)], () => true)[0]!.message.split('\n');
    expect(DIGEST_LISTED).toBe(10);
    expect(lines).toHaveLength(1 + 10 + 1);
    expect(lines.at(-1)).toBe('- and 3 more');
  });
});

describe('storeGroups', () => {
  const input = (property: string, meterId: string, bills: number) => ({
    property: { id: property },
    meter: { id: meterId },
    bills: Array.from({ length: bills }),
  });

  it("keeps a property's meters together, as many properties as fit, each group in meter id order", () => {
    const groups = storeGroups([input('p1', 'm3', 10), input('p2', 'm2', 30), input('p1', 'm1', 10), input('p3', 'm4', 50)], 60);
    // p1 (m3, m1: 20) + p2 (30) = 50; p3's 50 would make 100: a group of its own.
    expect(groups.map((g) => g.map((i) => i.meter.id))).toEqual([['m1', 'm2', 'm3'], ['m4']]);
  });

  it('a property larger than a group is split by meter; a meter larger than a group is alone', () => {
    const groups = storeGroups([input('p1', 'a', 40), input('p1', 'b', 40), input('p1', 'c', 100), input('p2', 'd', 10)], 60);
    expect(groups.map((g) => g.map((i) => i.meter.id))).toEqual([['a'], ['b'], ['c'], ['d']]);
  });
});
