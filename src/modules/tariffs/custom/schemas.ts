import { z } from 'zod';
import { isoDate } from '../../../platform/http/validate';
import { stateCode } from '../../properties/schemas';
import { UTILITY_TYPES, VERSION_SOURCES, type UtilityType } from '../tariff.model';
import { sector, serviceType, tariffDetail, tariffSummary } from '../schemas';
import * as ex from './examples';

/** Most custom tariffs an account keeps (retired ones do not count), and versions one tariff has. */
export const MAX_CUSTOM_TARIFFS = 500;
export const MAX_VERSIONS = 50;

const frequency = z.enum(['monthly', 'daily', 'yearly']);
const months = z.array(z.number().int().min(1).max(12)).min(1).max(12).meta({ description: 'months 1-12 the row applies in' });
/** $ per unit: credits may be negative; above $10,000 a unit is a typing error. */
const unitRate = z.number().min(-10_000).max(10_000);
const bound = z.number().positive().max(1_000_000_000);
const amount = z.number().min(-1_000_000).max(1_000_000);
const text = (max: number) => z.string().trim().min(1).max(max);
const days = z.enum(['all', 'weekdays', 'weekends']);
export const utilityType = z.enum(UTILITY_TYPES as [UtilityType, ...UtilityType[]]);

export const energyRateInput = z.object({
  period: text(100).meta({ description: 'the period name; rows of one period are its tiers, in order' }),
  months,
  hours: z
    .string()
    .max(200)
    .nullish()
    .meta({ description: 'e.g. "00:00-06:00, 22:00-24:00" (default 00:00-24:00); gas, water and sewer tariffs price whole days' }),
  days: days.nullish().meta({ description: 'all (default), weekdays or weekends' }),
  tier: z.number().int().min(1).max(50).nullish(),
  rate_per_unit: unitRate.nullish().meta({ description: "$ per unit of the tariff's usage unit" }),
  rate_per_kwh: unitRate.nullish().meta({ description: 'electric tariffs: the same as rate_per_unit' }),
  tier_max: bound
    .nullish()
    .meta({ description: "cumulative upper bound of the tier in the month's usage, in the tariff's unit; null for the last tier" }),
  tier_max_kwh: bound.nullish().meta({ description: 'electric tariffs: the same as tier_max' }),
});

export const demandRateInput = z.object({
  period: text(100),
  months,
  type: z.enum(['facility', 'tou', 'coincident']),
  hours: z.string().max(200).nullish(),
  days: days.nullish(),
  tier: z.number().int().min(1).max(50).nullish(),
  rate_per_kw: unitRate,
  tier_max_kw: bound.nullish(),
});

/** The rates of a version, in the shape GET /tariffs/{id} shows them. */
const ratesFields = {
  energy_rates: z.array(energyRateInput).max(500).nullish(),
  demand_rates: z.array(demandRateInput).max(500).nullish().meta({ description: 'electric tariffs only' }),
  fixed_charges: z
    .array(z.object({ name: text(200), amount, frequency }))
    .max(50)
    .nullish(),
  riders: z
    .array(
      z.object({
        name: text(200),
        rate_per_unit: unitRate.nullish(),
        rate_per_kwh: unitRate.nullish(),
        months: months.nullish().meta({ description: 'default: every month' }),
      }),
    )
    .max(50)
    .nullish()
    .meta({ description: 'charges per unit of usage beside the usage rates (a gas cost adjustment, a drought surcharge)' }),
  minimum_charge: z
    .object({ amount: z.number().min(0).max(1_000_000), frequency })
    .nullish()
    .meta({ description: 'a bill below it is topped up to it' }),
};

const urdbRecord = z.record(z.string(), z.unknown()).meta({
  description:
    'a URDB rate record as the URDB API returns it (detail=full): priced exactly as the catalog prices its records. ' +
    "Its tiers must be in order (each max above the previous tier's in the same unit) and its schedules name periods with rates: " +
    'else a 422 at the JSON path (urdb.energyratestructure[0][1].max, urdb.energyweekdayschedule[0][12])',
});

