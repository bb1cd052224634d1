import { z } from 'zod';
import { pageSchema } from '../../platform/http/pagination';
import { decimalNumber, isoDate } from '../../platform/http/validate';
import {
  FIRST_BILL_DAY,
  HEAT_CONTENT_PLACES,
  HEAT_CONTENT_RANGE,
  MAX_BILL_AMOUNT,
  MAX_DAYS_AFTER_TODAY,
  MAX_HEAT_CONTENT,
  MAX_PERIOD_DAYS,
  MIN_BILL_AMOUNT,
  MIN_HEAT_CONTENT,
  NUMERIC_14_MAX,
} from './bill-rules';
import { METER_UTILITY_TYPES } from '../meters/units';
import { meterUnit, meterUtilityType } from '../meters/schemas';

/** The period rules that need today's date are checked by the service (bill-rules.ts, periodProblem). */
/** A printed line's category, as the bill engine's line items have them (taxes and anything else: other). */
export const PRINTED_CATEGORIES = ['energy', 'demand', 'fixed', 'rider', 'tax', 'other'] as const;

const printedLine = z.object({
  category: z.enum(PRINTED_CATEGORIES).meta({ description: 'energy (usage), demand, fixed, rider, tax or other' }),
  description: z.string().trim().min(1).max(300),
  amount: decimalNumber(2).min(MIN_BILL_AMOUNT).max(MAX_BILL_AMOUNT),
});

export const createBillBody = z
  .object({
    meter_id: z.string().min(1).max(200).optional().meta({
      description: "The property's meter the bill is for; without it, the property's default meter of utility_type (created on first use).",
    }),
    utility_type: meterUtilityType.optional().meta({ description: "Required without meter_id; with it, the meter's type (or omitted)." }),
    period_start: isoDate.meta({ description: `On or after ${FIRST_BILL_DAY}.` }),
    period_end: isoDate.meta({
      description: `Not before period_start, at most ${MAX_DAYS_AFTER_TODAY} days after today (UTC); the period lasts 1 to ${MAX_PERIOD_DAYS} days, both ends included.`,
    }),
    amount: decimalNumber(2).min(MIN_BILL_AMOUNT).max(MAX_BILL_AMOUNT).meta({ description: 'USD; negative for a credit.' }),
    usage: z.number().min(0).max(NUMERIC_14_MAX).nullable().optional().meta({ description: 'In unit.' }),
    unit: meterUnit.optional().meta({ description: "A unit of the bill's utility type; defaults to the meter's." }),
    usage_kwh: z
      .number()
      .min(0)
      .max(NUMERIC_14_MAX)
      .nullable()
      .optional()
      .meta({ description: 'Electric bills only: the usage in kWh (equal to usage when both are given).' }),
    demand_kw: z.number().min(0).max(NUMERIC_14_MAX).nullable().optional(),
    is_estimated: z.boolean().optional().meta({ description: 'An estimated read (default false).' }),
    heat_content: decimalNumber(HEAT_CONTENT_PLACES)
      .min(MIN_HEAT_CONTENT, { error: HEAT_CONTENT_RANGE })
      .max(MAX_HEAT_CONTENT, { error: HEAT_CONTENT_RANGE })
      .nullable()
      .optional()
      .meta({
        description:
          `Gas bills only: therms per ccf as the bill prints it (its therm or BTU factor), ${MIN_HEAT_CONTENT} to ${MAX_HEAT_CONTENT}. ` +
          'The audit prices a bill in a gas volume (ccf, cf, mcf) on a therm tariff with it.',
      }),
    line_items: z.array(printedLine).min(1).max(100).nullable().optional().meta({
      description:
        "The bill's lines as the utility printed them; they add up to amount. The audit compares them with the expected bill line by line (category sums).",
    }),
  })
  .meta({
    // The rule of utility_type's description, in the schema: a bill names its meter, or the utility type of the default meter.
    anyOf: [{ required: ['meter_id'] }, { required: ['utility_type'] }],
    example: {
      meter_id: '6f1c2a8e-3b7d-4c55-9a0e-1d2f3b4c5d6e',
      period_start: '2026-09-12',
      period_end: '2026-10-11',
      amount: 412.37,
      usage: 38.2,
      unit: 'kgal',
    },
  });
export type CreateBillInput = z.output<typeof createBillBody>;

const billExample = {
  id: '0d5e3c1b-7a2f-4e6d-9b8c-1a2b3c4d5e6f',
  property_id: '2b9d7c1a-0e4f-4a6b-8c3d-5e6f7a8b9c0d',
  meter_id: '6f1c2a8e-3b7d-4c55-9a0e-1d2f3b4c5d6e',
  utility_type: 'water',
  period_start: '2026-09-12',
  period_end: '2026-10-11',
  amount: 412.37,
  usage: 38.2,
  unit: 'kgal',
  usage_kwh: null,
  demand_kw: null,
  is_estimated: false,
  heat_content: null,
  line_items: null,
  created_at: '2026-10-20T09:12:44.000Z',
};

export const billResponse = z
  .object({
    id: z.string(),
    property_id: z.string(),
    meter_id: z.string(),
    utility_type: z.enum(METER_UTILITY_TYPES),
    period_start: z.string(),
    period_end: z.string(),
    amount: z.number(),
    usage: z.number().nullable(),
    unit: z.string(),
    usage_kwh: z.number().nullable(),
    demand_kw: z.number().nullable(),
    is_estimated: z.boolean(),
    heat_content: z
      .number()
      .nullable()
      .meta({ description: 'Therms per ccf as the gas bill prints it; null when not given (and on other bills).' }),
    line_items: z.array(z.object({ category: z.string(), description: z.string(), amount: z.number() })).nullable(),
    created_at: z.string(),
  })
  .meta({ example: billExample });

export const billPage = pageSchema(billResponse).meta({ example: { items: [billExample], total: 1, page: 1, per_page: 20, pages: 1 } });

export const importBody = z
  .object({
    file: z.string().optional().meta({ type: 'string', format: 'binary', description: 'The CSV file (at most 50 MB).' }),
  })
  .meta({
    example: {
      file:
        'account_number;period_start;period_end;amount;usage;unit;is_estimated\n' +
        '4410-2231-07;09/12/2026;10/11/2026;$412.37;38.2;kgal;no\n',
    },
  });

export const importResponse = z
  .object({
    imported: z.number().int().meta({ description: 'Rows stored by this import.' }),
    duplicates: z
      .number()
      .int()
      .meta({
        description:
          'Valid rows not stored because their meter already has a bill for the same period (from an earlier ' +
          'import or an earlier line of this file). Re-importing a file therefore stores nothing twice.',
      }),
    rejected: z.array(z.object({ line: z.number().int(), detail: z.string() })).meta({
      description:
        'Invalid rows (a period overlapping another bill of the meter is one) with their 1-based line number in the file (the header is line 1); the first 10,000 are listed.',
    }),
    rejected_count: z.number().int().meta({ description: 'All invalid rows, including any beyond the listed 10,000.' }),
  })
  .meta({
    example: {
      imported: 1180,
      duplicates: 12,
      rejected_count: 1,
      rejected: [
        { line: 14, detail: 'period: overlaps bill 0d5e3c1b-7a2f-4e6d-9b8c-1a2b3c4d5e6f of this meter (2026-09-12 to 2026-10-11)' },
      ],
    },
  });
