import { countyKey } from '../utilities/counties';
import { readGeonamesZips, type GeonamesZip } from '../utilities/zip-states';
import { COUNTY_ZONES, STATE_ZONES, ZIP_ZONES } from './timezone.zones';

export { COUNTY_ZONES, ZIP_ZONES } from './timezone.zones';

/**
 * A property's time zone (README "Time zone"): an IANA name, by default derived from its ZIP code's
 * state and county (GeoNames) with the county lines of the US standard time zone boundaries,
 * 49 CFR Part 71 (https://www.ecfr.gov/current/title-49/subtitle-A/part-71), as the IANA tz
 * database's zones for them (https://data.iana.org/time-zones/tzdb/zone1970.tab).
 */

/** Aleutians west of 169° 30' W keep Hawaii-Aleutian time (America/Adak). */
const ADAK_LONGITUDE = -169.5;

type ZipPlace = Pick<GeonamesZip, 'state' | 'county' | 'longitude'>;

/** Each ZIP code's state, county and longitude (GeoNames): what its default zone is read from. */
export function loadZipPlaces(dir?: string): Map<string, ZipPlace> {
  return new Map(readGeonamesZips(dir).map((z) => [z.zip, z]));
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

/** The zone a property's days are local to: its own, else its ZIP code's (properties README "Time zone"). */
export const zoneOfProperty = (p: { timezone: string | null; zipCode: string; state: string }): string =>
  p.timezone ?? timezoneOfZip(p.zipCode, p.state);

export { isTimeZone } from '../../platform/time-zones';
