/**
 * New York City's Department of Buildings rule 1 RCNY § 103-14 (effective 19 January 2023, amended
 * 2024): its building emissions limits per ENERGY STAR Portfolio Manager (ESPM) property type
 * (subdivision (c)(3)) and its greenhouse gas coefficients for 2030-2034 (subdivision (d)(3)(ii)).
 * Pure data and arithmetic.
 *
 * The rule's own text could not be read on 2026-11-28. Every number here was read in QUOTATIONS of
 * the rule, never in the rule: by the lead's decision a number counts as confirmed when at least
 * three independent public sources quote it identically and name the rule (README "Local Law 97:
 * the rule's numbers, as quoted", which lists the sources, what each quotes, and what was left out).
 * A type, period or coefficient with fewer than three such sources, or on which they disagree, is
 * absent here: no placeholder stands in for it.
 */
import { roundTons } from './emissions.calc';
import type { Ll97CountedType } from './ll97.calc';

/** The rule as the sources name it. */
export const ESPM_RULE = '1 RCNY § 103-14 (NYC Department of Buildings, effective 19 January 2023, amended 2024)';

/** How every number of this module was read: in quotations of the rule, not in the rule. */
export const ESPM_READ_AS =
  'read on 2026-11-28 in public quotations of 1 RCNY § 103-14, not in the rule itself: each number is quoted identically by at ' +
  'least three independent public sources naming the rule (emissions README, "Local Law 97: the rule\'s numbers, as quoted")';

/**
 * The public sources the numbers were read in on 2026-11-28, each naming the rule. Sources of one
 * project count once: `family` groups them. Library ids are those of the stored copies searched.
 */
export const ESPM_SOURCES = [
  {
    family: 'fineprint',
    where:
      'aayanAW/fineprint-manifesting-the-city lib/ll97/coefficients.ts and lib/ll97/constants.ts (ESPM_LIMITS, "verbatim from 1 RCNY ' +
      '§103-14(c)(3)"), its plan docs/superpowers/plans/2026-06-06-fineprint-v2-p0-deterministic-core.md (coefficients "1 RCNY ' +
      '§103-14(d)(3)(i)"), and the engine of aaravmin/fineprint (ESPM_FACTORS_TCO2E_PER_SQFT, "1 RCNY 103-14(d)(3)(i), (iii), and ' +
      '(iv)", verified 2026-06-06; library id 55306522682)',
    quotes:
      '60 types x 2024-2029, 2030-2034, 2035-2039; 2030-2034 electricity 0.000145, natural gas 0.00005311, steam 0.0000432, ' +
      '#2 fuel oil 0.00007421, #4 fuel oil 0.00007529',
  },
  {
    family: 'll97-emission-factors-py',
    where:
      'a Python module "LL97 Emission Factors by ESPM Property Type", EMISSION_FACTORS, "Source: 1 RCNY §103-14" (library id 52021391487)',
    quotes: '60 types x 2024, 2030, 2035, 2040 columns',
  },
  {
    family: 'compliance-screening-py',
    where:
      'a Python compliance-screening module, _LL97_ESPM_2024_2029 and _LL97_ESPM_2030_2034, "transcribed from 1 RCNY ' +
      '§103-14(c)(3)(i) (2024-2029) and (c)(3)(iii) (2030-2034)" (library id 69663135386)',
    quotes: '60 types x 2024-2029, 2030-2034',
  },
  {
    family: 'golden-tests',
    where: 'vitest golden tests, "ESPM spot checks against 1 RCNY §103-14(c)(3)" (library id 58101721154)',
    quotes: '10 types x 2024-2029 to 2040-2049',
  },
  {
    family: 'matthews-hotel-team',
    where: 'natnaelsolomon0101-sketch/matthews-hotel-team scripts/check-bps-math.mjs, read by its author on 2026-10-08',
    quotes: 'Hotel (c)(3) all four periods; 2030-2034 electricity 0.000145 ((d)(3)(ii)), natural gas 0.00005311',
  },
  {
    family: 'll84-transcript',
    where: 'notes locating the numbers in 1_RCNY_103-14.pdf (p. 50, "§103-14(d)(3)(ii)") (library id 57419311583)',
    quotes: '2030-2034 electricity 0.000145, steam 0.0000432',
  },
  {
    family: 'll97-constants-ts',
    where: 'a TypeScript "LL97 compliance constants" module citing "NYC DOB Rule §103-14, Appendix" (library id 58321262106)',
    quotes: '2030-2034 natural gas 0.00005311, #2 fuel oil 0.00007421; district steam 0.00006661 (disagrees)',
  },
] as const;

