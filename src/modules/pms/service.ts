import type { Db } from '../../platform/db/client';
import { AppError, badRequest, conflict } from '../../platform/http/errors';
import { offsetOf, toPage, type PageQuery } from '../../platform/http/pagination';
import { isUniqueViolation } from '../../platform/db/errors';
import type { PropertyService } from '../properties/service';
import { createPmsRepository, type LinkRow, type UnitRow } from './repository';
import type { LinkInput } from './schemas';
import type { PmsSyncService } from './sync';
import type { UnitStatus } from './unit-data';
import { PmsProviderError, type PmsProviderClient } from './provider-client';
import { LINK_SESSION_TTL_MS, createLinkSessionRepository, hashLinkToken, newLinkToken } from './link-sessions';

function presentLink(l: LinkRow) {
  return {
    property_id: l.propertyId,
    connection_id: l.connectionId,
    pms_property_id: l.pmsPropertyId,
    linked_at: l.linkedAt.toISOString(),
    last_synced_at: l.lastSyncedAt ? l.lastSyncedAt.toISOString() : null,
    last_sync_error: l.lastSyncError,
  };
}

function presentUnit(u: UnitRow) {
  return {
    id: u.id,
    pms_unit_id: u.pmsUnitId,
    unit_number: u.unitNumber,
    sqft: u.sqft,
    bedrooms: u.bedrooms,
    bathrooms: u.bathrooms,
    status: u.status as UnitStatus,
    resident_name: u.residentName,
    occupant_count: u.occupantCount,
    lease_start: u.leaseStart,
    lease_end: u.leaseEnd,
    updated_at: u.updatedAt.toISOString(),
  };
}

export const CONNECTION_TAKEN = 'This PMS connection belongs to another account';
const PMS_PROPERTY_TAKEN = 'This PMS property is already linked to another property';
export const NO_PROVIDER = 'No PMS provider configured (PMS_API_URL and PMS_API_KEY are unset)';
export const NOT_AUTHORISED =
  'This PMS connection was not authorised by this account at the provider: start a link session ' +
  '(POST /api/v1/pm/pms/link-sessions), complete it at the provider with its link_token, then link again';
export const PROVIDER_UNREACHABLE = 'Could not verify this PMS connection with the provider; try again later';

/** The link transaction found the connection freed since it was read: ask the provider, then try again. */
const FREED_MEANWHILE = Symbol('freed meanwhile');

export interface PmsServiceDeps {
  db: Db;
  now: () => Date;
  properties: Pick<PropertyService, 'requireOwned'>;
  sync: Pick<PmsSyncService, 'request' | 'enqueue'>;
  provider: Pick<PmsProviderClient, 'configured' | 'fetchConnection'>;
}

/**
 * The provider's word on who authorised an unbound connection: the hash of the link token it
 * reports as the connection's `reference`. 400 without a provider, 403 when the provider knows no
 * such connection or it carries no reference, 502 when the provider cannot be asked.
 */
async function providerProof(provider: PmsServiceDeps['provider'], connectionId: string): Promise<string> {
  if (!provider.configured) throw badRequest(NO_PROVIDER);
  let connection;
  try {
    connection = await provider.fetchConnection(connectionId);
  } catch (err) {
    if (err instanceof PmsProviderError) throw new AppError(502, PROVIDER_UNREACHABLE);
    throw err;
  }
  if (!connection?.reference) throw new AppError(403, NOT_AUTHORISED);
  return hashLinkToken(connection.reference);
}

/** Frees a connection no property links to any more, in a transaction of its own (one connection lock, no cycle). */
async function releaseIfUnlinked(db: PmsServiceDeps['db'], connectionId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const txRepo = createPmsRepository(tx);
    if (await txRepo.lockConnection(connectionId, 'update')) await txRepo.freeConnectionIfUnlinked(connectionId);
  });
}

