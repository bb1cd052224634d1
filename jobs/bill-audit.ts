import type { z } from 'zod';
import type { billAuditJobPayload } from '../src/modules/audit/job-payload';
import type { Services } from '../src/services';

/** `bill-audit`: audit one meter's bills (a meter gone since is nothing to do). */
export function billAuditProcessor(services: Pick<Services, 'audit'>) {
  return async (payload: z.output<typeof billAuditJobPayload>): Promise<void> => {
    await services.audit.auditMeter(payload.meter_id);
  };
}
