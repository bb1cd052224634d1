import { z } from 'zod';

/**
 * Payload of the `bill-audit` queue: audit every bill of one meter (re-priced, rules run, stored).
 * The audit reads the meter's bills as they are when it runs, so any job of a meter brings its
 * audit up to date, and running one twice stores the same audit.
 */
export const billAuditJobPayload = z.object({ meter_id: z.string().min(1) }).strict();
