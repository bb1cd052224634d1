import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { appQueues } from '../../src/queues';

/** The states of a job BullMQ has not finished with. */
const UNFINISHED = ['active', 'waiting', 'delayed', 'prioritized', 'waiting-children', 'paused'] as const;

/** Opens the app's BullMQ queues under `bullPrefix` (read only), for reports. */
export function bullQueues(redis: Redis, bullPrefix: string): Map<string, Queue> {
  return new Map(Object.keys(appQueues).map((name) => [name, new Queue(name, { connection: redis, prefix: bullPrefix })]));
}

/** Unfinished jobs per `queue/state`, only the states that have any. */
export async function unfinishedJobs(queues: Map<string, Queue>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, q] of queues) {
    const counts = await q.getJobCounts(...UNFINISHED);
    for (const [state, n] of Object.entries(counts)) if (n > 0) out[`${name}/${state}`] = n;
  }
  return out;
}
