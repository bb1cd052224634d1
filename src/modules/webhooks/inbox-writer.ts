import type { Db } from '../../platform/db/client';
import { isDatabaseUnavailable, isTransientConflict, sqlState } from '../../platform/db/errors';
import { createWebhookRepository, type StreamArrival, type WebhookRepository } from './repository';

/** Most events one statement stores. */
const MAX_BATCH = 250;
/**
 * Writes in flight at once: an event that arrives while fewer are running is written at once
 * (its wait is one commit), and PostgreSQL flushes the WAL of commits that coincide together.
 */
const MAX_IN_FLIGHT = 2;

export type AppendOutcome =
  | { kind: 'stored'; id: string; seq: number }
  /** Its body was received before (under `id`, when that is known). */
  | { kind: 'duplicate'; id: string | null }
  /** PostgreSQL refused the event itself (a value it cannot take): storing it again will not help. */
  | { kind: 'refused'; reason: string };

interface Pending {
  arrival: StreamArrival;
  resolve(outcome: AppendOutcome): void;
  reject(err: unknown): void;
}

/**
 * An error caused by the values of the event written, not by the state of the database: a data
 * exception (SQLSTATE class 22: a time out of range, text or JSON it cannot take) or a program
 * limit (class 54: e.g. a key too large for its index).
 */
export function refusesEvent(err: unknown): boolean {
  const state = sqlState(err);
  return state !== undefined && (state.startsWith('22') || state.startsWith('54'));
}

/** PostgreSQL's message, fit for the log's `detail` (text: no NUL, no lone surrogate) and short. */
function reasonOf(err: unknown): string {
  let e = err as { cause?: unknown; message?: unknown };
  while (e?.cause && typeof e.cause === 'object') e = e.cause as typeof e;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  return message
    .replaceAll('\u0000', '\uFFFD')
    .replace(/\p{Cs}/gu, '\uFFFD')
    .slice(0, 300);
}

/**
 * Writes one batch and answers its callers: stored or duplicate; a batch of several that fails
 * (not for the database being unavailable) is written again one by one (see createInboxWriter).
 */
function createBatchWriter(repo: WebhookRepository, onStored: ((stored: StreamArrival[]) => void) | undefined) {
  async function append(arrivals: StreamArrival[]): Promise<Array<{ id: string; seq: number }>> {
    try {
      return await repo.appendToStreams(arrivals);
    } catch (err) {
      if (!isTransientConflict(err)) throw err;
      return repo.appendToStreams(arrivals);
    }
  }

  /** Answers the callers of a committed write. */
  async function settle(batch: Pending[], stored: Array<{ id: string; seq: number }>): Promise<void> {
    const arrivals = batch.map((p) => p.arrival);
    const byId = new Map(stored.map((r) => [r.id, r.seq]));
    const missing = batch.filter((p) => !byId.has(p.arrival.id)).map((p) => p.arrival.sha256);
    const known = await repo.idsBySha(missing);
    onStored?.(arrivals.filter((a) => byId.has(a.id)));
    for (const p of batch) {
      const seq = byId.get(p.arrival.id);
      p.resolve(
        seq !== undefined ? { kind: 'stored', id: p.arrival.id, seq } : { kind: 'duplicate', id: known.get(p.arrival.sha256) ?? null },
      );
    }
  }

  /** A write of one event failed: refused if the event caused it, else its caller gets the error. */
  function failOne(p: Pending, err: unknown): void {
    if (refusesEvent(err)) p.resolve({ kind: 'refused', reason: reasonOf(err) });
    else p.reject(err);
  }

  async function write(batch: Pending[]): Promise<void> {
    let stored;
    try {
      stored = await append(batch.map((p) => p.arrival));
    } catch (err) {
      if (isDatabaseUnavailable(err)) throw err;
      if (batch.length === 1) return failOne(batch[0], err);
      return writeOneByOne(batch);
    }
    await settle(batch, stored);
  }

  async function writeOneByOne(batch: Pending[]): Promise<void> {
    for (const [i, p] of batch.entries()) {
      let stored;
      try {
        stored = await append([p.arrival]);
      } catch (err) {
        if (!isDatabaseUnavailable(err)) {
          failOne(p, err);
          continue;
        }
        for (const rest of batch.slice(i)) rest.reject(err);
        return;
      }
      await settle([p], stored);
    }
  }
  return write;
}

/**
 * Group commit for the inbox: events that arrive while the writes in flight run are stored
 * together by the next write, in arrival order, in one statement and one commit; a connection's
 * events are numbered in the order they arrived (one write of a stream at a time). Under load that
 * is one round trip and one WAL flush for dozens of events instead of one each; alone, an event is
 * written at once. Every caller's promise settles only after its event committed, or failed:
 * - the database unavailable: every caller of the batch gets the error (a retryable 503);
 * - any other failure of a batch of several: its events are written again one by one, in order,
 *   so one event the database cannot take does not fail the others;
 * - an event that fails alone because of its own values is `refused` (the caller logs it
 *   failed); any other error of it reaches its caller.
 */
export function createInboxWriter(deps: { db: Db; onStored?(stored: StreamArrival[]): void }) {
  const repo = createWebhookRepository(deps.db);
  let queue: Pending[] = [];
  /** Connections with events in a write in flight. */
  const busy = new Set<string>();
  let inFlight = 0;
  /**
   * Writing starts once the requests read in this turn of the event loop have all queued their
   * events, not with the first: on the embedded database a statement runs on this thread, so a
   * write started by the first request would finish before the next request is even read, and
   * every event would cost a statement and a commit of its own.
   */
  let flushScheduled = false;

  const write = createBatchWriter(repo, deps.onStored);

  /**
   * The next batch: queued events, in arrival order, of connections no write in flight holds. A
   * connection's events thus take their numbers in the order they arrived here: a second write
   * of the same stream starts only after the first committed (it would wait for the stream's row
   * lock anyway, but might reach it first and take the lower number).
   */
  function takeBatch(): Pending[] {
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    for (const p of queue) {
      if (batch.length < MAX_BATCH && !busy.has(p.arrival.connectionId)) batch.push(p);
      else rest.push(p);
    }
    queue = rest;
    return batch;
  }

  function pump(): void {
    while (inFlight < MAX_IN_FLIGHT && queue.length > 0) {
      const batch = takeBatch();
      if (batch.length === 0) return;
      const connections = [...new Set(batch.map((p) => p.arrival.connectionId))];
      for (const c of connections) busy.add(c);
      inFlight += 1;
      write(batch)
        // Callers already answered keep their answer (a settled promise does not change).
        .catch((err: unknown) => {
          for (const p of batch) p.reject(err);
        })
        .finally(() => {
          inFlight -= 1;
          for (const c of connections) busy.delete(c);
          pump();
        });
    }
  }

  return {
    /** Stores one event at the end of its stream (see AppendOutcome). */
    append(arrival: StreamArrival): Promise<AppendOutcome> {
      return new Promise<AppendOutcome>((resolve, reject) => {
        queue.push({ arrival, resolve, reject });
        if (flushScheduled) return;
        flushScheduled = true;
        setImmediate(() => {
          flushScheduled = false;
          pump();
        });
      });
    },
  };
}
