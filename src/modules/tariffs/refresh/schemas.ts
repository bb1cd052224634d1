import { z } from 'zod';

export const refreshRequest = z
  .object({
    eia: z
      .array(z.string().regex(/^\d{1,9}$/, 'an EIA utility id: digits'))
      .min(1)
      .max(5000)
      .optional()
      .describe(
        'EIA utility ids to refresh; omitted (and all not true): the utilities the properties, meters, their ZIP codes and due diligence ZIP codes use',
      ),
    all: z
      .boolean()
      .optional()
      .describe('every utility of the catalog (about 3,500 requests: three and a half hours or more at 1,000 requests an hour)'),
    resume: z.string().min(1).max(100).optional().describe('the id of a run that failed or stopped, to go on from where it stopped'),
  })
  .strict()
  .refine((b) => [b.eia !== undefined, b.all === true, b.resume !== undefined].filter(Boolean).length <= 1, {
    message: 'give at most one of eia, all and resume',
    path: ['eia'],
  })
  .meta({ id: 'TariffRefreshRequest', example: { eia: ['4176'] } });

export const refreshRunParams = z.object({ id: z.string().min(1).max(100) });

const reportSchema = z.object({
  fetched: z.number().int().describe('records the API returned'),
  new: z.array(z.string()).describe('labels we did not hold, now stored (source refreshed)'),
  changed: z.array(z.string()).describe('labels we held whose rates, dates or class changed: stored as the API publishes them'),
  unchanged: z.number().int(),
  superseded: z
    .array(z.object({ id: z.string(), superseded_by: z.string(), expiration_date: z.string().nullable() }))
    .describe('tariffs a later revision of the same schedule superseded: kept, ending the day before it (or at their own end)'),
  ended: z.array(z.object({ id: z.string(), expiration_date: z.string() })).describe('tariffs the API now publishes with an end date'),
  rejected: z
    .array(z.object({ id: z.string(), eia_id: z.string(), reason: z.string() }))
    .describe("records not stored, with the reason (the importer's normaliser, or not a record)"),
});

/** A refresh run is queued, then running, and ends succeeded or failed. */
export const REFRESH_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type RefreshStatus = (typeof REFRESH_STATUSES)[number];

export const refreshRunResponse = z
  .object({
    id: z.string(),
    status: z.enum(REFRESH_STATUSES),
    utilities: z.array(z.string()).describe('EIA ids, in the order they are refreshed'),
    utilities_done: z.number().int(),
    report: reportSchema,
    error: z.string().nullable().describe('why a failed run stopped (the API failing every try, a wrong key); resume it with resume'),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  })
  .meta({
    id: 'TariffRefreshRun',
    // Connecticut Light & Power refreshed (the tariffs README's worked example): Rate 1 of 2022 supersedes Rate 1 of 2017.
    example: {
      id: 'b7c1d2e3-4f50-4a6b-8c7d-9e0f1a2b3c4d',
      status: 'succeeded',
      utilities: ['4176'],
      utilities_done: 1,
      report: {
        fetched: 15,
        new: ['62fe87aff6dee418ab7bfcf9'],
        changed: [],
        unchanged: 14,
        superseded: [{ id: '5982002d5457a3ac198bbc44', superseded_by: '62fe87aff6dee418ab7bfcf9', expiration_date: '2018-06-30' }],
        ended: [],
        rejected: [],
      },
      error: null,
      created_at: '2026-11-28T13:00:00.000Z',
      started_at: '2026-11-28T13:00:01.000Z',
      finished_at: '2026-11-28T13:00:04.000Z',
    },
  });
