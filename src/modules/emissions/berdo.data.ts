/**
 * The numbers of Boston BERDO 2.0 (City of Boston Code § 7-2.2) this service uses, each cited in
 * the emissions README ("Boston BERDO 2.0") with the date read (2026-11-28) and whether it was read in the law itself or confirmed by
 * two independent secondary sources naming the city's document. What could not be confirmed is
 * absent: no placeholder stands in for it. Pure data; berdo.calc.ts computes with it.
 */

/** The building uses of the ordinance's Table 1, spelled as the table spells them. */
export const BERDO_BUILDING_USES = [
  'Assembly',
  'College/university',
  'Education',
  'Food sales and service',
  'Healthcare',
  'Lodging',
  'Manufacturing/industrial',
  'Multi-family housing',
  'Office',
  'Retail',
  'Services',
  'Storage',
  'Technology/science',
] as const;
export type BerdoBuildingUse = (typeof BERDO_BUILDING_USES)[number];

/** Table 1's compliance periods; the last has no end. */
export const BERDO_PERIODS = ['2025-2029', '2030-2034', '2035-2039', '2040-2044', '2045-2049', '2050-'] as const;
export type BerdoPeriod = (typeof BERDO_PERIODS)[number];

/**
 * § 7-2.2, Table 1 "CO2e Emissions Standards by Building Use", kgCO2e/sf/yr, in tenths (53 = 5.3) so
 * that a limit is exact: one value per period of BERDO_PERIODS.
 */
export const BERDO_STANDARDS_TENTHS: Readonly<Record<BerdoBuildingUse, readonly number[]>> = {
  Assembly: [78, 46, 33, 21, 11, 0],
  'College/university': [102, 53, 38, 25, 12, 0],
  Education: [39, 24, 18, 12, 6, 0],
  'Food sales and service': [174, 109, 80, 54, 27, 0],
  Healthcare: [154, 100, 74, 49, 24, 0],
  Lodging: [58, 37, 27, 18, 9, 0],
  'Manufacturing/industrial': [239, 153, 109, 67, 32, 0],
  'Multi-family housing': [41, 24, 18, 11, 6, 0],
  Office: [53, 32, 24, 16, 8, 0],
  Retail: [71, 34, 24, 15, 7, 0],
  Services: [75, 45, 33, 22, 11, 0],
  Storage: [54, 28, 18, 10, 4, 0],
  'Technology/science': [192, 111, 78, 51, 25, 0],
};

/** Table 1 in kgCO2e/sf/yr, per building use, one value per period of BERDO_PERIODS. */
const standards = {} as Record<BerdoBuildingUse, readonly number[]>;
for (const use of BERDO_BUILDING_USES) standards[use] = BERDO_STANDARDS_TENTHS[use].map((t) => t / 10);
export const BERDO_EMISSIONS_STANDARDS: Readonly<Record<BerdoBuildingUse, readonly number[]>> = standards;

/**
 * Portfolio Manager property types, spelled as property-types.ts stores them (Portfolio Manager's
 * web-services names: "Other/Specialty Hospital", "Locksmith, etc)"), by BERDO building use: only
 * the types on which two independent public BERDO calculators agree (emissions README, BERDO "Portfolio Manager
 * types"). Types they map differently (Residential Care Facility, Senior Living Community, Single
 * Family Home, Prison/Incarceration) and types only one of them maps are absent.
 */
