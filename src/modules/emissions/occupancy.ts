/**
 * New York City Building Code occupancy groups as Local Law 97 names them (§ 28-320.3.1 and
 * § 28-320.3.2 items 1 to 10), and the 2024-2029 intensity limits the city publishes for them.
 * Pure data (README "Local Law 97").
 */
export const OCCUPANCY_GROUPS = [
  'A',
  'B',
  'B-ambulatory-health',
  'E',
  'F',
  'H',
  'I-1',
  'I-2',
  'I-3',
  'I-4',
  'M',
  'R-1',
  'R-2',
  'S',
  'U',
] as const;
export type OccupancyGroup = (typeof OCCUPANCY_GROUPS)[number];

/** Where each limit below was read, on 2026-11-28. */
export const LIMIT_SOURCES = {
  law2030:
    'NYC Administrative Code § 28-320.3.2 (building emissions limits for calendar years 2030 through 2034), ' +
    'codelibrary.amlegal.com/codes/newyorkcity/latest/NYCadmin/0-0-0-224092 (tCO2e/sf)',
  dob:
    'NYC Department of Buildings, "Greenhouse Gas Emission Reporting" (www1.nyc.gov/site/buildings/business/greenhouse-gas-emission-reporting.page), ' +
    'table "Building emissions limits for calendar years 2024 through 2029" (tCO2e/sf)',
  sustainable:
    'NYC Sustainable Buildings, "Covered Buildings" (www1.nyc.gov/site/sustainablebuildings/requirements/covered-buildings.page), ' +
    'table "Carbon Emission Standards by Occupancy and Space Use" (kgCO2e/sf)',
} as const;

/**
 * 2024-2029 building emissions intensity limits, tCO2e per sf of the group's gross floor area, as
 * the city publishes them. H, I-1, I-2, I-3 and U could not be read from either page: absent, so a
 * building with such space gets no limit rather than a guessed one.
 */
export const LIMITS_2024_2029: LimitTable = {
  A: { value: 0.01074, source: 'dob', label: 'item 1, occupancy group A (assembly)' },
  B: { value: 0.00846, source: 'dob', label: 'item 2, occupancy group B other than item 6 (business: office)' },
  E: { value: 0.00758, source: 'dob', label: 'item 3, occupancy groups E and I-4 (educational)' },
  'I-4': { value: 0.00758, source: 'dob', label: 'item 3, occupancy groups E and I-4' },
  'B-ambulatory-health': { value: 0.02381, source: 'sustainable', label: 'B: ambulatory health (medical office), 23.81 kgCO2e/sf' },
  M: { value: 0.01181, source: 'sustainable', label: 'M: mercantile (retail), 11.81 kgCO2e/sf' },
  'R-1': { value: 0.00987, source: 'sustainable', label: 'R1: hotel, 9.87 kgCO2e/sf' },
  'R-2': { value: 0.00675, source: 'sustainable', label: 'R2: residential (multifamily housing), 6.75 kgCO2e/sf' },
  F: { value: 0.00574, source: 'sustainable', label: 'F: factory, 5.74 kgCO2e/sf' },
  S: { value: 0.00426, source: 'sustainable', label: 'S: storage (warehouse), 4.26 kgCO2e/sf' },
};

/** A limit table: tCO2e per sf of a group's gross floor area, with where it was read. */
export type LimitTable = Partial<Record<OccupancyGroup, { value: number; source: keyof typeof LIMIT_SOURCES; label: string }>>;

/**
 * 2030-2034 building emissions intensity limits as the law itself sets them (§ 28-320.3.2 items 1
 * to 4; the text read ended in item 5). Items 5 to 10 (F; H, I-2, I-3; M; R-1; R-2; S, U) could not
 * be read: absent. The law lets the department set different limits by rule (1 RCNY § 103-14 sets
 * limits per Portfolio Manager property type), which could not be confirmed.
 */
export const LIMITS_2030_2034: LimitTable = {
  A: { value: 0.0042, source: 'law2030', label: 'item 1, occupancy group A, 0.00420 tCO2e/sf' },
  B: { value: 0.00453, source: 'law2030', label: 'item 2, occupancy group B other than as described in item 6, 0.00453 tCO2e/sf' },
  E: { value: 0.00344, source: 'law2030', label: 'item 3, occupancy groups E and I-4, 0.00344 tCO2e/sf' },
  'I-4': { value: 0.00344, source: 'law2030', label: 'item 3, occupancy groups E and I-4, 0.00344 tCO2e/sf' },
  'I-1': { value: 0.00598, source: 'law2030', label: 'item 4, occupancy group I-1, 0.00598 tCO2e/sf' },
};
