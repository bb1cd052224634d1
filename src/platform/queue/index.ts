import type { Logger } from '../logger';
import type { JobQueue, Processors, QueueDefinitions } from './types';
import { createBullQueue } from './bullmq';
import { createInProcessQueue } from './inprocess';

export { startWorkers } from './worker';
export { UnrecoverableError } from './policy';
export type * from './types';

export interface QueueOptions<D extends QueueDefinitions> {
  definitions: D;
  redisUrl?: string;
  logger: Logger;
  /** Needed by the in-process driver, which runs jobs itself; called on the first job. */
  processors?: () => Processors<D>;
  /** Redis key prefix (BullMQ only); tests use a unique one per file. */
  prefix?: string;
}

/** BullMQ's key prefix under the service's REDIS_KEY_PREFIX: `energy:bull:<queue>:...`. */
export function queuePrefix(redisKeyPrefix: string): string {
  return `${redisKeyPrefix}bull`;
}

/** BullMQ when REDIS_URL is set (workers run in the worker role), in-process otherwise. */
export function createJobQueue<D extends QueueDefinitions>(opts: QueueOptions<D>): JobQueue<D> {
  if (opts.redisUrl) {
    return createBullQueue({ definitions: opts.definitions, redisUrl: opts.redisUrl, logger: opts.logger, prefix: opts.prefix });
  }
  return createInProcessQueue({ definitions: opts.definitions, logger: opts.logger, processors: opts.processors });
}
