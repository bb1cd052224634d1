/**
 * Hand-computed bills on real bundled tariffs with demand charges and riders:
 * facility demand with tiers and seasons, TOU demand with one demand_kw for
 * every active period, coincident-peak demand, energy tiers sized per kW of
 * demand, monthly fuel adjustments. Expected amounts come from the URDB
 * records' published numbers.
 */
import { engineTariffs, bill, amounts } from './engine.fixtures';
import { BillingError } from './index';

const t = engineTariffs();

describe('demand charges', () => {
  it('demand_kw is required for demand tariffs', () => {
    let err: unknown;
    try {
      bill(t.manufacturingCredit, { usageKwh: 1000, month: 7 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BillingError);
    expect(err).toMatchObject({ code: 'demand_required', message: 'demand_kw required for demand tariffs', field: 'demand_kw' });
  });

  it('facility demand runs through its kW tiers, by season', () => {
    const july = bill(t.manufacturingCredit, { usageKwh: 1_500_000, month: 7, demandKw: 3000 });
    // energy (Jun-Sep period): 0.04345 - 0.01076 = 0.03269; 1,500,000 x 0.03269 = 49,035.00
    // summer demand: 1000 kW x (15.81 - 1.38 = 14.43) = 14,430.00
    //                1500 kW x (15.95 - 1.63 = 14.32) = 21,480.00
    //                 500 kW x (15.87 - 1.63 = 14.24) =  7,120.00
    // fixed 150.00; fuel adjustment July 1,500,000 x 0.01982 = 29,730.00
    // total 49,035 + 43,030 + 150 + 29,730 = 121,945.00
    expect(amounts(july)).toEqual([
      ['energy', 'Energy summer: 1500000 kWh x $0.03269/kWh', 49035],
      ['demand', 'Facility demand tier 1: 1000 kW x $14.43/kW', 14430],
      ['demand', 'Facility demand tier 2: 1500 kW x $14.32/kW', 21480],
      ['demand', 'Facility demand tier 3: 500 kW x $14.24/kW', 7120],
      ['fixed', 'Fixed customer charge: $150/month', 150],
      ['rider', 'Fuel adjustment (July): 1500000 kWh x $0.01982/kWh', 29730],
    ]);
    expect(july.summary).toMatchObject({ energyCharge: 49035, demandCharge: 43030, fixedCharge: 150, riders: 29730 });
    expect(july.totalCost).toBe(121945);
    expect(july.season).toBe('summer');
    // January (winter demand period): 800 kW x (15.08 - 1.38 = 13.70) = 10,960.00
    const january = bill(t.manufacturingCredit, { usageKwh: 0, month: 1, demandKw: 800 });
    expect(january.summary.demandCharge).toBe(10960);
    expect(january.season).toBe('winter');
    // April and October share a period set of their own: neither January nor July in it
    expect(bill(t.manufacturingCredit, { usageKwh: 0, month: 4, demandKw: 1 }).season).toBe('shoulder');
  });

  it('kWh per kW tiers scale with demand_kw; riders apply to usage_kwh', () => {
    const b = bill(t.kwhPerKw, { usageKwh: 30_000, month: 5, demandKw: 100 });
    // bounds 50 / 150 / 375 kWh per kW x 100 kW = 5,000 / 15,000 / 37,500 kWh
    // 5,000 x (0.02341 + 0.001893 = 0.025303) = 126.515 -> 126.52 (half away from zero)
    // 10,000 x (0.02194 + 0.001757 = 0.023697) = 236.97
    // 15,000 x (0.02047 + 0.001621 = 0.022091) = 331.365 -> 331.37
    // demand 100 kW x (4.12 - 1.10 = 3.02) = 302.00; fixed 36.66; fuel May 30,000 x 0.01848 = 554.40
    // total 126.52 + 236.97 + 331.37 + 302 + 36.66 + 554.40 = 1,587.92
    // Issue 45 item 6: each band states its bounds in kWh per kW and what they are at 100 kW.
    expect(amounts(b)).toEqual([
      ['energy', 'Energy all_year tier 1 (first 50 kWh per kW x 100 kW = 5000 kWh): 5000 kWh x $0.025303/kWh', 126.52],
      ['energy', 'Energy all_year tier 2 (kWh from 50 to 150 kWh per kW x 100 kW = 5000 to 15000 kWh): 10000 kWh x $0.023697/kWh', 236.97],
      [
        'energy',
        'Energy all_year tier 3 (kWh from 150 to 375 kWh per kW x 100 kW = 15000 to 37500 kWh): 15000 kWh x $0.022091/kWh',
        331.37,
      ],
      ['demand', 'Facility demand: 100 kW x $3.02/kW', 302],
      ['fixed', 'Fixed customer charge: $36.66/month', 36.66],
      ['rider', 'Fuel adjustment (May): 30000 kWh x $0.01848/kWh', 554.4],
    ]);
    expect(b.totalCost).toBe(1587.92);
    expect(b.summary.riders).toBe(554.4);
  });

  it('one demand_kw is applied to every TOU demand period active in the month, and says so', () => {
    const b = bill(t.retailTransmission, { usageKwh: 100_000, month: 1, demandKw: 1000 });
    // January weekdays use demand periods 3, 1 and 2 (weekends 3): all three are active
    // energy 100,000 x (0.01525 + 0.03052 = 0.04577) = 4,577.00
    // demand 1000 x 3.77 = 3,770.00; 1000 x 2.77 = 2,770.00; 1000 x 2.60 = 2,600.00; fixed 500
    // total 4,577 + 9,140 + 500 = 14,217.00
    const demand = b.lineItems.filter((i) => i.category === 'demand');
    expect(demand.map((i) => i.amount)).toEqual([3770, 2770, 2600]);
    for (const i of demand) expect(i.name).toContain('(demand_kw applied to every TOU demand period active in January)');
    expect(demand[0].name).toMatch(/: 1000 kW x \$3\.77\/kW$/);
    expect(b.totalCost).toBe(14217);
    expect(
      b.assumptions.some((a) =>
        a.startsWith('demand_kw (1000 kW) taken as the maximum demand of every TOU demand period active in January'),
      ),
    ).toBe(true);
  });

  it('TOU energy and TOU demand together; a zero-rate demand period adds no line item', () => {
    const b = bill(t.touEnergyDemand, {
      usageKwh: 10_000,
      month: 1,
      demandKw: 200,
      usageProfile: { onPeakKwh: 4000, offPeakKwh: 6000 },
    });
    // January: weekday periods 3 (0.04806 + 0.02101 = 0.06907, on-peak) and 2 (0.04047 + 0.02101 = 0.06148, off-peak)
    // on 4,000 x 0.06907 = 276.28; off 6,000 x 0.06148 = 368.88
    // demand periods active in January: 1 (13.06) and 3 (0): 200 x 13.06 = 2,612.00
    // fixed 300; fuel January 10,000 x 0.02296 = 229.60
    // total 276.28 + 368.88 + 2,612 + 300 + 229.60 = 3,786.76
    expect(b.lineItems.map((i) => [i.category, i.amount])).toEqual([
      ['energy', 368.88],
      ['energy', 276.28],
      ['demand', 2612],
      ['fixed', 300],
      ['rider', 229.6],
    ]);
    expect(b.lineItems[0].name).toBe('Energy winter_off_peak: 6000 kWh x $0.06148/kWh');
    expect(b.lineItems[1].name).toBe('Energy winter_on_peak: 4000 kWh x $0.06907/kWh');
    expect(b.totalCost).toBe(3786.76);
    // 3,786.76 / 10,000 = 0.378676 -> 0.3787
    expect(b.summary.effectiveRatePerKwh).toBe(0.3787);
  });

  it('coincident-peak demand: demand_kw taken as the demand at the system peak, and said', () => {
    const july = bill(t.lexington, { usageKwh: 100_000, month: 7, demandKw: 200 });
    // energy: 438 kWh/kW x 200 kW = 87,600 kWh x 0.0511 = 4,476.36; 12,400 kWh x 0.0467 = 579.08
    // coincident demand (June-September period): 200 kW x 25.07 = 5,014.00; total 10,069.44 (above the minimum)
    expect(amounts(july)).toEqual([
      ['energy', 'Energy all_year tier 1 (first 438 kWh per kW x 200 kW = 87600 kWh): 87600 kWh x $0.0511/kWh', 4476.36],
      ['energy', 'Energy all_year tier 2 (kWh above 438 kWh per kW x 200 kW = 87600 kWh): 12400 kWh x $0.0467/kWh', 579.08],
      ['demand', 'Coincident peak demand summer: 200 kW x $25.07/kW', 5014],
    ]);
    expect(july.totalCost).toBe(10069.44);
    expect(july.summary.demandCharge).toBe(5014);
    expect(july.season).toBe('summer');
    expect(july.assumptions).toEqual([
      "demand_kw (200 kW) taken as the customer's demand at the utility's coincident (system) peak in July: the request carries " +
        "no coincident demand, so the coincident charge may be overstated (the demand at the system peak is at most the month's maximum demand)",
    ]);
    // January: 200 x 7.33 = 1,466.00
    const january = bill(t.lexington, { usageKwh: 100_000, month: 1, demandKw: 200 });
    expect(january.summary.demandCharge).toBe(1466);
    expect(january.season).toBe('winter');
  });

  it('a coincident-peak charge makes demand_kw required', () => {
    expect(() => bill(t.lexington, { usageKwh: 1000, month: 7 })).toThrow('demand_kw required for demand tariffs');
  });
});
