/**
 * Running a catalog refresh (tariffs README, "Refresh from the URDB API"): each utility of a run paged
 * from its cursor; every page merged (merge.ts) and stored with the run's cursor and report in one
 * transaction, so a run stopped anywhere resumes at the page it had not stored.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../../platform/db/client';
import { writeSystemState } from '../../../platform/db/system-state';
import { conflict, notFound } from '../../../platform/http/errors';
import { tariffRefreshedRecords, tariffRefreshRuns, tariffs } from '../tables';
import { insertTariffs, rowToTariff } from '../repository';
import { refreshTariffStats } from '../stats';
import { refreshUtilityCounts } from '../../utilities/public';
import type { UtilityReference } from '../../utilities/reference';
import { createUrdbClient, UrdbApiError } from './client';
import { addReport, mergeRefreshed, type RefreshReport } from './merge';
import type { RefreshDeps, RefreshRun } from './service';
import type { RefreshStatus } from './schemas';

/** system_state key of the last refresh that finished: `{"run_id", "status", "finished_at"}`. */
export const LAST_REFRESH_KEY = 'tariff_refresh';

export type RunProgress = { eiaId: string; offset: number; records: number; index: number; of: number };

export type RunRow = typeof tariffRefreshRuns.$inferSelect;

export function present(row: RunRow): RefreshRun {
  return {
    id: row.id,
    status: row.status as RefreshStatus,
    utilities: row.utilities,
    utilities_done: Object.values(row.cursor).filter((c) => c.done).length,
    report: row.report as RefreshReport,
    error: row.error,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

export async function loadRun(db: Db, id: string): Promise<RunRow | null> {
  const [row] = await db.select().from(tariffRefreshRuns).where(eq(tariffRefreshRuns.id, id)).limit(1);
  return row ?? null;
}

/** The stored tariffs of a utility and of its successor, when it merged into one (merge.ts files its records there). */
async function storedTariffs(tx: Executor, ref: UtilityReference, eiaId: string) {
  const successor = ref.successors?.get(eiaId)?.successorId;
  const rows = await tx
    .select()
    .from(tariffs)
    .where(inArray(tariffs.utilityId, successor ? [eiaId, successor] : [eiaId]));
  return rows.map(rowToTariff);
}

async function finish(
  deps: RefreshDeps,
  id: string,
  status: Extract<RefreshStatus, 'succeeded' | 'failed'>,
  error: string | null,
): Promise<void> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await tx.update(tariffRefreshRuns).set({ status, error, finishedAt: now }).where(eq(tariffRefreshRuns.id, id));
    // The search catalog and GET /tariffs/stats follow the stats stamp (catalog.ts): a new one rebuilds them.
    await refreshUtilityCounts(tx);
    await refreshTariffStats(tx, now);
    await writeSystemState(tx, LAST_REFRESH_KEY, JSON.stringify({ run_id: id, status, finished_at: now.toISOString() }), now);
  });
}

function urdbClient(deps: RefreshDeps, apiKey: string, runId: string) {
  return createUrdbClient({
    apiUrl: deps.urdb.apiUrl,
    apiKey,
    timeoutMs: deps.urdb.timeoutMs,
    attempts: deps.urdb.attempts,
    backoffMs: deps.urdb.backoffMs,
    pageSize: deps.urdb.pageSize,
    onRetry: (r) => deps.logger.warn({ runId, ...r }, 'URDB API: trying again'),
  });
}

/** Where a run stands: its cursor per utility, its report, and whether it wrote any tariff. */
interface RunState {
  cursor: RunRow['cursor'];
  report: RefreshReport;
  changed: boolean;
}

/** Merges and stores one fetched page with the run's new cursor and report, in one transaction (updates `state`). */
async function storePage(
  deps: RefreshDeps,
  ref: UtilityReference,
  id: string,
  eiaId: string,
  items: Parameters<typeof mergeRefreshed>[1],
  next: RunRow['cursor'][string],
  state: RunState,
): Promise<void> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const merged = mergeRefreshed(eiaId, items, await storedTariffs(tx, ref, eiaId), ref, now);
    await insertTariffs(tx, merged.write);
    if (merged.records.length) {
      await tx
        .insert(tariffRefreshedRecords)
        .values(merged.records.map((r) => ({ label: r.label, eiaId, record: r.record, fetchedAt: now })))
        .onConflictDoUpdate({ target: tariffRefreshedRecords.label, set: { eiaId, record: sql`excluded.record`, fetchedAt: now } });
    }
    state.report = addReport(state.report, merged.report);
    state.changed ||= merged.write.length > 0;
    state.cursor = { ...state.cursor, [eiaId]: next };
    await tx.update(tariffRefreshRuns).set({ cursor: state.cursor, report: state.report }).where(eq(tariffRefreshRuns.id, id));
  });
}

/**
 * Runs (or resumes) a run: each utility from its cursor, page by page. A utility whose pages the
 * API keeps failing fails the run (status `failed`, the error, the cursor where it stopped); the
 * same run resumes there. `onProgress` sees each stored page.
 */
export async function runRefresh(
  deps: RefreshDeps,
  ref: () => UtilityReference,
  id: string,
  onProgress?: (p: RunProgress) => void,
): Promise<RefreshRun> {
  const { db } = deps;
  const row = await loadRun(db, id);
  if (!row) throw notFound('Refresh run not found');
  if (row.status === 'succeeded') return present(row);
  if (deps.urdb.apiKey === undefined) throw conflict('The catalog refresh is not configured: set URDB_API_KEY');
  await db
    .update(tariffRefreshRuns)
    .set({ status: 'running', error: null, startedAt: row.startedAt ?? deps.now() })
    .where(eq(tariffRefreshRuns.id, id));
  const client = urdbClient(deps, deps.urdb.apiKey, id);
  const report = row.report as RefreshReport;
  const state: RunState = { cursor: row.cursor, report, changed: report.new.length + report.changed.length + report.superseded.length > 0 };
  try {
    for (const [index, eiaId] of row.utilities.entries()) {
      let at = state.cursor[eiaId] ?? { offset: 0, done: false };
      while (!at.done) {
        const page = await client.page(eiaId, at.offset, at.modified_after ?? null);
        const next = { ...at, offset: at.offset + page.items.length, done: page.items.length < client.pageSize };
        await storePage(deps, ref(), id, eiaId, page.items, next, state);
        onProgress?.({ eiaId, offset: at.offset, records: page.items.length, index: index + 1, of: row.utilities.length });
        at = next;
      }
    }
  } catch (err) {
    const message = err instanceof UrdbApiError ? err.message : `refresh failed: ${(err as Error).message}`;
    deps.logger.error({ runId: id, err }, 'tariff refresh failed');
    await finish(deps, id, 'failed', message);
    if (state.changed) await deps.tariffsChanged?.(id);
    return present((await loadRun(db, id))!);
  }
  await finish(deps, id, 'succeeded', null);
  if (state.changed) await deps.tariffsChanged?.(id);
  return present((await loadRun(db, id))!);
}
