import { sql } from 'drizzle-orm';
import type { Db, Executor } from '../../platform/db/client';
import type { Logger } from '../../platform/logger';
import { writeSystemState } from '../../platform/db/system-state';
import type { Tariff } from './tariff.model';
import { tariffRefreshedRecords, tariffs } from './tables';
import type { UrdbRecord } from './urdb.record';
import { insertTariffs } from './repository';
import { refreshTariffStats } from './stats';
import { normalizeBundle, readUrdbLines, type NormalizedBundle } from './bundled';
import { readUrdb2020PlusLines } from './bundled-2020plus';
import { loadUtilityReference, REFERENCE_DIR, type UtilityRecord, type UtilityReference } from '../utilities/reference';
import * as utilityStore from '../utilities/public';
import { coverageChange, type CoverageChange } from '../utilities/coverage';
import { readSystemState } from '../../platform/db/system-state';

/** What an import did: the bundle's reading (records read, skipped, warnings, supersessions), then what it stored. */
export interface ImportReport extends Pick<NormalizedBundle, 'recordsRead' | 'skipped' | 'warnings' | 'supersessions'> {
  imported: number;
  utilities: number;
  /** Utilities named only by URDB (not in EIA-861 2018 or the ZIP tables). */
  utilitiesFromUrdbOnly: string[];
  zipPairs: number;
  /** What the import changed in ZIP-code coverage against the data it replaced. */
  coverage: CoverageChange;
  durationMs: number;
}

/** system_state key stamped by every import (its updated_at is the import time). */
export const REFERENCE_IMPORT_KEY = 'reference_import';

/**
 * Names the bundled files and the import rules together. Bump it whenever either changes
 * (a new ZIP table, a normalisation rule, a new stored field): a deployment whose stored
 * data carries another version re-imports at its next start.
 */
export const REFERENCE_DATA_VERSION = '2026-11-28.5';

/** The version stamped by the last import, or null (never imported, or before versions were stamped). */
export async function storedReferenceVersion(db: Executor): Promise<string | null> {
  const row = await readSystemState(db, REFERENCE_IMPORT_KEY);
  if (!row) return null;
  try {
    const { version } = JSON.parse(row.value) as { version?: unknown };
    return typeof version === 'string' ? version : null;
  } catch {
    return null;
  }
}

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
      rows.set(t.utilityId, {
        id: t.utilityId,
        name: t.utilityName,
        state: t.state,
        type: null,
        customersServed: null,
        serviceTerritory: null,
        statesServed: [],
      });
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
  return (await runImport(db, { ...opts, onlyIfStale: false }))!;
}

/** The steps of an import, in order, for its progress lines. */
export const IMPORT_STAGES = ['read', 'utilities', 'zip_codes', 'tariffs', 'stats', 'analyze'] as const;
export type ImportStage = (typeof IMPORT_STAGES)[number];
/** Called when a stage is done, with what it counted; the import waits for it (a logger flushes). */
export type OnImportStage = (stage: ImportStage, counts: Record<string, number>) => Promise<void> | void;

