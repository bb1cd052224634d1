import { z } from 'zod';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { ApiRouter } from '../../platform/http/router';
import { pageSchema } from '../../platform/http/pagination';
import { callerId } from '../../platform/http/auth';
import { onOwned } from '../../platform/http/owned-routes';
import {
  deliveryIdParams,
  deliveryResponse,
  endpointCreateBody,
  endpointIdParams,
  endpointPatchBody,
  endpointResponse,
  endpointWithSecretResponse,
  listQuery,
  rotatedSecretResponse,
  endpointExample,
  deliveriesPageExample,
} from './schemas';
import type { EventService } from './service';
import { EVENT_TYPES, eventDataSchemas } from './event-types';

const tags = ['Webhook endpoints'];
const NOT_FOUND = "Webhook endpoint not found (or not the caller's)";

const signatureHeaders = z.object({
  'webhook-id': z.string().meta({ description: "the event's id: the same on every attempt and replay (deduplicate on it)" }),
  'webhook-timestamp': z.string().meta({ description: "the attempt's time, Unix seconds" }),
  'webhook-signature': z
    .string()
    .meta({ description: 'v1,<base64 HMAC-SHA256 of "id.timestamp.body">, one per secret in use, space separated' }),
});

/** The events an endpoint receives, as the document's `webhooks` (OpenAPI 3.1): each type's body and the signature headers. */
function documentEvents(registry: OpenAPIRegistry): void {
  for (const type of EVENT_TYPES) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      tags,
      summary: `${type}: an event POSTed to the endpoints subscribed to it`,
      description:
        'Signed per Standard Webhooks (events README "Verifying a delivery"). Answer 2xx within 15 s; anything else is retried ' +
        'at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure.',
      security: [],
      request: {
        headers: signatureHeaders,
        body: {
          required: true,
          content: {
            'application/json': { schema: z.object({ type: z.literal(type), timestamp: z.string(), data: eventDataSchemas[type] }) },
          },
        },
      },
      responses: { 200: { description: 'Any 2xx acknowledges the delivery' } },
    });
  }
}

/** /webhook-endpoints: where an account's events go (README "Endpoints"). */
export function registerEventRoutes(api: ApiRouter, events: EventService): void {
  documentEvents(api.registry);

  api.post(
    '/webhook-endpoints',
    {
      summary: 'Register a webhook endpoint',
      tags,
      auth: 'required',
      status: 201,
      description:
        'Events of the listed types are POSTed to the URL, signed per Standard Webhooks with the secret this answer shows (only here).',
      body: endpointCreateBody,
      response: endpointWithSecretResponse,
      errors: { 422: 'Invalid URL or event type' },
    },
    ({ body, req }) => events.create(callerId(req), body),
  );

  api.get(
    '/webhook-endpoints',
    {
      summary: "List the caller's webhook endpoints, newest first",
      tags,
      auth: 'required',
      query: listQuery,
      response: pageSchema(endpointResponse).meta({ example: { items: [endpointExample], total: 1, page: 1, per_page: 20, pages: 1 } }),
    },
    ({ query, req }) => events.list(callerId(req), query),
  );

  onOwned(
    api,
    'get',
    '/webhook-endpoints/:id',
    {
      summary: 'A webhook endpoint',
      tags,
      params: endpointIdParams,
      response: endpointResponse,
      notFound: NOT_FOUND,
    },
    (ownerId, id) => events.get(ownerId, id),
  );

  onOwned(
    api,
    'patch',
    '/webhook-endpoints/:id',
    {
      summary: 'Change a webhook endpoint',
      tags,
      params: endpointIdParams,
      description: '`enabled: true` re-enables an endpoint disabled after 5 days of failures; its due deliveries are sent again.',
      body: endpointPatchBody,
      response: endpointResponse,
      errors: { 422: 'Invalid URL or event type, or nothing to change' },
      notFound: NOT_FOUND,
    },
    (ownerId, id, { body }) => events.update(ownerId, id, body),
  );

  onOwned(
    api,
    'delete',
    '/webhook-endpoints/:id',
    {
      summary: 'Delete a webhook endpoint and its delivery log',
      tags,
      params: endpointIdParams,
      status: 204,
      notFound: NOT_FOUND,
    },
    (ownerId, id) => events.remove(ownerId, id),
  );

  onOwned(
    api,
    'post',
    '/webhook-endpoints/:id/rotate-secret',
    {
      summary: 'Replace the signing secret',
      tags,
      params: endpointIdParams,
      description: 'For 24 hours deliveries carry two signatures (new and old secret), so the receiver can switch without losing one.',
      response: rotatedSecretResponse,
      notFound: NOT_FOUND,
    },
    (ownerId, id) => events.rotateSecret(ownerId, id),
  );

  onOwned(
    api,
    'get',
    '/webhook-endpoints/:id/deliveries',
    {
      summary: "An endpoint's deliveries and their attempts, newest first",
      tags,
      params: endpointIdParams,
      query: listQuery,
      response: pageSchema(deliveryResponse).meta({ example: deliveriesPageExample }),
      notFound: NOT_FOUND,
    },
    (ownerId, id, { query }) => events.deliveries(ownerId, id, query),
  );

  onOwned(
    api,
    'post',
    '/webhook-endpoints/:id/deliveries/:delivery_id/replay',
    {
      summary: "Send a delivery's event again",
      tags,
      params: deliveryIdParams,
      status: 202,
      description: 'A new delivery of the same event (same webhook-id), retried on the same schedule.',
      response: deliveryResponse,
      errors: { 409: 'The endpoint is disabled' },
      notFound: 'Webhook endpoint or delivery not found',
    },
    (ownerId, id, { params }) => events.replay(ownerId, id, params.delivery_id),
  );

  onOwned(
    api,
    'post',
    '/webhook-endpoints/:id/test',
    {
      summary: 'Send a test event to the endpoint',
      tags,
      params: endpointIdParams,
      status: 202,
      description: 'A `webhook.test` event to this endpoint only, whatever types it subscribes to.',
      response: deliveryResponse,
      errors: { 409: 'The endpoint is disabled' },
      notFound: NOT_FOUND,
    },
    (ownerId, id) => events.sendTest(ownerId, id),
  );
}
