import { z } from 'zod';
import { factorUsed } from './schemas';
import { tons } from './tons.schema';
import * as ex from './what-if.examples';

const PLACES = { 2: 'two', 3: 'three', 4: 'four' } as const;

/** `range` with at most `places` decimals (a typed figure, not a float's noise). */
const figure = (range: z.ZodNumber, places: keyof typeof PLACES) =>
  range.refine((v) => Math.abs(v * 10 ** places - Math.round(v * 10 ** places)) < 1e-6, { error: `at most ${PLACES[places]} decimals` });

const cutChange = z
  .object({
    kind: z.literal('cut'),
    utility_type: z
      .enum(['electric', 'gas'])
      .meta({ description: 'every meter of this type on the property, and load electrified onto electric meters before this change' }),
    percent: figure(z.number().gt(0).max(100), 2).meta({
      description: 'the cut, percent of usage (0 < percent <= 100, two decimals at most)',
    }),
  })
  .strict();

const electrifyChange = z
  .object({
    kind: z.literal('electrify'),
    meter_id: z.string().min(1).max(200).meta({
      description: 'a gas or fuel oil (fuel_oil_2, fuel_oil_4, fuel_oil_5_6) meter of the property: its therms or kBtu become kWh',
    }),
    to_meter_id: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "the electric meter that takes the load; default the property's only electric meter" }),
    gas_efficiency: figure(z.number().gt(0).max(1), 4).meta({
      description: "the gas or oil equipment's efficiency, useful heat over fuel (0.80 for an 80 % boiler)",
    }),
    electric_efficiency: figure(z.number().min(0.5).max(10), 4).meta({
      description: "the electric equipment's, useful heat over electricity: 1.0 resistance, a heat pump's seasonal COP (e.g. 3.0)",
    }),
    added_demand_kw: figure(z.number().min(0).max(100_000), 3)
      .optional()
      .meta({
        description:
          "kW the electric equipment adds to the billed demand of each electric bill that carries its load (e.g. a heat pump's " +
          'rated input at design conditions); default 0: demand kept as billed',
      }),
  })
  .strict();

export const whatIfBody = z
  .object({
    year: z.number().int().min(2000).max(2100).optional().meta({
      description: "calendar year; default: the year of the property's latest bill period end (this year without bills)",
    }),
    limit_tco2e: z.number().min(0).max(1e9).optional().meta({
      description: "the building's LL97 limit as its report states it (as on GET .../building-performance)",
    }),
    changes: z
      .array(z.discriminatedUnion('kind', [cutChange, electrifyChange]))
      .min(1)
      .max(20)
      .refine(
        (list) =>
          new Set(list.flatMap((c) => (c.kind === 'cut' ? [c.utility_type] : []))).size === list.filter((c) => c.kind === 'cut').length,
        {
          error: 'each utility_type is cut at most once',
        },
      )
      .refine(
        (list) =>
          new Set(list.flatMap((c) => (c.kind === 'electrify' ? [c.meter_id] : []))).size ===
          list.filter((c) => c.kind === 'electrify').length,
        { error: 'each meter is electrified at most once' },
      )
      .meta({ description: 'applied in this order, each to the usage the previous ones left' }),
  })
  .strict()
  .meta({ example: ex.whatIfBody });
export type WhatIfBody = z.output<typeof whatIfBody>;

const usd = z.number().meta({ description: 'USD, to the cent' });

const periodExposure = z.object({
  standard: z.string(),
  period: z.string().meta({ description: 'compliance period, as GET .../building-performance names it' }),
  status: z.string().meta({ description: 'as GET .../building-performance gives it (computed, no_occupancy, not_confirmed, ...)' }),
  emissions_tco2e: tons.nullable().meta({ description: "the year's emissions by the standard's own coefficients" }),
  limit_tco2e: z.number().nullable(),
  excess_tco2e: tons.nullable(),
  projected_penalty: usd.nullable(),
});

const side = z.object({
  energy: z.array(z.object({ utility_type: z.string(), usage: z.number(), unit: z.string() })).meta({
    description: "the year's usage per utility type, calendarised",
  }),
  total_tco2e: tons.meta({ description: 'location-based, as GET .../emissions counts it' }),
  emissions: z.array(z.object({ utility_type: z.string(), tco2e: tons })),
  building_performance: z.object({
    jurisdiction: z.string().nullable(),
    applies: z.boolean(),
    periods: z.array(periodExposure),
  }),
  energy_cost: usd.meta({ description: "the electric, gas and fuel oil meters' bills of the year, calendarised (meters[].cost_basis)" }),
});

export const whatIfResponse = z
  .object({
    property_id: z.string(),
    year: z.number().int(),
    changes: z.array(
      z.object({
        kind: z.enum(['cut', 'electrify']),
        description: z.string(),
        meter_id: z.string().nullable(),
        to_meter_id: z.string().nullable(),
        kwh_per_therm: z
          .number()
          .nullable()
          .meta({ description: 'electrify: 100 / 3.412 x gas_efficiency / electric_efficiency, 6 decimals' }),
        added_demand_kw: z
          .number()
          .nullable()
          .meta({ description: 'electrify: kW added to the demand of each electric bill carrying the load (0: demand as billed)' }),
      }),
    ),
    before: side,
    after: side,
    delta: z.object({
      total_tco2e: tons,
      energy_cost: usd,
      projected_penalty: z.array(
        z.object({
          standard: z.string(),
          period: z.string(),
          projected_penalty: usd.nullable().meta({ description: 'after - before; null when either is' }),
        }),
      ),
    }),
    meters: z.array(
      z.object({
        meter_id: z.string(),
        name: z.string(),
        utility_type: z.string(),
        unit: z.string(),
        tariff_id: z.string().nullable(),
        cost_basis: z.enum(['tariff', 'scaled_from_billed', 'mixed', 'none']).meta({
          description:
            "tariff: every bill re-priced on the meter's tariff; scaled_from_billed: billed amount x usage after / before (no tariff, " +
            'or pricing refused, see reasons); mixed: some of each; none: no bill in the year',
        }),
        reasons: z.array(z.string()),
        usage_before: z.number(),
        usage_after: z.number(),
        billed: usd.meta({ description: "the bills' amounts, the year's share" }),
        cost_before: usd,
        cost_after: usd,
      }),
    ),
    unpriced_kwh: z
      .number()
      .meta({ description: 'electrified kWh of the year on days no bill of the electric meter covers: counted, not priced' }),
    factors: z.array(factorUsed),
    notes: z.array(z.string()),
  })
  .meta({ example: ex.whatIfAnswer });
export type WhatIfAnswer = z.output<typeof whatIfResponse>;
