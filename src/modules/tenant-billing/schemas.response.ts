/** The answers' schemas: a configuration, a calculation (with its unit bills), the history and a statement. */
import { z } from 'zod';
import { pageSchema } from '../../platform/http/pagination';
import { UTILITY_TYPES } from '../bills/utility-types';
import { propertyAddress } from '../properties/schemas';
import { ALLOCATION_METHODS, CALCULATION_SOURCES, ROUNDING_MODES, VACANCY_POLICIES } from './rubs.types';
import { CALCULATION_STATUSES } from './tables';
import * as ex from './examples';

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
  occupancy: z
    .number()
    .int()
    .optional()
    .meta({ description: "The occupancy's index in the unit's occupancies (units sent with occupancies: one bill per occupancy)" }),
  occupant_factor: z.number().optional().meta({ description: "The occupancy table's factor used (configurations with occupant_factors)" }),
  charge_limit: z
    .object({
      limit: z.enum(['max_charge', 'min_charge']),
      share_charge: money.meta({ description: 'The base charge the share gave, before the limit' }),
    })
    .optional()
    .meta({ description: 'Present when max_charge or min_charge moved the base charge' }),
  occupied_kwh: z.number().optional().meta({
    description:
      "basis intervals, a line occupied for part of the period: the whole-building meter's kWh of its occupied days, which its share is prorated by",
  }),
  billing_fee: money
    .optional()
    .meta({ description: "The configuration's flat fee (0 for a vacant line); present when the configuration charges one" }),
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
      description:
        'The vacant share under owner_pays (0 under redistribute) + max_charge_absorbed - min_charge_added; negative when minimum charges collect more than the vacant share and the caps',
    }),
    rounding_difference: money.meta({
      description:
        'What per-unit rounding left over (each base charge rounded down: never negative, under a cent a line); 0 with exact rounding',
    }),
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
    source: z.enum(CALCULATION_SOURCES).meta({ description: 'Where the units came from' }),
    billing_config_version: z.number().int().meta({ description: 'The version of the configuration the calculation used' }),
    occupant_factors: z.record(z.string(), z.number()).nullable(),
    max_charge: z.number().nullable(),
    min_charge: z.number().nullable(),
    billing_fee: money,
    due_date: z.string().nullable().meta({
      description: "The first billing_day after the period's end and the calculation's date (null for calculations made before due dates)",
    }),
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
    allocation_basis: z
      .object({
        period_days: z.number().int(),
        basis: z.enum(['intervals', 'days']).meta({
          description:
            'What proration counts a unit\'s days by (README "Interval proration"): intervals, each day weighted by its kWh on the property\'s whole-building electric meter (electric bills, when the meter has a reading for every interval of the period); days, each day the same',
        }),
        meter_id: z
          .string()
          .optional()
          .meta({ description: 'basis intervals: the whole-building electric meter whose readings weigh the days' }),
        period_kwh: z.number().optional().meta({ description: "basis intervals: the meter's kWh over the period (local days)" }),
        basis_reason: z.string().optional().meta({
          description:
            'basis days on an electric bill: why the intervals were not used (no meter with readings, a day without a reading, ...)',
        }),
        factors: z.array(
          z.object({
            factor: z.enum(['sqft', 'occupant_count', 'custom_weight', 'unit_count']),
            weight_percent: z.number(),
            billed_total: z.number().meta({ description: 'Sum over billed units of factor x occupied days / period days' }),
            all_total: z.number().meta({ description: 'Sum over all units, vacant ones included' }),
            billed_factor_days: z
              .number()
              .optional()
              .meta({ description: 'When anyone moved within the period: the billed sum in factor-days (exact)' }),
            all_factor_days: z
              .number()
              .optional()
              .meta({ description: "When anyone moved within the period: every unit's sum in factor-days (exact)" }),
            billed_factor_kwh: z.number().optional().meta({
              description:
                'basis intervals, when anyone moved within the period: the billed sum in factor-kWh, factor x kWh of the days occupied (exact)',
            }),
            all_factor_kwh: z
              .number()
              .optional()
              .meta({ description: "basis intervals, when anyone moved within the period: every unit's sum in factor-kWh (exact)" }),
          }),
        ),
      })
      .meta({ example: ex.intervalAllocationBasis }),
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
/** GET /billing/config/{id}/versions: a page of a configuration's versions, newest first. */
export const configVersionsPage = pageSchema(configResponse).meta({
  example: { items: [ex.configResponse], total: 1, page: 1, per_page: 20, pages: 1 },
});

