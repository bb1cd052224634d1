/**
 * Charges a tariff publishes that a bill request cannot price, and who may take
 * the tariff: each is stated in `assumptions` (never a silent under-charge),
 * and the bill is still priced. Real bundled tariffs; amounts by hand.
 */
import { NO_APPLICABILITY } from '../../tariffs/tariff.model';
import { engineTariffs, bill, amounts } from './engine.fixtures';

const t = engineTariffs();

const ADDITIONAL_METER = 'one meter assumed: the $350/month charge per additional meter is not included';
const REACTIVE = 'reactive power charge of $1.49/kVAR not included: the request carries no reactive demand (power factor)';

describe('charges a request cannot price are stated', () => {
  it('additional-meter and reactive power charges: not billed, said on every bill', () => {
    const b = bill(t.memphis, { usageKwh: 5_000_000, month: 7, demandKw: 20_000 });
    expect(b.assumptions).toEqual(expect.arrayContaining([ADDITIONAL_METER, REACTIVE]));
    // the fixed charge is the first meter's only
    expect(b.lineItems.filter((i) => i.category === 'fixed').map((i) => [i.name, i.amount])).toEqual([
      ['Fixed customer charge: $1537.86/month', 1537.86],
    ]);
    // 20,000 kW is within 15,000-25,000: no applicability sentence
    expect(b.assumptions.some((a) => a.includes('applicability'))).toBe(false);
    const empty = bill(t.memphis, { usageKwh: 0, month: 1, demandKw: 15_000 });
    expect(empty.assumptions).toEqual(expect.arrayContaining([ADDITIONAL_METER, REACTIVE]));
  });

  it('a demand ratchet: demand_kw is the billing demand, and the bill says so', () => {
    const b = bill(t.ratchet, { usageKwh: 10_000, month: 3, demandKw: 40 });
    // 10,000 x 0.067 = 670.00; 40 kW x 5 = 200.00; fixed 25; total 895.00
    expect(amounts(b)).toEqual([
      ['energy', 'Energy all_year: 10000 kWh x $0.067/kWh', 670],
      ['demand', 'Facility demand: 40 kW x $5/kW', 200],
      ['fixed', 'Fixed customer charge: $25/month', 25],
    ]);
    expect(b.totalCost).toBe(895);
    expect(b.assumptions).toEqual([
      'demand ratchet not applied: the tariff bills at least 60% of the highest demand of earlier months, ' +
        'and the request carries no demand history, so demand_kw is taken as the billing demand',
    ]);
  });
});

describe('applicability', () => {
  it('demand outside the published range is priced and said, above and below', () => {
    const high = bill(t.lexington, { usageKwh: 100_000, month: 1, demandKw: 600 });
    // 600 kW x 7.33 = 4,398.00 coincident demand: priced all the same
    expect(high.summary.demandCharge).toBe(4398);
    expect(high.assumptions).toContain(
      "demand 600 kW is above this tariff's applicability maximum of 500 kW: the utility may not offer it to this customer",
    );
    const low = bill(t.lexington, { usageKwh: 10_000, month: 1, demandKw: 99.999 });
    expect(low.assumptions).toContain(
      "demand 99.999 kW is below this tariff's applicability minimum of 100 kW: the utility may not offer it to this customer",
    );
    // the bounds themselves are inside
    for (const demandKw of [100, 500]) {
      expect(bill(t.lexington, { usageKwh: 10_000, month: 1, demandKw }).assumptions.some((a) => a.includes('applicability'))).toBe(false);
    }
  });

  it('usage below a published minimum is said; a tariff without limits says nothing', () => {
    const limited = { ...t.ratchet, applicability: { ...t.ratchet.applicability, usageKwhMin: 1000, usageKwhMax: 10_000 } };
    expect(bill(limited, { usageKwh: 999.999, month: 3, demandKw: 1 }).assumptions).toContain(
      "usage 999.999 kWh is below this tariff's applicability minimum of 1000 kWh a month: the utility may not offer it to this customer",
    );
    expect(bill(limited, { usageKwh: 10_000.001, month: 3, demandKw: 1 }).assumptions).toContain(
      "usage 10000.001 kWh is above this tariff's applicability maximum of 10000 kWh a month: the utility may not offer it to this customer",
    );
    expect(bill(limited, { usageKwh: 10_000, month: 3, demandKw: 1 }).assumptions.some((a) => a.includes('applicability'))).toBe(false);
    // the record itself publishes no applicability: every bound null
    expect(t.ratchet.applicability).toEqual(NO_APPLICABILITY);
  });
});
