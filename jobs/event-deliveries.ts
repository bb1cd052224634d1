import type { z } from 'zod';
import type { eventDeliveriesJobPayload, eventPruneJobPayload } from '../src/modules/events/job-payload';
import type { Services } from '../src/services';

/** `event-deliveries`: send the webhook deliveries that are due; retries live in the deliveries' rows, not in the job. */
export function eventDeliveriesProcessor(services: Pick<Services, 'events'>) {
  return async (_payload: z.output<typeof eventDeliveriesJobPayload>): Promise<void> => {
    await services.events.deliverDue();
  };
}

/** `event-prune`: delete the events past the retention, and their delivery logs. */
export function eventPruneProcessor(services: Pick<Services, 'events'>) {
  return async (_payload: z.output<typeof eventPruneJobPayload>): Promise<void> => {
    await services.events.prune();
  };
}
