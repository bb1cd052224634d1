import { readCsv, REFERENCE_DIR } from '../utilities/reference';
import { countyKey } from '../utilities/counties';
import { ZIP_STATES_FILE } from '../utilities/zip-states';

/**
 * A property's time zone (README "Time zone"): an IANA name, by default derived from its ZIP code's
 * state and county (GeoNames) with the county lines of the US standard time zone boundaries,
 * 49 CFR Part 71 (https://www.ecfr.gov/current/title-49/subtitle-A/part-71), as the IANA tz
 * database's zones for them (https://data.iana.org/time-zones/tzdb/zone1970.tab).
 */

/** The zone of a state (or territory) when none of its county rules applies. */
const STATE_ZONES: Record<string, string> = {
  CT: 'America/New_York',
  DE: 'America/New_York',
  DC: 'America/New_York',
  GA: 'America/New_York',
  ME: 'America/New_York',
  MD: 'America/New_York',
  MA: 'America/New_York',
  NH: 'America/New_York',
  NJ: 'America/New_York',
  NY: 'America/New_York',
  NC: 'America/New_York',
  OH: 'America/New_York',
  PA: 'America/New_York',
  RI: 'America/New_York',
  SC: 'America/New_York',
  VT: 'America/New_York',
  VA: 'America/New_York',
  WV: 'America/New_York',
  FL: 'America/New_York',
  KY: 'America/New_York',
  TN: 'America/Chicago',
  MI: 'America/Detroit',
  IN: 'America/Indiana/Indianapolis',
  AL: 'America/Chicago',
  AR: 'America/Chicago',
  IL: 'America/Chicago',
  IA: 'America/Chicago',
  LA: 'America/Chicago',
  MN: 'America/Chicago',
  MS: 'America/Chicago',
  MO: 'America/Chicago',
  OK: 'America/Chicago',
  WI: 'America/Chicago',
  TX: 'America/Chicago',
  KS: 'America/Chicago',
  NE: 'America/Chicago',
  ND: 'America/Chicago',
  SD: 'America/Chicago',
  CO: 'America/Denver',
  MT: 'America/Denver',
  NM: 'America/Denver',
  UT: 'America/Denver',
  WY: 'America/Denver',
  ID: 'America/Boise',
  AZ: 'America/Phoenix',
  CA: 'America/Los_Angeles',
  NV: 'America/Los_Angeles',
  OR: 'America/Los_Angeles',
  WA: 'America/Los_Angeles',
  AK: 'America/Anchorage',
  HI: 'Pacific/Honolulu',
  PR: 'America/Puerto_Rico',
  VI: 'America/St_Thomas',
  GU: 'Pacific/Guam',
  MP: 'Pacific/Saipan',
  AS: 'Pacific/Pago_Pago',
  UM: 'Pacific/Honolulu',
};

/** Counties of a split state in another zone than the state's (the zone boundaries of 49 CFR Part 71). */
export const COUNTY_ZONES: Record<string, { zone: string; counties: string[] }[]> = {
  // Florida west of the Apalachicola River is central (Gulf County: see ZIP_ZONES).
  FL: [
    {
      zone: 'America/Chicago',
      counties: ['Bay', 'Calhoun', 'Escambia', 'Gulf', 'Holmes', 'Jackson', 'Okaloosa', 'Santa Rosa', 'Walton', 'Washington'],
    },
  ],
  // Indiana's northwest (Chicago) and southwest (Evansville) counties, central since 2006/2007.
  IN: [
    {
      zone: 'America/Chicago',
      counties: [
        'Gibson',
        'Jasper',
        'Lake',
        'La Porte',
        'Newton',
        'Perry',
        'Porter',
        'Posey',
        'Spencer',
        'Starke',
        'Vanderburgh',
        'Warrick',
      ],
    },
  ],
  // Kentucky west of the line through Meade, Hardin, Hart, ... is central (Wayne moved to eastern in 2000).
  KY: [
    {
      zone: 'America/Chicago',
      counties: [
        'Adair',
        'Allen',
        'Ballard',
        'Barren',
        'Breckinridge',
        'Butler',
        'Caldwell',
        'Calloway',
        'Carlisle',
        'Christian',
        'Clinton',
        'Crittenden',
        'Cumberland',
        'Daviess',
        'Edmonson',
        'Fulton',
        'Graves',
        'Grayson',
        'Green',
        'Hancock',
        'Hart',
        'Henderson',
        'Hickman',
        'Hopkins',
        'Livingston',
        'Logan',
        'Lyon',
        'Marshall',
        'McCracken',
        'McLean',
        'Metcalfe',
        'Monroe',
        'Muhlenberg',
        'Ohio',
        'Russell',
        'Simpson',
        'Todd',
        'Trigg',
        'Union',
        'Warren',
        'Webster',
      ],
    },
  ],
  // The four Upper Peninsula counties on the Wisconsin line are central.
  MI: [{ zone: 'America/Menominee', counties: ['Dickinson', 'Gogebic', 'Iron', 'Menominee'] }],
  // East Tennessee is eastern.
  TN: [
    {
      zone: 'America/New_York',
      counties: [
        'Anderson',
        'Blount',
        'Bradley',
        'Campbell',
        'Carter',
        'Claiborne',
        'Cocke',
        'Grainger',
        'Greene',
        'Hamblen',
        'Hamilton',
        'Hancock',
        'Hawkins',
        'Jefferson',
        'Johnson',
        'Knox',
        'Loudon',
        'McMinn',
        'Meigs',
        'Monroe',
        'Morgan',
        'Polk',
        'Rhea',
        'Roane',
        'Scott',
        'Sevier',
        'Sullivan',
        'Unicoi',
        'Union',
        'Washington',
      ],
    },
  ],
  // The mountain-central line through the Plains states and Texas.
  KS: [{ zone: 'America/Denver', counties: ['Greeley', 'Hamilton', 'Sherman', 'Wallace'] }],
  NE: [
    {
      zone: 'America/Denver',
      counties: [
        'Arthur',
        'Banner',
        'Box Butte',
        'Chase',
        'Cheyenne',
        'Dawes',
        'Deuel',
        'Dundy',
        'Garden',
        'Grant',
        'Hooker',
        'Keith',
        'Kimball',
        'Morrill',
        'Perkins',
        'Scotts Bluff',
        'Sheridan',
        'Sioux',
      ],
    },
  ],
  ND: [
    {
      zone: 'America/Denver',
      counties: ['Adams', 'Billings', 'Bowman', 'Dunn', 'Golden Valley', 'Grant', 'Hettinger', 'Sioux', 'Slope', 'Stark'],
    },
  ],
  SD: [
    {
      zone: 'America/Denver',
      counties: [
        'Bennett',
        'Butte',
        'Corson',
        'Custer',
        'Dewey',
        'Fall River',
        'Haakon',
        'Harding',
        'Jackson',
        'Lawrence',
        'Meade',
        'Oglala Lakota',
        'Pennington',
        'Perkins',
        'Stanley',
        'Ziebach',
      ],
    },
  ],
  TX: [{ zone: 'America/Denver', counties: ['El Paso', 'Hudspeth'] }],
  // Idaho north of the Salmon River and Malheur County, Oregon.
  ID: [
    {
      zone: 'America/Los_Angeles',
      counties: ['Benewah', 'Bonner', 'Boundary', 'Clearwater', 'Idaho', 'Kootenai', 'Latah', 'Lewis', 'Nez Perce', 'Shoshone'],
    },
  ],
  OR: [{ zone: 'America/Boise', counties: ['Malheur'] }],
};

