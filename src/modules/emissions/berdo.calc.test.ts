import fs from 'node:fs';
import path from 'node:path';
import {
  BERDO_ACP_CENTS_PER_TON,
  BERDO_BUILDING_USES,
  BERDO_EMISSIONS_STANDARDS,
  BERDO_FACTOR_YEARS,
  BERDO_FACTORS,
  PM_TYPE_TO_BERDO_USE,
  berdoAssessment,
  berdoPeriodOf,
  berdoStandard,
  berdoUseOf,
  rpsClassIPercent,
} from './berdo.calc';
import { PROPERTY_TYPES } from './property-types';

/** The README's Table 1 (typed from the ordinance, source 1), per building use: the code's table is checked against it. */
function readmeTable1(): Record<string, number[]> {
  const readme = fs.readFileSync(path.join(process.cwd(), 'src/modules/emissions/README.md'), 'utf8');
  const table = readme.split('| building use | 2025-29 |')[1]!.split('\n\n')[0]!;
  const rows = table
    .split('\n')
    .slice(2)
    .map((line) => line.split('|').map((cell) => cell.trim()));
  return Object.fromEntries(rows.map(([, use, ...values]) => [use, values.filter((v) => v !== '').map(Number)]));
}

describe('BERDO Table 1 (City of Boston Code § 7-2.2), as the README quotes it from the ordinance', () => {
  it('holds every standard of the table, kgCO2e/sf/yr, 2025-2029 to 2050-', () => {
    const readme = readmeTable1();
    expect(Object.keys(readme)).toHaveLength(13);
    expect(readme.Office).toEqual([5.3, 3.2, 2.4, 1.6, 0.8, 0]);
    expect(BERDO_EMISSIONS_STANDARDS).toEqual(readme);
    expect(BERDO_BUILDING_USES).toHaveLength(13);
  });

  it('puts a year in its five-year period; none before 2025, the last period open-ended', () => {
    expect(berdoPeriodOf(2024)).toBeNull();
    expect(berdoPeriodOf(2025)).toEqual({ period: '2025-2029', index: 0 });
    expect(berdoPeriodOf(2029)).toEqual({ period: '2025-2029', index: 0 });
    expect(berdoPeriodOf(2030)).toEqual({ period: '2030-2034', index: 1 });
    expect(berdoPeriodOf(2049)).toEqual({ period: '2045-2049', index: 4 });
    expect(berdoPeriodOf(2071)).toEqual({ period: '2050-', index: 5 });
    expect(berdoStandard('Office', 2029)).toBe(5.3);
    expect(berdoStandard('Office', 2030)).toBe(3.2);
    expect(berdoStandard('Manufacturing/industrial', 2025)).toBe(23.9);
    expect(berdoStandard('Office', 2050)).toBe(0);
    expect(berdoStandard('Office', 2024)).toBeNull();
  });
});

describe('Portfolio Manager types to BERDO building uses (only where two calculators agree)', () => {
  it('maps the confirmed types, ignoring case and outer spaces', () => {
    expect(berdoUseOf('Office')).toEqual({ propertyType: 'Office', use: 'Office' });
    expect(berdoUseOf('  financial office ')).toEqual({ propertyType: 'Financial Office', use: 'Office' });
    expect(berdoUseOf('K-12 School')?.use).toBe('Education');
    expect(berdoUseOf('Supermarket/Grocery Store')?.use).toBe('Food sales and service');
    expect(berdoUseOf('Medical Office')?.use).toBe('Healthcare');
    expect(berdoUseOf('Convenience Store without Gas Station')?.use).toBe('Services');
    expect(berdoUseOf('Data Center')?.use).toBe('Technology/science');
    expect(Object.keys(PM_TYPE_TO_BERDO_USE)).toHaveLength(64);
  });

  it("spells every mapped type as a property's uses are stored (property-types.ts), so each is found", () => {
    const stored = new Set<string>(PROPERTY_TYPES);
    expect(Object.keys(PM_TYPE_TO_BERDO_USE).filter((t) => !stored.has(t))).toEqual([]);
    // The two Portfolio Manager spells differently in its web services and its interface: the stored names are found.
    expect(berdoUseOf('Other/Specialty Hospital')).toEqual({ propertyType: 'Other/Specialty Hospital', use: 'Healthcare' });
    expect(berdoUseOf('Repair Services (Vehicle, Shoe, Locksmith, etc)')?.use).toBe('Services');
    // Every stored type either maps or is named as not confirmed: 64 map, the other 23 do not.
    expect(PROPERTY_TYPES.filter((t) => berdoUseOf(t) !== null)).toHaveLength(64);
  });

  it('leaves out the types the calculators map differently, and those only one maps', () => {
    for (const t of [
      'Senior Living Community',
      'Residential Care Facility',
      'Single Family Home',
      'Prison/Incarceration',
      'Parking',
      'Aquarium',
    ]) {
      expect(berdoUseOf(t)).toBeNull();
    }
  });
});

