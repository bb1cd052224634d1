import type { Schedule } from './scheduler';
import type { AppQueues } from './queue/registry';

/**
 * The service's periodic jobs (cron in UTC). Each tick only enqueues into a queue of
 * the registry; later issues add dashboard stats and health-score rollups here.
 */
export const appSchedules: ReadonlyArray<Schedule<AppQueues>> = [];
