import {
  COEFFICIENTS_2030_2034,
  COEFFICIENTS_2030_2034_NOT_CONFIRMED,
  ESPM_LIMITS,
  ESPM_PROPERTY_TYPES,
  espmLimit,
  espmNameOf,
  espmPeriodOf,
  isEspmPropertyType,
} from './ll97-espm';
import { PROPERTY_TYPES } from './property-types';
import { LIMITS_2024_2029 } from './occupancy';

describe("the rule's type names and the stored ones (property-types.ts)", () => {
  it("finds each of the rule's 60 types from a stored Portfolio Manager name", () => {
    const found = new Set(PROPERTY_TYPES.map(espmNameOf).filter(isEspmPropertyType));
    expect(ESPM_PROPERTY_TYPES.filter((t) => !found.has(t))).toEqual([]);
    expect(espmNameOf('Other/Specialty Hospital')).toBe('Other - Specialty Hospital');
    expect(espmNameOf('Repair Services (Vehicle, Shoe, Locksmith, etc)')).toBe('Repair Services (Vehicle, Shoe, Locksmith, etc.)');
    expect(espmNameOf('Office')).toBe('Office');
    // Mixed Use Property and Other have no limit in the rule's table as quoted.
    expect(isEspmPropertyType(espmNameOf('Mixed Use Property'))).toBe(false);
    expect(isEspmPropertyType(espmNameOf('Other'))).toBe(false);
  });
});