describe('Massachusetts RPS Class I schedule (M.G.L. c. 25A § 11F(a))', () => {
  it('adds 0.5, 1, 2, 3 then 1 point a year from 1 % in 2003', () => {
    expect(rpsClassIPercent(2002)).toBeNull();
    expect(rpsClassIPercent(2003)).toBe(1);
    expect(rpsClassIPercent(2004)).toBe(1.5);
    expect(rpsClassIPercent(2009)).toBe(4); // 1 + 6 x 0.5
    expect(rpsClassIPercent(2019)).toBe(14); // 4 + 10 x 1
    expect(rpsClassIPercent(2024)).toBe(24); // 14 + 5 x 2
    expect(rpsClassIPercent(2025)).toBe(27);
    expect(rpsClassIPercent(2026)).toBe(30);
    expect(rpsClassIPercent(2027)).toBe(33); // as the consultant's article quotes the city's list for 2027
    expect(rpsClassIPercent(2029)).toBe(39); // 24 + 5 x 3
    expect(rpsClassIPercent(2030)).toBe(40);
    expect(rpsClassIPercent(2050)).toBe(60); // 40 + 20 x 1
  });
});

describe('the BERDO factors and payment', () => {
  it('holds the confirmed factors only, and $234 a ton', () => {
    expect(BERDO_FACTORS.gasKgPerMmbtu).toBe(53.11);
    expect(BERDO_FACTORS.steamKgPerMmbtu).toBe(66.4);
    expect(BERDO_FACTORS.gridKgPerMwh).toEqual({ 2025: 249, 2026: 242 });
    expect(BERDO_FACTOR_YEARS).toEqual([2025, 2026]);
    expect(BERDO_ACP_CENTS_PER_TON).toBe(23400);
  });
});

