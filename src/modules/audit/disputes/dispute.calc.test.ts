import {
  claimCeilingCents,
  claimProblem,
  closingProblem,
  creditProblem,
  disputeMoney,
  isOverdue,
  recoveryRows,
  transitionProblem,
  type FindingStatus,
} from './dispute.calc';

describe('transitions of a finding (README "Disputes and recovered money")', () => {
  it.each<[FindingStatus, 'disputed' | 'credited' | 'denied' | 'resolved', string | null]>([
    ['open', 'disputed', null],
    ['resolved', 'disputed', 'the finding is resolved: only an open finding can be disputed'],
    ['disputed', 'disputed', 'the finding is disputed: only an open finding can be disputed'],
    ['disputed', 'credited', null],
    ['disputed', 'denied', null],
    ['open', 'credited', 'the finding is open: only a disputed finding can be credited'],
    ['credited', 'denied', 'the finding is credited: only a disputed finding can be denied'],
    ['denied', 'credited', 'the finding is denied: only a disputed finding can be credited'],
    ['open', 'resolved', null],
    ['disputed', 'resolved', 'the finding is disputed: a dispute closes as credited or denied'],
    ['denied', 'resolved', 'the finding is denied: a dispute closes as credited or denied'],
  ])('%s -> %s', (from, to, problem) => expect(transitionProblem(from, to)).toBe(problem));
});

describe('claims and credits', () => {
  const finding = { amountAtIssueCents: 849, billCents: 4000, billPeriodEnd: '2026-04-30' };
  it('a claim asks at most the overcharge at issue, else the bill', () => {
    expect(claimCeilingCents(849, 4000)).toBe(849);
    expect(claimCeilingCents(null, 4000)).toBe(4000);
    expect(claimCeilingCents(-315, 2836)).toBe(2836);
    expect(claimProblem({ disputedOn: '2026-06-01', amountClaimedCents: 849 }, finding, '2026-08-20')).toBeNull();
    expect(claimProblem({ disputedOn: '2026-06-01', amountClaimedCents: 850 }, finding, '2026-08-20')).toEqual({
      field: 'amount_claimed',
      message: 'amount_claimed must not exceed the amount at issue ($8.49)',
    });
    expect(
      claimProblem({ disputedOn: '2026-06-01', amountClaimedCents: 4001 }, { ...finding, amountAtIssueCents: null }, '2026-08-20'),
    ).toEqual({ field: 'amount_claimed', message: "amount_claimed must not exceed the bill's amount ($40.00)" });
    expect(
      claimProblem(
        { disputedOn: '2026-06-01', amountClaimedCents: 1 },
        { ...finding, amountAtIssueCents: null, billCents: -500 },
        '2026-08-20',
      ),
    ).toEqual({ field: 'amount_claimed', message: "nothing to claim: the bill's amount is -$5.00" });
  });

  it("a claim is filed after the bill's period and not after today; it closes between the claim and today", () => {
    expect(claimProblem({ disputedOn: '2026-04-30', amountClaimedCents: 1 }, finding, '2026-04-30')).toBeNull();
    expect(claimProblem({ disputedOn: '2026-04-29', amountClaimedCents: 1 }, finding, '2026-08-20')?.field).toBe('disputed_on');
    expect(claimProblem({ disputedOn: '2026-08-21', amountClaimedCents: 1 }, finding, '2026-08-20')?.field).toBe('disputed_on');
    expect(closingProblem('2026-06-01', '2026-06-01', '2026-08-20')).toBeNull();
    expect(closingProblem('2026-06-01', '2026-05-31', '2026-08-20')?.message).toBe('closed_on must not be before the dispute (2026-06-01)');
    expect(closingProblem('2026-06-01', '2026-08-21', '2026-08-20')?.message).toBe('closed_on must not be after today (2026-08-20)');
  });

  it('a credit is at most the claim, on a bill of the same meter ending after the claim', () => {
    const dispute = { amountClaimedCents: 849, disputedOn: '2026-06-01', meterId: 'm1' };
    expect(creditProblem({ creditCents: 849, creditBill: { meterId: 'm1', periodEnd: '2026-06-02' } }, dispute)).toBeNull();
    expect(creditProblem({ creditCents: 850, creditBill: { meterId: 'm1', periodEnd: '2026-06-30' } }, dispute)?.field).toBe(
      'amount_credited',
    );
    expect(creditProblem({ creditCents: 500, creditBill: { meterId: 'm2', periodEnd: '2026-06-30' } }, dispute)?.field).toBe(
      'credit_bill_id',
    );
    expect(creditProblem({ creditCents: 500, creditBill: null }, dispute)?.field).toBe('credit_bill_id');
    expect(creditProblem({ creditCents: 500, creditBill: { meterId: 'm1', periodEnd: '2026-06-01' } }, dispute)?.message).toBe(
      "the credit's bill must end after the dispute was filed (2026-06-01)",
    );
  });
});

describe('money recovered', () => {
  it('a credit recovers, the rest of a closed claim is written off, an open claim is pending', () => {
    expect(disputeMoney({ status: 'disputed', amountClaimedCents: 849, creditCents: null })).toEqual({
      claimed: 849,
      recovered: 0,
      writtenOff: 0,
      pending: 849,
    });
    expect(disputeMoney({ status: 'credited', amountClaimedCents: 849, creditCents: 500 })).toEqual({
      claimed: 849,
      recovered: 500,
      writtenOff: 349,
      pending: 0,
    });
    expect(disputeMoney({ status: 'denied', amountClaimedCents: 849, creditCents: null })).toEqual({
      claimed: 849,
      recovered: 0,
      writtenOff: 849,
      pending: 0,
    });
  });

  it('per property and year the claim was filed, newest year first, then by name; each row adds up', () => {
    const d = (
      propertyId: string,
      propertyName: string,
      disputedOn: string,
      status: FindingStatus,
      amountClaimedCents: number,
      creditCents: number | null = null,
    ) => ({ propertyId, propertyName, disputedOn, status, amountClaimedCents, creditCents });
    const rows = recoveryRows([
      d('p1', 'Palm Court', '2025-12-10', 'denied', 849),
      d('p1', 'Palm Court', '2026-02-10', 'credited', 315, 315),
      d('p2', 'Bay View', '2026-07-02', 'credited', 849, 500),
      d('p1', 'Palm Court', '2026-06-01', 'disputed', 849),
    ]);
    expect(
      rows.map((r) => [r.year, r.propertyName, r.disputes, r.claimedCents, r.recoveredCents, r.writtenOffCents, r.pendingCents]),
    ).toEqual([
      [2026, 'Bay View', 1, 849, 500, 349, 0],
      [2026, 'Palm Court', 2, 1164, 315, 0, 849],
      [2025, 'Palm Court', 1, 849, 0, 849, 0],
    ]);
    for (const r of rows) expect(r.claimedCents).toBe(r.recoveredCents + r.writtenOffCents + r.pendingCents);
  });

  it('overdue after more than 60 days', () => {
    expect(isOverdue('2026-06-01', '2026-07-31')).toBe(false); // 60 days
    expect(isOverdue('2026-06-01', '2026-08-01')).toBe(true); // 61 days
  });
});
