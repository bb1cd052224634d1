import { defaultUnit, FUEL_OIL_TYPES, isFuelOil, toCommonUnit, UNIT_FAMILIES, unitPairsSql, unitProblem, usageMilliOf } from './units';

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

  it("fuel oil: gallons to kBtu at Portfolio Manager's US conversions (138, 146, 150 kBtu a gallon)", () => {
    expect(toCommonUnit('fuel_oil_2', 1000, 'gallons')).toBe(138_000);
    expect(toCommonUnit('fuel_oil_4', 1000, 'gallons')).toBe(146_000);
    expect(toCommonUnit('fuel_oil_5_6', 1000, 'gallons')).toBe(150_000);
    expect(toCommonUnit('fuel_oil_2', 2.5, 'MMBtu')).toBe(2500);
    expect(usageMilliOf('fuel_oil_2', '1234.5', 'gallons')).toBe(170_361_000); // 1,234.5 x 138 = 170,361 kBtu
    expect(defaultUnit('fuel_oil_4')).toBe('gallons');
    expect(unitProblem('fuel_oil_2', 'therms')).toBe("unit 'therms' is not a unit of fuel_oil_2 (gallons, kBtu, MMBtu)");
    expect(unitPairsSql('t', 'u')).toContain("('fuel_oil_5_6', 'gallons')");
    expect(FUEL_OIL_TYPES.every((t) => isFuelOil(t))).toBe(true);
    expect(isFuelOil('gas')).toBe(false);
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
