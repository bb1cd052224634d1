import { defaultUnit, toCommonUnit, UNIT_FAMILIES, unitPairsSql, unitProblem } from './units';

/** kBtu of `usage` in `unit` (README "Units", the worked example). */
const kbtu = (type: keyof typeof UNIT_FAMILIES, usage: number, unit: string) =>
  toCommonUnit(type, usage, unit) * UNIT_FAMILIES[type].kbtuPerCommon!;

describe('meter units (README "Units")', () => {
  it('the worked example: a month of an electric, a gas and a water meter', () => {
    expect(kbtu('electric', 12_500, 'kWh')).toBeCloseTo(42_650, 6); // 12,500 x 3.412
    expect(toCommonUnit('gas', 120, 'ccf')).toBeCloseTo(123.12, 9); // 120 x 1.026 therms
    expect(kbtu('gas', 120, 'ccf')).toBeCloseTo(12_312, 6); // 123.12 therms x 100
    expect(toCommonUnit('water', 38.2, 'kgal')).toBeCloseTo(38_200, 9);
    expect(toCommonUnit('water', 10, 'ccf')).toBeCloseTo(7480.519, 3); // 1,000 cf x 1728/231 gallons
    expect(UNIT_FAMILIES.water.kbtuPerCommon).toBeNull(); // water is not site energy
    expect(kbtu('steam', 2.5, 'klbs')).toBeCloseTo(2985, 6); // 2,500 lb x 1.194 kBtu
  });

  it('defaults and checks', () => {
    expect([defaultUnit('electric'), defaultUnit('gas'), defaultUnit('water'), defaultUnit('steam'), defaultUnit('other')]).toEqual([
      'kWh',
      'therms',
      'kgal',
      'klbs',
      'kBtu',
    ]);
    expect(unitProblem('gas', 'ccf')).toBeNull();
    expect(unitProblem('electric', 'MWh')).toBe("unit 'MWh' is not a unit of electric (kWh)");
    expect(unitPairsSql('t', 'u')).toContain("('sewer', 'kgal')");
  });
});
