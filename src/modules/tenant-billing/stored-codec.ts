/**
 * The text a calculation is stored as (rubs_calculations.result): a JSON document whose header is
 * the answer without its unit bills, readable in SQL, and whose unit rows (presenters.ts
 * StoredCalculation) are deflated and base64-encoded. A 10,000-unit result is about 0.5 MB of
 * rows and 180 KB stored: on embedded PGlite, whose writes run on the request's own thread, the
 * write takes a third of the time; the deflate runs on libuv's thread pool meanwhile.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { StoredCalculation } from './presenters';

const deflateRaw = promisify(zlib.deflateRaw);

interface StoredText {
  format: 2;
  calculation: StoredCalculation['calculation'];
  /** base64 of the raw-deflated JSON array of unit rows */
  units_deflated: string;
}

/** Starts the deflate at once (on the thread pool); the promise gives the text to store. */
export function encodeStored(s: StoredCalculation): Promise<string> {
  const rows = deflateRaw(JSON.stringify(s.units), { level: 1 });
  return rows.then((deflated) => JSON.stringify({ format: 2, calculation: s.calculation, units_deflated: deflated.toString('base64') } satisfies StoredText));
}

export function decodeStored(text: string): StoredCalculation {
  const doc = JSON.parse(text) as StoredText;
  const units = JSON.parse(zlib.inflateRawSync(Buffer.from(doc.units_deflated, 'base64')).toString('utf8')) as unknown[][];
  return { format: 1, calculation: doc.calculation, units };
}
