import { z } from 'zod';
import { POSTING_ACTIONS } from '../tables';

/**
 * Payload of the `rubs-posting` queue: send a calculation's pending lines of one action to the PMS
 * provider. What to send lives in `rubs_postings` (the lines still pending), not in the job: any
 * job of the calculation sends whatever is pending, and a line posted is never sent again.
 */
export const rubsPostingJobPayload = z
  .object({
    calculation_id: z.string().min(1),
    action: z.enum(POSTING_ACTIONS),
  })
  .strict();
