/**
 * Events out (README): an account's webhook endpoints, the outbox other modules write events to in
 * their own transactions, and the delivery of those events, signed per Standard Webhooks, retried
 * on the schedule of retry-schedule.ts, logged per attempt, replayable; an endpoint failing for
 * five days is disabled with a notification.
 */
import type { Db, Executor } from '../../platform/db/client';
import type { Logger } from '../../platform/logger';
import { conflict, notFound, unprocessable } from '../../platform/http/errors';
import { offsetOf, toPage, type PageQuery } from '../../platform/http/pagination';
import type { NotificationService } from '../notifications/service';
import { TEST_EVENT_TYPE, type NewEvent } from './event-types';
import { DELIVERIES_PER_JOB } from './job-payload';
import { presentDelivery, presentEndpoint } from './present';
import { createEventRepository, newEndpointId, type DueDelivery } from './repository';
import { failedTooLong, nextAttemptAt } from './retry-schedule';
import type { AttemptResult, SendAttempt } from './sender';
import { eventBody, newSecret, signedHeaders } from './signing';
import { urlProblem } from './url-policy';

/** A delivery being sent is not claimed again for this long (more than a send's time-out). */
const LEASE_MS = 60_000;
/** Sends in flight at once per job. */
const CONCURRENCY = 10;
/** Events (with their deliveries and attempt logs) are kept this long once none is pending (README "Retention"). */
export const RETENTION_MS = 30 * 24 * 3600_000;
/** Events one prune statement deletes. */
const PRUNE_BATCH = 1000;
/** How long a rotated secret still signs beside the new one. */
const PREVIOUS_SECRET_MS = 24 * 3600_000;

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

  const checkUrl = (url: string) => {
    const problem = urlProblem(url, deps.production);
    if (problem) throw unprocessable(problem, 'url');
  };

  async function owned(ownerId: string, id: string) {
    const endpoint = await repo.endpoint(ownerId, id);
    if (!endpoint) throw notFound('Webhook endpoint not found');
    return endpoint;
  }

  async function deliveryAnswer(endpointId: string, deliveryId: string) {
    const found = await repo.delivery(endpointId, deliveryId);
    if (!found) throw notFound('Delivery not found');
    return presentDelivery(found.delivery, found.eventType, await repo.attemptsOf([deliveryId]));
  }

  /** Writes one attempt's outcome: the log line, the delivery's next step, and the endpoint's failure window. */
  async function record(due: DueDelivery, attemptedAt: Date, result: AttemptResult): Promise<void> {
    const at = deps.now();
    await deps.db.transaction(async (tx) => {
      const txRepo = createEventRepository(tx);
      const endpoint = await txRepo.lockEndpoint(due.endpoint.id);
      if (!endpoint) return; // deleted meanwhile: its deliveries went with it
      const attempt = due.delivery.attempts + 1;
      await txRepo.insertAttempt({
        deliveryId: due.delivery.id, attempt, attemptedAt, statusCode: result.statusCode, durationMs: result.durationMs, error: result.error,
      });
      if (result.ok) {
        await txRepo.updateDelivery(due.delivery.id, { status: 'succeeded', attempts: attempt, nextAttemptAt: null, updatedAt: at });
        if (endpoint.failingSince !== null) await txRepo.setEndpoint(endpoint.id, { failingSince: null });
        return;
      }
      const next = nextAttemptAt(attempt, at);
      await txRepo.updateDelivery(due.delivery.id, { status: next ? 'pending' : 'failed', attempts: attempt, nextAttemptAt: next, updatedAt: at });
      const since = endpoint.failingSince ?? attemptedAt;
      if (endpoint.enabled && failedTooLong(since, at)) {
        const reason = `every delivery failed since ${since.toISOString()}`;
        await txRepo.setEndpoint(endpoint.id, { enabled: false, disabledReason: reason, failingSince: since, updatedAt: at });
        await deps.notifications.notifyMany([{
          userId: endpoint.ownerId, type: 'webhook_endpoint_disabled',
          message: `Webhook endpoint ${endpoint.url} was disabled: ${reason}. Fix it, then re-enable it (PATCH enabled: true).`,
          dedupeKey: `webhook-endpoint-disabled:${endpoint.id}:${since.toISOString()}`,
        }], tx);
        deps.logger.warn({ endpointId: endpoint.id, since }, 'webhook endpoint disabled after failing for 5 days');
      } else if (endpoint.failingSince === null) {
        await txRepo.setEndpoint(endpoint.id, { failingSince: since });
      }
    });
  }

  /** Sends one claimed delivery and records the outcome. */
  async function attempt(due: DueDelivery): Promise<void> {
    const sentAt = deps.now();
    const body = eventBody(due.event);
    const { endpoint } = due;
    const secrets = [endpoint.secret];
    if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > sentAt) secrets.push(endpoint.previousSecret);
    const result = await deps.send(endpoint.url, signedHeaders(due.event.id, sentAt, body, secrets), body);
    await record(due, sentAt, result);
  }

  return {
    /**
     * Writes events to the outbox; with `executor` (a transaction) they commit with the change they
     * report. Each goes to the owner's enabled endpoints subscribed to its type. Call `deliverSoon`
     * once the transaction has committed.
     */
    emit: (list: readonly NewEvent[], executor?: Executor) =>
      (executor ? createEventRepository(executor) : repo).emit(list, deps.now()),

    deliverSoon: () => deps.deliverSoon(),

    /**
     * The `event-deliveries` job: claims the deliveries due, sends them `CONCURRENCY` at a time, and
     * records each outcome. Returns how many were sent; a full batch queues the next job.
     */
    async deliverDue(limit = DELIVERIES_PER_JOB): Promise<number> {
      const now = deps.now();
      const due = await repo.claimDue(now, new Date(now.getTime() + LEASE_MS), limit);
      let next = 0;
      const worker = async () => {
        while (next < due.length) await attempt(due[next++]!);
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, worker));
      if (due.length === limit) await deps.deliverSoon();
      return due.length;
    },

    /** The `event-prune` job: deletes the events older than the retention with no delivery pending, a batch at a time. */
    async prune(): Promise<number> {
      const before = new Date(deps.now().getTime() - RETENTION_MS);
      let pruned = 0;
      for (;;) {
        const n = await repo.prune(before, PRUNE_BATCH);
        pruned += n;
        if (n < PRUNE_BATCH) break;
      }
      if (pruned > 0) deps.logger.info({ pruned }, 'webhook events past the retention deleted');
      return pruned;
    },

    /** POST /webhook-endpoints: the endpoint, with its secret (shown this once). */
    async create(ownerId: string, body: EndpointInput) {
      checkUrl(body.url);
      const now = deps.now();
      const row = await repo.insertEndpoint({
        id: newEndpointId(), ownerId, url: body.url, description: body.description ?? null, eventTypes: body.event_types,
        secret: newSecret(), enabled: true, createdAt: now, updatedAt: now,
      });
      return { ...presentEndpoint(row), secret: row.secret };
    },

    async list(ownerId: string, q: PageQuery) {
      const { rows, total } = await repo.endpoints(ownerId, q.per_page, offsetOf(q));
      return toPage(rows.map(presentEndpoint), total, q);
    },

    get: async (ownerId: string, id: string) => presentEndpoint(await owned(ownerId, id)),

    /** PATCH: `enabled: true` re-enables (the failure window starts again), `false` pauses. */
    async update(ownerId: string, id: string, body: EndpointChange) {
      if (body.url !== undefined) checkUrl(body.url);
      const set: Parameters<typeof repo.updateEndpoint>[2] = { updatedAt: deps.now() };
      if (body.url !== undefined) set.url = body.url;
      if (body.event_types !== undefined) set.eventTypes = body.event_types;
      if (body.description !== undefined) set.description = body.description;
      if (body.enabled === true) Object.assign(set, { enabled: true, disabledReason: null, failingSince: null });
      if (body.enabled === false) Object.assign(set, { enabled: false, disabledReason: 'disabled by its owner' });
      const row = await repo.updateEndpoint(ownerId, id, set);
      if (!row) throw notFound('Webhook endpoint not found');
      if (body.enabled === true) await deps.deliverSoon();
      return presentEndpoint(row);
    },

    async remove(ownerId: string, id: string): Promise<void> {
      if (!(await repo.deleteEndpoint(ownerId, id))) throw notFound('Webhook endpoint not found');
    },

    /** A new secret; the old one keeps signing beside it for 24 hours, so receivers can switch without losing a delivery. */
    async rotateSecret(ownerId: string, id: string) {
      const endpoint = await owned(ownerId, id);
      const now = deps.now();
      const expires = new Date(now.getTime() + PREVIOUS_SECRET_MS);
      const secret = newSecret();
      await repo.updateEndpoint(ownerId, id, { secret, previousSecret: endpoint.secret, previousSecretExpiresAt: expires, updatedAt: now });
      return { secret, previous_secret_expires_at: expires.toISOString() };
    },

    /** GET /webhook-endpoints/{id}/deliveries: newest first, each with its attempt log. */
    async deliveries(ownerId: string, id: string, q: PageQuery) {
      await owned(ownerId, id);
      const { rows, total } = await repo.deliveries(id, q.per_page, offsetOf(q));
      const attempts = await repo.attemptsOf(rows.map((r) => r.delivery.id));
      return toPage(rows.map((r) => presentDelivery(r.delivery, r.eventType, attempts.filter((a) => a.deliveryId === r.delivery.id))), total, q);
    },

    /** A new delivery of a delivery's event to the same endpoint, with the same webhook-id (the receiver may deduplicate). */
    async replay(ownerId: string, id: string, deliveryId: string) {
      const endpoint = await owned(ownerId, id);
      const found = await repo.delivery(id, deliveryId);
      if (!found) throw notFound('Delivery not found');
      if (!endpoint.enabled) throw conflict('Webhook endpoint is disabled: enable it first');
      const created = await repo.insertDelivery({ eventId: found.delivery.eventId, endpointId: id, replayOf: deliveryId }, deps.now());
      await deps.deliverSoon();
      return deliveryAnswer(id, created.id);
    },

    /** A `webhook.test` event to this endpoint only. */
    async sendTest(ownerId: string, id: string) {
      const endpoint = await owned(ownerId, id);
      if (!endpoint.enabled) throw conflict('Webhook endpoint is disabled: enable it first');
      const now = deps.now();
      const created = await deps.db.transaction(async (tx) => {
        const txRepo = createEventRepository(tx);
        const event = await txRepo.insertEvent({
          ownerId, type: TEST_EVENT_TYPE, data: { endpoint_id: id, message: 'A test event: your endpoint receives and verifies deliveries.' },
        }, now);
        return txRepo.insertDelivery({ eventId: event.id, endpointId: id, replayOf: null }, now);
      });
      await deps.deliverSoon();
      return deliveryAnswer(id, created.id);
    },
  };
}

export type EventService = ReturnType<typeof createEventService>;
