import { energyPriceBelowZero, priceDefects } from './price-defects';
import type { EnergyTier, TariffStructure } from './tariff.model';
import { EMPTY_STRUCTURE } from './tariff.fixtures';

const tier = (rate: number, sell: number | null = null): EnergyTier => ({ max: null, unit: 'kWh', rate, sell });
const structure = (periods: EnergyTier[][]): TariffStructure => ({
  ...EMPTY_STRUCTURE,
  energy: { periods, weekday: [], weekend: [], periodNames: periods.map((_, i) => `period_${i}`) },
});

describe('records that price bills wrongly (tariffs/price-defects.ts)', () => {
  it('an energy price below zero without an export credit: Portland General Electric Rate 485 (-$0.00028 + -$0.005646 adj)', () => {
    const rate485 = { description: '', structure: structure([[tier(-0.005926)]]) };
    expect(energyPriceBelowZero(rate485)).toBe(
      'Its energy price is below zero ($-0.005926/kWh in period 1): a credit against an energy price ' +
        'the record leaves out, so bills on it are too low',
    );
    expect(priceDefects(rate485)).toHaveLength(1);
  });

  it('names the tier when the period has several; a credited export or a price of zero is no defect', () => {
    expect(energyPriceBelowZero({ structure: structure([[tier(0.1)], [{ ...tier(0.05), max: 500 }, tier(-0.01)]]) })).toMatch(
      /^Its energy price is below zero \(\$-0\.01\/kWh in period 2, tier 2\)/,
    );
    expect(energyPriceBelowZero({ structure: structure([[tier(-0.02, 0.03)]]) })).toBeNull();
    expect(energyPriceBelowZero({ structure: structure([[tier(0)]]) })).toBeNull();
    expect(energyPriceBelowZero({ structure: { ...structure([]), energy: null } })).toBeNull();
  });

  it('keeps the charges a description names that the rates lack, first', () => {
    const t = { description: 'Customer Charge: $25.00 per month', structure: structure([[tier(-0.01)]]) };
    expect(priceDefects(t)).toHaveLength(2);
    expect(priceDefects(t)[0]).toMatch(/customer charge/i);
  });
});
