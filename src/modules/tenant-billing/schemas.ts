import { z } from 'zod';
import { decimalNumber, isoDate } from '../../platform/http/validate';
import { pageQuery, pageSchema } from '../../platform/http/pagination';
import { UTILITY_TYPES } from '../bills/utility-types';
import { NUMERIC_14_MAX } from '../bills/bill-rules';
import { ALLOCATION_METHODS, PERCENT_PLACES, ROUNDING_MODES, VACANCY_POLICIES } from './rubs.calc';
import { MAX_CUSTOM_WEIGHT, MAX_OCCUPANTS, MAX_SQFT, MAX_TEXT, MAX_UNITS } from './units.validate';
import * as ex from './examples';

/** zod reports a missing enum as invalid_value; clients expect `field required` for it, as for any missing field. */
const requiredEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: (iss) => (iss.input === undefined ? 'field required' : undefined) });
const id = z.string().min(1).max(MAX_TEXT);

/** A percentage in [min, max] with at most PERCENT_PLACES decimals; out of range: `<name> must be between <min> and <max>`. */
const percent = (name: string, min: number, max: number) => {
  const range = `${name} must be between ${min} and ${max}`;
  return decimalNumber(PERCENT_PLACES).min(min, { error: range }).max(max, { error: range });
};

export const createConfigBody = z
  .object({
    property_id: id,
    method: requiredEnum(ALLOCATION_METHODS),
    utility_types: z
      .array(z.enum(UTILITY_TYPES))
      .min(1)
      .refine((types) => new Set(types).size === types.length, { error: 'utility_types must not repeat a type' })
      .meta({ uniqueItems: true }),
    common_area_percent: percent('common_area_percent', 0, 50).default(0),
    admin_fee_percent: percent('admin_fee_percent', 0, 15).default(0),
    billing_day: z.number().int().min(1, { error: 'billing_day must be between 1 and 28' }).max(28, { error: 'billing_day must be between 1 and 28' }).default(1),
    is_active: z.boolean().default(true),
    vacancy_policy: z.enum(VACANCY_POLICIES).default('redistribute').meta({
      description: 'redistribute: vacant units are left out and the occupied ones share the whole billable amount; '
        + "owner_pays: shares are taken over all units and the vacant units' shares are billed to no one (the owner absorbs them).",
    }),
    rounding: z.enum(ROUNDING_MODES).default('per_unit').meta({
      description: 'per_unit: each charge rounded to the cent on its own; exact: largest remainder, so the base '
        + 'charges add up to the billed amount to the cent, and so do the admin fees.',
    }),
    sqft_weight_percent: percent('sqft_weight_percent', 0, 100).default(50).meta({
      description: 'sqft_occupant only: weight of the sqft share in the blend; the occupant share gets the rest.',
    }),
  })
  .meta({ example: ex.configRequest });
export type CreateConfigInput = z.output<typeof createConfigBody>;

export const configResponse = z
  .object({
    id: z.string(),
    property_id: z.string(),
    method: z.enum(ALLOCATION_METHODS),
    utility_types: z.array(z.enum(UTILITY_TYPES)),
    common_area_percent: z.number(),
    admin_fee_percent: z.number(),
    billing_day: z.number().int(),
    is_active: z.boolean(),
    vacancy_policy: z.enum(VACANCY_POLICIES),
    rounding: z.enum(ROUNDING_MODES),
    sqft_weight_percent: z.number(),
    created_at: z.string(),
  })
  .meta({ example: ex.configResponse });

const optionalDate = isoDate.nullable().optional();

export const unitBody = z.object({
  unit_id: id,
  tenant_name: z.string().max(MAX_TEXT).meta({ description: 'May be empty for a vacant unit.' }),
  sqft: z.number().min(0).max(MAX_SQFT).nullable().optional().meta({ description: 'Required by sqft and sqft_occupant; at most 4 decimals.', multipleOf: 0.0001 }),
  occupant_count: z.number().int().min(0).max(MAX_OCCUPANTS).nullable().optional()
    .meta({ description: 'Required by occupant_count and sqft_occupant.' }),
  custom_weight: z.number().min(0).max(MAX_CUSTOM_WEIGHT).nullable().optional()
    .meta({ description: 'Required by custom_weight; 0 to 100, at most 4 decimals.', multipleOf: 0.0001 }),
  is_vacant: z.boolean().default(false),
  move_in: optionalDate.meta({ description: 'First day occupied (inclusive); the factor is prorated by the days occupied in the period.' }),
  move_out: optionalDate.meta({ description: 'Last day occupied (inclusive).' }),
});

