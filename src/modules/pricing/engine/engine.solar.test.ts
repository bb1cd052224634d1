/**
 * Solar generation on real bundled tariffs: net metering (offset, export credit
 * at the sell rate or the retail rate, never below the fixed charges) and
 * non-net-metering tariffs (exports at the sell rate, or 0).
 */
import { engineTariffs, bill, amounts } from './engine.fixtures';

const t = engineTariffs();

describe('net metering', () => {
  it('solar offsets consumption: the net kWh are billed', () => {
    const b = bill(t.nmSell, { usageKwh: 1000, month: 6, solarGenerationKwh: 400 });
    // (1000 - 400) = 600 x 0.1169 = 70.14; fixed 12; total 82.14
    expect(amounts(b)).toEqual([
      ['energy', 'Energy all_year: 600 kWh x $0.1169/kWh', 70.14],
      ['fixed', 'Fixed customer charge: $12/month', 12],
    ]);
    expect(b.totalCost).toBe(82.14);
    // effective rate on usage_kwh: 82.14 / 1000 = 0.08214 -> 0.0821
    expect(b.summary.effectiveRatePerKwh).toBe(0.0821);
    const feb = bill(t.montanaDakota22, { usageKwh: 500, month: 2, solarGenerationKwh: 200 });
    // (500 - 200) = 300 x 0.05708 = 17.124 -> 17.12; 28 days x 0.23 = 6.44; total 23.56
    expect(feb.totalCost).toBe(23.56);
  });

  it('exports are credited at the retail rate without a sell rate, never below the fixed charges', () => {
    const b = bill(t.montanaDakota22, { usageKwh: 500, month: 2, solarGenerationKwh: 800 });
    // export 800 - 500 = 300 kWh x 0.05708 = 17.124 -> credit -17.12; fixed 28 x 0.23 = 6.44
    // bill -17.12 + 6.44 = -10.68 is below the fixed charges 6.44: limit +17.12 (the whole credit); total 6.44
    expect(amounts(b)).toEqual([
      ['energy', 'Net metering export credit all_year (retail rate): -300 kWh x $0.05708/kWh', -17.12],
      ['fixed', 'Fixed customer charge: 28 days x $0.23/day', 6.44],
      ['energy', 'Net metering credit limit: credits cannot take the bill below the fixed charges', 17.12],
    ]);
    expect(b.totalCost).toBe(6.44);
    expect(b.summary.energyCharge).toBe(0);
  });

  it('export credits offset demand charges and riders', () => {
    const b = bill(t.manufacturingCredit, { usageKwh: 1000, month: 7, demandKw: 50, solarGenerationKwh: 1500 });
    // export 500 kWh x (0.04345 - 0.01076 = 0.03269) = 16.345 -> credit -16.35 (half away from zero)
    // demand 50 x (15.81 - 1.38 = 14.43) = 721.50; fixed 150; fuel July on usage_kwh 1000 x 0.01982 = 19.82
    // total -16.35 + 721.50 + 150 + 19.82 = 874.97 (above the fixed charges: no limit)
    expect(b.lineItems.map((i) => [i.category, i.amount])).toEqual([
      ['energy', -16.35],
      ['demand', 721.5],
      ['fixed', 150],
      ['rider', 19.82],
    ]);
    expect(b.totalCost).toBe(874.97);
  });

  it('exports are credited at the sell rate where the data has one', () => {
    const b = bill(t.nmSell, { usageKwh: 100, month: 6, solarGenerationKwh: 150 });
    // export 50 x 0.1169 = 5.845 -> -5.85; fixed 12 -> 6.15, below 12: limit +5.85; total 12
    expect(b.lineItems[0].name).toBe('Net metering export credit all_year (sell rate): -50 kWh x $0.1169/kWh');
    expect(b.lineItems.map((i) => i.amount)).toEqual([-5.85, 12, 5.85]);
    expect(b.totalCost).toBe(12);
  });
});

describe('tariffs without net metering', () => {
  it('price every exported kWh at the sell rate and bill usage in full', () => {
    const b = bill(t.netBilling, { usageKwh: 1200, month: 7, solarGenerationKwh: 300 });
    // summer tiers: 500 x (0.102013 + 0.02009 = 0.122103) = 61.0515 -> 61.05
    //               500 x (0.117013 + 0.02049 = 0.137503) = 68.7515 -> 68.75
    //               200 x (0.122513 + 0.020637 = 0.14315) = 28.63
    // exports 300 x 0.0964 = 28.92 -> -28.92; fixed 13; total 142.51
    expect(b.lineItems.map((i) => [i.category, i.amount])).toEqual([
      ['energy', 61.05],
      ['energy', 68.75],
      ['energy', 28.63],
      ['energy', -28.92],
      ['fixed', 13],
    ]);
    expect(b.lineItems[3].name).toBe('Solar export credit summer (sell rate): -300 kWh x $0.0964/kWh');
    expect(b.totalCost).toBe(142.51);
    expect(b.assumptions.join(' ')).toContain('the tariff does not net-meter');
  });

  it('credit exports at 0 without a sell rate', () => {
    const b = bill(t.scribner, { usageKwh: 500, month: 7, solarGenerationKwh: 100 });
    // unchanged: 27.46 + 16.32 + 60 = 103.78
    expect(b.totalCost).toBe(103.78);
    expect(b.assumptions.join(' ')).toContain('exports in summer credited at 0: the tariff publishes no sell rate there');
  });
});
