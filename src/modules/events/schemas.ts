import { z } from 'zod';
import { pageQuery } from '../../platform/http/pagination';
import { EVENT_TYPES } from './event-types';
import { MAX_URL_LENGTH } from './url-policy';
import { DELIVERY_STATUSES } from './retry-schedule';

const url = z.string().trim().min(1).max(MAX_URL_LENGTH).meta({
  description:
    'where events are POSTed: https (http only to localhost or 127.0.0.1 outside production); in production not a private, loopback or reserved address',
});
const eventTypes = z
  .array(z.enum(EVENT_TYPES))
  .min(1)
  .max(EVENT_TYPES.length)
  .transform((types) => [...new Set(types)])
  .meta({ description: 'the event types sent to this endpoint (a type listed twice counts once)' });
const description = z.string().trim().max(500).nullable().optional();

export const endpointCreateBody = z.object({ url, event_types: eventTypes, description }).meta({
  example: {
    url: 'https://pms.example.com/hooks/energy',
    event_types: ['audit.finding.created', 'billing.posting.failed'],
    description: 'Our PMS',
  },
});

export const endpointPatchBody = z
  .object({
    url: url.optional(),
    event_types: eventTypes.optional(),
    description,
    enabled: z
      .boolean()
      .optional()
      .meta({ description: 'false pauses deliveries; true re-enables a disabled endpoint (its due deliveries are sent again)' }),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    error: 'nothing to change: give url, event_types, description or enabled',
  })
  .meta({ example: { event_types: ['audit.finding.created'], enabled: true } });

export const endpointIdParams = z.object({ id: z.string().min(1).max(200) });
export const deliveryIdParams = z.object({ id: z.string().min(1).max(200), delivery_id: z.string().min(1).max(200) });
export const listQuery = pageQuery;

export const endpointExample = {
  id: 'ep_5d1f0c2e9a8b4c7d8e6f1a2b3c4d5e6f',
  url: 'https://pms.example.com/hooks/energy',
  description: 'Our PMS',
  event_types: ['audit.finding.created', 'billing.posting.failed'],
  enabled: true,
  disabled_reason: null,
  failing_since: null,
  created_at: '2026-11-28T13:00:00.000Z',
  updated_at: '2026-11-28T13:00:00.000Z',
};

export const endpointResponse = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    event_types: z.array(z.string()),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable(),
    failing_since: z
      .string()
      .nullable()
      .meta({ description: 'the first failed attempt since the last success; 5 days of failures disable the endpoint' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ example: endpointExample });

const secret = z.string().meta({ description: 'the signing secret (Standard Webhooks, whsec_ + base64): shown only in this answer' });
export const endpointWithSecretResponse = endpointResponse
  .extend({ secret })
  .meta({ example: { ...endpointExample, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } });

export const rotatedSecretResponse = z
  .object({
    secret,
    previous_secret_expires_at: z.string().meta({ description: 'until then deliveries carry a signature with the old secret too' }),
  })
  .meta({ example: { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', previous_secret_expires_at: '2026-11-29T13:00:00.000Z' } });

export const deliveryResponse = z
  .object({
    id: z.string(),
    event_id: z.string().meta({ description: 'the webhook-id header: the same on every attempt and replay' }),
    event_type: z.string(),
    replay_of: z.string().nullable(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    next_attempt_at: z.string().nullable(),
    created_at: z.string(),
    attempt_log: z.array(
      z.object({
        attempt: z.number().int(),
        attempted_at: z.string(),
        status_code: z.number().int().nullable(),
        duration_ms: z.number().int(),
        error: z.string().nullable(),
      }),
    ),
  })
  .meta({
    example: {
      id: 'dlv_0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e',
      event_id: 'evt_9f8e7d6c5b4a39281706f5e4d3c2b1a0',
      event_type: 'audit.finding.created',
      replay_of: null,
      status: 'pending',
      attempts: 1,
      next_attempt_at: '2026-11-28T13:00:06.000Z',
      created_at: '2026-11-28T13:00:00.000Z',
      attempt_log: [
        { attempt: 1, attempted_at: '2026-11-28T13:00:01.000Z', status_code: 503, duration_ms: 84, error: 'the endpoint answered 503' },
      ],
    },
  });

/** The example of a deliveries page (GET /webhook-endpoints/{id}/deliveries). */
export const deliveriesPageExample = {
  items: [deliveryResponse.meta()?.example],
  total: 1,
  page: 1,
  per_page: 20,
  pages: 1,
};