/** The rule's compliance periods whose limits per property type are quoted (2040-2049 has fewer than three sources). */
export const ESPM_PERIODS = ['2024-2029', '2030-2034', '2035-2039'] as const;
export type EspmPeriod = (typeof ESPM_PERIODS)[number];

/** The rule's period of a calendar year: null before 2024, and from 2040 (limits from 2040 are not confirmed). */
export function espmPeriodOf(year: number): EspmPeriod | null {
  if (!Number.isInteger(year) || year < 2024 || year > 2039) return null;
  return year <= 2029 ? '2024-2029' : year <= 2034 ? '2030-2034' : '2035-2039';
}

/** One property type's confirmed limits, tCO2e per sf of the type's gross floor area; a period absent is not confirmed. */
export type EspmLimits = Readonly<Partial<Record<EspmPeriod, number>>>;

const limits = (p2024: number, p2030: number, p2035?: number): EspmLimits =>
  p2035 === undefined ? { '2024-2029': p2024, '2030-2034': p2030 } : { '2024-2029': p2024, '2030-2034': p2030, '2035-2039': p2035 };

/**
 * 1 RCNY § 103-14(c)(3), tCO2e/sf, keyed by the exact ESPM property type name: 60 types for
 * 2024-2029 and 2030-2034 (three independent sources each), 11 of them for 2035-2039 (the only
 * ones three independent sources quote; the other 49 types' 2035-2039 limits are quoted by two).
 */
export const ESPM_LIMITS: Readonly<Record<string, EspmLimits>> = {
  'Adult Education': limits(0.00758, 0.003565528),
  'Ambulatory Surgical Center': limits(0.01181, 0.008980612),
  'Automobile Dealership': limits(0.00675, 0.002824097),
  'Bank Branch': limits(0.00987, 0.004036172, 0.003027129),
  'Bowling Alley': limits(0.00574, 0.003103815, 0.002327861),
  'College/University': limits(0.00987, 0.002099748),
  'Convenience Store without Gas Station': limits(0.00675, 0.003540032),
  Courthouse: limits(0.00426, 0.001480533),
  'Data Center': limits(0.02381, 0.014791131, 0.011093348),
  'Distribution Center': limits(0.00574, 0.0009916, 0.000549637),
  'Enclosed Mall': limits(0.01074, 0.003983803),
  'Financial Office': limits(0.00846, 0.003697004, 0.002772753),
  'Fitness Center/Health Club/Gym': limits(0.00987, 0.003946728),
  'Food Sales': limits(0.01181, 0.00520888),
  'Food Service': limits(0.01181, 0.007749414),
  'Hospital (General Medical & Surgical)': limits(0.02381, 0.007335204),
  Hotel: limits(0.00987, 0.003850668, 0.002640017),
  'K-12 School': limits(0.00675, 0.002230588),
  Laboratory: limits(0.02381, 0.026029868, 0.019522401),
  Library: limits(0.00675, 0.002218412),
  'Lifestyle Center': limits(0.00846, 0.00470585),
  'Mailing Center/Post Office': limits(0.00426, 0.00198044),
  'Manufacturing/Industrial Plant': limits(0.00758, 0.00141703),
  'Medical Office': limits(0.01074, 0.002912778),
  'Movie Theater': limits(0.01181, 0.005395268),
  'Multifamily Housing': limits(0.00675, 0.00334664, 0.002692183),
  Museum: limits(0.01181, 0.0053958),
  'Non-Refrigerated Warehouse': limits(0.00426, 0.000883187),
  Office: limits(0.00758, 0.002690852, 0.00165234),
  'Other - Education': limits(0.00846, 0.002934006),
  'Other - Entertainment/Public Assembly': limits(0.00987, 0.002956738),
  'Other - Lodging/Residential': limits(0.00758, 0.001901982),
  'Other - Mall': limits(0.01074, 0.001928226),
  'Other - Public Services': limits(0.00758, 0.003808033),
  'Other - Recreation': limits(0.00987, 0.00447957),
  'Other - Restaurant/Bar': limits(0.02381, 0.008505075),
  'Other - Services': limits(0.01074, 0.001823381),
  'Other - Specialty Hospital': limits(0.02381, 0.006321819),
  'Other - Technology/Science': limits(0.02381, 0.010446456),
  'Outpatient Rehabilitation/Physical Therapy': limits(0.01181, 0.006018323),
  Parking: limits(0.00426, 0.000214421),
  'Performing Arts': limits(0.00846, 0.002472539),
  'Personal Services (Health/Beauty, Dry Cleaning, etc.)': limits(0.00574, 0.004843037),
  'Pre-school/Daycare': limits(0.00675, 0.002362874),
  'Refrigerated Warehouse': limits(0.00987, 0.002852131),
  'Repair Services (Vehicle, Shoe, Locksmith, etc.)': limits(0.00426, 0.002210699),
  'Residence Hall/Dormitory': limits(0.00758, 0.002464089),
  'Residential Care Facility': limits(0.01138, 0.004893124),
  Restaurant: limits(0.01181, 0.004038374),
  'Retail Store': limits(0.00758, 0.00210449),
  'Self-Storage Facility': limits(0.00426, 0.00061183),
  'Senior Care Community': limits(0.01138, 0.004410123),
  'Social/Meeting Hall': limits(0.00987, 0.003833108),
  'Strip Mall': limits(0.01181, 0.001361842, 0.000600493),
  'Supermarket/Grocery Store': limits(0.02381, 0.00675519),
  'Transportation Terminal/Station': limits(0.00426, 0.000571669),
  'Urgent Care/Clinic/Other Outpatient': limits(0.01181, 0.005772375),
  'Vocational School': limits(0.00574, 0.004613122),
  'Wholesale Club/Supercenter': limits(0.01138, 0.004264962),
  'Worship Facility': limits(0.00574, 0.001230602, 0.000866921),
};

