import { z } from 'zod';

/**
 * Payload of the `webhook-events` queue: apply one connection's stream (`connection_id`: a retry
 * after back-off), or every stream with events pending (none). Order lives in the data (each
 * stream's cursor), not in the job: any job applies every event received so far, in sequence.
 */
export const webhookEventsJobPayload = z.object({ connection_id: z.string().min(1).optional() }).strict();

/** Payload of the `webhook-sweep` queue: re-queue what is still owed after `older_than_ms`. */
export const webhookSweepPayload = z
  .object({
    older_than_ms: z
      .number()
      .int()
      .min(0)
      .max(24 * 3600_000)
      .optional(),
  })
  .strict();