/** The import; with onlyIfStale, nothing happens (null) when the stored data already has this version. */
async function runImport(
  db: Db,
  opts: { dir?: string; now?: Date; onlyIfStale: boolean; onStage?: OnImportStage },
): Promise<ImportReport | null> {
  const started = Date.now();
  const dir = opts.dir ?? REFERENCE_DIR;
  const now = opts.now ?? new Date();
  const stage: OnImportStage = opts.onStage ?? (() => undefined);
  const ref = loadUtilityReference(dir);
  // What refreshes from the URDB API fetched (refresh/) stays: each record replaces the bundled one of its label.
  const refreshed = await db.select().from(tariffRefreshedRecords);
  const refreshedAt = new Map(refreshed.map((r) => [r.label, r.fetchedAt]));
  const bundledLines = [...readUrdbLines(dir), ...readUrdb2020PlusLines(dir)].filter((l) => !l.record || !refreshedAt.has(l.record.label));
  const refreshedLines = refreshed.map((r, i) => ({ line: i + 1, record: r.record as UrdbRecord }));
  const bundle = normalizeBundle([...bundledLines, ...refreshedLines], ref, now);
  bundle.tariffs = bundle.tariffs.map((t) => {
    const at = refreshedAt.get(t.id);
    return at ? { ...t, source: 'refreshed' as const, sourceUpdatedAt: at.toISOString() } : t;
  });
  const { rows, urdbOnly } = utilitiesFor(bundle.tariffs, ref, true);
  await stage('read', {
    tariffRecords: bundle.recordsRead,
    tariffs: bundle.tariffs.length,
    utilities: rows.length,
    zipCodePairs: ref.zipPairs.length,
  });
  let coverage: CoverageChange | null = null;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK_KEY})`);
    // Several web processes starting at once: the first imports, the others find it done here.
    if (opts.onlyIfStale && (await storedReferenceVersion(tx)) === REFERENCE_DATA_VERSION) return;
    coverage = coverageChange(await utilityStore.readZipPairs(tx), ref.zipPairs);
    await utilityStore.deleteUtilitiesAndZipPairs(tx);
    await tx.delete(tariffs);
    await utilityStore.upsertUtilities(tx, rows);
    await stage('utilities', { utilities: rows.length });
    await utilityStore.insertZipPairs(tx, ref.zipPairs);
    await stage('zip_codes', { zipCodePairs: ref.zipPairs.length });
    await insertTariffs(tx, bundle.tariffs);
    await stage('tariffs', { tariffs: bundle.tariffs.length });
    await utilityStore.refreshUtilityCounts(tx);
    await refreshTariffStats(tx, now);
    await stage('stats', {});
    const summary = JSON.stringify({
      version: REFERENCE_DATA_VERSION,
      imported: bundle.tariffs.length,
      skipped: bundle.skipped.length,
      at: now.toISOString(),
    });
    await writeSystemState(tx, REFERENCE_IMPORT_KEY, summary, now);
  });
  if (!coverage) return null;
  // Fresh planner statistics: without them PostgreSQL (and PGlite, which has no autovacuum) guesses
  // row counts and picks slow plans for the ZIP and name searches.
  await db.execute(sql`analyze ${tariffs}`);
  await utilityStore.analyzeUtilities(db);
  await stage('analyze', {});
  return {
    recordsRead: bundle.recordsRead,
    imported: bundle.tariffs.length,
    skipped: bundle.skipped,
    warnings: bundle.warnings,
    supersessions: bundle.supersessions,
    utilities: rows.length,
    utilitiesFromUrdbOnly: urdbOnly,
    zipPairs: ref.zipPairs.length,
    coverage,
    durationMs: Date.now() - started,
  };
}

/**
 * Start of a web process: imports the bundled data before the server listens when the database
 * has none (first start) or holds an import of another REFERENCE_DATA_VERSION (an upgrade that
 * changed the data or its rules). Properties' estimates and analyses follow through the
 * scheduler's tariff-import sweep.
 */
export async function ensureReferenceData(db: Db, logger: Logger, opts: { dir?: string } = {}): Promise<void> {
  const stored = await storedReferenceVersion(db);
  if (stored === REFERENCE_DATA_VERSION) return;
  logger.info(
    { stored, bundled: REFERENCE_DATA_VERSION },
    stored === null
      ? 'first start: importing the bundled reference data (tariffs, utilities, ZIP codes); this takes a minute or two'
      : `stored reference data is version ${stored}: importing the bundled ${REFERENCE_DATA_VERSION}`,
  );
  await flushed(logger);
  const report = await runImport(db, {
    dir: opts.dir,
    onlyIfStale: true,
    onStage: async (stage, counts) => {
      logger.info({ stage, step: IMPORT_STAGES.indexOf(stage) + 1, of: IMPORT_STAGES.length, ...counts }, stageLine(stage, counts));
      // The import keeps the event loop busy for seconds at a time: write each line now.
      await flushed(logger);
    },
  });
  if (!report) return;
  logger.info(
    {
      recordsRead: report.recordsRead,
      imported: report.imported,
      skipped: report.skipped,
      warnings: report.warnings.length,
      utilities: report.utilities,
      zipPairs: report.zipPairs,
      superseded: report.supersessions.length,
      supersededGivenEndDate: report.supersessions.filter((a) => a.expirationDate !== null).length,
      coverage: report.coverage,
      durationMs: report.durationMs,
    },
    'reference data imported',
  );
}

/** What a stage did, for a person reading the start-up output. */
export function stageLine(stage: ImportStage, counts: Record<string, number>): string {
  const n = (key: string) => (counts[key] ?? 0).toLocaleString('en-US');
  const step = `reference data ${IMPORT_STAGES.indexOf(stage) + 1}/${IMPORT_STAGES.length}`;
  switch (stage) {
    case 'read':
      return `${step}: read ${n('tariffRecords')} tariff records (${n('tariffs')} kept), ${n('utilities')} utilities, ${n('zipCodePairs')} ZIP-code pairs`;
    case 'utilities':
      return `${step}: stored ${n('utilities')} utilities`;
    case 'zip_codes':
      return `${step}: stored ${n('zipCodePairs')} ZIP-code pairs`;
    case 'tariffs':
      return `${step}: stored ${n('tariffs')} tariffs`;
    case 'stats':
      return `${step}: counted tariffs per utility and refreshed the catalog statistics`;
    case 'analyze':
      return `${step}: analyzed the tables for search`;
  }
}

/** Resolves when the logger's buffered lines are written (at once for a logger with nothing to write). */
function flushed(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    try {
      logger.flush(() => resolve());
    } catch {
      resolve();
    }
  });
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
    await utilityStore.upsertUtilities(tx, rows);
    await utilityStore.insertZipPairs(
      tx,
      ref.zipPairs.filter((p) => ids.has(p.utilityId)),
    );
    await insertTariffs(tx, list);
    await utilityStore.refreshUtilityCounts(tx);
    await refreshTariffStats(tx, now);
  });
}
