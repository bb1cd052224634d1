/**
 * Energy tiers inside time-of-use periods, worked by hand on real bundled
 * tariffs: the tier bounds are cumulative kWh of the month, so the month's
 * total kWh fills them, and each tier's kWh are shared among the month's
 * periods in proportion to their kWh (NREL SAM utilityrate5). Each expected
 * amount is quantity x (rate + adj) rounded half away from zero to the cent.
 */
import type { Tariff } from '../../tariffs/tariff.model';
import { engineTariffs, bill, amounts } from './engine.fixtures';

const t = engineTariffs();

describe('energy tiers shared by the periods of the month', () => {
  it('A & N TOU-B, 20,000 kWh in July (5,000 on-peak): worked by hand', () => {
    const b = bill(t.anTouB, { usageKwh: 20_000, month: 7, usageProfile: { onPeakKwh: 5000, offPeakKwh: 15_000 } });
    // July: period 1 (0.061137) is off-peak, period 2 (0.196137, weekdays 15:00-20:00) on-peak.
    // Month total 20,000 kWh: tier 1 = the first 3,500 kWh, tier 2 = the other 16,500 kWh.
    // Shares: off-peak 15,000 / 20,000 = 75 %, on-peak 5,000 / 20,000 = 25 %.
    //   off-peak tier 1: 3,500 x 0.75 =  2,625 kWh x 0.061137 = 160.484625 -> 160.48
    //   off-peak tier 2: 15,000 - 2,625 = 12,375 kWh x 0.046137 = 570.945375 -> 570.95
    //   on-peak tier 1:  3,500 x 0.25 =    875 kWh x 0.196137 = 171.619875 -> 171.62
    //   on-peak tier 2:  5,000 - 875 =  4,125 kWh x 0.181137 = 747.190125 -> 747.19
    //   fixed 17.50
    // total 160.48 + 570.95 + 171.62 + 747.19 + 17.50 = 1,667.74
    // (The old rule, tiers within each period's own kWh, billed 3,500 kWh of each period at its tier-1 rate:
    //  213.98 + 530.58 + 686.48 + 271.71 + 17.50 = 1,720.25.)
    expect(amounts(b)).toEqual([
      ['energy', "Energy off_peak tier 1 (share of the month's first 3500 kWh): 2625 kWh x $0.061137/kWh", 160.48],
      ['energy', "Energy off_peak tier 2 (share of the month's kWh above 3500): 12375 kWh x $0.046137/kWh", 570.95],
      ['energy', "Energy on_peak tier 1 (share of the month's first 3500 kWh): 875 kWh x $0.196137/kWh", 171.62],
      ['energy', "Energy on_peak tier 2 (share of the month's kWh above 3500): 4125 kWh x $0.181137/kWh", 747.19],
      ['fixed', 'Fixed customer charge: $17.5/month', 17.5],
    ]);
    expect(b.totalCost).toBe(1667.74);
    expect(b.summary.energyCharge).toBe(1650.24);
    // 1,667.74 / 20,000 = 0.083387 -> 0.0834
    expect(b.summary.effectiveRatePerKwh).toBe(0.0834);
  });

  it('the same on the Single Phase schedule, and below the first bound all kWh are in tier 1', () => {
    const b = bill(t.anTouBSingle, { usageKwh: 20_000, month: 7, usageProfile: { onPeakKwh: 5000, offPeakKwh: 15_000 } });
    // the energy lines of the case above (1,650.24) + $10.25/month = 1,660.49
    expect(b.totalCost).toBe(1660.49);
    const low = bill(t.anTouBSingle, { usageKwh: 3000, month: 7, usageProfile: { onPeakKwh: 1000, offPeakKwh: 2000 } });
    // 3,000 kWh < 3,500: 2,000 x 0.061137 = 122.274 -> 122.27; 1,000 x 0.196137 = 196.137 -> 196.14; + 10.25 = 328.66
    expect(low.lineItems.map((i) => i.amount)).toEqual([122.27, 196.14, 10.25]);
    expect(low.lineItems[0].name).toBe("Energy off_peak tier 1 (share of the month's first 3500 kWh): 2000 kWh x $0.061137/kWh");
    expect(low.totalCost).toBe(328.66);
  });

  it('three tiers over two periods; usage above the applicability maximum is priced and said', () => {
    const b = bill(t.unsSgs10Tou, { usageKwh: 20_000, month: 7, usageProfile: { onPeakKwh: 6000, offPeakKwh: 14_000 } });
    // July: period 1 (0.159781 - 0.003234 = 0.156547) on-peak, period 2 (0.069781 - 0.003234 = 0.066547) off-peak.
    // Bands of the month's 20,000 kWh: 0-400 (400), 400-7,500 (7,100), above 7,500 (12,500); shares 30 % / 70 %.
    //   on tier 1:    120 x 0.156547 =  18.78564 -> 18.79
    //   on tier 2:  2,130 x 0.169547 = 361.13511 -> 361.14   (0.172781 - 0.003234)
    //   on tier 3:  3,750 x 0.202413 = 759.04875 -> 759.05   (0.205647 - 0.003234)
    //   off tier 1:   280 x 0.066547 =  18.63316 -> 18.63
    //   off tier 2: 4,970 x 0.079547 = 395.34859 -> 395.35   (0.082781 - 0.003234)
    //   off tier 3: 8,750 x 0.112413 = 983.61375 -> 983.61   (0.115647 - 0.003234)
    //   fixed 16.50; total 2,553.07
    expect(b.lineItems.map((i) => i.amount)).toEqual([18.79, 361.14, 759.05, 18.63, 395.35, 983.61, 16.5]);
    expect(b.lineItems[4].name).toBe("Energy summer_off_peak tier 2 (share of the month's kWh 400-7500): 4970 kWh x $0.079547/kWh");
    expect(b.totalCost).toBe(2553.07);
    expect(b.assumptions).toEqual([
      "usage 20000 kWh is above this tariff's applicability maximum of 500 kWh a month: the utility may not offer it to this customer",
    ]);
    expect(bill(t.unsSgs10Tou, { usageKwh: 500, month: 7, usageProfile: { onPeakKwh: 100, offPeakKwh: 400 } }).assumptions).toEqual([]);
  });

  it("periods that publish different bounds: each applies its own bounds to the month's total", () => {
    // A & N TOU-B with the on-peak bound changed to 1,000 kWh (off-peak keeps 3,500)
    const src = t.anTouB.structure.energy!;
    const changed: Tariff = {
      ...t.anTouB,
      structure: {
        ...t.anTouB.structure,
        energy: { ...src, periods: [src.periods[0], [{ ...src.periods[1][0], max: 1000 }, src.periods[1][1]]] },
      },
    };
    const b = bill(changed, { usageKwh: 20_000, month: 7, usageProfile: { onPeakKwh: 5000, offPeakKwh: 15_000 } });
    // off-peak: 15,000 x 3,500 / 20,000 = 2,625 kWh in tier 1, 12,375 in tier 2 (as above: 160.48, 570.95)
    // on-peak:   5,000 x 1,000 / 20,000 =   250 kWh x 0.196137 = 49.03425 -> 49.03;
    //            4,750 x 0.181137 = 860.40075 -> 860.40; fixed 17.50;
    // total 160.48 + 570.95 + 49.03 + 860.40 + 17.50 = 1,658.36
    expect(amounts(b).slice(2, 4)).toEqual([
      ['energy', "Energy on_peak tier 1 (share of the month's first 1000 kWh): 250 kWh x $0.196137/kWh", 49.03],
      ['energy', "Energy on_peak tier 2 (share of the month's kWh above 1000): 4750 kWh x $0.181137/kWh", 860.4],
    ]);
    expect(b.totalCost).toBe(1658.36);
  });

  it('without a profile the tiers are shared in the load-shape split, and the pieces add up exactly', () => {
    const b = bill(t.anTouB, { usageKwh: 20_000.001, month: 1 });
    const kwh = (name: string) => Number(/: ([\d.]+) kWh x/.exec(name)?.[1]);
    const energy = b.lineItems.filter((i) => i.category === 'energy');
    expect(energy).toHaveLength(4);
    // tier 1 pieces add up to 3,500 kWh exactly, and all pieces to the 20,000.001 kWh (Wh integers)
    const tier1 = energy.filter((i) => i.name.includes('tier 1')).reduce((a, i) => a + Math.round(kwh(i.name) * 1000), 0);
    expect(tier1).toBe(3_500_000);
    expect(energy.reduce((a, i) => a + Math.round(kwh(i.name) * 1000), 0)).toBe(20_000_001);
  });
});
