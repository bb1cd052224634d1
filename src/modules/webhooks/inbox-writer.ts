import type { Db } from '../../platform/db/client';
import { isTransientConflict } from '../../platform/db/errors';
import { createWebhookRepository, type StreamArrival } from './repository';

/** Most events one statement stores. */
const MAX_BATCH = 250;
/**
 * Writes in flight at once: an event that arrives while fewer are running is written at once
 * (its wait is one commit), and PostgreSQL flushes the WAL of commits that coincide together.
 */
const MAX_IN_FLIGHT = 2;

export type AppendOutcome = { stored: true; id: string; seq: number } | { stored: false; id: string | null };

interface Pending {
  arrival: StreamArrival;
  resolve(outcome: AppendOutcome): void;
  reject(err: unknown): void;
}

/**
 * Group commit for the inbox: events that arrive while the writes in flight run are stored
 * together by the next write, in arrival order, in one statement and one commit. Under load that
 * is one round trip and one WAL flush for dozens of events instead of one each; alone, an event is
 * written at once. Every caller's promise settles only after its batch committed (or failed: then
 * every caller of the batch gets the error, and answers the provider with a retryable 5xx).
 */
export function createInboxWriter(deps: { db: Db; onStored?(stored: StreamArrival[]): void }) {
  const repo = createWebhookRepository(deps.db);
  const queue: Pending[] = [];
  let inFlight = 0;

  async function write(batch: Pending[]): Promise<void> {
    const arrivals = batch.map((p) => p.arrival);
    let stored;
    try {
      stored = await repo.appendToStreams(arrivals);
    } catch (err) {
      if (!isTransientConflict(err)) throw err;
      stored = await repo.appendToStreams(arrivals);
    }
    const byId = new Map(stored.map((r) => [r.id, r.seq]));
    const missing = batch.filter((p) => !byId.has(p.arrival.id)).map((p) => p.arrival.sha256);
    const known = await repo.idsBySha(missing);
    deps.onStored?.(arrivals.filter((a) => byId.has(a.id)));
    for (const p of batch) {
      const seq = byId.get(p.arrival.id);
      p.resolve(seq !== undefined ? { stored: true, id: p.arrival.id, seq } : { stored: false, id: known.get(p.arrival.sha256) ?? null });
    }
  }

  function pump(): void {
    while (inFlight < MAX_IN_FLIGHT && queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH);
      inFlight += 1;
      write(batch)
        .catch((err: unknown) => {
          for (const p of batch) p.reject(err);
        })
        .finally(() => {
          inFlight -= 1;
          pump();
        });
    }
  }

  return {
    /** Stores one event at the end of its stream; `stored: false` when its body was received before. */
    append(arrival: StreamArrival): Promise<AppendOutcome> {
      return new Promise<AppendOutcome>((resolve, reject) => {
        queue.push({ arrival, resolve, reject });
        pump();
      });
    },
  };
}
