import type { z } from 'zod';
import type { rubsPostingJobPayload } from '../src/modules/tenant-billing/posting/job-payload';
import { retryPolicy } from '../src/platform/queue/policy';
import { appQueues } from '../src/queues';
import type { Services } from '../src/services';

/**
 * `rubs-posting`: send a calculation's pending charges (or reversals) to the PMS provider. The
 * service throws to be retried while the provider fails; on the queue's last attempt it fails
 * what is still pending, with the reason, instead.
 */
export function rubsPostingProcessor(services: Pick<Services, 'rubsPosting'>) {
  const { attempts } = retryPolicy(appQueues['rubs-posting']);
  return async (payload: z.output<typeof rubsPostingJobPayload>, ctx: { attempt: number }): Promise<void> => {
    await services.rubsPosting.run(payload.calculation_id, payload.action, { finalAttempt: ctx.attempt >= attempts });
  };
}
