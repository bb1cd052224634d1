/**
 * Events out (README): an account's webhook endpoints, the outbox other modules write events to in
 * their own transactions, and the delivery of those events, signed per Standard Webhooks, retried
 * on the schedule of retry-schedule.ts, logged per attempt, replayable; an endpoint failing for
 * five days is disabled with a notification.
 */
import type { Db, Executor } from '../../platform/db/client';
import type { Logger } from '../../platform/logger';
import type { NotificationService } from '../notifications/service';
import { deliverDue, pruneEvents } from './delivery';
import { createEndpointDeliveryMethods, createEndpointMethods } from './endpoints';
import type { NewEvent } from './event-types';
import { DELIVERIES_PER_JOB } from './job-payload';
import { createEventRepository } from './repository';
import type { SendAttempt } from './sender';

export { RETENTION_MS } from './delivery';

export interface EndpointInput {
  url: string;
  event_types: string[];
  description?: string | null;
}

export interface EndpointChange {
  url?: string;
  event_types?: string[];
  description?: string | null;
  enabled?: boolean;
}

export interface EventServiceDeps {
  db: Db;
  now: () => Date;
  logger: Logger;
  /** Production: endpoint URLs https to public addresses only (README "Endpoint URLs and SSRF"). */
  production: boolean;
  send: SendAttempt;
  /** A disabled endpoint is a notification to its owner. */
  notifications: Pick<NotificationService, 'notifyMany'>;
  /** Queues an `event-deliveries` job (never throws: the schedule sends what is due anyway). */
  deliverSoon(): Promise<void>;
}

export function createEventService(deps: EventServiceDeps) {
  const repo = createEventRepository(deps.db);
  return {
    /**
     * Writes events to the outbox; with `executor` (a transaction) they commit with the change they
     * report. Each goes to the owner's enabled endpoints subscribed to its type. Call `deliverSoon`
     * once the transaction has committed.
     */
    emit: (list: readonly NewEvent[], executor?: Executor) => (executor ? createEventRepository(executor) : repo).emit(list, deps.now()),

    deliverSoon: () => deps.deliverSoon(),

    /** The `event-deliveries` job (delivery.ts): returns how many were sent; a full batch queues the next job. */
    deliverDue: (limit = DELIVERIES_PER_JOB): Promise<number> => deliverDue(deps, repo, limit),

    /** The `event-prune` job (delivery.ts): deletes the events past the retention with no delivery pending. */
    prune: (): Promise<number> => pruneEvents(deps, repo),

    ...createEndpointMethods(deps, repo),
    ...createEndpointDeliveryMethods(deps, repo),
  };
}

export type EventService = ReturnType<typeof createEventService>;
