import { audit, bill, priced } from '../audit.calc.fixtures';
import { chargesBeforeCredits, creditsByBill, expectingCredits } from './credits.calc';

/**
 * A bill carrying a credit granted on a dispute (README "Disputes and recovered money"): March's bill
 * of $100.00 charges carries a $20.00 credit, so it was issued for $80.00.
 */
describe('a bill carrying a credit', () => {
  const credits = creditsByBill([{ billId: 'mar', cents: 2000, claimReference: 'C-1' }]);
  const march = bill('2026-03-01', '2026-03-31', { id: 'mar', amountCents: 8000 });

  it('is judged on its charges and expected with the credit: no finding arises from the credit', () => {
    const judged = chargesBeforeCredits(march, credits.get('mar'));
    expect(judged.amountCents).toBe(10000);
    const [result] = audit([judged], { mar: priced(10000, { yearRangeCents: { min: 10000, max: 10000 } }) }).map((a) =>
      expectingCredits(a, credits.get(a.billId)),
    );
    expect(result).toMatchObject({ status: 'ok', expectedCents: 8000, varianceCents: 0, findings: [] });
    expect(result!.expectedLines).toEqual([{ category: 'other', name: 'Credit on dispute C-1', amount: -20 }]);
    // Without the credit, $80.00 against $100.00 is a -20 % price variance (its unit price under the tariff's is the same
    // cause, no second finding: issue 47 item 4 replaced the rule that stated both).
    expect(
      audit([march], { mar: priced(10000, { yearRangeCents: { min: 10000, max: 10000 } }) })[0]!.findings.map((f) => f.reason),
    ).toEqual(['price_variance']);
  });

  it('a bill that lacks its credit is one price variance of the credit, stated as the bill was issued', () => {
    // March issued at its charges, $100.00, without the $20.00 credit: expected 100.00 - 20.00 = $80.00, +$20.00, +25 %
    // of what was due (not "billed $120.00, expected $100.00", +20 %: the bill never said $120.00).
    const lacking = bill('2026-03-01', '2026-03-31', { id: 'mar', amountCents: 10000 });
    const [result] = audit([chargesBeforeCredits(lacking, credits.get('mar'))], { mar: priced(10000) }).map((a) =>
      expectingCredits(a, credits.get(a.billId)),
    );
    expect(result).toMatchObject({ status: 'variance', expectedCents: 8000, varianceCents: 2000, variancePercent: 25 });
    expect(result!.findings).toEqual([
      expect.objectContaining({
        reason: 'price_variance',
        severity: 'high',
        amountCents: 2000,
        message:
          'billed $100.00, expected $80.00 on E-1 with the credit on dispute C-1 (-$20.00): +$20.00 (+25 %); the credit is not on the bill',
        details: expect.objectContaining({ billed: 100, expected: 80, variance_percent: 25 }),
      }),
    ]);
  });

  it('its printed lines (the credit among them) get a line adding the credits back, in other', () => {
    const printed = {
      ...march,
      lineItems: [
        { category: 'energy', description: 'Usage', amount: 100 },
        { category: 'other', description: 'Credit', amount: -20 },
      ],
    };
    expect(chargesBeforeCredits(printed, credits.get('mar')).lineItems).toEqual([
      ...printed.lineItems,
      { category: 'other', description: 'credits granted on disputes, added back', amount: 20 },
    ]);
  });

  it('a bill without credits, or unpriceable, stays as it is', () => {
    expect(chargesBeforeCredits(march, undefined)).toBe(march);
    const [unpriceable] = audit([march]);
    expect(expectingCredits(unpriceable!, credits.get('mar'))).toBe(unpriceable);
  });
});
