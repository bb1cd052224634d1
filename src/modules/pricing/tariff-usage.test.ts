import type { UtilityType } from '../tariffs/tariff.model';
import { allYear, ratesTariff } from '../../../test/fixtures/rates-tariff';
import { tariffUsage } from './tariff-usage';

const tariffOf = (type: UtilityType, unit: string, rate: Record<string, number>) =>
  ratesTariff(type, unit, { energy_rates: [{ ...allYear, ...rate }] }, type);

const intervals = { start: '2018-07-01T00:00:00-06:00', intervalMinutes: 15, kwh: [0.0004, 0.0004, 1.25] };

describe('tariffUsage with interval data (issue 50)', () => {
  it("an electric bill without usage_kwh takes the intervals' kWh, each to the Wh", () => {
    // 0.0004 kWh reads as 0 Wh twice (metered to the Wh), 1.25 kWh as 1250 Wh: 1.25 kWh.
    expect(tariffUsage({ usage: {}, intervals }, tariffOf('electric', 'kWh', { rate_per_kwh: 0.1 }))).toEqual({
      ok: true,
      usage: { quantity: 1.25, notes: [] },
    });
  });

  it('intervals are electric only', () => {
    const water = tariffOf('water', 'kgal', { rate_per_unit: 2 });
    expect(tariffUsage({ usage: { quantity: 3, unit: 'kgal' }, intervals }, water)).toEqual({
      ok: false,
      error: { code: 'usage_invalid', field: 'intervals', message: 'intervals does not apply to a water tariff' },
    });
  });
});
