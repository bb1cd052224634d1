import type { Db } from '../../platform/db/client';
import { conflict } from '../../platform/http/errors';
import { offsetOf, toPage, type PageQuery } from '../../platform/http/pagination';
import { isUniqueViolation } from '../../platform/db/errors';
import type { PropertyService } from '../properties/service';
import { createPmsRepository, type LinkRow, type UnitRow } from './repository';
import type { LinkInput } from './schemas';
import type { PmsSyncService } from './sync';

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
    status: u.status as 'vacant' | 'occupied',
    resident_name: u.residentName,
    occupant_count: u.occupantCount,
    lease_start: u.leaseStart,
    lease_end: u.leaseEnd,
    updated_at: u.updatedAt.toISOString(),
  };
}

const CONNECTION_TAKEN = 'This PMS connection belongs to another account';
const PMS_PROPERTY_TAKEN = 'This PMS property is already linked to another property';

export interface PmsServiceDeps {
  db: Db;
  now: () => Date;
  properties: Pick<PropertyService, 'requireOwned'>;
  sync: Pick<PmsSyncService, 'request' | 'enqueue'>;
}

/** The PMS link of a property (PUT/GET/DELETE /pm/properties/{id}/pms) and its imported units. */
export function createPmsService(deps: PmsServiceDeps) {
  const repo = createPmsRepository(deps.db);

  async function requireLink(ownerId: string, propertyId: string): Promise<LinkRow | null> {
    await deps.properties.requireOwned(ownerId, propertyId);
    return repo.findLink(propertyId);
  }

  return {
    /**
     * Links the property to a PMS property of one of the caller's connections (the first link
     * claims a connection) and queues an import of its units. Relinking to another PMS property
     * drops the units imported from the old one.
     */
    async link(ownerId: string, propertyId: string, input: LinkInput) {
      await deps.properties.requireOwned(ownerId, propertyId);
      const now = deps.now();
      let result;
      try {
        result = await deps.db.transaction(async (tx) => {
          const txRepo = createPmsRepository(tx);
          const owner = await txRepo.claimConnection(input.connection_id, ownerId, now);
          if (owner !== ownerId) throw conflict(CONNECTION_TAKEN);
          const other = await txRepo.findLinkByPmsProperty(input.connection_id, input.pms_property_id);
          if (other && other.propertyId !== propertyId) throw conflict(PMS_PROPERTY_TAKEN);
          const current = await txRepo.findLink(propertyId, true);
          const unchanged = current?.connectionId === input.connection_id && current.pmsPropertyId === input.pms_property_id;
          if (current && !unchanged) await txRepo.deleteUnits(propertyId);
          const link = current && unchanged ? current : await txRepo.upsertLink(propertyId, input.connection_id, input.pms_property_id, now);
          const requests = await deps.sync.request(tx, [propertyId]);
          return { link, requests };
        });
      } catch (err) {
        // Two requests linking the same PMS property at once: the unique key decides.
        if (isUniqueViolation(err)) throw conflict(PMS_PROPERTY_TAKEN);
        throw err;
      }
      await deps.sync.enqueue(result.requests);
      return presentLink(result.link);
    },

    async getLink(ownerId: string, propertyId: string) {
      const link = await requireLink(ownerId, propertyId);
      return link ? presentLink(link) : null;
    },

    /** Removes the link and the imported units; the connection stays the caller's. */
    async unlink(ownerId: string, propertyId: string): Promise<void> {
      await deps.properties.requireOwned(ownerId, propertyId);
      await deps.db.transaction(async (tx) => {
        const txRepo = createPmsRepository(tx);
        await txRepo.deleteLink(propertyId);
        await txRepo.deleteUnits(propertyId);
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
