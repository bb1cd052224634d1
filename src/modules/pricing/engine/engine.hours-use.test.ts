/**
 * Tiers whose bounds are not plain kWh of the month (issue 45 item 6, "Show what a tariff means"):
 * "hours use" tiers in kWh per kW of demand (URDB unit "kWh/kW"), and a kWh bound before them.
 * Each line item states its band in the published unit and what it is on this bill ("first 180 kWh
 * per kW x 800 kW = 144000 kWh"), worked by hand on real bundled tariffs. Before, the same lines
 * read "Energy all_year tier 1: 144000 kWh x $0.05/kWh", as if the tier were 144,000 kWh of any bill.
 */
import type { Tariff } from '../../tariffs/tariff.model';
import { engineTariffs, bill, amounts } from './engine.fixtures';

const t = engineTariffs();

describe('tiers sized by the demand ("hours use", kWh per kW)', () => {
  it('Sikeston at 800 kW: each band states 180 kWh per kW x 800 kW', () => {
    const b = bill(t.sikeston, { usageKwh: 200_000, month: 7, demandKw: 800 });
    // bounds: 180 x 800 = 144,000 kWh; 360 x 800 = 288,000 kWh
    // tier 1: 144,000 x 0.05 = 7,200.00; tier 2: 200,000 - 144,000 = 56,000 x 0.045 = 2,520.00
    // demand 800 x 6.47 = 5,176.00; total 14,896.00 (above the $647 minimum)
    expect(amounts(b)).toEqual([
      ['energy', 'Energy all_year tier 1 (first 180 kWh per kW x 800 kW = 144000 kWh): 144000 kWh x $0.05/kWh', 7200],
      ['energy', 'Energy all_year tier 2 (kWh from 180 to 360 kWh per kW x 800 kW = 144000 to 288000 kWh): 56000 kWh x $0.045/kWh', 2520],
      ['demand', 'Facility demand: 800 kW x $6.47/kW', 5176],
    ]);
    expect(b.totalCost).toBe(14896);
  });

  it('Sikeston above the last bound: "kWh above 360 kWh per kW x 100 kW"', () => {
    const b = bill(t.sikeston, { usageKwh: 40_000, month: 1, demandKw: 100 });
    // bounds 18,000 and 36,000 kWh: 18,000 x 0.05 = 900.00; 18,000 x 0.045 = 810.00; 4,000 x 0.04 = 160.00
    // demand 100 x 6.47 = 647.00; total 2,517.00
    expect(amounts(b).slice(0, 3)).toEqual([
      ['energy', 'Energy all_year tier 1 (first 180 kWh per kW x 100 kW = 18000 kWh): 18000 kWh x $0.05/kWh', 900],
      ['energy', 'Energy all_year tier 2 (kWh from 180 to 360 kWh per kW x 100 kW = 18000 to 36000 kWh): 18000 kWh x $0.045/kWh', 810],
      ['energy', 'Energy all_year tier 3 (kWh above 360 kWh per kW x 100 kW = 36000 kWh): 4000 kWh x $0.04/kWh', 160],
    ]);
    expect(b.totalCost).toBe(2517);
  });

  it('a kWh bound, then kWh per kW bounds: the bands name each unit, and an empty tier is said', () => {
    const big = bill(t.calhoun, { usageKwh: 50_000, month: 7, demandKw: 100 });
    // bounds: 6,000 kWh; 200 x 100 = 20,000 kWh; 400 x 100 = 40,000 kWh
    // 6,000 x 0.10 = 600.00; 14,000 x 0.09 = 1,260.00; 20,000 x 0.044 = 880.00; 10,000 x 0.04 = 400.00
    // demand 100 x 2.50 = 250.00; fixed 60.00; total 3,450.00
    expect(amounts(big)).toEqual([
      ['energy', 'Energy all_year tier 1 (first 6000 kWh): 6000 kWh x $0.1/kWh', 600],
      ['energy', 'Energy all_year tier 2 (kWh from 6000 kWh to 200 kWh per kW x 100 kW = 20000 kWh): 14000 kWh x $0.09/kWh', 1260],
      ['energy', 'Energy all_year tier 3 (kWh from 200 to 400 kWh per kW x 100 kW = 20000 to 40000 kWh): 20000 kWh x $0.044/kWh', 880],
      ['energy', 'Energy all_year tier 4 (kWh above 400 kWh per kW x 100 kW = 40000 kWh): 10000 kWh x $0.04/kWh', 400],
      ['demand', 'Facility demand: 100 kW x $2.5/kW', 250],
      ['fixed', 'Fixed customer charge: $60/month', 60],
    ]);
    expect(big.totalCost).toBe(3450);
    expect(big.assumptions).toEqual([]);

    const small = bill(t.calhoun, { usageKwh: 10_000, month: 7, demandKw: 20 });
    // bounds: 6,000 kWh; 200 x 20 = 4,000 kWh (not above 6,000: tier 2 is empty); 400 x 20 = 8,000 kWh
    // 6,000 x 0.10 = 600.00; 8,000 - 6,000 = 2,000 x 0.044 = 88.00; 2,000 x 0.04 = 80.00
    // demand 20 x 2.50 = 50.00; fixed 60.00; total 878.00
    expect(amounts(small)).toEqual([
      ['energy', 'Energy all_year tier 1 (first 6000 kWh): 6000 kWh x $0.1/kWh', 600],
      ['energy', 'Energy all_year tier 3 (kWh from 6000 kWh to 400 kWh per kW x 20 kW = 8000 kWh): 2000 kWh x $0.044/kWh', 88],
      ['energy', 'Energy all_year tier 4 (kWh above 400 kWh per kW x 20 kW = 8000 kWh): 2000 kWh x $0.04/kWh', 80],
      ['demand', 'Facility demand: 20 kW x $2.5/kW', 50],
      ['fixed', 'Fixed customer charge: $60/month', 60],
    ]);
    expect(small.totalCost).toBe(878);
    expect(small.assumptions).toEqual([
      'Energy all_year tier 2 covers no kWh this month: its bound (200 kWh per kW x 20 kW = 4000 kWh) is not above the 6000 kWh where the tiers before it end',
    ]);
  });

  it('time-of-use periods sharing kWh per kW tiers: "share of the month\'s first 360 kWh per kW x 200 kW"', () => {
    const b = bill(t.nspE21, { usageKwh: 100_000, month: 7, demandKw: 200, usageProfile: { onPeakKwh: 30_000, offPeakKwh: 70_000 } });
    // bound 360 x 200 = 72,000 kWh of the month, shared 30 % on-peak, 70 % off-peak
    // on-peak:  72,000 x 0.3 = 21,600 x 0.11306 = 2,442.096 -> 2,442.10; 30,000 - 21,600 = 8,400 x 0.037342 = 313.6728 -> 313.67
    // off-peak: 72,000 x 0.7 = 50,400 x 0.09859 = 4,968.936 -> 4,968.94; 70,000 - 50,400 = 19,600 x 0.022872 = 448.2912 -> 448.29
    // demand 200 x 5.82 = 1,164.00 and 200 x 2.00 = 400.00; fixed 50.00; total 9,787.00
    const energy = b.lineItems.filter((i) => i.category === 'energy').map((i) => [i.name, i.amount]);
    expect(energy).toEqual([
      ["Energy on_peak tier 1 (share of the month's first 360 kWh per kW x 200 kW = 72000 kWh): 21600 kWh x $0.11306/kWh", 2442.1],
      ["Energy on_peak tier 2 (share of the month's kWh above 360 kWh per kW x 200 kW = 72000 kWh): 8400 kWh x $0.037342/kWh", 313.67],
      ["Energy off_peak tier 1 (share of the month's first 360 kWh per kW x 200 kW = 72000 kWh): 50400 kWh x $0.09859/kWh", 4968.94],
      ["Energy off_peak tier 2 (share of the month's kWh above 360 kWh per kW x 200 kW = 72000 kWh): 19600 kWh x $0.022872/kWh", 448.29],
    ]);
    expect(b.totalCost).toBe(9787);
  });

  it("periods with their own kWh per kW bounds: each band in its period's bound", () => {
    // The E21 tariff with the off-peak bound moved to 400 kWh per kW (SAM's per-period rule).
    const e = t.nspE21.structure.energy!;
    const offPeak = e.periodNames.indexOf('off_peak');
    const periods = e.periods.map((tiers, p) => (p === offPeak ? tiers.map((tier, i) => (i === 0 ? { ...tier, max: 400 } : tier)) : tiers));
    const own: Tariff = { ...t.nspE21, structure: { ...t.nspE21.structure, energy: { ...e, periods } } };
    const b = bill(own, { usageKwh: 100_000, month: 7, demandKw: 200, usageProfile: { onPeakKwh: 30_000, offPeakKwh: 70_000 } });
    // on-peak as above (bound 72,000: 21,600 and 8,400); off-peak bound 400 x 200 = 80,000 kWh of the month:
    // 80,000 x 0.7 = 56,000 x 0.09859 = 5,521.04; 70,000 - 56,000 = 14,000 x 0.022872 = 320.208 -> 320.21
    const energy = b.lineItems.filter((i) => i.category === 'energy').map((i) => [i.name, i.amount]);
    expect(energy).toEqual([
      ["Energy on_peak tier 1 (share of the month's first 360 kWh per kW x 200 kW = 72000 kWh): 21600 kWh x $0.11306/kWh", 2442.1],
      ["Energy on_peak tier 2 (share of the month's kWh above 360 kWh per kW x 200 kW = 72000 kWh): 8400 kWh x $0.037342/kWh", 313.67],
      ["Energy off_peak tier 1 (share of the month's first 400 kWh per kW x 200 kW = 80000 kWh): 56000 kWh x $0.09859/kWh", 5521.04],
      ["Energy off_peak tier 2 (share of the month's kWh above 400 kWh per kW x 200 kW = 80000 kWh): 14000 kWh x $0.022872/kWh", 320.21],
    ]);
  });

  it('plain kWh tiers keep their names', () => {
    const plain: Tariff = {
      ...t.sikeston,
      structure: {
        ...t.sikeston.structure,
        energy: {
          ...t.sikeston.structure.energy!,
          periods: [
            [
              { max: 1000, unit: 'kWh', rate: 0.1, sell: null },
              { max: null, unit: 'kWh', rate: 0.05, sell: null },
            ],
          ],
        },
      },
    };
    const b = bill(plain, { usageKwh: 1500, month: 7, demandKw: 1 });
    expect(b.lineItems.slice(0, 2).map((i) => i.name)).toEqual([
      'Energy all_year tier 1: 1000 kWh x $0.1/kWh',
      'Energy all_year tier 2: 500 kWh x $0.05/kWh',
    ]);
  });
});
