import { ownerAggregates, ownerSumsOf, type StoredSums } from './snapshot.calc';

/** Sums as the recompute stores them: every figure distinct, so a key read in the wrong place shows. */
const stored: StoredSums = {
  property_count: 3,
  portfolio_count: 2,
  total_sqft: '30000',
  est_cents: '1200001',
  est_sqft_cents: '1000000',
  est_sqft_quantity: '20000',
  est_kwh_cents: '900000',
  est_kwh_quantity: '60000000',
  annual_cents: '1500000',
  annual_milli: '75000500',
  annual_sqft_cents: '1100000',
  annual_sqft_quantity: '25000',
  annual_kwh_cents: '1400000',
  annual_kwh_quantity: '70000000',
  savings_count: 1,
  savings_cents: '12345',
  bills_this_month: 4,
  by_state: [['MI', '500000', 1], ['CA', '1000000', 2]],
  by_type: [['office', '1500000', 3]],
};

describe('ownerSumsOf and ownerAggregates', () => {
  it('reads every stored key into its place', () => {
    expect(ownerSumsOf(stored)).toEqual({
      propertyCount: 3,
      portfolioCount: 2,
      totalSqft: 30000n,
      estimate: { annualCents: 1200001n, perSqft: { cents: 1000000n, quantity: 20000n }, perKwh: { cents: 900000n, quantity: 60000000n } },
      annual: {
        annualCents: 1500000n, annualMilli: 75000500n,
        perSqft: { cents: 1100000n, quantity: 25000n }, perKwh: { cents: 1400000n, quantity: 70000000n },
      },
      byState: [{ key: 'MI', cents: 500000n, count: 1 }, { key: 'CA', cents: 1000000n, count: 2 }],
      byType: [{ key: 'office', cents: 1500000n, count: 3 }],
      savingsCount: 1,
      savingsCents: 12345n,
      billsThisMonth: 4,
    });
  });

  it('computes the figures, rounding once (hand-computed)', () => {
    const { stats, global } = ownerAggregates(ownerSumsOf(stored));
    expect(stats).toEqual({
      total_properties: 3,
      total_portfolios: 2,
      total_sqft: 30000,
      total_monthly_cost: 1000, // 1,200,001 / 12 = 100,000.08 cents -> 100,000
      total_annual_cost: 12000.01,
      avg_cost_per_sqft: 0.5, // $10,000 / 20,000 sqft
      avg_cost_per_kwh: 0.15, // $9,000 / 60,000 kWh
      properties_with_savings: 1,
      total_potential_savings: 123.45,
      bills_this_month: 4,
    });
    expect(global).toEqual({
      total_properties: 3,
      total_portfolios: 2,
      total_annual_cost: 15000,
      total_annual_kwh: 75000.5,
      avg_cost_per_kwh: 0.2, // $14,000 / 70,000 kWh
      avg_cost_per_sqft: 0.44, // $11,000 / 25,000 sqft
      cost_by_state: [{ state: 'CA', annual_cost: 10000, property_count: 2 }, { state: 'MI', annual_cost: 5000, property_count: 1 }],
      cost_by_property_type: [{ type: 'office', annual_cost: 15000, property_count: 3 }],
      total_potential_savings: 123.45,
      properties_with_savings: 1,
    });
  });
});
