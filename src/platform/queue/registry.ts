import type { QueueDefinitions } from './types';

/**
 * Every queue of the service: name -> payload schema and retry policy.
 * Processors live in jobs/ and are bound to these names in jobs/index.ts.
 */
export const appQueues = {} satisfies QueueDefinitions;

export type AppQueues = typeof appQueues;
