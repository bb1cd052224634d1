import type { z } from 'zod';
import type { eventDeliveriesJobPayload } from '../src/modules/events/job-payload';
import type { Services } from '../src/services';

/** `event-deliveries`: send the webhook deliveries that are due; retries live in the deliveries' rows, not in the job. */
export function eventDeliveriesProcessor(services: Pick<Services, 'events'>) {
  return async (_payload: z.output<typeof eventDeliveriesJobPayload>): Promise<void> => {
    await services.events.deliverDue();
  };
}