/**
 * Portfolio Manager's web-services spellings (property-types.ts, what a property's uses are stored
 * as) of the three types the rule's table, as quoted, spells otherwise: the same types, written
 * "Other - Specialty Hospital" and "etc." in Portfolio Manager's interface and the quotations.
 */
export const ESPM_NAME_OF_STORED_TYPE: Readonly<Record<string, string>> = {
  'Other/Specialty Hospital': 'Other - Specialty Hospital',
  'Personal Services (Health/Beauty, Dry Cleaning, etc)': 'Personal Services (Health/Beauty, Dry Cleaning, etc.)',
  'Repair Services (Vehicle, Shoe, Locksmith, etc)': 'Repair Services (Vehicle, Shoe, Locksmith, etc.)',
};

/** The rule's spelling of a stored Portfolio Manager property type (the name itself where the two agree). */
export const espmNameOf = (storedType: string): string => ESPM_NAME_OF_STORED_TYPE[storedType] ?? storedType;

/** The confirmed ESPM property type names, as the rule's table spells them (for validating a property's uses). */
export const ESPM_PROPERTY_TYPES: readonly string[] = Object.keys(ESPM_LIMITS);

export const isEspmPropertyType = (name: string): boolean => Object.prototype.hasOwnProperty.call(ESPM_LIMITS, name);

/** A greenhouse gas coefficient: tCO2e per unit of energy. */
export interface RuleCoefficient {
  value: number;
  unit: 'tCO2e/kWh' | 'tCO2e/kBtu';
  item: string;
}

/**
 * 1 RCNY § 103-14(d)(3)(ii), the 2030-2034 coefficients that were confirmed: utility electricity
 * and natural gas. District steam (0.0000432 tCO2e/kBtu in two sources naming the rule, 0.00006661
 * in a third) and #2 and #4 fuel oil (fewer than three sources naming the rule) are not confirmed
 * and absent (`COEFFICIENTS_2030_2034_NOT_CONFIRMED`).
 */
export const COEFFICIENTS_2030_2034 = {
  electric: { value: 0.000145, unit: 'tCO2e/kWh', item: '1 RCNY § 103-14(d)(3)(ii), utility electricity, 2030-2034' },
  gas: { value: 0.00005311, unit: 'tCO2e/kBtu', item: '1 RCNY § 103-14(d)(3)(ii), natural gas, 2030-2034' },
} as const satisfies Record<string, RuleCoefficient>;

/** Where the 2030-2034 coefficients were read (for an answer's sources). */
export const COEFFICIENTS_2030_2034_SOURCE =
  `${ESPM_RULE} (d)(3)(ii) (greenhouse gas coefficients for calendar years 2030 through 2034): utility electricity 0.000145 ` +
  `tCO2e/kWh, natural gas 0.00005311 tCO2e/kBtu; ${ESPM_READ_AS}`;