/**
 * Single ZIP codes the county rules get wrong: Port St. Joe, Gulf County FL (the county's south
 * of the Intracoastal Waterway is eastern); West Wendover and Jackpot NV (mountain by
 * local observance); the Navajo Nation in Arizona (observes
 * daylight saving time, unlike the rest of the state: tz zone America/Denver).
 */
export const ZIP_ZONES: Record<string, string> = {
  32456: 'America/New_York',
  32457: 'America/New_York',
  89883: 'America/Denver',
  89825: 'America/Denver',
  ...Object.fromEntries(
    [
      '86503',
      '86504',
      '86505',
      '86507',
      '86508',
      '86510',
      '86511',
      '86514',
      '86515',
      '86535',
      '86538',
      '86540',
      '86544',
      '86545',
      '86547',
      '86556',
      '86020',
      '86031',
      '86033',
      '86035',
      '86044',
      '86045',
      '86053',
      '86054',
      '86506',
      '86520',
    ].map((z) => [z, 'America/Denver']),
  ),
};

/** Aleutians west of 169° 30' W keep Hawaii-Aleutian time (America/Adak). */
const ADAK_LONGITUDE = -169.5;

interface ZipPlace {
  state: string;
  county: string;
  longitude: number;
}

export function loadZipPlaces(dir?: string): Map<string, ZipPlace> {
  const out = new Map<string, ZipPlace>();
  for (const r of readCsv(dir ?? REFERENCE_DIR, ZIP_STATES_FILE)) {
    const zip = r.postal_code?.trim();
    const state = r.admin_code1?.trim();
    if (!zip || !/^\d{5}$/.test(zip) || !state) continue;
    out.set(zip, { state, county: r.admin_name2?.trim() ?? '', longitude: Number(r.longitude) });
  }
  return out;
}

const countyZones = new Map<string, string>();
for (const [state, groups] of Object.entries(COUNTY_ZONES)) {
  for (const g of groups) for (const c of g.counties) countyZones.set(`${state}|${countyKey(c)}`, g.zone);
}

/** The zone of a place: ZIP exceptions, then the county rules, then the state's zone (null: a state not known). */
export function zoneOf(zip: string, state: string, place?: ZipPlace): string | null {
  const exception = ZIP_ZONES[zip];
  if (exception) return exception;
  if (place && place.state === state) {
    if (state === 'AK' && place.longitude < ADAK_LONGITUDE) return 'America/Adak';
    const byCounty = countyZones.get(`${state}|${countyKey(place.county)}`);
    if (byCounty) return byCounty;
  }
  return STATE_ZONES[state] ?? null;
}

let places: Map<string, ZipPlace> | undefined;

/** The default time zone of a property at this ZIP code in this state (read once per process). */
export function timezoneOfZip(zip: string, state: string): string {
  places ??= loadZipPlaces();
  return zoneOf(zip, state, places.get(zip)) ?? 'America/New_York';
}

export { isTimeZone } from '../../platform/time-zones';