/** The calculation request without its units: calculate-rubs adds them, calculate-from-pms fetches them. */
export const calculationRequestShape = {
  property_id: id,
  billing_config_id: id,
  billing_period_start: isoDate,
  billing_period_end: isoDate,
  total_amount: decimalNumber(2).min(0).max(NUMERIC_14_MAX).meta({ description: 'The master-meter bill in USD, to the cent.', multipleOf: 0.01 }),
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

const unitList = <T extends z.ZodType>(item: T) => z
  .array(item)
  .min(1, { error: 'units array must not be empty' })
  .max(MAX_UNITS, { error: `units array must not have more than ${MAX_UNITS} units` });

/** The calculate-rubs body as documented. */
export const calculateRubsBody = withPeriodOrder(z.object({ ...calculationRequestShape, units: unitList(unitBody) }))
  .meta({ example: ex.calculateRequest });

/**
 * The same body as parsed: each unit is left to validateUnits (units.validate.ts), the one check
 * of units wherever they come from, which reports the same fields and messages as unitBody would
 * (units.validate.test.ts holds them to it). Checking 10,000 units twice would cost a tenth of
 * the 50 ms a 10,000-unit calculation may take.
 */
export const calculateRubsParse = withPeriodOrder(z.object({ ...calculationRequestShape, units: unitList(z.unknown()) }));

const money = z.number().meta({ description: 'USD, 2 decimals' });

const unitBillResponse = z.object({
  unit_id: z.string(),
  tenant_name: z.string(),
  sqft: z.number().optional().meta({ description: 'sqft and sqft_occupant methods' }),
  occupant_count: z.number().int().optional().meta({ description: 'occupant_count and sqft_occupant methods' }),
  custom_weight: z.number().optional().meta({ description: 'custom_weight method' }),
  allocation_percent: z.number().meta({ description: "The unit's share of the billable amount, percent, 2 decimals" }),
  base_charge: money,
  admin_fee: money,
  total_charge: money,
  is_vacant: z.boolean().meta({ description: 'Sent as vacant, or no day of the period occupied (move_in / move_out)' }),
  occupied_days: z.number().int(),
  move_in: z.string().nullable().optional().meta({ description: 'Present when the unit was sent with a move_in or move_out' }),
  move_out: z.string().nullable().optional(),
});

export const reconciliationResponse = z
  .object({
    total_amount: money,
    common_area_deduction: money,
    billed_to_tenants: money.meta({ description: 'Sum of the base charges' }),
    admin_fees: money.meta({ description: 'Sum of the admin fees (on top of the master bill)' }),
    owner_absorbs: money.meta({ description: 'The vacant share under owner_pays; 0 under redistribute' }),
    rounding_difference: money.meta({ description: 'What per-unit rounding left over (may be negative); 0 with exact rounding' }),
  })
  .meta({ description: 'total_amount = common_area_deduction + billed_to_tenants + owner_absorbs + rounding_difference' });

export const calculationResponse = z
  .object({
    id: z.string(),
    property_id: z.string(),
    billing_config_id: z.string(),
    billing_period_start: z.string(),
    billing_period_end: z.string(),
    utility_type: z.enum(UTILITY_TYPES),
    total_amount: money,
    common_area_percent: z.number(),
    common_area_deduction: money,
    billable_amount: money,
    admin_fee_rate: z.number().meta({ description: 'Fraction: 5 percent is 0.05' }),
    method: z.enum(ALLOCATION_METHODS),
    vacancy_policy: z.enum(VACANCY_POLICIES),
    rounding: z.enum(ROUNDING_MODES),
    source: z.enum(['request', 'pms']).meta({ description: 'Where the units came from' }),
    unit_bills: z.array(unitBillResponse),
    units_billed: z.number().int(),
    units_vacant: z.number().int(),
    vacant_absorption: money.meta({ description: 'billable_amount x vacant factors / all factors (both policies)' }),
    reconciliation: reconciliationResponse,
    allocation_basis: z.object({
      period_days: z.number().int(),
      factors: z.array(z.object({
        factor: z.enum(['sqft', 'occupant_count', 'custom_weight', 'unit_count']),
        weight_percent: z.number(),
        billed_total: z.number().meta({ description: 'Sum over billed units of factor x occupied days / period days' }),
        all_total: z.number().meta({ description: 'Sum over all units, vacant ones included' }),
      })),
    }),
    calculated_at: z.string(),
  })
  .meta({ example: ex.calculationResponse });
export type CalculationResponse = z.output<typeof calculationResponse>;

export const historyItem = z.object({
  id: z.string(),
  property_id: z.string(),
  billing_period_start: z.string(),
  billing_period_end: z.string(),
  utility_type: z.enum(UTILITY_TYPES),
  total_amount: z.number(),
  units_billed: z.number().int(),
  units_vacant: z.number().int(),
  method: z.enum(ALLOCATION_METHODS),
  calculated_at: z.string(),
});

export const historyPage = pageSchema(historyItem).meta({ example: ex.historyPage });

export const historyQuery = pageQuery;
export const propertyParams = z.object({ property_id: id });
export const calculationParams = z.object({ id });
export const statementParams = z.object({ id, unit_id: id });

export const statementResponse = z
  .object({
    calculation_id: z.string(),
    property: z.object({ id: z.string(), name: z.string(), address: z.string(), city: z.string(), state: z.string(), zip_code: z.string() }),
    billing_period_start: z.string(),
    billing_period_end: z.string(),
    period_days: z.number().int(),
    utility_type: z.enum(UTILITY_TYPES),
    method: z.enum(ALLOCATION_METHODS),
    vacancy_policy: z.enum(VACANCY_POLICIES),
    rounding: z.enum(ROUNDING_MODES),
    master_bill: z.object({
      total_amount: money,
      common_area_percent: z.number(),
      common_area_deduction: money,
      billable_amount: money,
    }),
    unit: unitBillResponse,
    share: z.object({
      allocation_percent: z.number(),
      factors: z.array(z.object({
        factor: z.string(),
        value: z.number(),
        occupied_days: z.number().int(),
        weight_percent: z.number(),
        total: z.number().meta({ description: 'The total the unit\'s factor is divided by' }),
        total_of: z.enum(['billed_units', 'all_units']),
      })),
    }),
    charges: z.object({ base_charge: money, admin_fee_rate: z.number(), admin_fee: money, total_charge: money }),
    formula: z.array(z.string()).meta({ description: 'The calculation written out, line by line' }),
    calculated_at: z.string(),
  })
  .meta({ example: ex.statementResponse });
