import { z } from 'zod';
import { isoDate } from '../../platform/http/validate';
import { calculateWater } from '../tariffs/custom/examples';
import { MAX_DEMAND_KW, MAX_SUPPLY_RATE_PER_KWH, MAX_TAX_RATE_PERCENT, MAX_USAGE_KWH } from './engine/limits';
import { MAX_INTERVALS } from './engine/intervals';
import { isTimeZone, parseOffsetDateTime } from './engine/local-time';

const MONTH_RANGE = 'month must be between 1 and 12';

const kwh = z.number().min(0).max(MAX_USAGE_KWH);
const optionalKwh = kwh.nullable().optional();

const month = z.number().int().min(1, { error: MONTH_RANGE }).max(12, { error: MONTH_RANGE });

export const usageProfileSchema = z
  .object({
    on_peak_kwh: optionalKwh,
    mid_peak_kwh: optionalKwh,
    off_peak_kwh: optionalKwh,
  })
  .meta({ description: 'kWh of the month per time-of-use bucket; must add up to usage_kwh within 0.01 kWh' });

const tariffId = z.string().trim().min(1).max(64);

const INTERVALS_EXAMPLE = { start: '2018-07-01T00:00:00-06:00', interval_minutes: 15, kwh: [1.25, 1.31, 1.28], timezone: 'America/Denver' };

export const intervalsSchema = z
  .object({
    start: z
      .string()
      .max(40)
      .refine((s) => parseOffsetDateTime(s) !== null, {
        error: 'start must be an ISO 8601 date and time with its UTC offset, such as 2018-07-01T00:00:00-07:00',
      })
      .meta({ description: "the first interval's start, with its UTC offset (2018-07-01T00:00:00-06:00, or ...Z)" }),
    interval_minutes: z
      .union([z.literal(15), z.literal(30), z.literal(60)], { error: 'interval_minutes must be 15, 30 or 60' })
      .meta({ description: 'length of every interval: 15, 30 or 60 minutes' }),
    kwh: z
      .array(kwh)
      .min(1)
      .max(MAX_INTERVALS)
      .meta({ description: `kWh of each interval in order, from start, without gaps (1 to ${MAX_INTERVALS}: 93 days of 15-minute data)` }),
    timezone: z
      .string()
      .min(1)
      .max(64)
      .refine(isTimeZone, { error: 'timezone must be an IANA time zone such as America/Denver' })
      .nullable()
      .optional()
      .meta({
        description:
          "IANA time zone whose clock time (daylight saving included) places each interval in the tariff's periods; without it the offset of start holds for every interval",
      }),
  })
  .meta({
    description:
      "A meter's interval data (Green Button): each interval is priced in the tariff's period by the local clock time of its start (month, weekday or weekend and holiday, hour), and demand is the largest average kW over the tariff's demand window (pricing README \"Interval data\"). usage_kwh and demand_kw may be left out; when sent they must agree with the intervals.",
    example: INTERVALS_EXAMPLE,
  });

/**
 * The water tariff's bill of 12 kgal, line by line: the bill audit's example expects the same lines
 * over a whole June (each name then says the days it covers).
 */
export const WATER_BILL_LINE_ITEMS = [
  { category: 'energy', name: 'Usage all_year tier 1: 3 kgal x $1.3/kgal', amount: 3.9 },
  { category: 'energy', name: 'Usage all_year tier 2: 7 kgal x $1.8/kgal', amount: 12.6 },
  { category: 'energy', name: 'Usage all_year tier 3: 2 kgal x $2.55/kgal', amount: 5.1 },
  { category: 'fixed', name: 'Water flat fee (5/8" meter): $9.91/month', amount: 9.91 },
];

/** San Francisco's C-1 small commercial tariff (polyphase), a July of 12,000 kWh and 40 kW (the README's first bill). */
/** The water tariff's July of 12,000 gallons (pricing README "Units"). */
const WATER_BILL = {
  tariff_id: calculateWater.tariff_id,
  tariff_name: 'Residential water, inside city (5/8" meter)',
  month: 7,
  season: 'all_year',
  total_cost: 31.51,
  line_items: WATER_BILL_LINE_ITEMS,
  summary: {
    energy_charge: 21.6,
    demand_charge: 0,
    fixed_charge: 9.91,
    riders: 0,
    taxes_estimate: 0,
    effective_rate_per_kwh: null,
    effective_rate_per_unit: 2.6258,
  },
  utility_type: 'water',
  usage: 12,
  unit: 'kgal',
  assumptions: ['usage 12000 gallons converted to 12 kgal (1 gallons = 0.001 kgal), to 0.001 kgal'],
};

const ELECTRIC_EXAMPLE = { tariff_id: '5a382b5d5457a31d47d2dd7f', usage_kwh: 12000, demand_kw: 40, month: 7 };

