import { readGeonamesZips } from './zip-states';

/**
 * Counties, to join GeoNames (a ZIP code's county) to EIA-861 "Service Territory" (a utility's
 * counties). The two spell counties differently ("Miami-Dade" / "Miami Dade", "St. Louis" /
 * "St Louis", "Caddo Parish" / "Caddo", "Baltimore (city)" / "Baltimore City", "Doña Ana" /
 * "Dona Ana"), so both go through `countyKey`. What still does not join: Connecticut (GeoNames has
 * the 2022 planning regions, EIA-861 2018 the eight old counties) and a few Alaska areas.
 */
export function countyKey(name: string): string {
  let c = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  c = c.replace(/^city and county of /, '');
  const cityOf = /^city of (.*)$/.exec(c);
  if (cityOf) c = `${cityOf[1]} city`;
  c = c.replace(/\(city\)/g, ' city').replace(/\(ca\)/g, ' ');
  c = c.replace(/[.'\u2019]/g, '').replace(/[-,()]/g, ' ');
  c = c.replace(/\b(county|parish|municipality|borough|census area)\b/g, ' ');
  c = c.replace(/\bsaint\b/g, 'st').replace(/\bsainte\b/g, 'ste');
  return c.replace(/\s+/g, '');
}

/** `${state}|${countyKey}`: one county. */
export const countyId = (state: string, county: string) => `${state}|${countyKey(county)}`;

export interface ZipCounty {
  state: string;
  /** The county as GeoNames names it ("Franklin"). */
  county: string;
  /** countyId(state, county). */
  id: string;
  /** The ZIP code's place as GeoNames names it ("Burlington"): a city, a neighbourhood of one, or a village. */
  place: string;
}

/** Each ZIP code's state, county and place from GeoNames (ZIP codes without a county are left out). */
export function loadZipCounties(dir: string): Map<string, ZipCounty> {
  const out = new Map<string, ZipCounty>();
  for (const { zip, state, county, place } of readGeonamesZips(dir)) {
    if (county) out.set(zip, { state, county, id: countyId(state, county), place });
  }
  return out;
}
