import { comparedFromNotes, type ComparedFrom } from './notes';

describe('what a rate analysis says of the tariff it compares from (rate-analysis/notes.ts)', () => {
  const base: ComparedFrom = {
    currentTariff: null,
    currentFit: null,
    currentImplausible: null,
    serviceType: 'bundled',
    supplyPriced: false,
    utilityName: 'Baltimore Gas & Electric Co',
  };

  it('without a current tariff, delivery-only tariffs compared (no current bundled one) say the costs leave out supply', () => {
    expect(comparedFromNotes({ ...base, serviceType: 'delivery_only' })).toEqual([
      'Baltimore Gas & Electric Co has no current bundled tariff in the ' +
        'catalog: the tariffs compared, and the one recommended, are delivery only, and every cost here leaves out the energy supply (set the ' +
        "property's supply_rate_per_kwh or supply contract to compare whole bills, or its tariff_id)",
    ]);
    expect(comparedFromNotes({ ...base, serviceType: 'delivery_only', supplyPriced: true })).toEqual([]);
    expect(comparedFromNotes(base)).toEqual([]);
  });

  it('a current tariff that fails the plausibility check, or whose limits exclude the property, is said; a closed one is not', () => {
    const current = { name: 'SC2- Zone A (Metered)', serviceType: 'bundled' as const };
    expect(comparedFromNotes({ ...base, currentTariff: current, currentImplausible: 'priced at $0.048/kWh ...' })).toEqual([
      'The current tariff SC2- Zone A (Metered) is priced at $0.048/kWh ...: its cost here is too low, so the savings against it, and any advice ' +
        'to stay on it, may not hold',
    ]);
    expect(
      comparedFromNotes({ ...base, currentTariff: current, currentFit: { status: 'excluded', reason: 'closed to new customers' } }),
    ).toEqual([]);
  });
});