describe("1 RCNY § 103-14's limits per Portfolio Manager property type, worked by hand", () => {
  it("gives a 40,000 sf office its 2026 limit by the rule's Office type, not occupancy group B's", () => {
    // Office 0.00758 tCO2e/sf x 40,000 sf = 303.2 t (group B's 0.00846 would give 338.4 t).
    expect(espmLimit([{ propertyType: 'Office', grossFloorArea: 40_000 }], 2026)).toEqual({
      status: 'computed',
      period: '2024-2029',
      limit_tco2e: 303.2,
      lines: [
        {
          property_type: 'Office',
          gross_floor_area: 40_000,
          intensity_limit: 0.00758,
          tco2e: 303.2,
          source: expect.stringContaining('1 RCNY § 103-14'),
        },
      ],
    });
  });

  it('gives the same office 0.002690852 x 40,000 = 107.634 t for 2030-2034 and 0.00165234 x 40,000 = 66.094 t for 2035-2039', () => {
    // 0.002690852 x 40,000 = 107.63408 t -> 107.634 (to the kilogram).
    expect(espmLimit([{ propertyType: 'Office', grossFloorArea: 40_000 }], 2030)).toMatchObject({
      status: 'computed',
      period: '2030-2034',
      limit_tco2e: 107.634,
      lines: [{ intensity_limit: 0.002690852, tco2e: 107.634 }],
    });
    expect(espmLimit([{ propertyType: 'Office', grossFloorArea: 40_000 }], 2034)).toMatchObject({ limit_tco2e: 107.634 });
    // 0.00165234 x 40,000 = 66.0936 t -> 66.094.
    expect(espmLimit([{ propertyType: 'Office', grossFloorArea: 40_000 }], 2035)).toMatchObject({
      period: '2035-2039',
      limit_tco2e: 66.094,
    });
  });

  it('sums a mixed office and multifamily building by area in each period', () => {
    const uses = [
      { propertyType: 'Office', grossFloorArea: 10_000 },
      { propertyType: 'Multifamily Housing', grossFloorArea: 30_000 },
    ];
    // 2024-2029: 0.00758 x 10,000 = 75.8 t + 0.00675 x 30,000 = 202.5 t = 278.3 t.
    const y2026 = espmLimit(uses, 2026);
    expect(y2026).toMatchObject({ status: 'computed', limit_tco2e: 278.3 });
    expect(y2026.status === 'computed' && y2026.lines.map((l) => [l.property_type, l.tco2e])).toEqual([
      ['Office', 75.8],
      ['Multifamily Housing', 202.5],
    ]);
    // 2030-2034: 0.002690852 x 10,000 = 26.90852 t + 0.00334664 x 30,000 = 100.3992 t = 127.30772 t -> 127.308.
    const y2031 = espmLimit(uses, 2031);
    expect(y2031).toMatchObject({ limit_tco2e: 127.308 });
    expect(y2031.status === 'computed' && y2031.lines.map((l) => l.tco2e)).toEqual([26.909, 100.399]);
    // 2035-2039: 0.00165234 x 10,000 = 16.5234 t + 0.002692183 x 30,000 = 80.76549 t = 97.28889 t -> 97.289.
    expect(espmLimit(uses, 2039)).toMatchObject({ status: 'computed', period: '2035-2039', limit_tco2e: 97.289 });
  });

  it("matches the Department of Buildings' worked example as quoted: a 45,000 sf mixed-use building's limit of 302.41 t", () => {
    // DOB, "Local Law 97: Calculating Building Emissions & Emission Limits" (26 June 2024), slide 25, as a public repository
    // quotes it (README): 40,000 sf Multifamily Housing 0.00675 = 270 t; 1,900 sf Personal Services 0.00574 = 10.906 t;
    // 600 sf Repair Services 0.00426 = 2.556 t; 2,500 sf Retail Store 0.00758 = 18.95 t; 302.412 t (DOB shows 302.41).
    expect(
      espmLimit(
        [
          { propertyType: 'Multifamily Housing', grossFloorArea: 40_000 },
          { propertyType: 'Personal Services (Health/Beauty, Dry Cleaning, etc.)', grossFloorArea: 1_900 },
          { propertyType: 'Repair Services (Vehicle, Shoe, Locksmith, etc.)', grossFloorArea: 600 },
          { propertyType: 'Retail Store', grossFloorArea: 2_500 },
        ],
        2024,
      ),
    ).toMatchObject({ status: 'computed', limit_tco2e: 302.412 });
  });

  it('names every use without a confirmed limit for the period instead of summing the others', () => {
    // Retail Store's 2035-2039 limit is quoted by two independent sources only: not confirmed.
    expect(
      espmLimit(
        [
          { propertyType: 'Office', grossFloorArea: 10_000 },
          { propertyType: 'Retail Store', grossFloorArea: 5_000 },
        ],
        2036,
      ),
    ).toMatchObject({ status: 'not_confirmed', period: '2035-2039', not_confirmed: ['Retail Store'] });
    // Retail Store is confirmed for 2030-2034: 0.00210449 x 5,000 = 10.52245 t; + Office 26.90852 t = 37.43097 t -> 37.431.
    expect(
      espmLimit(
        [
          { propertyType: 'Office', grossFloorArea: 10_000 },
          { propertyType: 'Retail Store', grossFloorArea: 5_000 },
        ],
        2030,
      ),
    ).toMatchObject({ status: 'computed', limit_tco2e: 37.431 });
    // Names must be the rule's exactly; each unknown name once.
    expect(
      espmLimit(
        [
          { propertyType: 'office', grossFloorArea: 1 },
          { propertyType: 'Mixed Use Property', grossFloorArea: 1 },
          { propertyType: 'office', grossFloorArea: 2 },
        ],
        2026,
      ),
    ).toMatchObject({ status: 'not_confirmed', not_confirmed: ['office', 'Mixed Use Property'] });
  });

  it('gives no limit before 2024 nor from 2040, none without uses, and refuses a floor area that is not positive', () => {
    const office = [{ propertyType: 'Office', grossFloorArea: 40_000 }];
    expect(espmLimit(office, 2023)).toMatchObject({ status: 'no_period', period: null, reason: expect.stringContaining('before') });
    expect(espmLimit(office, 2040)).toMatchObject({ status: 'no_period', reason: expect.stringContaining('not confirmed') });
    expect(espmLimit([], 2026)).toMatchObject({ status: 'no_uses', period: '2024-2029' });
    expect(() => espmLimit([{ propertyType: 'Office', grossFloorArea: 0 }], 2026)).toThrow(RangeError);
    expect(() => espmLimit([{ propertyType: 'Office', grossFloorArea: Number.NaN }], 2026)).toThrow(RangeError);
    expect([2023, 2024, 2029, 2030, 2034, 2035, 2039, 2040, 2025.5].map(espmPeriodOf)).toEqual([
      null,
      '2024-2029',
      '2024-2029',
      '2030-2034',
      '2030-2034',
      '2035-2039',
      '2035-2039',
      null,
      null,
    ]);
  });
});

