import { z } from 'zod';
import { isoDate } from '../../platform/http/validate';

/** `event-deliveries`: send the deliveries that are due (the work is in the table, so the payload says nothing). */
export const eventDeliveriesJobPayload = z.object({});

/** Deliveries one job claims; a job that claimed this many queues the next at once. */
export const DELIVERIES_PER_JOB = 50;

/** `event-prune`: the nightly deletion of events past the retention (the day the schedule ran, for its job id). */
export const eventPruneJobPayload = z.object({ day: isoDate });
