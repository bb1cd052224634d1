import { readCsv, REFERENCE_DIR } from './reference';

/** GeoNames US postal codes (CC BY 4.0), bundled verbatim: ZIP code -> place, state, county. */
export const ZIP_STATES_FILE = 'us_zipcodes_geonames.csv.gz';

/** A ZIP code as GeoNames lists it: its state, county and place ('' where it names none), and longitude. */
export interface GeonamesZip {
  zip: string;
  state: string;
  county: string;
  place: string;
  longitude: number;
}

/**
 * The ZIP codes of the GeoNames file, each a 5-digit code with a 2-letter state: what the ZIP code's
 * state, county and time zone are read from. Military (APO/FPO) codes carry no state and are left
 * out; the file lists two ZIP codes twice, with the same state.
 */
export function readGeonamesZips(dir = REFERENCE_DIR): GeonamesZip[] {
  const out: GeonamesZip[] = [];
  for (const r of readCsv(dir, ZIP_STATES_FILE)) {
    const zip = r.postal_code?.trim();
    const state = r.admin_code1?.trim();
    if (!zip || !/^\d{5}$/.test(zip) || !state || !/^[A-Z]{2}$/.test(state)) continue;
    out.push({ zip, state, county: r.admin_name2?.trim() ?? '', place: r.place_name?.trim() ?? '', longitude: Number(r.longitude) });
  }
  return out;
}

/** The state of each ZIP code, from GeoNames. */
export function loadZipStates(dir = REFERENCE_DIR): Map<string, string> {
  return new Map(readGeonamesZips(dir).map((z) => [z.zip, z.state]));
}

let bundled: Map<string, string> | undefined;

/** The state of a ZIP code, or null for one GeoNames does not list (read once per process). */
export function stateOfZip(zipCode: string): string | null {
  bundled ??= loadZipStates();
  return bundled.get(zipCode) ?? null;
}
