/**
 * Read only: the form calculations were stored in before issue 28, which rows in existing
 * databases still have. The document was { format: 2, calculation, units_deflated }, where
 * units_deflated is the unit rows of a StoredCalculation as JSON, raw-deflated and base64-encoded.
 * Nothing writes this form any more (stored.ts readStored is its one caller).
 */
import zlib from 'node:zlib';
import type { StoredCalculation } from './stored';

export interface LegacyDeflatedDocument {
  format: 2;
  calculation: StoredCalculation['calculation'];
  /** base64 of the raw-deflated JSON array of unit rows */
  units_deflated: string;
}

/** The unit rows of a calculation stored in the old deflated form. */
export function readLegacyDeflatedUnits(doc: LegacyDeflatedDocument): StoredCalculation['units'] {
  return JSON.parse(zlib.inflateRawSync(Buffer.from(doc.units_deflated, 'base64')).toString('utf8')) as StoredCalculation['units'];
}
