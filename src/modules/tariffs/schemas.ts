import { z } from 'zod';
import { pageQuery } from '../../platform/http/pagination';
import { queryBoolean } from '../../platform/http/validate';
import { stateCode, zipCode } from '../properties/schemas';
import { RATE_TYPES, SECTORS, TARIFF_SOURCES, type RateType, type Sector } from './tariff.model';
import { REFRESH_STATUSES } from './refresh/schemas';
import { PURPOSES, SERVICE_TYPES, VOLTAGES, type Purpose, type ServiceType, type Voltage } from './tariff-class';

export { zipCode };
export const sector = z.enum(SECTORS as [Sector, ...Sector[]]);
const rateType = z.enum(RATE_TYPES as [RateType, ...RateType[]]);
export const serviceType = z
  .enum(SERVICE_TYPES as [ServiceType, ...ServiceType[]])
  .describe('bundled (delivery and supply from the utility), delivery_only (supply bought elsewhere) or supply_only');
export const voltage = z.enum(VOLTAGES as [Voltage, ...Voltage[]]).describe('service voltage: secondary, primary or transmission');
export const purpose = z
  .enum(PURPOSES as [Purpose, ...Purpose[]])
  .describe('general (any customer of the sector and size), or the special purpose the rate serves (lighting, standby, a rider, ...)');
export const searchText = z.string().trim().min(1).max(200);

export const tariffSearchQuery = pageQuery.extend({
  zip_code: zipCode.optional().describe('5-digit ZIP: tariffs of the utilities the OpenEI ZIP tables list for it'),
  state: stateCode.optional().describe('two-letter state code'),
  utility_name: searchText.optional().describe('partial, case-insensitive match on the utility name'),
  sector: sector.optional(),
  rate_type: rateType.optional(),
  has_tou: queryBoolean.optional(),
  has_demand: queryBoolean.optional(),
  has_net_metering: queryBoolean.optional(),
  service_type: serviceType.optional(),
  voltage: voltage.optional(),
  purpose: purpose.optional(),
  include_expired: queryBoolean.prefault('false').describe('also list tariffs whose expiration date has passed'),
  include_custom: queryBoolean
    .prefault('false')
    .describe("also list your own tariffs (POST /tariffs/custom) that match, before the catalog's; needs authentication"),
});

export const tariffStatsQuery = z.object({
  include_expired: queryBoolean.prefault('false').describe('also count tariffs whose expiration date has passed'),
  by_utility: queryBoolean
    .prefault('false')
    .describe('also list, per utility, its newest effective date and its last refresh (data_currency.utilities)'),
});

export const byUtilityQuery = pageQuery.extend({ sector: sector.optional() });
export const tariffIdParams = z.object({ id: z.string().min(1) });
export const utilityIdParams = z.object({ utility_id: z.string().min(1) });

export const tariffSummary = z.object({
  id: z.string(),
  name: z.string(),
  utility_id: z.string(),
  utility_name: z.string(),
  state: z.string().nullable(),
  sector: z.string(),
  rate_type: z.string(),
  has_tou: z.boolean(),
  has_demand: z.boolean(),
  has_net_metering: z.boolean(),
  effective_date: z.string().nullable(),
  description: z.string(),
  service_type: serviceType,
  voltage: voltage.nullable(),
  purpose,
  source: z.enum(TARIFF_SOURCES).meta({
    description:
      'where the tariff came from: the bundled URDB catalog, a refresh from the URDB API (POST /admin/tariffs/refresh), or your own',
  }),
  source_updated_at: z.string().nullable().meta({
    description: 'when a refresh stored the record, or your own version was created; null for bundled records',
  }),
});

