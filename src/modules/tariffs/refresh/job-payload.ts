import { z } from 'zod';

/** Payload of the `tariff-refresh` queue: the run to run or resume (tariffs/refresh/service.ts). */
export const tariffRefreshJobPayload = z.object({ run_id: z.string().min(1).max(100) }).strict();

/** Payload of the `tariff-refresh-schedule` queue (URDB_REFRESH_CRON): nothing; the job records a run of the deployment's utilities. */
export const tariffRefreshSchedulePayload = z.object({}).strict();
