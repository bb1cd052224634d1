import { z } from 'zod';
import { decimalNumber, isoDate } from '../../platform/http/validate';
import { pageQuery, pageSchema } from '../../platform/http/pagination';
import { UTILITY_TYPES } from '../bills/utility-types';
import { NUMERIC_14_MAX } from '../bills/bill-rules';
import { ALLOCATION_METHODS, FACTOR_PLACES, PERCENT_PLACES, ROUNDING_MODES, VACANCY_POLICIES } from './rubs.calc';
import { CALCULATION_STATUSES } from './tables';

/** Largest max_charge / min_charge (USD) and billing_fee. */
export const MAX_CHARGE = 1_000_000;
export const MAX_BILLING_FEE = 1_000;
import { MAX_CUSTOM_WEIGHT, MAX_OCCUPANCIES, MAX_OCCUPANTS, MAX_SQFT, MAX_TEXT, MAX_UNITS } from './units.validate';
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
    const counts = Object.keys(table).map(Number).sort((a, b) => a - b);
    if (counts.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'occupant_factors must have a row for 1 occupant' });
      return;
    }
    const first = counts[0];
    if (first > 1 || counts.some((c, k) => c !== first + k)) {
      ctx.addIssue({ code: 'custom', message: 'occupant_factors must have a row for every head count from 0 or 1 to the largest, with no gap' });
      return;
    }
    for (let k = 1; k < counts.length; k++) {
      if (table[String(counts[k])] < table[String(counts[k - 1])]) {
        ctx.addIssue({ code: 'custom', message: `occupant_factors must not decrease: ${counts[k]} occupants have a smaller factor than ${counts[k - 1]}` });
        return;
      }
    }
  })
  .meta({
    description: 'Head count -> factor, e.g. {"1": 1, "2": 1.6, "3": 2.2, "4": 2.6}: used instead of the head count by occupant_count '
      + 'and sqft_occupant. An occupied unit counts at least 1 person unless the table has a row for 0; a head count above '
      + 'the last row takes its factor. Rows from 0 or 1 up with no gap, factors 0 to 100 that never decrease.',
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
  billing_day: z.number().int().min(1, { error: 'billing_day must be between 1 and 28' }).max(28, { error: 'billing_day must be between 1 and 28' })
    .meta({ description: 'The day of the month charges are due: a statement is due on the first such day after the period ends and after it was calculated.' }),
  is_active: z.boolean(),
  vacancy_policy: z.enum(VACANCY_POLICIES).meta({
    description: 'redistribute: vacant units are left out and the occupied ones share the whole billable amount; '
      + "owner_pays: shares are taken over all units and the vacant units' shares are billed to no one (the owner absorbs them).",
  }),
  rounding: z.enum(ROUNDING_MODES).meta({
    description: 'per_unit: each charge rounded to the cent on its own; exact: largest remainder, so the base '
      + 'charges add up to the billed amount to the cent, and so do the admin fees.',
  }),
  sqft_weight_percent: percent('sqft_weight_percent', 0, 100).meta({
    description: 'sqft_occupant only: weight of the sqft share in the blend; the occupant share gets the rest.',
  }),
  methods_by_utility: z.partialRecord(z.enum(UTILITY_TYPES), z.enum(ALLOCATION_METHODS)).meta({
    description: 'A method per utility type, overriding `method` for it; keys must be among utility_types.',
    example: { water: 'occupant_count', trash: 'unit_count' },
  }),
  occupant_factors: occupantFactorsSchema.nullable(),
  max_charge: money2('max_charge', MAX_CHARGE).nullable()
    .meta({ description: "USD: a billed line's base charge is at most this; the owner absorbs the rest (reported in reconciliation).", multipleOf: 0.01 }),
  min_charge: money2('min_charge', MAX_CHARGE).nullable()
    .meta({ description: "USD: a billed line's base charge is at least this; what it adds lowers what the owner absorbs.", multipleOf: 0.01 }),
  billing_fee: money2('billing_fee', MAX_BILLING_FEE)
    .meta({ description: 'USD: a flat fee on every billed line (each occupancy of a unit that turned over), on top of the master bill like the admin fee.', multipleOf: 0.01 }),
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
  .object(Object.fromEntries(Object.entries(configTerms).map(([k, v]) => [k, v.optional()])) as {
    [K in keyof typeof configTerms]: z.ZodOptional<(typeof configTerms)[K]>
  })
  .refine((b) => Object.keys(b).length > 0, { error: 'at least one field to change is required' })
  .meta({ example: ex.configPatch });
export type PatchConfigInput = z.output<typeof patchConfigBody>;

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
    methods_by_utility: z.partialRecord(z.enum(UTILITY_TYPES), z.enum(ALLOCATION_METHODS)),
    occupant_factors: z.record(z.string(), z.number()).nullable(),
    max_charge: z.number().nullable(),
    min_charge: z.number().nullable(),
    billing_fee: z.number(),
    version: z.number().int().meta({ description: '1 when created; each PATCH that changes a term makes the next version' }),
    created_at: z.string(),
    updated_at: z.string().nullable().meta({ description: 'When this version was made (null for version 1)' }),
  })
  .meta({ example: ex.configResponse });
export type ConfigResponse = z.output<typeof configResponse>;

