import type { Database } from '../../src/platform/db/client';
import type { Tariff } from '../../src/modules/tariffs/tariff.model';
import { normalizeBundle, readUrdbLines } from '../../src/modules/tariffs/bundled';
import { loadUtilityReference, REFERENCE_DIR, type UtilityReference } from '../../src/modules/utilities/reference';
import { seedReferenceSubset } from '../../src/modules/tariffs/importer';

let reference: UtilityReference | undefined;

/** EIA-861 and ZIP reference data, parsed once per test file. */
export function utilityReference(): UtilityReference {
  reference ??= loadUtilityReference(REFERENCE_DIR);
  return reference;
}

/**
 * The named real URDB records from data/reference, normalised as the importer
 * does (state from EIA-861). Throws if a label is missing or rejected.
 */
export async function loadBundledTariffs(labels: string[]): Promise<Tariff[]> {
  const lines = readUrdbLines(REFERENCE_DIR, new Set(labels));
  const bundle = normalizeBundle(lines, utilityReference(), new Date('2026-01-01T00:00:00Z'));
  if (bundle.skipped.length) throw new Error(`bundled tariffs rejected: ${JSON.stringify(bundle.skipped)}`);
  const byId = new Map(bundle.tariffs.map((t) => [t.id, t]));
  return labels.map((label) => {
    const t = byId.get(label);
    if (!t) throw new Error(`tariff ${label} is not in the bundled data`);
    return t;
  });
}

/**
 * Stores the named bundled tariffs, their utilities and those utilities' ZIP
 * codes, and refreshes the counts and cached stats, as a full import would for
 * that subset.
 */
export async function seedTariffs(database: Database, labels: string[]): Promise<Tariff[]> {
  const list = await loadBundledTariffs(labels);
  await seedReferenceSubset(database.db, list, utilityReference(), new Date());
  return list;
}
