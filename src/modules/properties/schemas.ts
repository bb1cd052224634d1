import { z } from 'zod';
import { pageQuery } from '../../platform/http/pagination';
import { utilityAnnualCost } from '../meters/schemas';
import { MAX_DEMAND_KW, MAX_SUPPLY_RATE_PER_KWH, MAX_USAGE_KWH } from '../pricing/engine/limits';
import { PROPERTY_TYPES, US_STATE_CODES, type UsStateCode } from './states';
import { isTimeZone } from './timezone';

const INT_MAX = 2_147_483_647;
/** Upper bound of the numeric(14, x) columns: larger values would overflow the database. */
const NUMBER_MAX = 99_999_999_999;

const text = (max: number) => z.string().trim().min(1).max(max);
/** A state code in any case, spaces around allowed: the same rule as a pattern, so the OpenAPI document states it. */
const STATE_CODE_PATTERN = new RegExp(
  `^\\s*(?:${US_STATE_CODES.map((code) => [...code].map((c) => `[${c}${c.toLowerCase()}]`).join('')).join('|')})\\s*$`,
);
export const stateCode = z
  .string()
  .regex(STATE_CODE_PATTERN, { error: 'Invalid state code' })
  .transform((v) => v.trim().toUpperCase() as UsStateCode);
export const zipCode = z.string().regex(/^\d{5}$/, { error: 'Invalid ZIP code format' });
/** zod reports a missing enum as invalid_value; clients expect `field required` for it, as for any missing field. */
const requiredEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: (iss) => (iss.input === undefined ? 'field required' : undefined) });
const count = z.number().int().min(0).max(INT_MAX);
const amount = z.number().min(0).max(NUMBER_MAX);

/** Required fields on create; in PATCH optional but never null. */
const requiredFields = {
  name: text(200),
  address: text(500),
  city: text(200),
  state: stateCode,
  zip_code: zipCode,
  property_type: requiredEnum(PROPERTY_TYPES),
};

/** Optional fields: absent or null means unset (in PATCH, null clears the field). */
const optionalFields = {
  sqft: count.nullable().optional(),
  unit_count: count.nullable().optional(),
  year_built: z.number().int().min(0).max(9999).nullable().optional(),
  portfolio_id: z.string().min(1).max(200).nullable().optional(),
  utility_account_number: z.string().max(200).nullable().optional(),
  meter_number: z.string().max(200).nullable().optional(),
  tariff_id: z.string().min(1).max(200).nullable().optional().meta({
    description:
      "A catalog tariff or your own, electric, of the property's state (one of another state is a 422; an own tariff without a state is accepted)",
  }),
  monthly_usage_kwh: z.number().min(0).max(MAX_USAGE_KWH).nullable().optional(),
  monthly_demand_kw: z.number().min(0).max(MAX_DEMAND_KW).nullable().optional(),
  supply_rate_per_kwh: z.number().min(0).max(MAX_SUPPLY_RATE_PER_KWH).nullable().optional().meta({
    description:
      "The customer's retail supply price, $/kWh (0 to 5): on a delivery-only tariff the estimate and rate analysis add it as a supply line",
  }),
  supply_tariff_id: z.string().min(1).max(200).nullable().optional().meta({
    description:
      "Your supply contract: a supply-only custom tariff (POST /tariffs/custom) of the property's state, priced beside a delivery-only tariff_id, line by line; it supersedes supply_rate_per_kwh",
  }),
  solar_capacity_kw: amount.nullable().optional(),
  timezone: z
    .string()
    .max(64)
    .refine(isTimeZone, { error: 'not an IANA time zone (e.g. America/Denver)' })
    .nullable()
    .optional()
    .meta({
      description:
        "The property's IANA time zone (America/Denver): interval readings are read by its local clock. Absent or null: " +
        'the zone of zip_code (properties README "Time zone").',
    }),
  annual_revenue: amount.nullable().optional(),
  noi: amount.nullable().optional(),
};

export const createPropertyBody = z.object({
  ...requiredFields,
  ...optionalFields,
  has_solar: z.boolean().optional(),
});

export const updatePropertyBody = z.object({
  name: requiredFields.name.optional(),
  address: requiredFields.address.optional(),
  city: requiredFields.city.optional(),
  state: requiredFields.state.optional(),
  zip_code: requiredFields.zip_code.optional(),
  property_type: requiredFields.property_type.optional(),
  ...optionalFields,
  has_solar: z.boolean().optional(),
});

export type CreatePropertyInput = z.output<typeof createPropertyBody>;
export type UpdatePropertyInput = z.output<typeof updatePropertyBody>;

export const propertyListQuery = pageQuery.extend({
  portfolio_id: z.string().min(1).max(200).optional(),
  state: stateCode.optional(),
  city: z.string().trim().min(1).max(200).optional(),
  property_type: z.enum(PROPERTY_TYPES).optional(),
});
export type PropertyListQuery = z.output<typeof propertyListQuery>;

export const propertyIdParams = z.object({ id: z.string().min(1).max(200) });

/** A property's id, name and street address: how another answer names the property it is about. */
export const propertyAddress = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  zip_code: z.string(),
});

export const propertyResponse = propertyAddress.extend({
  property_type: z.enum(PROPERTY_TYPES),
  sqft: z.number().int().nullable(),
  unit_count: z.number().int().nullable(),
  year_built: z.number().int().nullable(),
  portfolio_id: z.string().nullable(),
  utility_account_number: z.string().nullable(),
  meter_number: z.string().nullable(),
  tariff_id: z.string().nullable(),
  monthly_usage_kwh: z.number().nullable(),
  monthly_demand_kw: z.number().nullable(),
  supply_rate_per_kwh: z.number().nullable(),
  supply_tariff_id: z.string().nullable(),
  timezone: z.string().meta({ description: 'IANA time zone: the one set, else the one of zip_code (properties README "Time zone").' }),
  timezone_source: z
    .enum(['set', 'zip_code'])
    .meta({ description: 'set: given by the owner; zip_code: derived from the ZIP code (and follows it).' }),
  has_solar: z.boolean(),
  solar_capacity_kw: z.number().nullable(),
  annual_revenue: z.number().nullable(),
  noi: z.number().nullable(),
  energy_pct_of_noi: z
    .number()
    .nullable()
    .meta({
      description:
        "The property's annual cost (the analytics' one annual cost: a year of bills per utility type, else the " +
        'electric estimate) as a percent of noi, 2 decimals; null unless noi (> 0) and an annual cost are known.',
    }),
  owner_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const availableTariff = z.object({
  id: z.string(),
  name: z.string(),
  utility_name: z.string(),
  rate_type: z.string(),
  sector: z.string(),
});

export const propertyDetail = propertyResponse.extend({
  annual_cost: z.number().nullable().meta({ description: 'The one annual cost (analytics README), all utility types; null without one.' }),
  annual_cost_basis: z.enum(['actual', 'estimate']).nullable().meta({ description: 'actual when every utility figure is, else estimate.' }),
  cost_by_utility: z.array(utilityAnnualCost.extend({ basis: z.enum(['actual', 'estimate']) })),
  available_tariffs: z.array(availableTariff),
});

/** The list item of GET /pm/properties: a subset of the full property. */
export const propertyListItem = propertyResponse.pick({
  id: true,
  name: true,
  address: true,
  city: true,
  state: true,
  zip_code: true,
  property_type: true,
  sqft: true,
  unit_count: true,
  monthly_usage_kwh: true,
  portfolio_id: true,
});
