import { ownerAggregates, ownerSumsOf, type StoredSums } from './snapshot.calc';

/** Sums as the recompute stores them: every figure distinct, so a key read in the wrong place shows. */
const stored: StoredSums = {
  property_count: 3,
  portfolio_count: 2,
  total_sqft: '30000',
  annual_cents: '1500001',
  annual_milli: '75000500',
  annual_sqft_cents: '1100000',
  annual_sqft_quantity: '25000',
  electric_kwh_cents: '1050000',
  electric_kwh_quantity: '70000000',
  by_utility: [
    ['water', '300001', '9000000', 2, 2],
    ['electric', '1200000', '75000500', 1, 3],
  ],
  savings_count: 1,
  savings_cents: '12345',
  bills_this_month: 4,
  by_state: [
    ['MI', '500001', 1],
    ['CA', '1000000', 2],
  ],
  by_type: [['office', '1500001', 3]],
  audit_open: 5,
  audit_cents: '136401',
  emissions_year: 2025,
  emissions_kg: '762564',
  emissions_sqft_kg: '508376',
  emissions_sqft_quantity: '40000',
  penalty_count: 1,
  penalty_cents: '1521758',
};

// Issue 29 replaced "dashboard stats total the estimates" with the one annual cost (stats and global
// analytics alike) and "per kWh over every utility type" with electric dollars over electric kWh.
describe('ownerSumsOf and ownerAggregates', () => {
  it('reads every stored key into its place', () => {
    expect(ownerSumsOf(stored)).toEqual({
      propertyCount: 3,
      portfolioCount: 2,
      totalSqft: 30000n,
      annualCents: 1500001n,
      annualKwhMilli: 75000500n,
      perSqft: { cents: 1100000n, quantity: 25000n },
      perKwh: { cents: 1050000n, quantity: 70000000n },
      byUtility: [
        { utilityType: 'electric', cents: 1200000n, usageMilli: 75000500n, actual: 1, count: 3 },
        { utilityType: 'water', cents: 300001n, usageMilli: 9000000n, actual: 2, count: 2 },
      ],
      byState: [
        { key: 'MI', cents: 500001n, count: 1 },
        { key: 'CA', cents: 1000000n, count: 2 },
      ],
      byType: [{ key: 'office', cents: 1500001n, count: 3 }],
      savingsCount: 1,
      savingsCents: 12345n,
      billsThisMonth: 4,
      auditOpen: 5,
      auditCents: 136401n,
      emissionsYear: 2025,
      emissionsKg: 762564n,
      emissionsPerSqft: { cents: 508376n, quantity: 40000n },
      penaltyCount: 1,
      penaltyCents: 1521758n,
    });
  });

  it('computes the figures, rounding once (hand-computed); stats and global analytics show one annual cost', () => {
    const { stats, global } = ownerAggregates(ownerSumsOf(stored));
    const byUtility = [
      { utility_type: 'electric', cost: 12000, usage: 75000.5, unit: 'kWh', basis: 'mixed' },
      { utility_type: 'water', cost: 3000.01, usage: 9000, unit: 'gallons', basis: 'actual' },
    ];
    expect(stats).toEqual({
      total_properties: 3,
      total_portfolios: 2,
      total_sqft: 30000,
      total_monthly_cost: 1250, // 1,500,001 / 12 = 125,000.08 cents -> 125,000
      total_annual_cost: 15000.01,
      avg_cost_per_sqft: 0.44, // $11,000 / 25,000 sqft
      avg_cost_per_kwh: 0.15, // electric $10,500 / 70,000 kWh
      properties_with_savings: 1,
      total_potential_savings: 123.45,
      bills_this_month: 4,
      cost_by_utility: byUtility,
      // Issue 52: 762,564 kg in all; 508,376 kg over the 40,000 sqft of the properties with sqft = 12.7094 -> 12.709.
      emissions_year: 2025,
      emissions_tco2e: 762.564,
      emissions_kg_co2e_per_sqft: 12.709,
      properties_over_emissions_limit: 1,
      projected_emissions_penalty: 15217.58,
      audit_findings_open: 5,
      audit_amount_at_issue: 1364.01,
    });
    expect(global).toEqual({
      total_properties: 3,
      total_portfolios: 2,
      total_annual_cost: 15000.01,
      total_annual_kwh: 75000.5,
      avg_cost_per_kwh: 0.15,
      avg_cost_per_sqft: 0.44,
      cost_by_state: [
        { state: 'CA', annual_cost: 10000, property_count: 2 },
        { state: 'MI', annual_cost: 5000.01, property_count: 1 },
      ],
      cost_by_property_type: [{ type: 'office', annual_cost: 15000.01, property_count: 3 }],
      total_potential_savings: 123.45,
      properties_with_savings: 1,
      cost_by_utility: byUtility,
    });
  });
});
