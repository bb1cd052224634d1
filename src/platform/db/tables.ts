import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamptz, updatedAt } from './columns';

/** Small key/value facts the platform keeps about itself (e.g. when reference data was last imported). */
export const systemState = pgTable('system_state', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: updatedAt(),
});

/**
 * Idempotency keys of POST requests (platform/http/idempotency.ts): the first answer to a key,
 * kept 24 hours. `status` is null while the first request is being acted on.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** Whose key: `user:<id>` for an account (its tokens and API keys alike), `admin`, or `ip:<address>` when anonymous. */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    /** SHA-256 (hex) of the method, path and body the key was first used with. */
    fingerprint: text('fingerprint').notNull(),
    /** The id of the request that first used the key (the replay's `Original-Request` header). */
    requestId: text('request_id').notNull(),
    status: integer('status'),
    /** The first answer's JSON body as sent; null for an answer without a body (204). */
    body: text('body'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_created_at_idx').on(t.createdAt)],
);
