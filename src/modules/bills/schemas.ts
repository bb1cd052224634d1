import { z } from 'zod';
import { decimalNumber, isoDate } from '../../platform/http/validate';
import { FIRST_BILL_DAY, MAX_BILL_AMOUNT, MAX_DAYS_AFTER_TODAY, MAX_PERIOD_DAYS, MIN_BILL_AMOUNT, NUMERIC_14_MAX } from './bill-rules';
import { UTILITY_TYPES } from './utility-types';

/** The period rules that need today's date are checked by the service (bill-rules.ts, periodProblem). */
export const createBillBody = z
  .object({
    utility_type: z.enum(UTILITY_TYPES, { error: (iss) => (iss.input === undefined ? 'field required' : undefined) }),
    period_start: isoDate.meta({ description: `On or after ${FIRST_BILL_DAY}.` }),
    period_end: isoDate.meta({
      description: `Not before period_start, at most ${MAX_DAYS_AFTER_TODAY} days after today (UTC); the period lasts 1 to ${MAX_PERIOD_DAYS} days, both ends included.`,
    }),
    amount: decimalNumber(2).min(MIN_BILL_AMOUNT).max(MAX_BILL_AMOUNT).meta({ description: 'USD; negative for a credit.' }),
    usage_kwh: z.number().min(0).max(NUMERIC_14_MAX).nullable().optional(),
    demand_kw: z.number().min(0).max(NUMERIC_14_MAX).nullable().optional(),
  });
export type CreateBillInput = z.output<typeof createBillBody>;

export const billResponse = z.object({
  id: z.string(),
  property_id: z.string(),
  utility_type: z.enum(UTILITY_TYPES),
  period_start: z.string(),
  period_end: z.string(),
  amount: z.number(),
  usage_kwh: z.number().nullable(),
  demand_kw: z.number().nullable(),
  created_at: z.string(),
});

export const importBody = z.object({
  file: z.string().optional().meta({ type: 'string', format: 'binary', description: 'The CSV file (at most 50 MB).' }),
});

export const importResponse = z.object({
  imported: z.number().int().meta({ description: 'Rows stored by this import.' }),
  duplicates: z.number().int().meta({
    description: 'Valid rows not stored because a bill for the same property, utility_type and period already exists '
      + '(from an earlier import or an earlier line of this file). Re-importing a file therefore stores nothing twice.',
  }),
  rejected: z.array(z.object({ line: z.number().int(), detail: z.string() })).meta({
    description: 'Invalid rows with their 1-based line number in the file (the header is line 1); the first 10,000 are listed.',
  }),
  rejected_count: z.number().int().meta({ description: 'All invalid rows, including any beyond the listed 10,000.' }),
});