const usageFields = {
  usage_kwh: kwh.optional().meta({
    description: 'Energy consumed in the month, kWh (metered to 0.001 kWh): required for electric tariffs unless intervals are sent',
  }),
  intervals: intervalsSchema.nullable().optional(),
  usage: z.number().min(0).max(MAX_USAGE_KWH).nullable().optional().meta({
    description: 'Gas, water and sewer tariffs: the month\'s usage in `unit` (converted to the tariff\'s unit, pricing README "Units")',
  }),
  unit: z
    .string()
    .min(1)
    .max(20)
    .nullable()
    .optional()
    .meta({ description: 'the unit of usage: therms, ccf, mcf, cf, kBtu, MMBtu (gas); kgal, gallons, ccf, cf, m3 (water, sewer)' }),
  heat_content: z
    .number()
    .positive()
    .max(10)
    .nullable()
    .optional()
    .meta({ description: 'therms per ccf, as the gas bill states it: needed to convert gas volume to therms (or back)' }),
  date: isoDate.nullable().optional().meta({
    description:
      "the day whose rates apply: a custom tariff's version in force then, and the data-age notices as of then (default today, UTC); month defaults to its month",
  }),
  supply_tariff_id: tariffId.nullable().optional().meta({
    description:
      'your supply-only custom tariff (a supply contract): on a delivery-only tariff its bill is added line by line, superseding supply_rate_per_kwh',
  }),
  demand_kw: z.number().min(0).max(MAX_DEMAND_KW).nullable().optional().meta({
    description: "Maximum demand of the month in the tariff's demand unit; required for demand tariffs unless intervals are sent",
  }),
  month: month.nullable().optional().meta({ description: "1-12; default: the intervals' month, else the current month (UTC)" }),
  solar_generation_kwh: optionalKwh.meta({ description: 'Solar generation of the month, kWh' }),
  usage_profile: usageProfileSchema.nullable().optional(),
  supply_rate_per_kwh: z.number().min(0).max(MAX_SUPPLY_RATE_PER_KWH).nullable().optional().meta({
    description:
      "The customer's retail supply price, $/kWh (0 to 5): on a delivery-only tariff it is priced as an energy line 'Supply <kWh> kWh x $<rate>'; bundled tariffs already include supply",
  }),
};

export const calculateBody = z
  .object({
    tariff_id: tariffId,
    ...usageFields,
    period_start: isoDate.nullable().optional().meta({
      description:
        "A billing period instead of a month: its first day (with period_end, at most 92 days). The bill is prorated by days over the period's months and the tariff's versions, and bills monthly charges and usage blocks for the period's length: 1, 2 or 3 months within 5 days of 30, 61 or 91 days, else days / 30.4375 (pricing README \"Billing periods\")",
    }),
    period_end: isoDate.nullable().optional().meta({ description: "the billing period's last day (included)" }),
    tax_rate_percent: z
      .number()
      .min(0)
      .max(MAX_TAX_RATE_PERCENT)
      .nullable()
      .optional()
      .meta({ description: 'Optional tax rate for taxes_estimate (reported beside total_cost, not added to it)' }),
  })
  .meta({
    // A billing period is both its ends: one without the other is a 422.
    dependentRequired: { period_start: ['period_end'], period_end: ['period_start'] },
    example: ELECTRIC_EXAMPLE,
    examples: [
      ELECTRIC_EXAMPLE,
      calculateWater,
      { tariff_id: calculateWater.tariff_id, usage: 5, unit: 'kgal', period_start: '2025-09-16', period_end: '2025-10-15' },
    ],
  });
export type CalculateBody = z.output<typeof calculateBody>;

export const compareBody = z.object({
  tariff_ids: z
    .array(tariffId)
    .min(2, { error: 'tariff_ids must contain at least 2 items' })
    .max(10, { error: 'tariff_ids must contain at most 10 items' })
    .refine((ids) => new Set(ids).size === ids.length, { error: 'tariff_ids must not contain duplicates' })
    .meta({ uniqueItems: true }),
  ...usageFields,
});
export type CompareBody = z.output<typeof compareBody>;

const lineItem = z.object({
  category: z.enum(['energy', 'demand', 'fixed', 'rider']),
  name: z.string(),
  amount: z.number(),
});

export const billResponse = z
  .object({
    tariff_id: z.string(),
    tariff_name: z.string(),
    month: z.number().int(),
    season: z.string(),
    total_cost: z.number(),
    line_items: z.array(lineItem),
    summary: z.object({
      energy_charge: z.number(),
      demand_charge: z.number(),
      fixed_charge: z.number(),
      riders: z.number(),
      taxes_estimate: z.number(),
      effective_rate_per_kwh: z
        .number()
        .nullable()
        .meta({ description: 'total_cost / usage_kwh, 4 decimals (0 at 0 kWh); null on gas, water and sewer tariffs' }),
      effective_rate_per_unit: z.number().meta({ description: "total_cost per unit of the tariff's usage unit, 4 decimals" }),
    }),
    utility_type: z.string(),
    usage: z.number().meta({ description: "the usage priced, in the tariff's unit (after any conversion)" }),
    unit: z.string(),
    assumptions: z.array(z.string()),
  })
  .meta({ example: WATER_BILL });
export type BillResponse = z.output<typeof billResponse>;

export const compareResponse = z.object({
  usage_kwh: z.number().nullable().meta({ description: 'null when gas, water or sewer tariffs are compared (see usage and unit)' }),
  utility_type: z.string(),
  usage: z.number(),
  unit: z.string(),
  demand_kw: z.number().nullable(),
  month: z.number().int(),
  results: z.array(
    z.object({
      tariff_id: z.string(),
      tariff_name: z.string(),
      total_cost: z.number(),
      effective_rate_per_kwh: z.number().nullable(),
      effective_rate_per_unit: z.number(),
      rank: z.number().int(),
      assumptions: z
        .array(z.string())
        .describe("what this tariff's bill had to assume, as in POST /calculate (load shape, data age, supply)"),
    }),
  ),
  cheapest: z.string(),
  potential_savings: z.object({
    vs_most_expensive: z.number(),
    vs_most_expensive_percent: z.number(),
  }),
});
export type CompareResponse = z.output<typeof compareResponse>;