export const createCustomTariffBody = z
  .object({
    urdb: urdbRecord.optional(),
    name: text(200).nullish().meta({ description: "required with rates; with urdb, default: the record's name" }),
    utility_id: z
      .string()
      .regex(/^\d{1,10}$/, { error: 'utility_id must be an EIA utility id (digits)' })
      .nullish()
      .meta({ description: "EIA id of the electric utility (GET /utilities); with urdb, the record's eiaid" }),
    utility_name: text(200).nullish().meta({ description: 'required with rates unless utility_id names a known utility' }),
    state: stateCode.nullish(),
    sector: sector.nullish().meta({ description: 'required with rates' }),
    utility_type: utilityType.nullish().meta({ description: 'electric (default), gas, water or sewer; a URDB record is electric' }),
    unit: z.string().max(20).nullish().meta({
      description:
        "the usage unit the rates are per: kWh (electric); therms, ccf, mcf, cf, kBtu or MMBtu (gas); kgal, gallons, ccf, cf or m3 (water, sewer); default the type's first",
    }),
    service_type: serviceType
      .nullish()
      .meta({ description: 'default bundled (with urdb: the catalog classification); supply_only for a supply contract' }),
    effective_date: isoDate
      .nullish()
      .meta({ description: "the first version's effective date; default: the URDB record's startdate, else today" }),
    description: z.string().max(2000).nullish(),
    source_url: z.string().max(2000).nullish(),
    ...ratesFields,
  })
  .meta({
    // The rule of the fields' descriptions, in the schema: a URDB record, or rates with a name, a sector and a utility.
    anyOf: [
      { required: ['urdb'] },
      { required: ['name', 'sector'], anyOf: [{ required: ['utility_id'] }, { required: ['utility_name'] }] },
    ],
    example: ex.createWaterTariff,
    examples: [ex.createWaterTariff, ex.createFromUrdb],
  });
export type CreateCustomTariffBody = z.output<typeof createCustomTariffBody>;

export const createVersionBody = z
  .object({
    effective_date: isoDate,
    urdb: urdbRecord.optional(),
    ...ratesFields,
  })
  .meta({ example: ex.createVersion });
export type CreateVersionBody = z.output<typeof createVersionBody>;

export const updateCustomTariffBody = z
  .object({
    name: text(200).optional(),
    description: z.string().max(2000).optional(),
    source_url: z.string().max(2000).optional(),
  })
  .meta({ example: { name: 'Harlingen Waterworks inside-city water (5/8" meter)' } });
export type UpdateCustomTariffBody = z.output<typeof updateCustomTariffBody>;

const usageFields = {
  utility_id: z.string().nullable(),
  utility_type: utilityType,
  unit: z.string(),
  custom: z.boolean().meta({ description: 'true for a tariff of your own (POST /tariffs/custom)' }),
};

export const customTariffSummary = tariffSummary
  .extend({
    ...usageFields,
    versions: z.number().int().meta({ description: 'how many versions (effective dates) the tariff has' }),
    created_at: z.string(),
  })
  .meta({ example: ex.customTariffList.items[0] });

const versionItem = z.object({
  effective_date: z.string(),
  expiration_date: z.string().nullable().meta({ description: "the day before the next version's effective date; null for the latest" }),
  source: z.enum(VERSION_SOURCES),
  assumptions: z
    .array(z.string())
    .meta({ description: 'what bills on this version assume (URDB features the engine does not price, rules applied to the record)' }),
  energy_rates: tariffDetail.shape.energy_rates,
  demand_rates: tariffDetail.shape.demand_rates,
  fixed_charges: tariffDetail.shape.fixed_charges,
  riders: tariffDetail.shape.riders,
  minimum_charge: tariffDetail.shape.minimum_charge,
  created_at: z.string(),
});

export const customTariffDetail = tariffDetail
  .extend({
    ...usageFields,
    created_at: z.string(),
    versions: z.array(versionItem).meta({
      description:
        'every version, oldest first; the fields above are those of the version in force today (the first, before it takes effect)',
    }),
  })
  .meta({ example: ex.waterTariffDetail });
