import type { z } from 'zod';
import type { webhookEventsJobPayload, webhookSweepPayload } from '../src/modules/webhooks/job-payload';
import type { Services } from '../src/services';

/** `webhook-events`: apply every stream with events pending (or one stream: a retry). Throws (to retry) only when the database is down. */
export function webhookEventsProcessor(services: Pick<Services, 'webhooks'>) {
  return async (payload: z.output<typeof webhookEventsJobPayload>): Promise<void> => {
    await services.webhooks.drain(payload.connection_id);
  };
}

/** `webhook-sweep`: re-queue streams with events still pending, imports still owed, and RUBS postings whose job was lost. */
export function webhookSweepProcessor(services: Pick<Services, 'webhooks' | 'rubsPosting'>) {
  return async (payload: z.output<typeof webhookSweepPayload>): Promise<void> => {
    await services.webhooks.sweep(payload.older_than_ms);
    await services.rubsPosting.requeueOwed(payload.older_than_ms);
  };
}