/** The PMS link of a property (PUT/GET/DELETE /pm/properties/{id}/pms) and its imported units. */
export function createPmsService(deps: PmsServiceDeps) {
  const repo = createPmsRepository(deps.db);

  async function requireLink(ownerId: string, propertyId: string): Promise<LinkRow | null> {
    await deps.properties.requireOwned(ownerId, propertyId);
    return repo.findLink(propertyId);
  }

  return {
    /** A link session of the caller: its token goes to the provider's connect flow (see `link`). */
    async createLinkSession(ownerId: string) {
      if (!deps.provider.configured) throw badRequest(NO_PROVIDER);
      const now = deps.now();
      const token = newLinkToken();
      const sessions = createLinkSessionRepository(deps.db);
      await sessions.deleteExpired(ownerId, now);
      const row = await sessions.create(ownerId, hashLinkToken(token), now, new Date(now.getTime() + LINK_SESSION_TTL_MS));
      return { id: row.id, link_token: token, expires_at: row.expiresAt.toISOString() };
    },

    /**
     * Links the property to a PMS property of one of the caller's connections and queues an import
     * of its units. A connection bound to another account is 409. An unbound one is bound to the
     * caller only on the provider's word: it reports the connection with the token of an unexpired
     * link session of the caller (used for no other connection) as its `reference`; otherwise 403.
     * Relinking to another PMS property drops the units imported from the old one.
     */
    async link(ownerId: string, propertyId: string, input: LinkInput) {
      await deps.properties.requireOwned(ownerId, propertyId);
      // A connection freed between the first read and the transaction: the second round asks the provider.
      for (let freed = false; ; freed = true) {
        const bound = await repo.connectionOwner(input.connection_id);
        if (bound !== null && bound !== ownerId) throw conflict(CONNECTION_TAKEN);
        // Asked outside the transaction: no lock is held while the provider answers.
        const proof = bound === null || freed ? await providerProof(deps.provider, input.connection_id) : null;
        const now = deps.now();
        let result;
        try {
          result = await deps.db.transaction(async (tx) => {
            const txRepo = createPmsRepository(tx);
            // Locks in the order unlink takes them: the property's link, then the connection.
            const current = await txRepo.findLink(propertyId, true);
            let owner = await txRepo.lockConnection(input.connection_id, 'share');
            if (owner === null) {
              if (proof === null) return FREED_MEANWHILE;
              const sessions = createLinkSessionRepository(tx);
              const session = await sessions.lockUsable(ownerId, proof, input.connection_id, now);
              if (!session) throw new AppError(403, NOT_AUTHORISED);
              // Another account binding it at the same moment: the primary key decides, the other gets 409.
              owner = await txRepo.bindConnection(input.connection_id, ownerId, now);
              if (owner === ownerId) await sessions.markUsed(session.id, input.connection_id, now);
            }
            if (owner !== ownerId) throw conflict(CONNECTION_TAKEN);
            const other = await txRepo.findLinkByPmsProperty(input.connection_id, input.pms_property_id);
            if (other && other.propertyId !== propertyId) throw conflict(PMS_PROPERTY_TAKEN);
            const unchanged = current?.connectionId === input.connection_id && current.pmsPropertyId === input.pms_property_id;
            if (current && !unchanged) await txRepo.deleteUnits(propertyId);
            const link =
              current && unchanged ? current : await txRepo.upsertLink(propertyId, input.connection_id, input.pms_property_id, now);
            const requests = await deps.sync.request(tx, [propertyId]);
            return { link, requests, left: current && current.connectionId !== input.connection_id ? current.connectionId : null };
          });
        } catch (err) {
          // Two requests linking the same PMS property at once: the unique key decides.
          if (isUniqueViolation(err)) throw conflict(PMS_PROPERTY_TAKEN);
          throw err;
        }
        if (result === FREED_MEANWHILE) continue;
        await deps.sync.enqueue(result.requests);
        // Relinked to another connection: the old one, if no property links to it now, is freed.
        if (result.left) await releaseIfUnlinked(deps.db, result.left);
        return presentLink(result.link);
      }
    },

    async getLink(ownerId: string, propertyId: string) {
      const link = await requireLink(ownerId, propertyId);
      return link ? presentLink(link) : null;
    },

    /**
     * Removes the link and the imported units. A connection no other property links to any more is
     * freed: its webhook events are then those of an unknown connection, and binding it again (by
     * this account or another) takes the provider's word again.
     */
    async unlink(ownerId: string, propertyId: string): Promise<void> {
      await deps.properties.requireOwned(ownerId, propertyId);
      await deps.db.transaction(async (tx) => {
        const txRepo = createPmsRepository(tx);
        const link = await txRepo.findLink(propertyId, true);
        if (link) await txRepo.lockConnection(link.connectionId, 'update');
        await txRepo.deleteLink(propertyId);
        await txRepo.deleteUnits(propertyId);
        if (link) await txRepo.freeConnectionIfUnlinked(link.connectionId);
      });
    },

    async listUnits(ownerId: string, propertyId: string, q: PageQuery) {
      await deps.properties.requireOwned(ownerId, propertyId);
      const { rows, total } = await repo.listUnits(propertyId, q.per_page, offsetOf(q));
      return toPage(rows.map(presentUnit), total, q);
    },

    /** The link of a property (null when it has none), for callers that fetch from the provider. */
    linkOf: (propertyId: string) => repo.findLink(propertyId),
  };
}

export type PmsService = ReturnType<typeof createPmsService>;
