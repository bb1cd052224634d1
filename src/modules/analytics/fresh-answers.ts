import { TtlCache } from '../../platform/ttl-cache';
import { deepFreeze } from '../../platform/deep-freeze';
import type { PortfolioService } from '../portfolios/service';
import { utcDay } from '../../platform/dates';
import { monthIndexOfDate, type MonthIndex } from './months';
import type { RecomputeResult, Recomputer } from './recompute';
import type { AnalyticsRepository, Freshness } from './repository';

/** Answers kept per process, keyed by owner, data version and month: a write moves the version, so an answer is never stale. */
const CACHE_ENTRIES = 2_000;
const CACHE_TTL_MS = 10 * 60_000;

/**
 * What a read that found its precomputed data stale waited for: milliseconds, and the properties the
 * recompute rebuilt (`all`, a count, or `none` when another caller's recompute had done the work).
 */
export interface RecomputeTiming {
  ms: number;
  properties: number | 'all' | 'none';
}
export type OnRecompute = (timing: RecomputeTiming) => void;

/** The owner's data as a read may answer it: the version it is of, and the month it is as of. */
export interface FreshAt {
  version: number;
  month: MonthIndex;
}

/**
 * Read-your-writes over the precomputed analytics: every read checks the owner's data version, a
 * stale snapshot is recomputed before answering, and answers are cached per (owner, version, month).
 */
export function createFreshAnswers(deps: {
  now: () => Date;
  repo: AnalyticsRepository;
  recomputer: Recomputer;
  portfolios: Pick<PortfolioService, 'requireOwned'>;
}) {
  const { repo, recomputer } = deps;
  const cache = new TtlCache<unknown>(CACHE_TTL_MS, CACHE_ENTRIES);
  const inflight = new Map<string, Promise<RecomputeResult>>();

  /**
   * One recompute of an owner at a time per process; callers arriving meanwhile share it (and
   * check that it covered the version they need). `atLeast`: see Recomputer.recompute.
   */
  function recomputeShared(ownerId: string, atLeast?: number): Promise<RecomputeResult> {
    let running = inflight.get(ownerId);
    if (!running) {
      running = recomputer.recompute(ownerId, { atLeast }).finally(() => inflight.delete(ownerId));
      inflight.set(ownerId, running);
    }
    return running;
  }

  /**
   * A snapshot older than the owner's data version (or of another month) is recomputed before
   * answering. A shared recompute that read an older version than this caller saw is not enough,
   * so it recomputes again until one covers what the caller saw.
   */
  async function freshVersion(ownerId: string, seen: Freshness, onRecompute?: OnRecompute): Promise<FreshAt> {
    const month = monthIndexOfDate(utcDay(deps.now()));
    if (seen.snapshotVersion === seen.version && seen.snapshotMonth === month) return { version: seen.version, month };
    const started = performance.now();
    for (;;) {
      const done = await recomputeShared(ownerId, seen.version);
      if (done.version >= seen.version && done.month >= month) {
        onRecompute?.({
          ms: Math.round(performance.now() - started),
          properties: !done.recomputed ? 'none' : done.scope === null ? 'all' : done.scope.length,
        });
        return { version: done.version, month: done.month };
      }
    }
  }

  const building = new Map<string, Promise<unknown>>();

  /**
   * An answer of the owner's data; `key` names the owner, version and month it is of. Requests that
   * miss at once share one build: a dashboard opened by many users after a write reads the rollups
   * once, not once per request (which held every pool connection and stalled the rest of the API).
   */
  async function cached<T>(key: string, build: () => Promise<T>): Promise<T> {
    const hit = cache.get(key) as T | undefined;
    if (hit !== undefined) return hit;
    let pending = building.get(key) as Promise<T> | undefined;
    if (!pending) {
      pending = (async () => {
        // Frozen: the same object answers many requests.
        const value = deepFreeze(await build());
        cache.set(key, value);
        return value;
      })().finally(() => building.delete(key));
      building.set(key, pending);
    }
    return pending;
  }

  return {
    recomputeShared,

    /** The owner's current data version and month, recomputed first when stale. */
    async freshAt(ownerId: string, onRecompute?: OnRecompute): Promise<FreshAt> {
      return freshVersion(ownerId, await repo.freshness(ownerId), onRecompute);
    },

    cached,

    /**
     * A cached answer of the owner's fresh data: `kind` and `params` name it; `portfolioId` is
     * checked to be the owner's (404) when it is built. A cached answer for a portfolio implies it
     * was the owner's at this version: deleting or moving a portfolio moves the version.
     */
    async answer<T>(
      ownerId: string,
      kind: string,
      params: unknown[],
      portfolioId: string | null,
      onRecompute: OnRecompute | undefined,
      build: (month: MonthIndex) => Promise<T>,
    ): Promise<T> {
      const at = await freshVersion(ownerId, await repo.freshness(ownerId), onRecompute);
      return cached(JSON.stringify([kind, ownerId, at.version, at.month, portfolioId, ...params]), async () => {
        if (portfolioId !== null) await deps.portfolios.requireOwned(ownerId, portfolioId);
        return build(at.month);
      });
    },
  };
}

export type FreshAnswers = ReturnType<typeof createFreshAnswers>;
