/**
 * The requests' schemas: configuration bodies, the calculation request, path parameters and
 * queries. The answers' schemas are in schemas.response.ts.
 */
import { z } from 'zod';
import { decimalNumber, isoDate } from '../../platform/http/validate';
import { pageQuery } from '../../platform/http/pagination';
import { UTILITY_TYPES } from '../bills/utility-types';
import { NUMERIC_14_MAX } from '../bills/bill-rules';
import { ALLOCATION_METHODS, FACTOR_PLACES, PERCENT_PLACES, ROUNDING_MODES, VACANCY_POLICIES } from './rubs.types';
import { CALCULATION_STATUSES } from './tables';

import { checkOccupancies, MAX_CUSTOM_WEIGHT, MAX_OCCUPANCIES, MAX_TEXT, unitList } from './schemas.units';
import * as ex from './examples';

/** Largest max_charge / min_charge (USD) and billing_fee. */
export const MAX_CHARGE = 1_000_000;
export const MAX_BILLING_FEE = 1_000;

/** zod reports a missing enum as invalid_value; clients expect `field required` for it, as for any missing field. */
const requiredEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: (iss) => (iss.input === undefined ? 'field required' : undefined) });
const id = z.string().min(1).max(MAX_TEXT);

/** A percentage in [min, max] with at most PERCENT_PLACES decimals; out of range: `<name> must be between <min> and <max>`. */
const percent = (name: string, min: number, max: number) => {
  const range = `${name} must be between ${min} and ${max}`;
  return decimalNumber(PERCENT_PLACES).min(min, { error: range }).max(max, { error: range });
};

const money2 = (name: string, max: number) => {
  const range = `${name} must be between 0 and ${max}`;
  return decimalNumber(2).min(0, { error: range }).max(max, { error: range });
};

/**
 * Occupancy factors by head count: {"1": 1, "2": 1.6, "3": 2.2}. Keys are whole head counts
 * from 0 or 1 up, with no gap; factors 0 to 100 (4 decimals) that never decrease.
 */
export const occupantFactorsSchema = z
  .record(z.string(), decimalNumber(FACTOR_PLACES).min(0).max(MAX_CUSTOM_WEIGHT))
  .superRefine((table, ctx) => {
    const badKey = Object.keys(table).find((key) => !/^(0|[1-9][0-9]?)$/.test(key));
    if (badKey !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'occupant_factors keys are head counts from 0 to 99', path: [badKey] });
      return;
    }
    const counts = Object.keys(table)
      .map(Number)
      .sort((a, b) => a - b);
    if (counts.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'occupant_factors must have a row for 1 occupant' });
      return;
    }
    const first = counts[0];
    if (first > 1 || counts.some((c, k) => c !== first + k)) {
      ctx.addIssue({
        code: 'custom',
        message: 'occupant_factors must have a row for every head count from 0 or 1 to the largest, with no gap',
      });
      return;
    }
    for (let k = 1; k < counts.length; k++) {
      if (table[String(counts[k])] < table[String(counts[k - 1])]) {
        ctx.addIssue({
          code: 'custom',
          message: `occupant_factors must not decrease: ${counts[k]} occupants have a smaller factor than ${counts[k - 1]}`,
        });
        return;
      }
    }
  })
  .meta({
    description:
      'Head count -> factor, e.g. {"1": 1, "2": 1.6, "3": 2.2, "4": 2.6}: used instead of the head count by occupant_count ' +
      'and sqft_occupant. An occupied unit counts at least 1 person unless the table has a row for 0; a head count above ' +
      'the last row takes its factor. Rows from 0 or 1 up with no gap, factors 0 to 100 that never decrease.',
    example: { 1: 1, 2: 1.6, 3: 2.2, 4: 2.6 },
  });

/** The terms of a configuration, each optional: createConfigBody adds the defaults, patchConfigBody takes them as they are. */
const configTerms = {
  method: requiredEnum(ALLOCATION_METHODS),
  utility_types: z
    .array(z.enum(UTILITY_TYPES))
    .min(1)
    .refine((types) => new Set(types).size === types.length, { error: 'utility_types must not repeat a type' })
    .meta({ uniqueItems: true }),
  common_area_percent: percent('common_area_percent', 0, 50),
  admin_fee_percent: percent('admin_fee_percent', 0, 15),
  billing_day: z
    .number()
    .int()
    .min(1, { error: 'billing_day must be between 1 and 28' })
    .max(28, { error: 'billing_day must be between 1 and 28' })
    .meta({
      description:
        'The day of the month charges are due: a statement is due on the first such day after the period ends and after it was calculated.',
    }),
  is_active: z.boolean(),
  vacancy_policy: z.enum(VACANCY_POLICIES).meta({
    description:
      'redistribute: vacant units are left out and the occupied ones share the whole billable amount; ' +
      "owner_pays: shares are taken over all units and the vacant units' shares are billed to no one (the owner absorbs them).",
  }),
  rounding: z.enum(ROUNDING_MODES).meta({
    description:
      'per_unit: each charge rounded to the cent on its own; exact: largest remainder, so the base ' +
      'charges add up to the billed amount to the cent, and so do the admin fees.',
  }),
  sqft_weight_percent: percent('sqft_weight_percent', 0, 100).meta({
    description: 'sqft_occupant only: weight of the sqft share in the blend; the occupant share gets the rest.',
  }),
  methods_by_utility: z.partialRecord(z.enum(UTILITY_TYPES), z.enum(ALLOCATION_METHODS)).meta({
    description: 'A method per utility type, overriding `method` for it; keys must be among utility_types.',
    example: { water: 'occupant_count', trash: 'unit_count' },
  }),
  occupant_factors: occupantFactorsSchema.nullable(),
  max_charge: money2('max_charge', MAX_CHARGE).nullable().meta({
    description: "USD: a billed line's base charge is at most this; the owner absorbs the rest (reported in reconciliation).",
    multipleOf: 0.01,
  }),
  min_charge: money2('min_charge', MAX_CHARGE).nullable().meta({
    description: "USD: a billed line's base charge is at least this; what it adds lowers what the owner absorbs.",
    multipleOf: 0.01,
  }),
  billing_fee: money2('billing_fee', MAX_BILLING_FEE).meta({
    description:
      'USD: a flat fee on every billed line (each occupancy of a unit that turned over), on top of the master bill like the admin fee.',
    multipleOf: 0.01,
  }),
};

