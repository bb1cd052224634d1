import { z } from 'zod';

/**
 * Payload of the `cost-rollup` queue: recompute one owner's rollups, stats and health scores.
 * `version`: the owner's data version the job was queued for; a job whose version is no longer
 * the newest is skipped, because the job of the newer write is queued behind it (same ordering
 * key), so a burst of writes costs one recompute. `full`: rebuild every property (nightly).
 */
export const costRollupJobPayload = z
  .object({
    owner_id: z.string().min(1),
    version: z.number().int().min(0).optional(),
    full: z.boolean().optional(),
  })
  .strict();

/** Payload of the `cost-rollup-sweep` queue: find the owners to precompute and queue one job each. */
export const costRollupSweepPayload = z.union([
  z.object({ scope: z.literal('changed') }).strict(),
  /** `day`: the tick's UTC date, part of each owner's job id so a nightly run is queued once. */
  z.object({ scope: z.literal('all'), day: z.iso.date() }).strict(),
]);
