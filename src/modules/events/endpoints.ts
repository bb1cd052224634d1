/**
 * An account's webhook endpoints (README "Endpoints"): create, list, change, delete, rotate the
 * secret, and the per-endpoint delivery log with replay and test events.
 */
import { conflict, notFound, unprocessable } from '../../platform/http/errors';
import { offsetOf, toPage, type PageQuery } from '../../platform/http/pagination';
import { TEST_EVENT_TYPE } from './event-types';
import { presentDelivery, presentEndpoint } from './present';
import { createEventRepository, newEndpointId, type EventRepository } from './repository';
import type { EndpointChange, EndpointInput, EventServiceDeps } from './service';
import { newSecret } from './signing';
import { urlProblem } from './url-policy';

/** How long a rotated secret still signs beside the new one. */
const PREVIOUS_SECRET_MS = 24 * 3600_000;

/** Endpoint management, owner-scoped: every method finds only the owner's endpoints. */
export function createEndpointMethods(deps: EventServiceDeps, repo: EventRepository) {
  const checkUrl = (url: string) => {
    const problem = urlProblem(url, deps.production);
    if (problem) throw unprocessable(problem, 'url');
  };

  const owned = (ownerId: string, id: string) => ownedEndpoint(repo, ownerId, id);

  return {
    /** POST /webhook-endpoints: the endpoint, with its secret (shown this once). */
    async create(ownerId: string, body: EndpointInput) {
      checkUrl(body.url);
      const now = deps.now();
      const row = await repo.insertEndpoint({
        id: newEndpointId(),
        ownerId,
        url: body.url,
        description: body.description ?? null,
        eventTypes: body.event_types,
        secret: newSecret(),
        enabled: true,
        createdAt: now,
        updatedAt: now,
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
  };
}

async function ownedEndpoint(repo: EventRepository, ownerId: string, id: string) {
  const endpoint = await repo.endpoint(ownerId, id);
  if (!endpoint) throw notFound('Webhook endpoint not found');
  return endpoint;
}

async function deliveryAnswer(repo: EventRepository, endpointId: string, deliveryId: string) {
  const found = await repo.delivery(endpointId, deliveryId);
  if (!found) throw notFound('Delivery not found');
  return presentDelivery(found.delivery, found.eventType, await repo.attemptsOf([deliveryId]));
}

/** An endpoint's delivery log, replays and test events, owner-scoped. */
export function createEndpointDeliveryMethods(deps: EventServiceDeps, repo: EventRepository) {
  return {
    /** GET /webhook-endpoints/{id}/deliveries: newest first, each with its attempt log. */
    async deliveries(ownerId: string, id: string, q: PageQuery) {
      await ownedEndpoint(repo, ownerId, id);
      const { rows, total } = await repo.deliveries(id, q.per_page, offsetOf(q));
      const attempts = await repo.attemptsOf(rows.map((r) => r.delivery.id));
      return toPage(
        rows.map((r) =>
          presentDelivery(
            r.delivery,
            r.eventType,
            attempts.filter((a) => a.deliveryId === r.delivery.id),
          ),
        ),
        total,
        q,
      );
    },

    /** A new delivery of a delivery's event to the same endpoint, with the same webhook-id (the receiver may deduplicate). */
    async replay(ownerId: string, id: string, deliveryId: string) {
      const endpoint = await ownedEndpoint(repo, ownerId, id);
      const found = await repo.delivery(id, deliveryId);
      if (!found) throw notFound('Delivery not found');
      if (!endpoint.enabled) throw conflict('Webhook endpoint is disabled: enable it first');
      const created = await repo.insertDelivery({ eventId: found.delivery.eventId, endpointId: id, replayOf: deliveryId }, deps.now());
      await deps.deliverSoon();
      return deliveryAnswer(repo, id, created.id);
    },

    /** A `webhook.test` event to this endpoint only. */
    async sendTest(ownerId: string, id: string) {
      const endpoint = await ownedEndpoint(repo, ownerId, id);
      if (!endpoint.enabled) throw conflict('Webhook endpoint is disabled: enable it first');
      const now = deps.now();
      const created = await deps.db.transaction(async (tx) => {
        const txRepo = createEventRepository(tx);
        const event = await txRepo.insertEvent(
          {
            ownerId,
            type: TEST_EVENT_TYPE,
            data: { endpoint_id: id, message: 'A test event: your endpoint receives and verifies deliveries.' },
          },
          now,
        );
        return txRepo.insertDelivery({ eventId: event.id, endpointId: id, replayOf: null }, now);
      });
      await deps.deliverSoon();
      return deliveryAnswer(repo, id, created.id);
    },
  };
}
