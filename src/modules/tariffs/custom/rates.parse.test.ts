import { parseRates } from './rates.parse';

describe('parseRates: a tariff must charge something', () => {
  it('refuses rates with no usage, demand or fixed charge (a minimum or a rider alone prices nothing)', () => {
    const parsed = parseRates(
      {
        energy_rates: [],
        fixed_charges: [],
        minimum_charge: { amount: 5, frequency: 'monthly' },
        riders: [{ name: 'Drought surcharge', rate_per_unit: 0.5 }],
      },
      'water',
      'kgal',
    );
    expect(parsed).toEqual({
      ok: false,
      errors: [{ field: 'energy_rates', message: 'a tariff needs at least one usage, demand or fixed charge' }],
    });
  });

  it('takes a fixed charge alone', () => {
    const parsed = parseRates({ fixed_charges: [{ name: 'Sewer base', amount: 12.4, frequency: 'monthly' }] }, 'sewer', 'kgal');
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.structure.fixedCharges).toEqual([{ name: 'Sewer base', amount: 12.4, frequency: 'monthly' }]);
  });
});