export const tariffDetail = tariffSummary.extend({
  expiration_date: z.string().nullable(),
  superseded_by: z
    .string()
    .nullable()
    .optional()
    .meta({
      description:
        'catalog tariffs: the id of the later revision of the same schedule that superseded this one, null when none did. ' +
        'A superseded tariff that published no expiration date expires the day before that revision took effect: search and stats ' +
        'leave it out unless include_expired=true, and GET /tariffs/{id} still answers it. Absent on your own tariffs.',
    }),
  eligibility: z.string(),
  applicability: z
    .object({
      demand_kw_min: z.number().nullable(),
      demand_kw_max: z.number().nullable(),
      usage_kwh_min: z.number().nullable(),
      usage_kwh_max: z.number().nullable(),
      voltage_category: z.string().nullable(),
      phase_wiring: z.string().nullable(),
    })
    .describe(
      'who may take the tariff, from the URDB record (null where not published): peak demand in kW, monthly usage in kWh, service voltage category and phase wiring. Rate analysis leaves out tariffs whose demand or usage limits exclude the property; /calculate prices any tariff and says in assumptions when the usage is outside them.',
    ),
  energy_rates: z.array(
    z.object({
      period: z.string(),
      months: z.array(z.number().int()),
      hours: z.string(),
      days: z.string(),
      rate_per_kwh: z.number().optional().meta({ description: 'electric tariffs: $ per kWh' }),
      tier: z.number().int(),
      tier_max_kwh: z
        .number()
        .nullable()
        .optional()
        .meta({ description: 'electric tariffs: cumulative kWh bound of the tier, null for the last' }),
      tier_max_unit: z
        .enum(['kWh', 'kWh daily', 'kWh/kW', 'kWh/kVA'])
        .nullable()
        .optional()
        .meta({
          description:
            'the tiers of a period with a bound that is not plain kWh of the month: the unit of tier_max_kwh as published ' +
            "(URDB's tier unit): kWh (of the month), 'kWh daily' (kWh a day, times the days of the month), 'kWh/kW' (\"hours use\": kWh " +
            "per kW of billing demand, times the bill's demand_kw) or 'kWh/kVA'; null for the last tier. Absent on other tiers: their bound is kWh",
        }),
      bound: z
        .string()
        .optional()
        .meta({
          description:
            "with tier_max_unit: the band of the month's kWh the tier covers, in words, e.g. 'up to 180 kWh per kW of billing " +
            "demand', 'above 180 and up to 360 kWh per kW of billing demand'. A bill states each band converted with its demand_kw " +
            "or days ('first 180 kWh per kW x 800 kW = 144000 kWh')",
        }),
      unit: z.string().optional().meta({ description: 'gas, water and sewer tariffs: the usage unit of rate_per_unit and tier_max' }),
      rate_per_unit: z.number().optional(),
      tier_max: z.number().nullable().optional(),
    }),
  ),
  demand_rates: z.array(
    z.object({
      period: z.string(),
      months: z.array(z.number().int()),
      type: z.string(),
      hours: z.string().optional().meta({ description: 'tou and coincident demand: when the period applies' }),
      days: z.string().optional(),
      rate_per_kw: z.number(),
      tier: z.number().int(),
      tier_max_kw: z.number().nullable(),
    }),
  ),
  fixed_charges: z.array(z.object({ name: z.string(), amount: z.number(), frequency: z.string() })),
  riders: z.array(
    z.object({
      name: z.string(),
      rate_per_kwh: z.number().optional(),
      unit: z.string().optional(),
      rate_per_unit: z.number().optional(),
      months: z.array(z.number().int()).meta({ description: 'the months whose bills carry it' }),
      description: z.string(),
    }),
  ),
  minimum_charge: z
    .object({ amount: z.number(), frequency: z.string() })
    .nullable()
    .meta({ description: 'a bill below it is topped up to it (a fixed line item); null when the tariff has none' }),
  utility_type: z.string().meta({ description: 'electric for every catalog tariff; custom tariffs may price gas, water or sewer' }),
  unit: z.string().meta({ description: 'the usage unit the rates are per (kWh for catalog tariffs)' }),
  source_url: z.string(),
  last_updated: z.string(),
});

export const byUtilityItem = z.object({
  id: z.string(),
  name: z.string(),
  sector: z.string(),
  rate_type: z.string(),
  has_demand: z.boolean(),
  effective_date: z.string().nullable(),
});

const counts = (keys: readonly string[]) => z.object(Object.fromEntries(keys.map((k) => [k, z.number().int()])));
export const tariffStats = z.object({
  total_tariffs: z.number().int(),
  total_utilities: z.number().int(),
  states_covered: z.number().int(),
  sectors: counts(SECTORS),
  rate_types: counts(RATE_TYPES),
  last_updated: z.string(),
  data_currency: z
    .object({
      imported_at: z.string().nullable().describe('when the bundled catalog was imported'),
      newest_effective_date: z
        .string()
        .nullable()
        .describe('the latest effective date of any catalog tariff that has taken effect by today'),
      last_refresh: z
        .object({
          run_id: z.string(),
          status: z.enum(REFRESH_STATUSES),
          finished_at: z.string(),
        })
        .nullable()
        .describe('the last refresh from the URDB API that finished (POST /admin/tariffs/refresh); null when none ever ran'),
      utilities: z
        .array(
          z.object({
            utility_id: z.string(),
            newest_effective_date: z.string().nullable(),
            refreshed_at: z.string().nullable().describe('when a refresh last stored one of its tariffs; null: bundled data only'),
          }),
        )
        .optional()
        .describe('with by_utility=true: every utility with catalog tariffs, by id'),
    })
    .describe('how current the catalog is'),
});
