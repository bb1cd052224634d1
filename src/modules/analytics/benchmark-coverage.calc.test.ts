import { METER_UTILITY_TYPES } from '../meters/units';
import { metricUtilityTypes, partialMetersOf, type PartialMeter } from './benchmark-coverage.calc';

describe('what a benchmark figure covers (README "Benchmarks", issue 47 item 8)', () => {
  const house: PartialMeter = { meter_id: 'm1', name: 'House panel', utility_type: 'electric', covers: 'common_area' };
  const suite: PartialMeter = { meter_id: 'm2', name: 'Suite 200 water', utility_type: 'water', covers: 'tenant' };

  it('each metric reads the utility types its figure sums', () => {
    expect(metricUtilityTypes('site_eui')).toEqual(['electric', 'gas', 'steam', 'fuel_oil_2', 'fuel_oil_4', 'fuel_oil_5_6', 'other']);
    expect(metricUtilityTypes('kwh_per_sqft')).toEqual(['electric']);
    // Cost sums every meter type there is.
    expect(metricUtilityTypes('cost_per_sqft')).toEqual([...METER_UTILITY_TYPES]);
    // The types with a location-based factor (emissions README "Factors"): fuel oil No. 5 and No. 6 has none.
    expect(metricUtilityTypes('kg_co2e_per_sqft')).toEqual(['electric', 'gas', 'steam', 'fuel_oil_2', 'fuel_oil_4']);
  });

  it('a common-area electric meter makes site EUI and the cost metrics partial; a tenant water meter only the cost ones', () => {
    expect(partialMetersOf('site_eui', [house, suite])).toEqual([house]);
    expect(partialMetersOf('cost_per_kwh', [suite])).toEqual([]);
    expect(partialMetersOf('cost_per_unit', [house, suite])).toEqual([house, suite]);
    expect(partialMetersOf('site_eui', [{ ...house, covers: 'whole_building' }])).toEqual([]);
  });
});
