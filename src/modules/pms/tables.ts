import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, unique } from 'drizzle-orm/pg-core';
import { cascadingRef, createdAt, generatedId, quantity, quoted, timestamptz, updatedAt } from '../../platform/db/columns';
import { UNIT_STATUSES } from './unit-data';
import { users } from '../accounts/tables';
import { properties } from '../properties/tables';

/**
 * A PMS data provider connection bound to the account the provider says authorised it: a link
 * session of that account whose token the provider reports as the connection's `reference`
 * (connections bound first-come before link sessions existed stay bound). Unlinking its last
 * property deletes the row, freeing the connection. Webhook events find their owner through it.
 */
export const pmsConnections = pgTable(
  'pms_connections',
  {
    connectionId: text('connection_id').primaryKey(),
    ownerId: cascadingRef('owner_id', () => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('pms_connections_owner_idx').on(t.ownerId)],
);

/**
 * A link session (POST /pm/pms/link-sessions): its token, of which only the SHA-256 is kept, is
 * handed to the provider's connect flow, which reports it as the `reference` of the connection it
 * creates. Linking a property to that connection binds the connection to `owner_id` and records
 * it here (`used_at`, `connection_id`): the session proves no other connection.
 */
export const pmsLinkSessions = pgTable(
  'pms_link_sessions',
  {
    id: generatedId(),
    ownerId: cascadingRef('owner_id', () => users.id),
    tokenHash: text('token_hash').notNull().unique('pms_link_sessions_token_hash_key'),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
    connectionId: text('connection_id'),
  },
  (t) => [index('pms_link_sessions_owner_idx').on(t.ownerId, t.expiresAt)],
);

/**
 * A property linked to its record in the PMS. `sync_requested_at` later than `last_synced_at`
 * means an import of its units is owed: the sweeper queues it again if its job was lost.
 */
export const pmsPropertyLinks = pgTable(
  'pms_property_links',
  {
    propertyId: cascadingRef('property_id', () => properties.id).primaryKey(),
    connectionId: cascadingRef('connection_id', () => pmsConnections.connectionId),
    pmsPropertyId: text('pms_property_id').notNull(),
    linkedAt: timestamptz('linked_at').notNull().defaultNow(),
    syncRequestedAt: timestamptz('sync_requested_at'),
    /** When the last successful import fetched the units (its data is as of then). */
    lastSyncedAt: timestamptz('last_synced_at'),
    lastSyncError: text('last_sync_error'),
  },
  (t) => [unique('pms_property_links_connection_property_key').on(t.connectionId, t.pmsPropertyId)],
);

/**
 * The units of a linked property as the PMS reports them. `source_updated_at` is the time of
 * the last event (or import) applied to the record: the stale-update guard compares with it.
 */
export const pmsUnits = pgTable(
  'pms_units',
  {
    id: generatedId(),
    propertyId: cascadingRef('property_id', () => properties.id),
    pmsUnitId: text('pms_unit_id').notNull(),
    unitNumber: text('unit_number').notNull(),
    sqft: quantity('sqft'),
    bedrooms: integer('bedrooms'),
    bathrooms: quantity('bathrooms'),
    status: text('status').notNull(),
    residentName: text('resident_name'),
    occupantCount: integer('occupant_count'),
    leaseStart: date('lease_start', { mode: 'string' }),
    leaseEnd: date('lease_end', { mode: 'string' }),
    sourceUpdatedAt: timestamptz('source_updated_at'),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('pms_units_property_unit_key').on(t.propertyId, t.pmsUnitId),
    index('pms_units_property_number_idx').on(t.propertyId, t.unitNumber, t.id),
    check('pms_units_status_check', sql`${t.status} in (${quoted(UNIT_STATUSES)})`),
    check(
      'pms_units_non_negative_check',
      sql`coalesce(${t.sqft}, 0) >= 0 and coalesce(${t.bedrooms}, 0) >= 0 and coalesce(${t.bathrooms}, 0) >= 0
        and coalesce(${t.occupantCount}, 0) >= 0`,
    ),
  ],
);
