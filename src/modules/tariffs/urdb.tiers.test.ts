import { addPrices, demandTiers, energyTiers } from './urdb.tiers';
import type { UrdbTier } from './urdb.record';

/** The tiers `read` makes of `raw` for the period named `where`, and the warnings it gives. */
function tiersOf<T>(read: (raw: UrdbTier[], where: string, warnings: string[]) => T, raw: UrdbTier[], where: string) {
  const warnings: string[] = [];
  return { tiers: read(raw, where, warnings), warnings };
}

describe('tier rules', () => {
  it('adds rate and adj in decimal', () => {
    expect(addPrices(0.1, 0.02)).toBe(0.12);
    expect(addPrices(0.02135, 0.03573)).toBe(0.05708);
    expect(addPrices(-0.01, 0.003)).toBe(-0.007);
  });

  it('keeps well-formed tiers and defaults the unit to kWh', () => {
    const raw = [
      { rate: 0.1, max: 500 },
      { rate: 0.12, adj: 0.01 },
    ];
    expect(tiersOf(energyTiers, raw, 'p')).toEqual({
      tiers: [
        { max: 500, unit: 'kWh', rate: 0.1, sell: null },
        { max: null, unit: 'kWh', rate: 0.13, sell: null },
      ],
      warnings: [],
    });
  });

  it('drops a zero-width tier whose bound does not increase in the same unit (real record 539f6cd9ec4f024411ecaed7)', () => {
    const { tiers, warnings: w } = tiersOf(
      energyTiers,
      [
        { max: 3000, rate: 0.1181, unit: 'kWh' },
        { max: 15000, rate: 0.1096, unit: 'kWh' },
        { max: 100000, rate: 0.1033, unit: 'kWh' },
        { max: 200, rate: 0.0949, unit: 'kWh' },
        { max: 400, rate: 0.0878, unit: 'kWh/kW' },
        { rate: 0.0728, unit: 'kWh/kW' },
      ],
      'energy period 1',
    );
    expect(tiers.map((t) => [t.max, t.unit, t.rate])).toEqual([
      [3000, 'kWh', 0.1181],
      [15000, 'kWh', 0.1096],
      [100000, 'kWh', 0.1033],
      [400, 'kWh/kW', 0.0878],
      [null, 'kWh/kW', 0.0728],
    ]);
    expect(w).toEqual(['energy period 1 tier 4: bound 200 not above the previous bound 100000 (kWh); zero-width tier dropped']);
  });

  it('keeps bounds in different units as published (hours-use tiers)', () => {
    const { tiers, warnings: w } = tiersOf(
      energyTiers,
      [
        { max: 1000, rate: 0.09 },
        { max: 200, rate: 0.07, unit: 'kWh/kW' },
        { rate: 0.05, unit: 'kWh/kW' },
      ],
      'p',
    );
    expect(tiers).toHaveLength(3);
    expect(w).toEqual([]);
  });

  it('makes a bounded last tier unbounded and reports it', () => {
    const raw = [
      { max: 100, rate: 5 },
      { max: 500, rate: 4 },
    ];
    expect(tiersOf(demandTiers, raw, 'flat demand period 1')).toEqual({
      tiers: [
        { max: 100, rate: 5 },
        { max: null, rate: 4 },
      ],
      warnings: ['flat demand period 1: last tier bounded at 500; usage above it is billed at its rate'],
    });
  });

  it('takes a missing rate as 0 and reports it', () => {
    expect(tiersOf(energyTiers, [{ adj: 0.11932 }], 'energy period 1')).toEqual({
      tiers: [{ max: null, unit: 'kWh', rate: 0.11932, sell: null }],
      warnings: ['energy period 1 tier 1: no rate, taken as 0 (price = adj 0.11932)'],
    });
  });

  it('rejects unknown units and empty periods', () => {
    expect(() => energyTiers([{ rate: 0.1, unit: 'therms' }], 'p', [])).toThrow('unknown tier unit "therms"');
    expect(() => energyTiers([], 'energy period 2', [])).toThrow('energy period 2 has no tiers');
  });
});
