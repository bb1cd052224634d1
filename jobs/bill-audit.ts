import type { z } from 'zod';
import type { billAuditJobPayload } from '../src/modules/audit/job-payload';
import type { Services } from '../src/services';

/**
 * `bill-audit`: audit the bills of one meter or of a batch of them (meters gone since are nothing to
 * do), on the rates as the database holds them (a version added through the web process included).
 */
export function billAuditProcessor(services: Pick<Services, 'audit'>) {
  return async (payload: z.output<typeof billAuditJobPayload>): Promise<void> => {
    await services.audit.auditMeters('meter_id' in payload ? [payload.meter_id] : payload.meter_ids);
  };
}
