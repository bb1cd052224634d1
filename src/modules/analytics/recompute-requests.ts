import type { z } from 'zod';
import type { Logger } from '../../platform/logger';
import type { costRollupJobPayload, costRollupSweepPayload } from './job-payload';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { createAnalyticsRepository } from './repository';

export type CostRollupJob = z.output<typeof costRollupJobPayload>;
export type CostRollupSweep = z.output<typeof costRollupSweepPayload>;

/** Writes queue the owner's job at most this often (per process), so a burst of writes is one recompute. */
const WRITE_DEBOUNCE_MS = 1000;

/** Job ids and ordering keys avoid ':' (BullMQ reserves it). */
const orderingKeyOf = (ownerId: string) => `cost-rollup.owner.${ownerId}`;

/**
 * Queues the owners' cost-rollup jobs (processed by the analytics service): after writes that
 * change what analytics show, and from the sweeps. Needs no other service, so every service that
 * writes can be given `requestRecompute`.
 */
export function createRecomputeRequests(deps: {
  db: Db;
  logger: Logger;
  enqueue(job: CostRollupJob, opts: { jobId: string; orderingKey: string }): Promise<unknown>;
}) {
  const repo = createAnalyticsRepository(deps.db);
  const debounced = new Map<string, NodeJS.Timeout>();

  /** Queues the owner's cost-rollup job, keyed by the data version it is queued for. */
  function enqueueVersion(ownerId: string, version: number): Promise<unknown> {
    return deps.enqueue(
      { owner_id: ownerId, version },
      {
        jobId: `cost-rollup.owner.${ownerId}.v${version}`,
        orderingKey: orderingKeyOf(ownerId),
      },
    );
  }

  /** Queues the owner's cost-rollup job for its current data version. */
  async function enqueueRecompute(ownerId: string): Promise<void> {
    try {
      await enqueueVersion(ownerId, (await repo.freshness(ownerId)).version);
    } catch (err) {
      // The write is saved; reads recompute on their own and the scheduler sweeps changed owners.
      deps.logger.warn({ err, ownerId }, 'could not queue analytics recompute');
    }
  }

  return {
    /**
     * After a write that changes what analytics show: queue the owner's recompute. Debounced per
     * owner and process (trailing edge): the job is queued once a second at most, with the data
     * version read when it is queued, so it covers every write before it.
     */
    async requestRecompute(ownerId: string): Promise<void> {
      if (debounced.has(ownerId)) return;
      const timer = setTimeout(() => {
        debounced.delete(ownerId);
        void enqueueRecompute(ownerId);
      }, WRITE_DEBOUNCE_MS);
      // Never keeps a process alive: a write whose job is lost to a shutdown is caught by the next sweep.
      timer.unref();
      debounced.set(ownerId, timer);
    },

    /**
     * A change of a property no table trigger sees (what a meter covers): moves the owner's data version
     * and marks the property, as the triggers of db-functions.sql do, then queues the recompute.
     */
    async propertyChanged(ownerId: string, propertyId: string): Promise<void> {
      await deps.db.execute(sql`select analytics_mark_changed(${JSON.stringify([[ownerId, propertyId, null, null]])}::jsonb)`);
      await this.requestRecompute(ownerId);
    },

    /** The cost-rollup-sweep job: queues the owners whose data changed, or (nightly) every owner. */
    async sweep(job: CostRollupSweep): Promise<number> {
      const owners = job.scope === 'changed' ? await repo.changedOwners() : await repo.allOwners();
      for (const { ownerId, version } of owners) {
        if (job.scope === 'changed') {
          await enqueueVersion(ownerId, version);
        } else {
          await deps.enqueue(
            { owner_id: ownerId, full: true },
            {
              jobId: `cost-rollup.owner.${ownerId}.full.${job.day.replace(/-/g, '')}`,
              orderingKey: orderingKeyOf(ownerId),
            },
          );
        }
      }
      if (owners.length > 0) deps.logger.info({ scope: job.scope, owners: owners.length }, 'queued analytics recomputes');
      return owners.length;
    },
  };
}

export type RecomputeRequests = ReturnType<typeof createRecomputeRequests>;