describe('berdoAssessment, worked by hand', () => {
  // emissions README, BERDO "Worked example": a 50,000 sf office in 2025.
  const office2025 = {
    uses: [{ propertyType: 'Office', grossFloorArea: 50_000 }],
    year: 2025,
    energy: { electricKwh: 800_000, gasTherms: 20_000, steamKbtu: 500_000 },
  };

  it('a 50,000 sf office in 2025: 284.836 t against 265 t, 19.836 t over, ACP $4,641.62', () => {
    // Electricity: 800 MWh x (1 - 0.27) x 249 kg/MWh = 800 x 181.77 = 145,416 kg.
    // Gas: 20,000 therms = 2,000 MMBtu x 53.11 = 106,220 kg. Steam: 500,000 kBtu = 500 MMBtu x 66.40 = 33,200 kg.
    // Total 284,836 kg. Limit 5.3 x 50,000 = 265,000 kg. Excess 19,836 kg x $234/t = $4,641.624 -> $4,641.62.
    const a = berdoAssessment(office2025);
    expect(a).toEqual({
      status: 'computed',
      year: 2025,
      period: '2025-2029',
      emissionsTco2e: 284.836,
      emissionLines: [
        {
          fuel: 'electricity',
          energy: 800_000,
          energyUnit: 'kWh',
          factor: 249,
          factorUnit: 'kgCO2e/MWh',
          rpsClassIPercent: 27,
          tco2e: 145.416,
        },
        { fuel: 'natural_gas', energy: 20_000, energyUnit: 'therms', factor: 53.11, factorUnit: 'kgCO2e/MMBtu', tco2e: 106.22 },
        { fuel: 'district_steam', energy: 500_000, energyUnit: 'kBtu', factor: 66.4, factorUnit: 'kgCO2e/MMBtu', tco2e: 33.2 },
      ],
      grossFloorArea: 50_000,
      blendedStandardKgPerSf: 5.3,
      limitTco2e: 265,
      limitLines: [{ propertyType: 'Office', berdoUse: 'Office', grossFloorArea: 50_000, standardKgPerSf: 5.3, tco2e: 265 }],
      excessTco2e: 19.836,
      acpDollarsPerTon: 234,
      acpCents: 464_162,
    });
  });

  it('a building under its limit owes nothing', () => {
    // 800 MWh of electricity only: 145.416 t < 265 t.
    const a = berdoAssessment({ ...office2025, energy: { electricKwh: 800_000, gasTherms: 0, steamKbtu: 0 } });
    expect(a).toMatchObject({ status: 'computed', emissionsTco2e: 145.416, limitTco2e: 265, excessTco2e: 0, acpCents: 0 });
    if (a.status === 'computed') expect(a.emissionLines.map((l) => l.fuel)).toEqual(['electricity']);
  });

  it('blends the standard by floor area: 30,000 sf office and 20,000 sf retail in 2026', () => {
    // Limit 5.3 x 30,000 + 7.1 x 20,000 = 159,000 + 142,000 = 301,000 kg (6.02 kg/sf).
    // Electricity 600 MWh x (1 - 0.30) x 242 = 101,640 kg; gas 40,000 therms = 4,000 MMBtu x 53.11 = 212,440 kg;
    // 314,080 kg, 13,080 kg over: 13.08 x $234 = $3,060.72.
    const a = berdoAssessment({
      uses: [
        { propertyType: 'Office', grossFloorArea: 30_000 },
        { propertyType: 'Retail Store', grossFloorArea: 20_000 },
      ],
      year: 2026,
      energy: { electricKwh: 600_000, gasTherms: 40_000, steamKbtu: 0 },
    });
    expect(a).toMatchObject({
      status: 'computed',
      period: '2025-2029',
      emissionsTco2e: 314.08,
      limitTco2e: 301,
      blendedStandardKgPerSf: 6.02,
      excessTco2e: 13.08,
      acpCents: 306_072,
      limitLines: [
        { propertyType: 'Office', berdoUse: 'Office', grossFloorArea: 30_000, standardKgPerSf: 5.3, tco2e: 159 },
        { propertyType: 'Retail Store', berdoUse: 'Retail', grossFloorArea: 20_000, standardKgPerSf: 7.1, tco2e: 142 },
      ],
    });
    if (a.status === 'computed') expect(a.emissionLines[0]).toMatchObject({ factor: 242, rpsClassIPercent: 30, tco2e: 101.64 });
  });

  it('merges the same type given twice, and rounds the payment to the nearest cent', () => {
    // 20,000 + 30,000 sf of office: 265,000 kg. Gas 49,897 therms x 5.311 kg = 265,002.967 kg -> 265,003 kg: 3 kg over,
    // 3 x 23.4 cents = 70.2 -> 70 cents. 49,896.9 therms would be 265,002.436 kg -> 2 kg over, 46.8 -> 47 cents.
    const base = {
      uses: [
        { propertyType: 'office', grossFloorArea: 20_000 },
        { propertyType: 'Office', grossFloorArea: 30_000 },
      ],
      year: 2025,
    };
    const three = berdoAssessment({ ...base, energy: { electricKwh: 0, gasTherms: 49_897, steamKbtu: 0 } });
    expect(three).toMatchObject({ status: 'computed', limitTco2e: 265, excessTco2e: 0.003, acpCents: 70 });
    if (three.status === 'computed') expect(three.limitLines).toHaveLength(1);
    const two = berdoAssessment({ ...base, energy: { electricKwh: 0, gasTherms: 49_896.9, steamKbtu: 0 } });
    expect(two).toMatchObject({ status: 'computed', excessTco2e: 0.002, acpCents: 47 });
  });
});

