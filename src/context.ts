import type { Config } from './platform/config';
import type { Database } from './platform/db/client';
import type { JobQueue } from './platform/queue/types';
import type { Logger } from './platform/logger';
import type { AppQueues } from './queues';

/** What every process (web, worker, scheduler) is built from. Tests build it with a fresh database. */
export interface PlatformDeps {
  config: Readonly<Config>;
  database: Database;
  queue: JobQueue<AppQueues>;
  logger: Logger;
  jwtSecret: string;
  /** Wall clock, injectable so tests can move time (token expiry, quotas, schedules). */
  now: () => Date;
}
