import { buildAverageRates } from './average-rates';
import { belowHalfAverage, implausiblePrice, implausiblePriceReason } from './plausible-price';

/** Stillwater Utilities Authority's EIA-861 2018 part-A row, as published: commercial $18,677 thousand / 178,421 MWh. */
const STILLWATER = buildAverageRates(
  [
    {
      utility_number: '18125',
      state: 'OK',
      part: 'A',
      total_customers: '21182',
      residential_revenues_thousand_dollars: '23330',
      residential_sales_mwh: '206057',
      commercial_revenues_thousand_dollars: '18677',
      commercial_sales_mwh: '178421',
      industrial_revenues_thousand_dollars: '5570',
      industrial_sales_mwh: '70658',
    },
  ],
  [],
  [],
);

describe('the plausibility check of due diligence and rate analysis (analytics/plausible-price.ts)', () => {
  const tod = { utilityId: '18125', state: 'OK', sector: 'commercial' };

  it("README example: Stillwater's PL-S/TOD at $1,207.34 for 30,000 kWh is 4.02 cents, below half of 10.4679 cents", () => {
    const found = implausiblePrice(STILLWATER, tod, '74074', 120_734, 30_000);
    expect(found).toEqual({
      pricePerKwh: 0.0402,
      average: { ratePerKwh: 0.104679, source: 'EIA Form 861, sales to ultimate customers (revenue / sales)', year: 2018 },
    });
    expect(implausiblePriceReason(found!, 'commercial', 'Stillwater Utilities Authority')).toBe(
      'priced at $0.0402/kWh for this usage, below half ' +
        "Stillwater Utilities Authority's average commercial rate, $0.104679/kWh (EIA Form 861, sales to ultimate customers (revenue / sales), " +
        '2018): a record missing part of the bill (supply, or the delivery charges)',
    );
  });

  it('half the average is plausible (a large, high-load-factor customer); a cent below is not', () => {
    // half of 0.104679 $/kWh is 0.0523395: 30,000 kWh at $1,570.19 (5.2340 cents) passes, at $1,570.18 (5.23393) does not
    expect(implausiblePrice(STILLWATER, tod, null, 157_019, 30_000)).toBeNull();
    expect(implausiblePrice(STILLWATER, tod, null, 157_018, 30_000)).not.toBeNull();
  });

  it('nothing to compare: no average for the utility or sector, no state, no usage', () => {
    expect(implausiblePrice(STILLWATER, { ...tod, utilityId: '99999' }, null, 100, 30_000)).toBeNull();
    expect(implausiblePrice(STILLWATER, { ...tod, sector: 'lighting' }, null, 100, 30_000)).toBeNull();
    expect(implausiblePrice(STILLWATER, { ...tod, state: null }, null, 100, 30_000)).toBeNull();
    expect(belowHalfAverage(0, 0, { ratePerKwh: 0.1, source: 's', year: 2018 })).toBe(false);
    expect(belowHalfAverage(100, 1_000, null)).toBe(false);
  });
});
