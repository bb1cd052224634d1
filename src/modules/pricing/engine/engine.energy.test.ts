/**
 * Hand-computed bills on real bundled tariffs: flat, tiered, seasonal, daily
 * tiers, fixed charges (monthly, daily, yearly minimum), minimum charge,
 * real-time naming and taxes. Each expected amount is worked out below from the
 * URDB record's published numbers (price = rate + adj), rounded half away from
 * zero to the cent.
 */
import type { Tariff } from '../../tariffs/tariff.model';
import { engineTariffs, bill, amounts } from './engine.fixtures';

const t = engineTariffs();

describe('flat and tiered energy', () => {
  it('flat: the URDB adjustment is part of the price', () => {
    const b = bill(t.municipalFlat, { usageKwh: 1000, month: 3 });
    // 0.094782 + 0.016079 = 0.110861 $/kWh; 1000 x 0.110861 = 110.861 -> 110.86
    expect(amounts(b)).toEqual([['energy', 'Energy all_year: 1000 kWh x $0.110861/kWh', 110.86]]);
    expect(b.totalCost).toBe(110.86);
    expect(b.season).toBe('all_year');
    // 110.86 / 1000 = 0.11086 -> 0.1109
    expect(b.summary.effectiveRatePerKwh).toBe(0.1109);
    expect(b.summary.taxesEstimate).toBe(0);
  });

  it('minimum monthly charge tops the bill up as a fixed line item', () => {
    const b = bill(t.municipalFlat, { usageKwh: 50, month: 3 });
    // 50 x 0.110861 = 5.54305 -> 5.54, below the $6.99 minimum: top-up 6.99 - 5.54 = 1.45
    expect(b.lineItems[0].amount).toBe(5.54);
    expect(b.lineItems[1]).toEqual({ category: 'fixed', name: expect.stringContaining('Minimum charge top-up'), amount: 1.45 });
    expect(b.totalCost).toBe(6.99);
    expect(b.summary).toMatchObject({ energyCharge: 5.54, fixedCharge: 1.45 });
    // 6.99 / 50 = 0.1398
    expect(b.summary.effectiveRatePerKwh).toBe(0.1398);
  });

  it('tiers are cumulative monthly kWh bands', () => {
    const b = bill(t.winnsboroTiered, { usageKwh: 1000, month: 5 });
    // 800 x 0.0879 = 70.32; (1000 - 800) x 0.0854 = 17.08; total 87.40 (above the 7.23 minimum)
    expect(amounts(b)).toEqual([
      ['energy', 'Energy all_year tier 1: 800 kWh x $0.0879/kWh', 70.32],
      ['energy', 'Energy all_year tier 2: 200 kWh x $0.0854/kWh', 17.08],
    ]);
    expect(b.totalCost).toBe(87.4);
    // 60 kWh: 60 x 0.0879 = 5.274 -> 5.27; minimum 7.23 - 5.27 = 1.96
    const low = bill(t.winnsboroTiered, { usageKwh: 60, month: 5 });
    expect(low.lineItems.map((i) => i.amount)).toEqual([5.27, 1.96]);
    expect(low.totalCost).toBe(7.23);
  });

  it('seasons come from the months: summer and winter tiers', () => {
    const july = bill(t.scribner, { usageKwh: 500, month: 7 });
    // summer: 200 x 0.1373 = 27.46; 300 x 0.0544 = 16.32; fixed 60 -> 103.78
    expect(july.season).toBe('summer');
    expect(july.lineItems.map((i) => i.amount)).toEqual([27.46, 16.32, 60]);
    expect(july.totalCost).toBe(103.78);
    expect(july.summary).toMatchObject({ energyCharge: 43.78, fixedCharge: 60, demandCharge: 0, riders: 0 });
    const january = bill(t.scribner, { usageKwh: 500, month: 1 });
    // winter: 200 x 0.0939 = 18.78; 300 x 0.0391 = 11.73; fixed 60 -> 90.51
    expect(january.season).toBe('winter');
    expect(january.lineItems.map((i) => i.amount)).toEqual([18.78, 11.73, 60]);
    expect(january.totalCost).toBe(90.51);
    expect(january.lineItems[2].name).toBe('Fixed customer charge: $60/month');
  });

  it('"kWh daily" tier bounds are multiplied by the days of the month (2017 calendar)', () => {
    const july = bill(t.sceDailyTiers, { usageKwh: 1000, month: 7 });
    // summer bounds x 31 days: 13.5 -> 418.5, 17.55 -> 544.05, 27 -> 837 kWh
    // 418.5 x 0.13233 = 55.380105 -> 55.38
    // (544.05 - 418.5) = 125.55 x 0.16454 = 20.657997 -> 20.66
    // (837 - 544.05) = 292.95 x 0.27374 = 80.192133 -> 80.19
    // (1000 - 837) = 163 x 0.30374 = 49.50962 -> 49.51
    // fixed 0.9436 -> 0.94; total 55.38 + 20.66 + 80.19 + 49.51 + 0.94 = 206.68
    // Issue 45 item 6: each band states its bounds in kWh a day and what they are in July.
    expect(amounts(july)).toEqual([
      ['energy', 'Energy summer tier 1 (first 13.5 kWh a day x 31 days = 418.5 kWh): 418.5 kWh x $0.13233/kWh', 55.38],
      [
        'energy',
        'Energy summer tier 2 (kWh from 13.5 to 17.55 kWh a day x 31 days = 418.5 to 544.05 kWh): 125.55 kWh x $0.16454/kWh',
        20.66,
      ],
      ['energy', 'Energy summer tier 3 (kWh from 17.55 to 27 kWh a day x 31 days = 544.05 to 837 kWh): 292.95 kWh x $0.27374/kWh', 80.19],
      ['energy', 'Energy summer tier 4 (kWh above 27 kWh a day x 31 days = 837 kWh): 163 kWh x $0.30374/kWh', 49.51],
      ['fixed', 'Fixed customer charge: $0.9436/month', 0.94],
    ]);
    expect(july.totalCost).toBe(206.68);
    const february = bill(t.sceDailyTiers, { usageKwh: 500, month: 2 });
    // winter bounds x 28 days: 15.3 -> 428.4, 19.89 -> 556.92
    // 428.4 x 0.13233 = 56.690172 -> 56.69; (500 - 428.4) = 71.6 x 0.16454 = 11.781064 -> 11.78; + 0.94 = 69.41
    expect(february.lineItems.map((i) => i.amount)).toEqual([56.69, 11.78, 0.94]);
    expect(february.totalCost).toBe(69.41);
    expect(february.season).toBe('winter');
  });
});

