import { sql } from 'drizzle-orm';
import type { Db, Executor } from '../../platform/db/client';
import type { Logger } from '../../platform/logger';
import { writeSystemState } from '../../platform/db/system-state';
import type { Tariff } from './tariff.model';
import { tariffs } from './tables';
import { insertTariffs } from './repository';
import { refreshTariffStats } from './stats';
import { referenceDataChanged } from './catalog';
import { normalizeBundle, readUrdbLines } from './bundled';
import { utilities, utilityZipCodes } from '../utilities/tables';
import { loadUtilityReference, REFERENCE_DIR, type UtilityRecord, type UtilityReference } from '../utilities/reference';
import { insertZipPairs, refreshUtilityCounts, upsertUtilities } from '../utilities/repository';

export interface ImportReport {
  recordsRead: number;
  imported: number;
  skipped: Array<{ id: string; reason: string }>;
  /** Every rule applied to an upstream quirk, per tariff. */
  warnings: Array<{ id: string; warning: string }>;
  utilities: number;
  /** Utilities named only by URDB (not in EIA-861 2018 or the ZIP tables). */
  utilitiesFromUrdbOnly: string[];
  zipPairs: number;
  durationMs: number;
}

/** system_state key stamped by every import (its updated_at is the import time). */
export const REFERENCE_IMPORT_KEY = 'reference_import';

/** Serialises concurrent importers (several web processes starting at once). */
const IMPORT_LOCK_KEY = 726_311_903;

/** Utility rows for a set of tariffs: the reference record, or one named by URDB when EIA-861 lacks it. */
function utilitiesFor(list: Tariff[], ref: UtilityReference, all: boolean): { rows: UtilityRecord[]; urdbOnly: string[] } {
  const rows = new Map<string, UtilityRecord>(all ? ref.utilities : []);
  const urdbOnly: string[] = [];
  for (const t of list) {
    if (rows.has(t.utilityId)) continue;
    const known = ref.utilities.get(t.utilityId);
    if (known) rows.set(t.utilityId, known);
    else {
      urdbOnly.push(t.utilityId);
      rows.set(t.utilityId, { id: t.utilityId, name: t.utilityName, state: t.state, type: null, customersServed: null, serviceTerritory: null, statesServed: [] });
    }
  }
  return { rows: [...rows.values()], urdbOnly };
}

/**
 * Replaces all reference data (tariffs, utilities, ZIP pairs) with the bundled
 * files in one transaction: a failure leaves the previous data intact, and
 * running it twice gives the same tables. Refreshes the cached stats.
 */
export async function importReferenceData(db: Db, opts: { dir?: string; now?: Date } = {}): Promise<ImportReport> {
  const started = Date.now();
  const dir = opts.dir ?? REFERENCE_DIR;
  const now = opts.now ?? new Date();
  const ref = loadUtilityReference(dir);
  const bundle = normalizeBundle(readUrdbLines(dir), ref, now);
  const { rows, urdbOnly } = utilitiesFor(bundle.tariffs, ref, true);
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK_KEY})`);
    await tx.delete(utilityZipCodes);
    await tx.delete(tariffs);
    await tx.delete(utilities);
    await upsertUtilities(tx, rows);
    await insertZipPairs(tx, ref.zipPairs);
    await insertTariffs(tx, bundle.tariffs);
    await refreshUtilityCounts(tx);
    await refreshTariffStats(tx, now);
    const summary = JSON.stringify({ imported: bundle.tariffs.length, skipped: bundle.skipped.length, at: now.toISOString() });
    await writeSystemState(tx, REFERENCE_IMPORT_KEY, summary, now);
  });
  referenceDataChanged();
  // Fresh planner statistics: without them PostgreSQL (and PGlite, which has no autovacuum) guesses
  // row counts and picks slow plans for the ZIP and name searches.
  for (const table of ['tariffs', 'utilities', 'utility_zip_codes']) await db.execute(sql.raw(`analyze ${table}`));
  return {
    recordsRead: bundle.recordsRead,
    imported: bundle.tariffs.length,
    skipped: bundle.skipped,
    warnings: bundle.warnings,
    utilities: rows.length,
    utilitiesFromUrdbOnly: urdbOnly,
    zipPairs: ref.zipPairs.length,
    durationMs: Date.now() - started,
  };
}

/** True when no tariff is stored yet (a fresh database). */
export async function referenceDataMissing(db: Executor): Promise<boolean> {
  const rows = await db.select({ id: tariffs.id }).from(tariffs).limit(1);
  return rows.length === 0;
}

/** First start: imports the bundled data when the database has none, before the server listens. */
export async function ensureReferenceData(db: Db, logger: Logger): Promise<void> {
  if (!(await referenceDataMissing(db))) return;
  logger.info('no tariffs stored: importing the bundled reference data');
  const report = await importReferenceData(db);
  logger.info({
    recordsRead: report.recordsRead, imported: report.imported, skipped: report.skipped,
    warnings: report.warnings.length, utilities: report.utilities, zipPairs: report.zipPairs, durationMs: report.durationMs,
  }, 'reference data imported');
}

/**
 * Stores a subset of tariffs with their utilities and those utilities' ZIP
 * codes, then refreshes counts and stats: what a full import gives for that
 * subset. Used by tests of features that need a few real tariffs.
 */
export async function seedReferenceSubset(db: Db, list: Tariff[], ref: UtilityReference, now: Date): Promise<void> {
  const { rows } = utilitiesFor(list, ref, false);
  const ids = new Set(rows.map((u) => u.id));
  await db.transaction(async (tx) => {
    await upsertUtilities(tx, rows);
    await insertZipPairs(tx, ref.zipPairs.filter((p) => ids.has(p.utilityId)));
    await insertTariffs(tx, list);
    await refreshUtilityCounts(tx);
    await refreshTariffStats(tx, now);
  });
  referenceDataChanged();
}