describe("the rule's numbers as confirmed (README: three independent sources naming the rule, digit by digit)", () => {
  it('holds 60 property types with 2024-2029 and 2030-2034 limits, and 2035-2039 for the 11 confirmed', () => {
    expect(ESPM_PROPERTY_TYPES).toHaveLength(60);
    expect(ESPM_PROPERTY_TYPES.filter((t) => ESPM_LIMITS[t]!['2024-2029'] && ESPM_LIMITS[t]!['2030-2034'])).toHaveLength(60);
    expect(ESPM_PROPERTY_TYPES.filter((t) => ESPM_LIMITS[t]!['2035-2039'] !== undefined).sort()).toEqual([
      'Bank Branch',
      'Bowling Alley',
      'Data Center',
      'Distribution Center',
      'Financial Office',
      'Hotel',
      'Laboratory',
      'Multifamily Housing',
      'Office',
      'Strip Mall',
      'Worship Facility',
    ]);
    expect(isEspmPropertyType('Office')).toBe(true);
    expect(isEspmPropertyType('toString')).toBe(false);
  });

  it("gives every type a 2024-2029 limit equal to one of the law's ten occupancy-group limits (§ 28-320.3.1)", () => {
    const law = new Set(Object.values(LIMITS_2024_2029).map((l) => l.value));
    expect(law.size).toBe(10);
    for (const t of ESPM_PROPERTY_TYPES) expect([t, law.has(ESPM_LIMITS[t]!['2024-2029']!)]).toEqual([t, true]);
  });

  it('quotes the numbers the sources give, digit by digit', () => {
    expect(ESPM_LIMITS['Hotel']).toEqual({ '2024-2029': 0.00987, '2030-2034': 0.003850668, '2035-2039': 0.002640017 });
    expect(ESPM_LIMITS['Non-Refrigerated Warehouse']).toEqual({ '2024-2029': 0.00426, '2030-2034': 0.000883187 });
    expect(ESPM_LIMITS['Other - Restaurant/Bar']).toEqual({ '2024-2029': 0.02381, '2030-2034': 0.008505075 });
    expect(ESPM_LIMITS['Urgent Care/Clinic/Other Outpatient']).toEqual({ '2024-2029': 0.01181, '2030-2034': 0.005772375 });
    // The one type whose 2030-2034 limit is above its 2024-2029 one, in every source.
    expect(ESPM_LIMITS['Laboratory']).toEqual({ '2024-2029': 0.02381, '2030-2034': 0.026029868, '2035-2039': 0.019522401 });
  });

  it('has the 2030-2034 electricity and gas coefficients, and names steam and fuel oil as not confirmed', () => {
    expect(COEFFICIENTS_2030_2034).toEqual({
      electric: expect.objectContaining({ value: 0.000145, unit: 'tCO2e/kWh' }),
      gas: expect.objectContaining({ value: 0.00005311, unit: 'tCO2e/kBtu' }),
    });
    expect(Object.keys(COEFFICIENTS_2030_2034_NOT_CONFIRMED)).toEqual(['steam', 'fuel_oil_2', 'fuel_oil_4']);
  });
});