describe('fixed and minimum charges', () => {
  it('daily fixed charges are multiplied by the days of the month', () => {
    const feb = bill(t.montanaDakota22, { usageKwh: 500, month: 2 });
    // 0.02135 + 0.03573 = 0.05708; 500 x 0.05708 = 28.54; fixed 28 days x 0.23 = 6.44; total 34.98
    expect(amounts(feb)).toEqual([
      ['energy', 'Energy all_year: 500 kWh x $0.05708/kWh', 28.54],
      ['fixed', 'Fixed customer charge: 28 days x $0.23/day', 6.44],
    ]);
    expect(feb.totalCost).toBe(34.98);
    // July: 31 x 0.23 = 7.13
    expect(bill(t.montanaDakota22, { usageKwh: 500, month: 7 }).summary.fixedCharge).toBe(7.13);
  });

  it('a yearly minimum charge is one twelfth per month', () => {
    const b = bill(t.sullivanYearlyMin, { usageKwh: 10, month: 4 });
    // 10 x 0.07744 = 0.7744 -> 0.77; fixed 2.00; bill 2.77 < 48 / 12 = 4.00 -> top-up 1.23
    expect(b.lineItems.map((i) => [i.category, i.amount])).toEqual([
      ['energy', 0.77],
      ['fixed', 2],
      ['fixed', 1.23],
    ]);
    expect(b.totalCost).toBe(4);
    expect(b.summary.fixedCharge).toBe(3.23);
    // 100 kWh: 7.744 -> 7.74 + 2 = 9.74 >= 4: no top-up
    expect(bill(t.sullivanYearlyMin, { usageKwh: 100, month: 4 }).lineItems).toHaveLength(2);
  });
});

describe('totals', () => {
  it('taxes_estimate is total_cost x tax_rate_percent / 100, reported beside the total', () => {
    const b = bill(t.municipalFlat, { usageKwh: 1000, month: 3, taxRatePercent: 8.875 });
    // 110.86 x 8.875 / 100 = 9.838825 -> 9.84
    expect(b.summary.taxesEstimate).toBe(9.84);
    expect(b.totalCost).toBe(110.86);
  });

  it('usage 0 gives an effective rate of 0, not a division by zero', () => {
    const b = bill(t.scribner, { usageKwh: 0, month: 7 });
    expect(b.totalCost).toBe(60);
    expect(b.summary.effectiveRatePerKwh).toBe(0);
  });

  it('real-time tariffs are priced at the published rates and say so', () => {
    const rt: Tariff = { ...t.municipalFlat, rateType: 'real_time', structure: { ...t.municipalFlat.structure, realTime: true } };
    const b = bill(rt, { usageKwh: 1000, month: 3 });
    expect(b.lineItems[0].name).toBe('Real-time energy at the published rate (no hourly price series) all_year: 1000 kWh x $0.110861/kWh');
    expect(b.totalCost).toBe(110.86);
    expect(b.assumptions.join(' ')).toContain('no hourly price series');
  });

  it('rejects a month outside 1-12', () => {
    expect(() => bill(t.municipalFlat, { usageKwh: 1, month: 13 })).toThrow('month must be between 1 and 12');
    expect(() => bill(t.municipalFlat, { usageKwh: 1, month: 0 })).toThrow('month must be between 1 and 12');
  });
});
