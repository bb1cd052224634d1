import type { z } from 'zod';
import type { disputeRemindersJobPayload } from '../src/modules/audit/disputes/job-payload';
import type { Services } from '../src/services';

/** `audit-dispute-reminders`: notify the disputes left unanswered for more than 60 days; the work is the audit service's. */
export function auditDisputeRemindersProcessor(services: Pick<Services, 'audit'>) {
  return async (payload: z.output<typeof disputeRemindersJobPayload>): Promise<void> => {
    await services.audit.disputes.remindOverdue(payload.day);
  };
}
