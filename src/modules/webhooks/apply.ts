import type { Db, Executor } from '../../platform/db/client';
import { isDatabaseUnavailable, isTransientConflict } from '../../platform/db/errors';
import { AppError, conflict, notFound } from '../../platform/http/errors';
import type { Logger } from '../../platform/logger';
import { backoffDelay, errorText } from '../../platform/queue/policy';
import { readStreamEnvelope, type StreamEnvelope } from './envelope';
import type { EventHandlerFactory } from './handler';
import { createWebhookRepository, type PendingEvent, type ProcessedEvent, type WebhookEventRow } from './repository';

/**
 * Events applied per transaction, about (a stream's events as counted just before, the later
 * arrivals of its stream waiting for the next). A transaction holds its streams' locks, and on the
 * embedded database the only connection, for as long as it runs: every acknowledgment of a
 * webhook received meanwhile waits for it (issue 46 item 9: transactions of many streams' events
 * kept acknowledgments waiting). A hundred events keep a transaction short.
 */
const BATCH_SIZE = 100;
/** Streams one transaction of the drain of every stream takes, at most (streams of a few events each). */
const STREAMS_PER_TRANSACTION = 50;

/**
 * The drain's transactions: streams in order, grouped so that each transaction reads about
 * BATCH_SIZE events (a stream with more than that has a transaction of its own, of BATCH_SIZE).
 */
