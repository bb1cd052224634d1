import crypto from 'node:crypto';
import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../../platform/db/client';
import { rowsOf } from '../../../platform/db/errors';
import type { Config } from '../../../platform/config';
import type { Logger } from '../../../platform/logger';
import { conflict, notFound, unprocessable } from '../../../platform/http/errors';
import { tariffRefreshRuns, tariffs } from '../tables';
import { utilityIdsView, utilityZipView } from '../../utilities/public';
import { loadUtilityReference, REFERENCE_DIR, type UtilityReference } from '../../utilities/reference';
import { propertyTariffsView } from '../../properties/public';
import { meterTariffsView } from '../../meters/public';
import { dueDiligenceZipView } from '../../analytics/public';
import { emptyReport, type RefreshReport } from './merge';
import { loadRun, present, runRefresh, type RunProgress, type RunRow } from './run';
import type { RefreshStatus } from './schemas';

export { LAST_REFRESH_KEY } from './run';

/** Which utilities a run refreshes: named EIA ids, every utility we hold, or (neither) those the deployment uses. */
export interface RefreshScope {
  eia?: string[];
  all?: boolean;
}

export interface RefreshRun {
  id: string;
  status: RefreshStatus;
  utilities: string[];
  /** Utilities finished so far. */
  utilities_done: number;
  report: RefreshReport;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface LastRefresh {
  run_id: string;
  status: RefreshStatus;
  finished_at: string;
}

export interface RefreshDeps {
  db: Db;
  now: () => Date;
  logger: Logger;
  urdb: Config['urdb'];
  /** The bundled reference files (utilities, ZIP tables, merged utilities); default data/reference. */
  referenceDir?: string;
  /** Queues a run on the `tariff-refresh` queue (the worker, or the in-process runner, runs it). */
  enqueue?: (runId: string) => Promise<void>;
  /** After a run that changed tariffs: queue what depends on them (rate analyses, audits, analytics). */
  tariffsChanged?: (runId: string) => Promise<void>;
}

/** A day: records modified up to a day before the last run started are asked for again (counted unchanged). */
export const MODIFIED_AFTER_MARGIN_S = 86_400;

/** EIA ids as the API takes them: digits. */
const EIA_ID = /^\d{1,9}$/;

/** Due diligence asked for within this many days: its ZIP code's utilities are the deployment's. */
export const DUE_DILIGENCE_ZIP_DAYS = 365;

/**
 * The utilities the deployment uses: its properties' and meters' tariffs' utilities, and those serving
 * its properties' ZIP codes and the ZIP codes due diligence was asked for in the last DUE_DILIGENCE_ZIP_DAYS.
 */
async function deploymentUtilities(tx: Executor, now: Date): Promise<string[]> {
  const since = new Date(now.getTime() - DUE_DILIGENCE_ZIP_DAYS * 86_400_000);
  const tariffIds = sql`(select ${propertyTariffsView.tariffId} from ${propertyTariffsView} where ${propertyTariffsView.tariffId} is not null
    union select ${propertyTariffsView.supplyTariffId} from ${propertyTariffsView} where ${propertyTariffsView.supplyTariffId} is not null
    union select ${meterTariffsView.tariffId} from ${meterTariffsView} where ${meterTariffsView.tariffId} is not null)`;
  const byTariff = await tx
    .selectDistinct({ id: tariffs.utilityId })
    .from(tariffs)
    .where(sql`${tariffs.id} in ${tariffIds}`);
  const byZip = await tx
    .selectDistinct({ id: utilityZipView.utilityId })
    .from(utilityZipView)
    .where(
      sql`${utilityZipView.zipCode} in (select ${propertyTariffsView.zipCode} from ${propertyTariffsView}
        union select ${dueDiligenceZipView.zipCode} from ${dueDiligenceZipView} where ${dueDiligenceZipView.lastUsedAt} >= ${since.toISOString()}::timestamptz)`,
    );
  return [...new Set([...byTariff, ...byZip].map((r) => r.id))].filter((id) => EIA_ID.test(id)).sort();
}

/**
 * Changes only: a utility a run finished before is asked for the records modified since that run
 * started (the API's `modified_after`, Unix seconds UTC), less MODIFIED_AFTER_MARGIN_S for clocks
 * that disagree; a utility never finished is fetched whole. Per EIA id, the mark or null.
 */
async function modifiedAfterMarks(db: Db, list: string[]): Promise<Map<string, number | null>> {
  const rows = rowsOf<{ eia: string; started: Date | string }>(
    await db.execute(sql`
      select c.key as eia, max(r.started_at) as started
      from ${tariffRefreshRuns} r, jsonb_each(r.cursor) c
      where r.started_at is not null and (c.value ->> 'done') = 'true'
      group by c.key`),
  );
  const started = new Map(rows.map((r) => [r.eia, new Date(r.started)]));
  return new Map(
    list.map((id) => {
      const at = started.get(id);
      return [id, at ? Math.floor(at.getTime() / 1000) - MODIFIED_AFTER_MARGIN_S : null];
    }),
  );
}

async function utilitiesOf(db: Db, scope: RefreshScope, now: Date): Promise<string[]> {
  if (scope.eia?.length) {
    const bad = scope.eia.find((id) => !EIA_ID.test(id));
    if (bad !== undefined) throw unprocessable(`EIA utility ids are digits: ${bad}`, 'eia');
    return [...new Set(scope.eia)];
  }
  if (scope.all) {
    const rows = await db.select({ id: utilityIdsView.id }).from(utilityIdsView).orderBy(utilityIdsView.id);
    return rows.map((r) => r.id).filter((id) => EIA_ID.test(id));
  }
  return deploymentUtilities(db, now);
}

/**
 * The catalog refresh (tariffs README, "Refresh from the URDB API"): a run row per refresh, each
 * utility paged from its cursor; every page is merged (merge.ts) and stored with the run's cursor and
 * report in one transaction, so a run stopped anywhere (a crash, the API failing every try) resumes
 * at the page it had not stored.
 */
export function createTariffRefreshService(deps: RefreshDeps) {
  const { db } = deps;
  let reference: UtilityReference | undefined;
  const ref = () => (reference ??= loadUtilityReference(deps.referenceDir ?? REFERENCE_DIR));

  return {
    /** True when URDB_API_KEY is set: without it nothing is fetched and nothing changes. */
    configured: () => deps.urdb.apiKey !== undefined,

    /** Records a run (queued) for the scope; 409 without URDB_API_KEY, 422 for a scope without utilities. */
    async create(scope: RefreshScope): Promise<RefreshRun> {
      const run = await this.createIfAny(scope);
      if (!run) {
        throw unprocessable(
          'No utility to refresh: no property, meter, property ZIP code or due diligence ZIP code of this deployment names one; name EIA ids or refresh all',
          'eia',
        );
      }
      return run;
    },

    /** create(), or null when the scope has no utility (a scheduled refresh of a deployment without properties). */
    async createIfAny(scope: RefreshScope): Promise<RefreshRun | null> {
      if (deps.urdb.apiKey === undefined) {
        throw conflict('The catalog refresh is not configured: set URDB_API_KEY (a free key from https://developer.nrel.gov/signup/)');
      }
      const list = await utilitiesOf(db, scope, deps.now());
      if (list.length === 0) return null;
      const marks = await modifiedAfterMarks(db, list);
      const all = [...marks.values()];
      const row: RunRow = {
        id: `rr_${crypto.randomBytes(12).toString('hex')}`,
        status: 'queued',
        utilities: list,
        cursor: Object.fromEntries(list.map((u) => [u, { offset: 0, done: false, modified_after: marks.get(u) ?? null }])),
        modifiedAfter: all.some((m) => m === null) ? null : Math.min(...(all as number[])),
        report: emptyReport(),
        error: null,
        createdAt: deps.now(),
        startedAt: null,
        finishedAt: null,
      };
      await db.insert(tariffRefreshRuns).values(row);
      return present(row);
    },

    /**
     * POST /admin/tariffs/refresh: records a run and queues it; with `resume`, queues that run again
     * from its cursor (409 when it succeeded).
     */
    async start(scope: RefreshScope & { resume?: string }): Promise<RefreshRun> {
      let run: RefreshRun;
      if (scope.resume !== undefined) {
        run = await this.get(scope.resume);
        if (run.status === 'succeeded') throw conflict(`Refresh run ${run.id} already succeeded: start a new one`);
        if (deps.urdb.apiKey === undefined) throw conflict('The catalog refresh is not configured: set URDB_API_KEY');
        await db.update(tariffRefreshRuns).set({ status: 'queued', error: null, finishedAt: null }).where(eq(tariffRefreshRuns.id, run.id));
        run = { ...run, status: 'queued', error: null, finished_at: null };
      } else {
        run = await this.create(scope);
      }
      await deps.enqueue?.(run.id);
      return run;
    },

    async get(id: string): Promise<RefreshRun> {
      const row = await loadRun(db, id);
      if (!row) throw notFound('Refresh run not found');
      return present(row);
    },

    /** The newest run that did not finish (a crash, or the API failing), to resume; null when none. */
    async unfinished(): Promise<RefreshRun | null> {
      const [row] = await db
        .select()
        .from(tariffRefreshRuns)
        .where(inArray(tariffRefreshRuns.status, ['queued', 'running', 'failed']))
        .orderBy(desc(tariffRefreshRuns.createdAt))
        .limit(1);
      return row ? present(row) : null;
    },

    /** Runs (or resumes) a run (run.ts): each utility from its cursor, page by page; `onProgress` sees each stored page. */
    run: (id: string, onProgress?: (p: RunProgress) => void): Promise<RefreshRun> => runRefresh(deps, ref, id, onProgress),
  };
}

export type TariffRefreshService = ReturnType<typeof createTariffRefreshService>;
