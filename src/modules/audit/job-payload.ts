import { z } from 'zod';

/** Meters one job audits at most (an owner's re-audit is queued in jobs of this many). */
export const METERS_PER_AUDIT_JOB = 200;

/**
 * Payload of the `bill-audit` queue: audit every bill of one meter (a write to it; in order per
 * meter) or of up to 200 (an owner's re-audit), each re-priced, its rules run, stored. An audit
 * reads the meter's bills as they are when it runs and stores only over an audit that read earlier,
 * so any job of a meter brings its audit up to date, and running one twice stores the same audit.
 */
export const billAuditJobPayload = z.union([
  z.object({ meter_id: z.string().min(1) }).strict(),
  z.object({ meter_ids: z.array(z.string().min(1)).min(1).max(METERS_PER_AUDIT_JOB) }).strict(),
]);
