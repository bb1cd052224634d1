import type { Db, Executor } from '../../platform/db/client';
import type { Logger } from '../../platform/logger';
import { UnrecoverableError } from '../../platform/queue/policy';
import type { NotificationService } from '../notifications/service';
import { PmsProviderError, type PmsProviderClient } from './provider-client';
import { createPmsRepository, type ImportedUnit } from './repository';
import { movedRubsFactors, toUnitRecord } from './unit-data';

export interface PmsSyncDeps {
  db: Db;
  now: () => Date;
  logger: Logger;
  provider: PmsProviderClient;
  notifications: Pick<NotificationService, 'notify'>;
  /** Queues one `pms-sync` job (deterministic id: a second enqueue of the same request adds nothing). */
  enqueue(propertyId: string, jobId: string): Promise<unknown>;
}

/** An import owed to a property since `requestedAt`; its job id names the request. */
export interface SyncRequest {
  propertyId: string;
  requestedAt: Date;
}

const syncJobId = (r: SyncRequest) => `pms-sync.${r.propertyId}.${r.requestedAt.getTime()}`;

/** How many RUBS-factor changes one import notification spells out. */
const LISTED_CHANGES = 5;

function changeSummary(moved: Array<{ unit: ImportedUnit; changes: string[] }>): string {
  const listed = moved.slice(0, LISTED_CHANGES).map((m) => `unit ${m.unit.unit_number}: ${m.changes.join(', ')}`);
  const more = moved.length > LISTED_CHANGES ? `; and ${moved.length - LISTED_CHANGES} more` : '';
  return listed.join('; ') + more;
}

/**
 * Imports of a linked property's units from the PMS provider (the `pms-sync` queue), and the
 * bookkeeping that makes a requested import happen even if its job is lost: a request is
 * written on the link first, the sweeper queues again what is still owed.
 */
export function createPmsSyncService(deps: PmsSyncDeps) {
  const repo = createPmsRepository(deps.db);

  async function enqueue(requests: SyncRequest[]): Promise<void> {
    for (const r of requests) {
      try {
        await deps.enqueue(r.propertyId, syncJobId(r));
      } catch (err) {
        // The request is stored: the sweeper queues it once the queue is back.
        deps.logger.warn({ err, propertyId: r.propertyId }, 'could not queue a PMS import; the sweeper will');
      }
    }
  }

  return {
    /** Marks imports owed, inside the caller's transaction; queue them with `enqueue` after it commits. */
    async request(executor: Executor, propertyIds: string[]): Promise<SyncRequest[]> {
      const requestedAt = deps.now();
      const linked = await createPmsRepository(executor).requestSyncs(propertyIds, requestedAt);
      return linked.map((propertyId) => ({ propertyId, requestedAt }));
    },

    enqueue,

    /**
     * The `pms-sync` job: fetch every unit first (all pages, or nothing), then write them in one
     * transaction. Units an event wrote after the fetch are kept; so are a relinked property's.
     */
    async sync(propertyId: string): Promise<void> {
      const link = await repo.findLink(propertyId);
      if (!link) return;
      if (!deps.provider.configured) {
        await repo.recordSyncError(propertyId, 'PMS_API_URL and PMS_API_KEY are not configured');
        return;
      }
      const fetchedAt = deps.now();
      let units;
      try {
        units = await deps.provider.fetchUnits(link.connectionId, link.pmsPropertyId);
      } catch (err) {
        if (!(err instanceof PmsProviderError)) throw err;
        await repo.recordSyncError(propertyId, `Failed to fetch units from the PMS: ${err.reason}`);
        // A 4xx or a malformed answer comes back the same on a retry; time-outs and 5xx may not.
        throw err.retryable ? err : new UnrecoverableError(err.message);
      }
      await deps.db.transaction(async (tx) => {
        const txRepo = createPmsRepository(tx);
        const current = await txRepo.findLink(propertyId, true);
        if (!current || current.connectionId !== link.connectionId || current.pmsPropertyId !== link.pmsPropertyId) return;
        const { written } = await txRepo.importUnits(propertyId, units.map(toUnitRecord), fetchedAt, deps.now());
        await txRepo.markSynced(propertyId, fetchedAt);
        const moved = written
          .map((unit) => ({ unit, changes: unit.before ? movedRubsFactors(unit.before, unit) : [] }))
          .filter((m) => m.changes.length > 0);
        if (moved.length === 0) return;
        const owner = await txRepo.connectionOwner(link.connectionId);
        if (!owner) return;
        await deps.notifications.notify(
          {
            userId: owner,
            type: 'rubs_factor_changed',
            propertyId,
            message: `PMS import changed RUBS factors of ${moved.length} unit${moved.length === 1 ? '' : 's'}: ${changeSummary(moved)}`,
            dedupeKey: `pms-sync.${propertyId}.${fetchedAt.getTime()}`,
          },
          tx,
        );
      });
    },

    /** The sweeper's part: queues again every import requested before `olderThan` and still owed. */
    async requeueOwed(olderThan: Date, limit = 1000): Promise<number> {
      const owed = await repo.owedSyncs(olderThan, limit);
      await enqueue(owed);
      return owed.length;
    },
  };
}

export type PmsSyncService = ReturnType<typeof createPmsSyncService>;
