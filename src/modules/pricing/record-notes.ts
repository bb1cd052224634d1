import { priceDefects } from '../tariffs/price-defects';
import { tariffNotices } from '../tariffs/tariff-notices';
import type { Tariff } from '../tariffs/tariff.model';

/** The record's defects, read once per tariff object (a compare or an audit prices the same tariff many times). */
const defectsOf = new WeakMap<Tariff, string[]>();

/**
 * What every bill on the tariff says about its record rather than the bill: what makes its bills
 * wrong (tariffs/price-defects.ts: charges named but missing, a negative energy price), the age of
 * its data on `date` and its class (tariffs/tariff-notices.ts).
 */
export function recordNotes(tariff: Tariff, date: string): string[] {
  let defects = defectsOf.get(tariff);
  if (!defects) {
    defects = priceDefects(tariff);
    defectsOf.set(tariff, defects);
  }
  return [...defects, ...tariffNotices(tariff, date)];
}