export const createConfigBody = z
  .object({
    property_id: id,
    method: configTerms.method,
    utility_types: configTerms.utility_types,
    common_area_percent: configTerms.common_area_percent.default(0),
    admin_fee_percent: configTerms.admin_fee_percent.default(0),
    billing_day: configTerms.billing_day.default(1),
    is_active: configTerms.is_active.default(true),
    vacancy_policy: configTerms.vacancy_policy.default('redistribute'),
    rounding: configTerms.rounding.default('per_unit'),
    sqft_weight_percent: configTerms.sqft_weight_percent.default(50),
    methods_by_utility: configTerms.methods_by_utility.default({}),
    occupant_factors: configTerms.occupant_factors.default(null),
    max_charge: configTerms.max_charge.default(null),
    min_charge: configTerms.min_charge.default(null),
    billing_fee: configTerms.billing_fee.default(0),
  })
  .meta({ example: ex.configRequest });
export type CreateConfigInput = z.output<typeof createConfigBody>;

/** PATCH /billing/config/{id}: any of the terms; the result is a new version. */
export const patchConfigBody = z
  .object(
    Object.fromEntries(Object.entries(configTerms).map(([k, v]) => [k, v.optional()])) as {
      [K in keyof typeof configTerms]: z.ZodOptional<(typeof configTerms)[K]>;
    },
  )
  .refine((b) => Object.keys(b).length > 0, { error: 'at least one field to change is required' })
  .meta({ example: ex.configPatch });
export type PatchConfigInput = z.output<typeof patchConfigBody>;

export const configIdParams = z.object({ id });

/** The calculation request without its units: calculate-rubs adds them, calculate-from-pms fetches them. */
export const calculationRequestShape = {
  property_id: id,
  billing_config_id: id,
  billing_period_start: isoDate,
  billing_period_end: isoDate,
  total_amount: decimalNumber(2)
    .min(0)
    .max(NUMERIC_14_MAX)
    .meta({ description: 'The master-meter bill in USD, to the cent.', multipleOf: 0.01 }),
  utility_type: requiredEnum(UTILITY_TYPES),
};

/** The period-order rule every calculation request shares. */
export function withPeriodOrder<S extends z.ZodType<{ billing_period_start: string; billing_period_end: string }>>(schema: S) {
  return schema.refine((b) => b.billing_period_end >= b.billing_period_start, {
    error: 'billing_period_end must not be before billing_period_start',
    path: ['billing_period_end'],
  });
}

export const calculationRequest = withPeriodOrder(z.object(calculationRequestShape));
export type CalculationRequest = z.output<typeof calculationRequest>;

/**
 * The calculate-rubs body: the request and its units, each checked by itself (schemas.units.ts) and
 * the occupancies of units that turned over against the period. The factors the configuration's
 * method needs are checked once it is known (unitsOfMethod).
 */
export const calculateRubsBody = withPeriodOrder(z.object({ ...calculationRequestShape, units: unitList }))
  .superRefine((b, ctx) => checkOccupancies(b.units, { start: b.billing_period_start, end: b.billing_period_end }, ctx))
  .meta({ example: ex.calculateRequest });
export type CalculateRubsBody = z.output<typeof calculateRubsBody>;

export const historyQuery = pageQuery.extend({
  status: z.enum(CALCULATION_STATUSES).optional().meta({ description: 'Only calculations with this status' }),
});

export const voidBody = z
  .object({
    reason: z.string().trim().min(1, { error: 'reason required' }).max(500),
  })
  .meta({ example: { reason: 'Wrong master bill: the utility re-issued it' } });

export const statementQuery = z.object({
  // The type stated: a coerced number is documented as integer-or-null, and a query parameter is never null.
  occupancy: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_OCCUPANCIES - 1)
    .optional()
    .meta({
      type: 'integer',
      minimum: 0,
      maximum: MAX_OCCUPANCIES - 1,
      description: "Which occupancy's statement, for a unit sent with occupancies; without it, one statement with every occupancy's part",
    }),
});
export const propertyParams = z.object({ property_id: id });
/** GET /billing/config/{id}: the property's id, on the path template PATCH uses for a configuration's id. */
export const configsOfPropertyParams = z.object({ id: id.meta({ description: "the property's id" }) });
export const calculationParams = z.object({ id });
export const statementParams = z.object({ id, unit_id: id });
