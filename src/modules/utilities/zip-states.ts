import { readCsv, REFERENCE_DIR } from './reference';

/** GeoNames US postal codes (CC BY 4.0), bundled verbatim: ZIP code -> place, state, county. */
export const ZIP_STATES_FILE = 'us_zipcodes_geonames.csv.gz';

/**
 * The state of each ZIP code, from GeoNames. Military (APO/FPO) codes carry no state and are left
 * out; the file lists two ZIP codes twice, with the same state.
 */
export function loadZipStates(dir = REFERENCE_DIR): Map<string, string> {
  const states = new Map<string, string>();
  for (const r of readCsv(dir, ZIP_STATES_FILE)) {
    const zip = r.postal_code?.trim();
    const state = r.admin_code1?.trim();
    if (zip && /^\d{5}$/.test(zip) && state && /^[A-Z]{2}$/.test(state)) states.set(zip, state);
  }
  return states;
}

let bundled: Map<string, string> | undefined;

/** The state of a ZIP code, or null for one GeoNames does not list (read once per process). */
export function stateOfZip(zipCode: string): string | null {
  bundled ??= loadZipStates();
  return bundled.get(zipCode) ?? null;
}
