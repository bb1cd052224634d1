import { z } from 'zod';

/** Payload of the `rate-analysis` queue: re-analyse one property, or every property of one user. */
export const rateAnalysisJobPayload = z.union([
  z.object({ property_id: z.string().min(1) }).strict(),
  z.object({ user_id: z.string().min(1) }).strict(),
]);

/** Payload of the `tariff-import-sweep` queue: nothing; the job reads the import stamp itself. */
export const tariffImportSweepPayload = z.object({}).strict();
