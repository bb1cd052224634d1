import { BillBuilder } from './builder';
import { priceSupply } from './supply.calc';

describe('priceSupply: a retail supply price on a delivery-only tariff (issue 26)', () => {
  it('adds one energy line, quantity x rate rounded once to the cent', () => {
    const b = new BillBuilder();
    priceSupply(b, 'delivery_only', 12_000_000, 0.085);
    // 12,000 kWh x $0.0850 = $1,020.00
    expect(b.items).toEqual([{ category: 'energy', name: 'Supply 12,000 kWh x $0.0850', amount: 1020 }]);
    expect(b.assumptions).toEqual([]);
  });

  it('rounds half away from zero at the cent edge and keeps a finer published price', () => {
    const b = new BillBuilder();
    priceSupply(b, 'delivery_only', 1_234_567, 0.07321);
    // 1,234.567 kWh x $0.07321 = $90.38265... -> $90.38
    expect(b.items).toEqual([{ category: 'energy', name: 'Supply 1,234.567 kWh x $0.07321', amount: 90.38 }]);
    const half = new BillBuilder();
    priceSupply(half, 'delivery_only', 10_000, 0.0505);
    // 10 kWh x $0.0505 = $0.505 -> $0.51
    expect(half.energyCents).toBe(51);
  });

  it('without a rate a delivery-only bill says supply is not included; a bundled tariff never adds supply', () => {
    const delivery = new BillBuilder();
    priceSupply(delivery, 'delivery_only', 1000, null);
    expect(delivery.items).toEqual([]);
    expect(delivery.assumptions[0]).toMatch(/^delivery-only tariff: supply .* is not included/);
    const bundled = new BillBuilder();
    priceSupply(bundled, 'bundled', 1000, 0.1);
    expect(bundled.items).toEqual([]);
    expect(bundled.assumptions).toEqual(['supply_rate_per_kwh not applied: this bundled tariff already prices supply']);
  });
});
