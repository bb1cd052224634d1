import { z } from 'zod';

/** Payload of the `rate-analysis` queue: re-analyse one property, or every property of one user. */
export const rateAnalysisJobPayload = z.union([
  z.object({ property_id: z.string().min(1) }).strict(),
  z
    .object({
      user_id: z.string().min(1),
      /** After a catalog refresh: the run, and when its tariffs changed (analyses before that are the advice to compare with). */
      after_tariff_refresh: z
        .object({ run_id: z.string().min(1).max(100), changed_at: z.iso.datetime() })
        .strict()
        .optional(),
    })
    .strict(),
]);

/** Payload of the `tariff-import-sweep` queue: nothing; the job reads the import stamp itself. */
export const tariffImportSweepPayload = z.object({}).strict();
