import type { Schedule } from './scheduler';
import type { AppQueues } from './queue/registry';

/**
 * The service's periodic jobs (cron in UTC). Each tick only enqueues into a queue of
 * the registry.
 */
export const appSchedules: ReadonlyArray<Schedule<AppQueues>> = [
  // `npm run data:import` runs in its own process; within 5 minutes properties are re-analysed on the new tariffs.
  { name: 'tariff-import-sweep', cron: '*/5 * * * *', queue: 'tariff-import-sweep', payload: () => ({}) },
];
