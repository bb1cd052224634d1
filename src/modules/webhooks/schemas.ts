import { z } from 'zod';
import { RESOURCE_TYPES, STREAM_EVENTS } from './envelope';
import { WEBHOOK_STATUSES } from './tables';
import * as ex from './examples';
import { MAX_PAGE, pageSchema } from '../../platform/http/pagination';

/**
 * A page of a webhook list: `page` and `per_page` (1 to 500, default 50: these lists are read in
 * bulk); `limit`, the earlier name of `per_page`, still works.
 */
export const logsQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(MAX_PAGE).default(1),
    per_page: z.coerce.number().int().min(1).max(500).optional(),
    limit: z.coerce.number().int().min(1).max(500).optional().meta({ description: 'the earlier name of per_page', deprecated: true }),
  })
  .transform(({ page, per_page, limit }) => ({ page, per_page: per_page ?? limit ?? 50 }));

export const eventIdParams = z.object({ id: z.string().min(1).max(100) });

const status = z.enum(WEBHOOK_STATUSES).describe('success, failed or ignored once processed; pending between receipt and processing');

export const logEntry = z
  .object({
    id: z.string(),
    received_at: z.string(),
    event: z.string().nullable(),
    resource_type: z.string().nullable(),
    connection_id: z.string().nullable(),
    status,
    detail: z.string().nullable().describe('why an event was ignored or failed (e.g. `stale`, `property not linked`), or what it did'),
    payload: z.unknown().describe('the body as received (parsed JSON; the raw text if it was not JSON)'),
  })
  .meta({ id: 'WebhookLogEntry', example: ex.logEntry });

export const logsResponse = pageSchema(logEntry).meta({ id: 'WebhookLog', example: ex.logs });

export const deadLetter = logEntry
  .extend({ attempts: z.number().int(), dead_lettered_at: z.string().nullable() })
  .meta({ id: 'WebhookDeadLetter', example: ex.deadLetter });

export const deadLettersResponse = pageSchema(deadLetter).meta({ id: 'WebhookDeadLetters', example: ex.deadLetters });

/** The envelope of the PMS data provider's events, for the receiver's documentation. */
export const eventEnvelope = z
  .object({
    event: z.string().describe(`${STREAM_EVENTS.join(', ')}; test.ping for connectivity tests; other values are logged ignored`),
    timestamp: z.string().describe('ISO 8601, when the event occurred'),
    connection_id: z.string(),
    resource_type: z.enum(RESOURCE_TYPES).optional(),
    data: z.record(z.string(), z.unknown()),
    changes: z.record(z.string(), z.object({ old: z.unknown(), new: z.unknown() })).optional(),
  })
  .meta({
    id: 'PmsWebhookEvent',
    example: ex.payload,
  });

export const receiveAnswer = z
  .object({
    status: z.enum(['ok', 'accepted', 'duplicate', 'ignored', 'failed']),
    id: z.string().optional().describe('the log entry'),
    detail: z.string().optional(),
  })
  .meta({ id: 'PmsWebhookAnswer', example: ex.receiveAnswer });
