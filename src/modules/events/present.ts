import type { AttemptRow, DeliveryRow, EndpointRow } from './repository';
import type { DeliveryStatus } from './retry-schedule';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export function presentEndpoint(e: EndpointRow) {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    event_types: e.eventTypes,
    enabled: e.enabled,
    disabled_reason: e.disabledReason,
    failing_since: iso(e.failingSince),
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}

export function presentDelivery(d: DeliveryRow, eventType: string, attempts: readonly AttemptRow[]) {
  return {
    id: d.id,
    event_id: d.eventId,
    event_type: eventType,
    replay_of: d.replayOf,
    status: d.status as DeliveryStatus,
    attempts: d.attempts,
    next_attempt_at: iso(d.nextAttemptAt),
    created_at: d.createdAt.toISOString(),
    attempt_log: attempts.map((a) => ({
      attempt: a.attempt,
      attempted_at: a.attemptedAt.toISOString(),
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      error: a.error,
    })),
  };
}
