import { buildAverageRates } from '../analytics/average-rates';
import { implausibleCost } from './plausibility';

const RATES = buildAverageRates(
  [
    {
      utility_number: '18125',
      state: 'OK',
      part: 'A',
      total_customers: '1',
      residential_revenues_thousand_dollars: '.',
      residential_sales_mwh: '.',
      commercial_revenues_thousand_dollars: '18677',
      commercial_sales_mwh: '178421',
      industrial_revenues_thousand_dollars: '.',
      industrial_sales_mwh: '.',
    },
  ],
  [],
  [],
);

describe("rate analysis holds a whole bill against the utility's average rate (rate-analysis/plausibility.ts)", () => {
  const tariff = {
    utilityId: '18125',
    utilityName: 'Stillwater Utilities Authority',
    state: 'OK',
    sector: 'commercial' as const,
    serviceType: 'bundled' as const,
  };
  const whole = { zipCode: '74074', supplyPriced: false };

  it('a bundled record priced below half the average is a record missing part of the bill', () => {
    expect(implausibleCost(RATES, tariff, whole, 120_734, 30_000)).toMatch(
      /^priced at \$0\.0402\/kWh for this usage, below half Stillwater/,
    );
    expect(implausibleCost(RATES, tariff, whole, 300_000, 30_000)).toBeNull();
  });

  it('a delivery-only tariff is held against it only with its supply priced: without, leaving supply out is what it is', () => {
    const delivery = { ...tariff, serviceType: 'delivery_only' as const };
    expect(implausibleCost(RATES, delivery, whole, 120_734, 30_000)).toBeNull();
    expect(implausibleCost(RATES, delivery, { ...whole, supplyPriced: true }, 120_734, 30_000)).not.toBeNull();
    expect(implausibleCost(RATES, { ...tariff, serviceType: 'supply_only' as const }, whole, 1, 30_000)).toBeNull();
  });
});