describe('berdoAssessment, what it will not compute', () => {
  const energy = { electricKwh: 800_000, gasTherms: 20_000, steamKbtu: 0 };

  // Each names what the list does not confirm, and computes nothing.
  it.each([
    {
      what: 'the missing factors of a year the list was not confirmed for',
      uses: [{ propertyType: 'Office', grossFloorArea: 50_000 }],
      year: 2027,
      energy,
      missing: [
        'projected grid emission factor for 2027 (BERDO Emissions Factors List, confirmed only for 2025 and 2026)',
        'natural gas emission factor for 2027 (BERDO Emissions Factors List, confirmed only for 2025 and 2026)',
      ],
    },
    {
      what: 'a Portfolio Manager type without a confirmed building use',
      uses: [{ propertyType: 'Senior Living Community', grossFloorArea: 60_000 }],
      year: 2025,
      energy,
      missing: ['BERDO building use of the Portfolio Manager type "Senior Living Community"'],
    },
    {
      what: 'fuel oil and an other meter, whose BERDO factors are not confirmed, in any year',
      uses: [{ propertyType: 'Office', grossFloorArea: 50_000 }],
      year: 2025,
      energy: { ...energy, fuelOil2Kbtu: 138_000, fuelOil4Kbtu: 0, fuelOil56Kbtu: 150_000, otherKbtu: 10 },
      missing: [
        expect.stringContaining('fuel oil No. 2 emission factor'),
        expect.stringContaining('fuel oil No. 5 and 6 emission factor'),
        expect.stringContaining("'other' meter"),
      ],
    },
  ])('names $what', ({ uses, year, energy, missing }) => {
    expect(berdoAssessment({ uses, year, energy })).toEqual({ status: 'not_confirmed', year, period: '2025-2029', missing });
  });

  it('names a use under 10 % of the floor area, whose place in the blend is not confirmed', () => {
    // The same building twice, with the restaurant share of its 50,000 sf just under and at 10 %.
    const officeAndRestaurant = (officeSf: number, restaurantSf: number) =>
      berdoAssessment({
        uses: [
          { propertyType: 'Office', grossFloorArea: officeSf },
          { propertyType: 'Restaurant', grossFloorArea: restaurantSf },
        ],
        year: 2025,
        energy,
      });
    const a = officeAndRestaurant(46_000, 4_000);
    expect(a.status).toBe('not_confirmed');
    if (a.status === 'not_confirmed') {
      expect(a.missing).toHaveLength(1);
      expect(a.missing[0]).toMatch(/^whether "Restaurant" \(8 % of the gross floor area, under the ordinance's 10 %\)/);
    }
    // Exactly 10 % is a primary use: 45,000 x 5.3 + 5,000 x 17.4 = 238,500 + 87,000 = 325,500 kg.
    const tenPercent = officeAndRestaurant(45_000, 5_000);
    expect(tenPercent).toMatchObject({ status: 'computed', limitTco2e: 325.5, blendedStandardKgPerSf: 6.51 });
  });

  it('has no standard before 2025', () => {
    expect(berdoAssessment({ uses: [{ propertyType: 'Office', grossFloorArea: 50_000 }], year: 2024, energy })).toEqual({
      status: 'no_standard',
      year: 2024,
      reason: 'Table 1 of § 7-2.2 sets emissions standards from 2025 only',
    });
  });

  it('refuses input no caller should pass', () => {
    const ok = { uses: [{ propertyType: 'Office', grossFloorArea: 50_000 }], year: 2025, energy };
    expect(() => berdoAssessment({ ...ok, uses: [] })).toThrow(RangeError);
    expect(() => berdoAssessment({ ...ok, year: 2025.5 })).toThrow(/year must be an integer/);
    expect(() => berdoAssessment({ ...ok, uses: [{ propertyType: 'Office', grossFloorArea: 0 }] })).toThrow(/grossFloorArea/);
    expect(() => berdoAssessment({ ...ok, uses: [{ propertyType: ' ', grossFloorArea: 10 }] })).toThrow(/propertyType/);
    expect(() => berdoAssessment({ ...ok, energy: { ...energy, gasTherms: -1 } })).toThrow(/energy.gasTherms/);
    expect(() => berdoAssessment({ ...ok, energy: { ...energy, electricKwh: Number.NaN } })).toThrow(/energy.electricKwh/);
  });
});