export const configIdParams = z.object({ id });

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
  occupancies: z.array(z.object({
    tenant_name: z.string().max(MAX_TEXT),
    move_in: optionalDate.meta({ description: 'First day (inclusive); absent: since before the period.' }),
    move_out: optionalDate.meta({ description: 'Last day (inclusive); absent: still there after the period.' }),
    occupant_count: z.number().int().min(0).max(MAX_OCCUPANTS).nullable().optional()
      .meta({ description: 'Required by occupant_count and sqft_occupant.' }),
  })).min(1).max(MAX_OCCUPANCIES).nullable().optional().meta({
    description: 'Turnover: the residents of the period, one after another, in place of one tenant (not with is_vacant, move_in '
      + 'or move_out). Each is charged for its days; the unit counts once in the totals; days no occupancy covers follow the '
      + 'vacancy policy. Overlapping occupancies, one that moves out before it moves in or has no day in the period: 422 naming the unit.',
  }),
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
  occupancy: z.number().int().optional().meta({ description: "The occupancy's index in the unit's occupancies (units sent with occupancies: one bill per occupancy)" }),
  occupant_factor: z.number().optional().meta({ description: "The occupancy table's factor used (configurations with occupant_factors)" }),
  charge_limit: z.object({
    limit: z.enum(['max_charge', 'min_charge']),
    share_charge: money.meta({ description: 'The base charge the share gave, before the limit' }),
  }).optional().meta({ description: 'Present when max_charge or min_charge moved the base charge' }),
  billing_fee: money.optional().meta({ description: "The configuration's flat fee (0 for a vacant line); present when the configuration charges one" }),
  invoice_number: z.string().optional().meta({
    description: 'Unique per property; present on billed lines (absent on vacant ones, and on calculations made before invoice numbers)',
  }),
});

export const reconciliationResponse = z
  .object({
    total_amount: money,
    common_area_deduction: money,
    billed_to_tenants: money.meta({ description: 'Sum of the base charges' }),
    admin_fees: money.meta({ description: 'Sum of the admin fees (on top of the master bill)' }),
    owner_absorbs: money.meta({
      description: 'The vacant share under owner_pays (0 under redistribute) + max_charge_absorbed - min_charge_added; negative when minimum charges collect more than the vacant share and the caps',
    }),
    rounding_difference: money.meta({ description: 'What per-unit rounding left over (may be negative); 0 with exact rounding' }),
    billing_fees: money.meta({ description: 'Sum of the flat billing fees (on top of the master bill)' }),
    max_charge_absorbed: money.meta({ description: 'What max_charge took off the base charges' }),
    min_charge_added: money.meta({ description: 'What min_charge added to the base charges' }),
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
    billing_config_version: z.number().int().meta({ description: 'The version of the configuration the calculation used' }),
    occupant_factors: z.record(z.string(), z.number()).nullable(),
    max_charge: z.number().nullable(),
    min_charge: z.number().nullable(),
    billing_fee: money,
    due_date: z.string().nullable().meta({ description: "The first billing_day after the period's end and the calculation's date (null for calculations made before due dates)" }),
    status: z.enum(CALCULATION_STATUSES).meta({
      description: 'active; superseded by a later calculation of the same property and utility type whose period overlaps; or void',
    }),
    supersedes: z.array(z.string()).meta({ description: 'The earlier active calculations this one replaced' }),
    superseded_by: z.string().nullable(),
    void_reason: z.string().nullable(),
    voided_at: z.string().nullable(),
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
        billed_factor_days: z.number().optional().meta({ description: 'When anyone moved within the period: the billed sum in factor-days (exact)' }),
        all_factor_days: z.number().optional().meta({ description: 'When anyone moved within the period: every unit\'s sum in factor-days (exact)' }),
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
  billing_config_version: z.number().int(),
  status: z.enum(CALCULATION_STATUSES),
  supersedes: z.array(z.string()),
  superseded_by: z.string().nullable(),
  calculated_at: z.string(),
});

export const historyPage = pageSchema(historyItem).meta({ example: ex.historyPage });

export const historyQuery = pageQuery.extend({
  status: z.enum(CALCULATION_STATUSES).optional().meta({ description: 'Only calculations with this status' }),
});

export const voidBody = z.object({
  reason: z.string().trim().min(1, { error: 'reason required' }).max(500),
}).meta({ example: { reason: 'Wrong master bill: the utility re-issued it' } });

export const statementQuery = z.object({
  occupancy: z.coerce.number().int().min(0).max(MAX_OCCUPANCIES - 1).optional()
    .meta({ description: "Which occupancy's statement, for a unit sent with occupancies (required when it has more than one)" }),
});
export const propertyParams = z.object({ property_id: id });
export const calculationParams = z.object({ id });
export const statementParams = z.object({ id, unit_id: id });

export const statementResponse = z
  .object({
    calculation_id: z.string(),
    invoice_number: z.string().nullable().meta({ description: 'Unique per property; null for a vacant line and for calculations made before invoice numbers' }),
    due_date: z.string().nullable().meta({ description: 'null for calculations made before due dates' }),
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
        value: z.number().meta({ description: 'As entered: whole sqft, the head count, the weight' }),
        occupancy_factor: z.object({ occupants: z.number().int(), factor: z.number() }).optional()
          .meta({ description: 'The occupancy table row used for the head count (configurations with occupant_factors)' }),
        occupied_days: z.number().int(),
        weight_percent: z.number(),
        total: z.number().meta({ description: "The total the unit's factor is divided by (per day of the period when anyone moved)" }),
        total_factor_days: z.number().optional().meta({ description: 'When anyone moved within the period: the total in factor-days, the whole numbers the share is computed from' }),
        total_of: z.enum(['billed_units', 'all_units']),
      })),
    }),
    charges: z.object({
      share_charge: money.meta({ description: 'The base charge the share gives' }),
      charge_limit: z.enum(['max_charge', 'min_charge']).nullable(),
      base_charge: money, admin_fee_rate: z.number(), admin_fee: money, billing_fee: money, total_charge: money,
    }),
    formula: z.array(z.string()).meta({ description: 'The calculation written out, line by line' }),
    calculated_at: z.string(),
  })
  .meta({ example: ex.statementResponse });
