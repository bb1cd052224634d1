import type { Executor } from '../../platform/db/client';
import type { StreamEnvelope } from './envelope';

/** What applying one event came to, as the webhook log records it. */
export interface EventOutcome {
  status: 'success' | 'ignored' | 'failed';
  detail: string | null;
  /** Work to start once the event's transaction has committed (queueing follow-up jobs). */
  after?: () => Promise<void>;
}

/**
 * Applies the events of one transaction, the one that also moves their streams' cursors, so an
 * event's effects and "it was applied" commit together. `prepare` sees every event of the
 * transaction first (to read what they need in bulk), `apply` runs per event in stream order,
 * `finish` after the last (to write in bulk). Throwing anywhere undoes the transaction: the
 * events are retried one by one, with back-off, and dead-lettered after their last attempt.
 */
export interface EventBatch {
  prepare(events: ReadonlyArray<{ envelope: StreamEnvelope; eventId: string }>): Promise<void>;
  apply(envelope: StreamEnvelope, eventId: string): Promise<EventOutcome>;
  finish(): Promise<void>;
}

export type EventHandlerFactory = (tx: Executor) => EventBatch;