export function transactionsOf(pending: ReadonlyArray<{ connectionId: string; pending: number }>) {
  const groups: Array<Array<{ connectionId: string; limit: number }>> = [];
  let group: Array<{ connectionId: string; limit: number }> = [];
  let events = 0;
  for (const stream of pending) {
    const limit = Math.max(1, Math.min(stream.pending, BATCH_SIZE));
    if (group.length > 0 && (events + limit > BATCH_SIZE || group.length >= STREAMS_PER_TRANSACTION)) {
      groups.push(group);
      group = [];
      events = 0;
    }
    group.push({ connectionId: stream.connectionId, limit });
    events += limit;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}
/** The drain of every stream stops after this long (another job goes on): a busy inbox never keeps one job forever. */
const DRAIN_ALL_BUDGET_MS = 5_000;
/** Attempts of an event whose handler throws, before it is dead-lettered. */
export const MAX_EVENT_ATTEMPTS = 5;
/** Wait before the second attempt; doubled for each later one. */
export const RETRY_BASE_MS = 1000;

export interface StreamApplierDeps {
  db: Db;
  now: () => Date;
  logger: Logger;
  handler: EventHandlerFactory;
  /** Queues a kick of the connection's stream in `delayMs` (deterministic per event and attempt). */
  scheduleRetry(connectionId: string, eventId: string, attempt: number, delayMs: number): Promise<unknown>;
  /** Queues another drain of every stream: this one ran out of time with work left. */
  continueLater(): Promise<unknown>;
}

type BatchResult =
  { kind: 'applied'; count: number; after: Array<() => Promise<void>> } | { kind: 'waiting'; head: PendingEvent } | { kind: 'empty' };

/** An error as an event's `detail` records it. */
const detailOf = (err: unknown) => errorText(err).slice(0, 1000);

/** Runs the handler over events of one transaction, in order: their outcomes, and the work to start after the commit. */
async function applyEvents(deps: StreamApplierDeps, tx: Executor, events: ReadonlyArray<{ envelope: StreamEnvelope; eventId: string }>) {
  const handler = deps.handler(tx);
  await handler.prepare(events);
  const processed: ProcessedEvent[] = [];
  const after: Array<() => Promise<void>> = [];
  for (const { envelope, eventId } of events) {
    const outcome = await handler.apply(envelope, eventId);
    processed.push({ id: eventId, status: outcome.status, detail: outcome.detail });
    if (outcome.after) after.push(outcome.after);
  }
  await handler.finish();
  return { processed, after };
}

/** The head is backing off: make sure its retry is queued (same id per event and attempt: added once). */
function scheduleHeadRetry(deps: StreamApplierDeps, connectionId: string, head: PendingEvent): Promise<unknown> {
  const delay = Math.max(0, head.nextAttemptAt!.getTime() - deps.now().getTime());
  return deps.scheduleRetry(connectionId, head.id, head.attempts, delay);
}

async function applyBatch(deps: StreamApplierDeps, connectionId: string, limit: number): Promise<BatchResult> {
  return deps.db.transaction(async (tx) => {
    const txRepo = createWebhookRepository(tx);
    const events = await txRepo.lockAndRead(connectionId, limit);
    if (events.length === 0) return { kind: 'empty' };
    const now = deps.now();
    if (events[0].nextAttemptAt && events[0].nextAttemptAt > now) return { kind: 'waiting', head: events[0] };
    const { processed, after } = await applyEvents(
      deps,
      tx,
      events.map((e) => ({ envelope: readStreamEnvelope(e.rawBody!), eventId: e.id })),
    );
    await txRepo.completeMany(processed, [{ conn: connectionId, seq: events[events.length - 1].seq! }], now);
    return { kind: 'applied', count: events.length, after };
  });
}

/** The head event failed an attempt: schedule its retry, or dead-letter it and move past it. */
async function recordFailure(deps: StreamApplierDeps, connectionId: string, err: unknown): Promise<'retrying' | 'dead-lettered' | 'gone'> {
  const decision = await deps.db.transaction(async (tx) => {
    const txRepo = createWebhookRepository(tx);
    const [head] = await txRepo.lockAndRead(connectionId, 1);
    if (!head) return { kind: 'gone' as const };
    const attempts = head.attempts + 1;
    const now = deps.now();
    if (attempts >= MAX_EVENT_ATTEMPTS) {
      await txRepo.deadLetter(head.id, attempts, `failed after ${attempts} attempts: ${detailOf(err)}`, now);
      await txRepo.advancePointer(connectionId, head.seq!);
      return { kind: 'dead-lettered' as const, head };
    }
    const delayMs = backoffDelay(RETRY_BASE_MS, attempts);
    await txRepo.recordRetry(head.id, attempts, `attempt ${attempts} failed: ${detailOf(err)}`, new Date(now.getTime() + delayMs));
    return { kind: 'retrying' as const, head, attempts, delayMs };
  });
  if (decision.kind === 'dead-lettered') {
    deps.logger.error({ err, connectionId, eventId: decision.head.id }, 'webhook event dead-lettered');
    return 'dead-lettered';
  }
  if (decision.kind === 'retrying') {
    deps.logger.warn({ err, connectionId, eventId: decision.head.id, attempt: decision.attempts }, 'webhook event failed, will retry');
    await deps.scheduleRetry(connectionId, decision.head.id, decision.attempts, decision.delayMs);
    return 'retrying';
  }
  return 'gone';
}

async function runAfter(deps: StreamApplierDeps, after: Array<() => Promise<void>>) {
  for (const task of after) {
    // Follow-up work is recorded in the database first (e.g. an owed import), so a failure here is caught up later.
    await task().catch((err: unknown) => deps.logger.warn({ err }, 'follow-up of a webhook event failed'));
  }
}

/**
 * One transaction over several streams: each stream's events in order, every outcome and cursor
 * written by one statement. Streams another applier holds are skipped (it applies them); a
 * stream whose head is backing off is left alone. Returns how many streams moved on. When an
 * event's handler throws, the whole transaction is undone and each stream goes through the
 * one-stream drain, which isolates the failing event.
 */
async function applyStreams(deps: StreamApplierDeps, streams: Array<{ connectionId: string; limit: number }>): Promise<number> {
  let waiting: Array<PendingEvent & { connectionId: string }> = [];
  let result: { moved: number; after: Array<() => Promise<void>> };
  try {
    result = await deps.db.transaction(async (tx) => {
      const txRepo = createWebhookRepository(tx);
      const batches = await txRepo.lockAndReadMany(streams);
      const now = deps.now();
      const cursors: Array<{ conn: string; seq: number }> = [];
      const ready: Array<{ envelope: StreamEnvelope; eventId: string }> = [];
      waiting = [];
      for (const b of batches) {
        if (b.events.length === 0) {
          // Numbers up to last_seq that no event holds: copies of one body that raced (see appendToStreams).
          if (b.lastSeq > b.appliedSeq) cursors.push({ conn: b.connectionId, seq: b.lastSeq });
          continue;
        }
        const head = b.events[0];
        if (head.nextAttemptAt && head.nextAttemptAt > now) {
          waiting.push({ ...head, connectionId: b.connectionId });
          continue;
        }
        for (const e of b.events) ready.push({ envelope: readStreamEnvelope(e.rawBody!), eventId: e.id });
        cursors.push({ conn: b.connectionId, seq: b.events[b.events.length - 1].seq! });
      }
      const { processed, after } = await applyEvents(deps, tx, ready);
      await txRepo.completeMany(processed, cursors, now);
      return { moved: cursors.length, after };
    });
  } catch (err) {
    if (isDatabaseUnavailable(err)) throw err;
    for (const { connectionId } of streams) await drainOne(deps, connectionId);
    return streams.length;
  }
  await runAfter(deps, result.after);
  for (const head of waiting) await scheduleHeadRetry(deps, head.connectionId, head);
  return result.moved;
}

/**
 * Applies the connection's pending events in order, in batches. Throws only when the database
 * cannot be reached, so the job is retried.
 */
async function drainOne(deps: StreamApplierDeps, connectionId: string): Promise<void> {
  // After a failed batch, events go one per transaction until the failing one is found.
  let singleSteps = 0;
  let transientRetries = 0;
  for (;;) {
    const limit = singleSteps > 0 ? 1 : BATCH_SIZE;
    let result: BatchResult;
    try {
      result = await applyBatch(deps, connectionId, limit);
    } catch (err) {
      if (isDatabaseUnavailable(err)) throw err;
      // A deadlock with an import of the same units is nobody's fault: run it again, not counted against the event.
      if (isTransientConflict(err) && transientRetries++ < 3) continue;
      if (singleSteps === 0) {
        singleSteps = BATCH_SIZE;
        continue;
      }
      const next = await recordFailure(deps, connectionId, err);
      if (next === 'retrying') return;
      singleSteps = 0;
      continue;
    }
    if (result.kind === 'empty') return;
    if (result.kind === 'waiting') {
      // Another kick found the head backing off.
      await scheduleHeadRetry(deps, connectionId, result.head);
      return;
    }
    await runAfter(deps, result.after);
    if (singleSteps > 0) singleSteps -= 1;
    if (result.count < limit) return;
  }
}

/**
 * Applies each connection's stream strictly in sequence. The stream's cursor row, locked for the
 * whole transaction, serialises appliers (several jobs, worker processes, a replay); an event's
 * effects, its log status and the cursor commit together, so an event is applied exactly once
 * however often its job runs. An event whose handler throws blocks its stream while it is retried
 * with back-off (the later events wait: order first), and is dead-lettered after its last attempt,
 * so it never blocks the stream for good.
 */
export function createStreamApplier(deps: StreamApplierDeps) {
  const repo = createWebhookRepository(deps.db);

  return {
    drain: (connectionId: string): Promise<void> => drainOne(deps, connectionId),

    /**
     * Applies every stream with pending events, several streams per transaction, until none is
     * left (or DRAIN_ALL_BUDGET_MS passed, or only streams other appliers hold remain). Throws only
     * when the database cannot be reached.
     */
    async drainAll(): Promise<void> {
      const until = Date.now() + DRAIN_ALL_BUDGET_MS;
      while (Date.now() < until) {
        const pending = await repo.pendingStreams(1000);
        let moved = 0;
        for (const streams of transactionsOf(pending)) moved += await applyStreams(deps, streams);
        if (moved === 0) return;
      }
      // Out of time with work left (a backlog): the next job goes on at once, not at the sweeper's next tick.
      await deps.continueLater();
    },

    /**
     * Runs a failed event again (an operator's replay), under its stream's lock so it never
     * interleaves with the stream's appliers. A success takes it off the dead-letter list.
     */
    async replay(eventId: string): Promise<WebhookEventRow> {
      let after: Array<() => Promise<void>>;
      try {
        after = await deps.db.transaction(async (tx) => {
          const txRepo = createWebhookRepository(tx);
          const event = await txRepo.findById(eventId);
          if (!event) throw notFound('Webhook event not found');
          if (event.status !== 'failed') throw conflict('Only a failed event can be replayed');
          if (event.seq === null || event.connectionId === null || event.rawBody === null) {
            throw conflict('This event was rejected on arrival (its body is not a valid event); it cannot be replayed');
          }
          await txRepo.lockStream(event.connectionId);
          const locked = (await txRepo.findById(eventId, true))!;
          if (locked.status !== 'failed') throw conflict('Only a failed event can be replayed');
          const result = await applyEvents(deps, tx, [{ envelope: readStreamEnvelope(event.rawBody), eventId: event.id }]);
          await txRepo.recordReplay(event.id, result.processed[0], locked.attempts + 1, deps.now());
          return result.after;
        });
      } catch (err) {
        if (isDatabaseUnavailable(err) || err instanceof AppError) throw err;
        const event = await repo.findById(eventId);
        if (!event) throw notFound('Webhook event not found');
        await repo.recordReplay(
          eventId,
          { id: eventId, status: 'failed', detail: `replay failed: ${detailOf(err)}` },
          event.attempts + 1,
          deps.now(),
        );
        return (await repo.findById(eventId))!;
      }
      await runAfter(deps, after);
      return (await repo.findById(eventId))!;
    },
  };
}

export type StreamApplier = ReturnType<typeof createStreamApplier>;