const statementShare = z.object({
  allocation_percent: z
    .number()
    .meta({ description: "A unit that turned over, asked without ?occupancy: the sum of its parts' percentages" }),
  factors: z.array(
    z.object({
      occupancy: z.number().int().optional().meta({
        description: "A unit that turned over, asked without ?occupancy: the part this factor is of (each part's factors in turn)",
      }),
      factor: z.string(),
      value: z.number().meta({ description: 'As entered: whole sqft, the head count, the weight' }),
      occupancy_factor: z
        .object({ occupants: z.number().int(), factor: z.number() })
        .optional()
        .meta({ description: 'The occupancy table row used for the head count (configurations with occupant_factors)' }),
      occupied_days: z.number().int(),
      weight_percent: z.number(),
      total: z.number().meta({ description: "The total the unit's factor is divided by (per day of the period when anyone moved)" }),
      total_factor_days: z.number().optional().meta({
        description: 'When anyone moved within the period: the total in factor-days, the whole numbers the share is computed from',
      }),
      total_factor_kwh: z.number().optional().meta({
        description: 'basis intervals, when anyone moved within the period: the total in factor-kWh the share is computed from',
      }),
      occupied_kwh: z.number().optional().meta({ description: "basis intervals: the kWh of the unit's occupied days" }),
      total_of: z.enum(['billed_units', 'all_units']),
    }),
  ),
});

const statementCharges = z.object({
  share_charge: money.meta({ description: 'The base charge the share gives' }),
  charge_limit: z.enum(['max_charge', 'min_charge']).nullable().meta({
    description:
      "A unit that turned over, asked without ?occupancy: the limit that moved its parts' base charges when all were moved the same way, else null (each part says its own)",
  }),
  base_charge: money,
  admin_fee_rate: z.number(),
  admin_fee: money,
  billing_fee: money,
  total_charge: money,
});

const formulaLines = z.array(z.string()).meta({ description: 'The calculation written out, line by line' });

/** One occupancy's part of the statement of a unit that turned over: as its resident's own statement (?occupancy=) has them. */
const statementPart = z.object({
  occupancy: z.number().int().meta({ description: "The occupancy's index (the ?occupancy= of its resident's own statement)" }),
  invoice_number: z.string().nullable(),
  unit: unitBillResponse.meta({ description: "The occupancy's unit bill: its resident, move dates, days and charges" }),
  share: statementShare,
  charges: statementCharges.meta({ description: "The part's subtotal" }),
  formula: formulaLines,
});

export const statementResponse = z
  .object({
    calculation_id: z.string(),
    invoice_number: z.string().nullable().meta({
      description:
        'Unique per property; null for a vacant line, for calculations made before invoice numbers, and for a unit that turned over asked without ?occupancy (each part has its own)',
    }),
    due_date: z.string().nullable().meta({ description: 'null for calculations made before due dates' }),
    property: propertyAddress,
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
    unit: unitBillResponse.meta({
      description:
        "The unit bill; for a unit that turned over asked without ?occupancy, the unit as a whole: its residents' names, the factor fields all parts share, every amount and the days the sum of the parts'",
    }),
    share: statementShare,
    charges: statementCharges.meta({
      description:
        "The unit's charges; for a unit that turned over asked without ?occupancy, the unit total: each amount the sum of the parts'",
    }),
    formula: formulaLines,
    calculated_at: z.string(),
    occupancies: z.array(statementPart).optional().meta({
      description: "Present only for a unit that turned over within the period, asked without ?occupancy: each occupancy's part, in order",
    }),
  })
  .meta({ example: ex.statementResponse });
