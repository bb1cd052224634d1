/**
 * The sending side of the events service (README "Delivery"): claims the deliveries due, sends them
 * signed per Standard Webhooks, records each attempt's outcome (retry schedule, failure window,
 * disabling an endpoint failing for five days), and prunes events past the retention.
 */
import { DELIVERIES_PER_JOB } from './job-payload';
import { createEventRepository, type DueDelivery, type EventRepository } from './repository';
import { failedTooLong, nextAttemptAt } from './retry-schedule';
import type { AttemptResult } from './sender';
import type { EventServiceDeps } from './service';
import { eventBody, signedHeaders } from './signing';

/** A delivery being sent is not claimed again for this long (more than a send's time-out). */
const LEASE_MS = 60_000;
/** Sends in flight at once per job. */
const CONCURRENCY = 10;
/** Events (with their deliveries and attempt logs) are kept this long once none is pending (README "Retention"). */
export const RETENTION_MS = 30 * 24 * 3600_000;
/** Events one prune statement deletes. */
const PRUNE_BATCH = 1000;

/** Writes one attempt's outcome: the log line, the delivery's next step, and the endpoint's failure window. */
async function record(deps: EventServiceDeps, due: DueDelivery, attemptedAt: Date, result: AttemptResult): Promise<void> {
  const at = deps.now();
  await deps.db.transaction(async (tx) => {
    const txRepo = createEventRepository(tx);
    const endpoint = await txRepo.lockEndpoint(due.endpoint.id);
    if (!endpoint) return; // deleted meanwhile: its deliveries went with it
    const attempt = due.delivery.attempts + 1;
    await txRepo.insertAttempt({
      deliveryId: due.delivery.id,
      attempt,
      attemptedAt,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error,
    });
    if (result.ok) {
      await txRepo.updateDelivery(due.delivery.id, { status: 'succeeded', attempts: attempt, nextAttemptAt: null, updatedAt: at });
      if (endpoint.failingSince !== null) await txRepo.setEndpoint(endpoint.id, { failingSince: null });
      return;
    }
    const next = nextAttemptAt(attempt, at);
    await txRepo.updateDelivery(due.delivery.id, {
      status: next ? 'pending' : 'failed',
      attempts: attempt,
      nextAttemptAt: next,
      updatedAt: at,
    });
    const since = endpoint.failingSince ?? attemptedAt;
    if (endpoint.enabled && failedTooLong(since, at)) {
      const reason = `every delivery failed since ${since.toISOString()}`;
      await txRepo.setEndpoint(endpoint.id, { enabled: false, disabledReason: reason, failingSince: since, updatedAt: at });
      await deps.notifications.notifyMany(
        [
          {
            userId: endpoint.ownerId,
            type: 'webhook_endpoint_disabled',
            message: `Webhook endpoint ${endpoint.url} was disabled: ${reason}. Fix it, then re-enable it (PATCH enabled: true).`,
            dedupeKey: `webhook-endpoint-disabled:${endpoint.id}:${since.toISOString()}`,
          },
        ],
        tx,
      );
      deps.logger.warn({ endpointId: endpoint.id, since }, 'webhook endpoint disabled after failing for 5 days');
    } else if (endpoint.failingSince === null) {
      await txRepo.setEndpoint(endpoint.id, { failingSince: since });
    }
  });
}

/** Sends one claimed delivery and records the outcome. */
async function attempt(deps: EventServiceDeps, due: DueDelivery): Promise<void> {
  const sentAt = deps.now();
  const body = eventBody(due.event);
  const { endpoint } = due;
  const secrets = [endpoint.secret];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > sentAt)
    secrets.push(endpoint.previousSecret);
  const result = await deps.send(endpoint.url, signedHeaders(due.event.id, sentAt, body, secrets), body);
  await record(deps, due, sentAt, result);
}

/**
 * The `event-deliveries` job: claims the deliveries due, sends them `CONCURRENCY` at a time, and
 * records each outcome. Returns how many were sent; a full batch queues the next job.
 */
export async function deliverDue(deps: EventServiceDeps, repo: EventRepository, limit = DELIVERIES_PER_JOB): Promise<number> {
  const now = deps.now();
  const due = await repo.claimDue(now, new Date(now.getTime() + LEASE_MS), limit);
  let next = 0;
  const worker = async () => {
    while (next < due.length) await attempt(deps, due[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, worker));
  if (due.length === limit) await deps.deliverSoon();
  return due.length;
}

/** The `event-prune` job: deletes the events older than the retention with no delivery pending, a batch at a time. */
export async function pruneEvents(deps: EventServiceDeps, repo: EventRepository): Promise<number> {
  const before = new Date(deps.now().getTime() - RETENTION_MS);
  let pruned = 0;
  for (;;) {
    const n = await repo.prune(before, PRUNE_BATCH);
    pruned += n;
    if (n < PRUNE_BATCH) break;
  }
  if (pruned > 0) deps.logger.info({ pruned }, 'webhook events past the retention deleted');
  return pruned;
}