const TYPES_BY_USE: Readonly<Record<BerdoBuildingUse, readonly string[]>> = {
  Assembly: [
    'Convention Center',
    'Fitness Center/Health Club/Gym',
    'Ice/Curling Rink',
    'Indoor Arena',
    'Movie Theater',
    'Museum',
    'Other - Entertainment/Public Assembly',
    'Other - Recreation',
    'Other - Stadium',
    'Performing Arts',
    'Race Track',
    'Social/Meeting Hall',
    'Stadium (Open)',
    'Worship Facility',
    'Zoo',
  ],
  'College/university': ['College/University'],
  Education: ['Adult Education', 'K-12 School', 'Other - Education', 'Pre-school/Daycare', 'Vocational School'],
  'Food sales and service': [
    'Bar/Nightclub',
    'Fast Food Restaurant',
    'Food Sales',
    'Food Service',
    'Restaurant',
    'Supermarket/Grocery Store',
  ],
  Healthcare: [
    'Ambulatory Surgical Center',
    'Hospital (General Medical & Surgical)',
    'Medical Office',
    'Other/Specialty Hospital',
    'Outpatient Rehabilitation/Physical Therapy',
    'Urgent Care/Clinic/Other Outpatient',
  ],
  Lodging: ['Hotel', 'Other - Lodging/Residential', 'Residence Hall/Dormitory'],
  'Manufacturing/industrial': ['Manufacturing/Industrial Plant'],
  'Multi-family housing': ['Multifamily Housing'],
  Office: ['Financial Office', 'Office'],
  Retail: [
    'Automobile Dealership',
    'Bank Branch',
    'Enclosed Mall',
    'Other - Mall',
    'Retail Store',
    'Strip Mall',
    'Wholesale Club/Supercenter',
  ],
  Services: [
    'Convenience Store without Gas Station',
    'Courthouse',
    'Energy/Power Station',
    'Fire Station',
    'Library',
    'Other - Public Services',
    'Other - Services',
    'Other - Utility',
    'Police Station',
    'Repair Services (Vehicle, Shoe, Locksmith, etc)',
  ],
  Storage: ['Distribution Center', 'Non-Refrigerated Warehouse', 'Refrigerated Warehouse', 'Self-Storage Facility'],
  'Technology/science': ['Data Center', 'Laboratory', 'Other - Technology/Science'],
};

/** Portfolio Manager property type to BERDO building use (the confirmed entries only). */
export const PM_TYPE_TO_BERDO_USE: Readonly<Record<string, BerdoBuildingUse>> = Object.fromEntries(
  BERDO_BUILDING_USES.flatMap((use) => TYPES_BY_USE[use].map((t) => [t, use])),
);

/**
 * The city's "BERDO Emissions Factors List": natural gas and default district steam in kgCO2e/MMBtu
 * (Portfolio Manager's factors, which the list adopts), and the projected ISO New England grid
 * factor E in kgCO2e/MWh for the years on which the sources agree (2025, 2026; later years differ
 * between versions of the list, so they are absent). Electricity is U x (1 - R) x E, R the
 * Massachusetts RPS Class I share of the year (rpsClassIPercent).
 */
export const BERDO_FACTORS = {
  gasKgPerMmbtu: 53.11,
  steamKgPerMmbtu: 66.4,
  gridKgPerMwh: { 2025: 249, 2026: 242 } as Readonly<Record<number, number>>,
} as const;

/** The calendar years whose whole factor set (gas, default steam, grid) is confirmed. */
export const BERDO_FACTOR_YEARS: readonly number[] = Object.keys(BERDO_FACTORS.gridKgPerMwh).map(Number);

/** The alternative compliance payment, $ per metric ton CO2e over the standard, in cents. */
export const BERDO_ACP_CENTS_PER_TON = 234_00;

/** Where each number was read (the emissions README, "Boston BERDO 2.0", gives the detail). */
export const BERDO_SOURCES = {
  standards:
    'City of Boston Code § 7-2.2, Table 1 "CO2e Emissions Standards by Building Use" (kgCO2e/SF/yr), read 2026-11-28 in a public copy ' +
    'of the ordinance (tenantwiki.com/documents/401730); office 5.3 and manufacturing 23.9 for 2025-2029 agree with Facilities Dive',
  blending:
    '§ 7-2.2: a building reports several primary uses when each has at least 10 % of its floor area (or 10 % of its energy or ' +
    'emissions); a mixed-use building has a blended standard by the floor area of each use (§ 7-2.2 (L); National Law Review)',
  uses: 'Portfolio Manager types mapped alike by two independent public BERDO calculators (emissions README, BERDO); the regulations themselves not read',
  factors:
    'BERDO Emissions Factors List (City of Boston): natural gas 53.11 and district steam 66.40 kgCO2e/MMBtu, projected grid factor ' +
    '2025 249 and 2026 242 kgCO2e/MWh, electricity = U x (1 - RPS Class I) x E; not read in the city text, confirmed by two ' +
    'independent secondary sources each (emissions README, BERDO)',
  rps: 'M.G.L. c. 25A § 11F(a), the Massachusetts RPS Class I schedule (2025 27 %, 2026 30 %), read 2026-11-28',
  acp:
    'Alternative compliance payment $234 per metric ton CO2e (ordinance § 7-2.2 as two independent calculators cite it; the ' +
    "ordinance's definition read: a per-metric-ton payment based on the average cost to decarbonize buildings)",
} as const;