/** The 2030-2034 coefficients the rule sets that could not be confirmed, with why. */
export const COEFFICIENTS_2030_2034_NOT_CONFIRMED = {
  steam:
    'district steam: 0.0000432 tCO2e/kBtu in two independent sources naming 1 RCNY § 103-14(d)(3)(ii), 0.00006661 in a third ' +
    'naming the rule: the sources disagree',
  fuel_oil_2: '#2 fuel oil: 0.00007421 tCO2e/kBtu in only two independent sources naming the rule',
  fuel_oil_4: '#4 fuel oil: 0.00007529 tCO2e/kBtu in only one source naming the rule',
} as const satisfies Partial<Record<Ll97CountedType, string>>;

/** One use of the building: an ESPM property type and its gross floor area (sf). */
export interface EspmUse {
  propertyType: string;
  grossFloorArea: number;
}

export interface EspmLimitLine {
  property_type: string;
  gross_floor_area: number;
  /** tCO2e per sf of the type's gross floor area. */
  intensity_limit: number;
  /** intensity_limit x gross_floor_area, to the kilogram. */
  tco2e: number;
  source: string;
}

export type EspmLimitAnswer =
  | { status: 'computed'; period: EspmPeriod; limit_tco2e: number; lines: EspmLimitLine[] }
  /** Some use's type has no confirmed limit for the period (an unknown name, or 2035-2039 not confirmed for it). */
  | { status: 'not_confirmed'; period: EspmPeriod; not_confirmed: string[]; reason: string }
  /** Before 2024 the rule sets no limit; from 2040 its limits are not confirmed. */
  | { status: 'no_period'; period: null; reason: string }
  | { status: 'no_uses'; period: EspmPeriod; reason: string };

/**
 * A building's annual emissions limit by the rule (1 RCNY § 103-14(c)(3)) for `year`: each use's
 * property type's limit for the period times its gross floor area, summed over the uses (the rule
 * sums a mixed-use building's uses), to the kilogram. Every use must have a positive, finite gross
 * floor area (a RangeError otherwise: the caller validates input first). A use whose type has no
 * confirmed limit for the period makes the answer `not_confirmed`, naming every such type: the
 * other uses' sum alone would understate the limit (and overstate any penalty), so none is given.
 */
export function espmLimit(uses: readonly EspmUse[], year: number): EspmLimitAnswer {
  for (const u of uses) {
    if (!Number.isFinite(u.grossFloorArea) || u.grossFloorArea <= 0) {
      throw new RangeError(`gross floor area of "${u.propertyType}" must be a positive number of square feet`);
    }
  }
  const period = espmPeriodOf(year);
  if (period === null) {
    return {
      status: 'no_period',
      period: null,
      reason:
        year < 2024
          ? `${year} is before the rule's first period (2024-2029): no limit applies`
          : `the rule's limits for ${year} (from 2040) are not confirmed: fewer than three independent sources quote them`,
    };
  }
  if (!uses.length) return { status: 'no_uses', period, reason: 'no property uses: the limit is the sum over the uses' };
  const missing = [...new Set(uses.filter((u) => limitOf(u.propertyType, period) === undefined).map((u) => u.propertyType))];
  if (missing.length) {
    return {
      status: 'not_confirmed',
      period,
      not_confirmed: missing,
      reason:
        `no confirmed ${period} limit for ${missing.map((m) => `"${m}"`).join(', ')}: ` +
        (period === '2035-2039'
          ? 'the 2035-2039 limits of only 11 property types are quoted by three independent sources, and names must match the rule exactly'
          : "the name is not one of the rule's 60 ESPM property types as confirmed (names must match exactly)"),
    };
  }
  const lines = uses.map((u) => {
    const value = limitOf(u.propertyType, period)!;
    return {
      property_type: u.propertyType,
      gross_floor_area: u.grossFloorArea,
      intensity_limit: value,
      tco2e: roundTons(value * u.grossFloorArea),
      source: `${ESPM_RULE} (c)(3), ${period}, "${u.propertyType}" ${value} tCO2e/sf; ${ESPM_READ_AS}`,
    };
  });
  const limit = roundTons(uses.reduce((sum, u) => sum + limitOf(u.propertyType, period)! * u.grossFloorArea, 0));
  return { status: 'computed', period, limit_tco2e: limit, lines };
}

function limitOf(propertyType: string, period: EspmPeriod): number | undefined {
  return isEspmPropertyType(propertyType) ? ESPM_LIMITS[propertyType]![period] : undefined;
}
