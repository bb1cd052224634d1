/** OpenAPI examples of POST /calculate/compare: two general-service tariffs (URDB) for a July of 500 kWh. */

/** Winnsboro 500 x 0.0879 = 43.95; Municipal 500 x 0.110861 = 55.43 (test/calculate.test.ts). */
export const compareRequest = {
  tariff_ids: ['539f6a45ec4f024411ec8d1d', '539f6adcec4f024411ec9565'],
  usage_kwh: 500,
  month: 7,
};

export const compareAnswer = {
  usage_kwh: 500,
  utility_type: 'electric',
  usage: 500,
  unit: 'kWh',
  demand_kw: null,
  month: 7,
  results: [
    {
      tariff_id: '539f6a45ec4f024411ec8d1d',
      tariff_name: 'General Service',
      total_cost: 43.95,
      effective_rate_per_kwh: 0.0879,
      effective_rate_per_unit: 0.0879,
      rank: 1,
      assumptions: ["the tariff's rates took effect on 2011-07-01, more than 5 years ago: the utility's current rates may differ"],
    },
    {
      tariff_id: '539f6adcec4f024411ec9565',
      tariff_name: 'Municipal Power',
      total_cost: 55.43,
      effective_rate_per_kwh: 0.1109,
      effective_rate_per_unit: 0.1109,
      rank: 2,
      assumptions: [
        'the tariff expired on 2014-12-31: the utility no longer bills these rates, so its current tariff may cost more or less',
        "the tariff's rates took effect on 2014-06-01, more than 5 years ago: the utility's current rates may differ",
      ],
    },
  ],
  cheapest: '539f6a45ec4f024411ec8d1d',
  potential_savings: {
    vs_most_expensive: 11.48,
    vs_most_expensive_percent: 20.7,
  },
};
