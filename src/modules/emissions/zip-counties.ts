import { loadZipCounties, type ZipCounty } from '../utilities/counties';
import { REFERENCE_DIR } from '../utilities/reference';

let counties: Map<string, ZipCounty> | undefined;

/**
 * Each ZIP code's county (GeoNames, bundled), read once per process on first use: where New York
 * City's five counties and Denver County are. Reference data shipped with the code (decision 0015).
 */
export const bundledZipCounties = (): ReadonlyMap<string, ZipCounty> => (counties ??= loadZipCounties(REFERENCE_DIR));
