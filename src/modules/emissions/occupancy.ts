/**
 * New York City Building Code occupancy groups as Local Law 97 names them (§ 28-320.3.1 and
 * § 28-320.3.2 items 1 to 10), and the law's building emissions intensity limits for them in both
 * periods. Pure data (README "Local Law 97").
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
  law2024:
    'NYC Administrative Code § 28-320.3.1 (annual building emissions limits 2024-2029), as added by Local Law 97 of 2019 ' +
    '(Int. No. 1253-C, enacted text as the City Council publishes it on Legistar; Local Law 147 of 2019 did not amend this ' +
    'section) (tCO2e/sf)',
  law2030:
    'NYC Administrative Code § 28-320.3.2 (building emissions limits for calendar years 2030 through 2034), as added by Local ' +
    'Law 97 of 2019 and amended by Local Law 147 of 2019 (Int. No. 1619, § 7: item 6 from 0.01193 to 0.01330), the enacted ' +
    'texts as the City Council publishes them on Legistar; the opening paragraph and items 1 to 4 also read at ' +
    'codelibrary.amlegal.com/codes/newyorkcity/latest/NYCadmin/0-0-0-224092 (tCO2e/sf)',
  dob:
    'NYC Department of Buildings, "Greenhouse Gas Emission Reporting" (www1.nyc.gov/site/buildings/business/greenhouse-gas-emission-reporting.page), ' +
    'table "Building emissions limits for calendar years 2024 through 2029" (tCO2e/sf)',
  sustainable:
    'NYC Sustainable Buildings, "Covered Buildings" (www1.nyc.gov/site/sustainablebuildings/requirements/covered-buildings.page), ' +
    'table "Carbon Emission Standards by Occupancy and Space Use" (kgCO2e/sf)',
} as const;

/** One group's intensity limit: tCO2e per sf of the group's gross floor area, with the law's item it is read from. */
export interface IntensityLimit {
  value: number;
  source: keyof typeof LIMIT_SOURCES;
  label: string;
}

/** A limit table: every occupancy group has its limit (the law sets one for each), so none can be missing. */
export type LimitTable = Readonly<Record<OccupancyGroup, IntensityLimit>>;

const item2024 = (label: string, value: number, city?: string): IntensityLimit => ({
  value,
  source: 'law2024',
  label: `${label}, ${value.toFixed(5)} tCO2e/sf${city ? ` (${city})` : ''}`,
});

/**
 * 2024-2029 building emissions intensity limits, § 28-320.3.1 items 1 to 10, tCO2e per sf. Where a
 * city page gives the same number it is named (a second source); H, I-1, I-2, I-3 and U are in the
 * law's text only. Item 6 also names B civic administrative facilities for emergency response
 * services and B non-production laboratories, which have no group of their own here (README).
 */
export const LIMITS_2024_2029: LimitTable = {
  A: item2024('item 1, occupancy group A', 0.01074, 'the DOB table gives the same'),
  B: item2024('item 2, occupancy group B other than as described in item 6', 0.00846, 'the DOB table gives the same'),
  E: item2024('item 3, occupancy groups E and I-4', 0.00758, 'the DOB table gives the same'),
  'I-4': item2024('item 3, occupancy groups E and I-4', 0.00758, 'the DOB table gives the same'),
  'I-1': item2024('item 4, occupancy group I-1', 0.01138),
  F: item2024('item 5, occupancy group F', 0.00574, 'Sustainable Buildings: factory 5.74 kgCO2e/sf'),
  'B-ambulatory-health': item2024(
    'item 6, occupancy group B ambulatory health care facility (with H, I-2 and I-3)',
    0.02381,
    'Sustainable Buildings: ambulatory health 23.81 kgCO2e/sf',
  ),
  H: item2024('item 6, occupancy group H (with B ambulatory health care facility, I-2 and I-3)', 0.02381),
  'I-2': item2024('item 6, occupancy group I-2 (with B ambulatory health care facility, H and I-3)', 0.02381),
  'I-3': item2024('item 6, occupancy group I-3 (with B ambulatory health care facility, H and I-2)', 0.02381),
  M: item2024('item 7, occupancy group M', 0.01181, 'Sustainable Buildings: retail 11.81 kgCO2e/sf'),
  'R-1': item2024('item 8, occupancy group R-1', 0.00987, 'Sustainable Buildings: hotel 9.87 kgCO2e/sf'),
  'R-2': item2024('item 9, occupancy group R-2', 0.00675, 'Sustainable Buildings: multifamily 6.75 kgCO2e/sf'),
  S: item2024('item 10, occupancy groups S and U', 0.00426, 'Sustainable Buildings: storage 4.26 kgCO2e/sf'),
  U: item2024('item 10, occupancy groups S and U', 0.00426),
};

const item2030 = (label: string, value: number): IntensityLimit => ({
  value,
  source: 'law2030',
  label: `${label}, ${value.toFixed(5)} tCO2e/sf`,
});

/**
 * 2030-2034 building emissions intensity limits as the law itself sets them, § 28-320.3.2 items 1
 * to 10 (item 6 as amended by Local Law 147 of 2019). The law lets the department set different
 * limits by rule (1 RCNY § 103-14 sets limits per Portfolio Manager property type), which could not
 * be confirmed; the answer says so in a note.
 */
export const LIMITS_2030_2034: LimitTable = {
  A: item2030('item 1, occupancy group A', 0.0042),
  B: item2030('item 2, occupancy group B other than as described in item 6', 0.00453),
  E: item2030('item 3, occupancy groups E and I-4', 0.00344),
  'I-4': item2030('item 3, occupancy groups E and I-4', 0.00344),
  'I-1': item2030('item 4, occupancy group I-1', 0.00598),
  F: item2030('item 5, occupancy group F', 0.00167),
  'B-ambulatory-health': item2030(
    'item 6 (as amended by Local Law 147 of 2019), occupancy group B ambulatory health care facility',
    0.0133,
  ),
  H: item2030('item 6 (as amended by Local Law 147 of 2019), occupancy group H', 0.0133),
  'I-2': item2030('item 6 (as amended by Local Law 147 of 2019), occupancy group I-2', 0.0133),
  'I-3': item2030('item 6 (as amended by Local Law 147 of 2019), occupancy group I-3', 0.0133),
  M: item2030('item 7, occupancy group M', 0.00403),
  'R-1': item2030('item 8, occupancy group R-1', 0.00526),
  'R-2': item2030('item 9, occupancy group R-2', 0.00407),
  S: item2030('item 10, occupancy groups S and U', 0.0011),
  U: item2030('item 10, occupancy groups S and U', 0.0011),
};
