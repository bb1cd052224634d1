/**
 * Tariff detail states the unit of a tier bound that is not plain kWh of the month, and the band
 * in words (issue 45 item 6): before, an hours-use bound of 180 kWh per kW read `tier_max_kwh: 180`,
 * as if the tier ended at 180 kWh.
 */
import { loadBundledTariffs } from '../../../test/helpers/tariffs';
import type { Tariff } from './tariff.model';
import { tierBounds, toDetail } from './present';

const SIKESTON = '5616cc4d5457a3945e35c496'; // 180 / 360 kWh per kW at $0.05 / $0.045, then $0.04
const CALHOUN = '539fba9dec4f024bc1dc3011'; // 6,000 kWh, then to 200 and to 400 kWh per kW, then kWh
const SCE_DAILY = '539f6a8fec4f024411ec914d'; // SCE Domestic D region 5: "kWh daily" tiers
const SCRIBNER = '539f6a0aec4f024411ec8aa7'; // plain kWh tiers: 200 kWh, then above

describe('tier bounds in tariff detail', () => {
  let sikeston: Tariff, calhoun: Tariff, sce: Tariff, scribner: Tariff;
  beforeAll(async () => {
    [sikeston, calhoun, sce, scribner] = await loadBundledTariffs([SIKESTON, CALHOUN, SCE_DAILY, SCRIBNER]);
  });

  it('hours-use tiers: tier_max_unit kWh/kW and the band per kW of billing demand', () => {
    const all = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    const day = { period: 'all_year', months: all, hours: '00:00-24:00', days: 'all' };
    expect(toDetail(sikeston).energy_rates).toEqual([
      { ...day, rate_per_kwh: 0.05, tier: 1, tier_max_kwh: 180, tier_max_unit: 'kWh/kW', bound: 'up to 180 kWh per kW of billing demand' },
      {
        ...day,
        rate_per_kwh: 0.045,
        tier: 2,
        tier_max_kwh: 360,
        tier_max_unit: 'kWh/kW',
        bound: 'above 180 and up to 360 kWh per kW of billing demand',
      },
      { ...day, rate_per_kwh: 0.04, tier: 3, tier_max_kwh: null, tier_max_unit: null, bound: 'above 360 kWh per kW of billing demand' },
    ]);
  });

  it('a kWh bound before hours-use bounds names both units', () => {
    expect(toDetail(calhoun).energy_rates.map((r) => [r.tier, r.tier_max_unit, r.bound])).toEqual([
      [1, 'kWh', 'up to 6000 kWh a month'],
      [2, 'kWh/kW', 'above 6000 kWh a month and up to 200 kWh per kW of billing demand'],
      [3, 'kWh/kW', 'above 200 and up to 400 kWh per kW of billing demand'],
      [4, null, 'above 400 kWh per kW of billing demand'],
    ]);
  });

  it('daily tiers: kWh a day, times the days of the month', () => {
    const summer = toDetail(sce).energy_rates.filter((r) => r.period === 'summer');
    expect(summer.map((r) => [r.tier_max_unit, r.bound])).toEqual([
      ['kWh daily', 'up to 13.5 kWh a day (times the days of the month)'],
      ['kWh daily', 'above 13.5 and up to 17.55 kWh a day (times the days of the month)'],
      ['kWh daily', 'above 17.55 and up to 27 kWh a day (times the days of the month)'],
      [null, 'above 27 kWh a day (times the days of the month)'],
    ]);
  });

  it('plain kWh tiers add nothing: tier_max_kwh says it all', () => {
    for (const r of toDetail(scribner).energy_rates) {
      expect(r).not.toHaveProperty('tier_max_unit');
      expect(r).not.toHaveProperty('bound');
    }
    expect(tierBounds(scribner.structure.energy!.periods[0])).toBeNull();
  });
});
