import { z } from 'zod';
import { METER_UTILITY_TYPES } from '../meters/units';
import * as ex from './examples';
import { OCCUPANCY_GROUPS } from './occupancy';
import { PROPERTY_TYPES } from './property-types';
import { berdoAnswer } from './berdo.schemas';
import { tons } from './tons.schema';

export const emissionsQuery = z.object({
  year: z.coerce
    .number()
    .int()
    .min(2000)
    .max(2100)
    .optional()
    .meta({ description: "calendar year; default: the year of the property's latest bill period end (this year without bills)" }),
});
export type EmissionsQuery = z.output<typeof emissionsQuery>;

const yearMonth = z.string().meta({ description: 'YYYY-MM' });

export const factorUsed = z.object({
  utility_type: z.enum(['electric', 'gas', 'steam', 'fuel_oil_2', 'fuel_oil_4']),
  value: z.number().meta({ description: 'the factor as its source gives it, in `unit`' }),
  unit: z.string(),
  tco2e_per_unit: z.number().meta({ description: 'the same factor in metric tons CO2e per `per_unit`' }),
  per_unit: z.string(),
  source: z.string().meta({ description: 'publication, table and row of the factor' }),
  year: z.number().int().meta({ description: 'the year of the source (eGRID data year, Hub edition year)' }),
  subregion: z.string().nullable().meta({ description: 'eGRID subregion (electricity)' }),
  note: z.string().nullable().meta({ description: 'e.g. that the ZIP code lies in several subregions and which one is used' }),
});

export const emissionsResponse = z
  .object({
    property_id: z.string(),
    year: z.number().int(),
    method: z.literal('location-based'),
    unit: z.literal('metric tons CO2e'),
    total_tco2e: tons,
    sqft: z.number().int().nullable(),
    kg_co2e_per_sqft: z.number().nullable().meta({ description: 'total_tco2e x 1000 / sqft, 3 decimals; null without sqft' }),
    months: z.array(z.object({ month: yearMonth, tco2e: tons })).meta({ description: 'every month of the year, counted meters only' }),
    meters: z
      .array(
        z.object({
          meter_id: z.string(),
          name: z.string(),
          utility_type: z.enum(METER_UTILITY_TYPES),
          counted: z.boolean().meta({ description: 'false when no confirmed factor applies (then `reason`)' }),
          reason: z.string().nullable(),
          usage: z.number().meta({ description: 'in usage_unit, the months of the year only' }),
          usage_unit: z.string(),
          tco2e: tons.nullable(),
          bills_without_usage: z.number().int(),
          months_from_intervals: z.number().int().meta({
            description: "months of the year whose usage is the meter's interval readings' sum (they cover every interval of the month)",
          }),
          months: z.array(
            z.object({
              month: yearMonth,
              usage: z.number(),
              tco2e: tons.nullable(),
              basis: z.enum(['bills', 'intervals']).meta({
                description:
                  "where the month's usage comes from: its bills calendarised, or the electric meter's interval readings covering every interval of the month (property's time zone)",
              }),
            }),
          ),
        }),
      )
      .meta({ description: 'each meter with a bill reaching into the year, or interval readings covering a month of it' }),
    factors: z.array(factorUsed).meta({ description: 'every factor the figures used, with its source and year' }),
    notes: z.array(z.string()),
  })
  .meta({ example: ex.propertyEmissions });

export const buildingPerformanceQuery = emissionsQuery.extend({
  limit_tco2e: z.coerce.number().min(0).max(1e9).optional().meta({
    description:
      "the building's annual emissions limit as its LL97 report states it (tCO2e): excess and projected penalty are computed against it",
  }),
});
export type BuildingPerformanceQuery = z.output<typeof buildingPerformanceQuery>;

const period = z.object({
  period: z.enum(['2024-2029', '2030-2034']),
  status: z.enum(['computed', 'computed_with_given_limit', 'no_occupancy', 'limit_not_confirmed', 'not_confirmed', 'outside_period']),
  emissions_tco2e: tons.nullable().meta({ description: "the year's emissions by the law's own coefficients" }),
  emissions_lines: z.array(
    z.object({
      utility_type: z.string(),
      energy: z.number(),
      energy_unit: z.string(),
      coefficient: z.number(),
      coefficient_unit: z.string(),
      tco2e: tons,
    }),
  ),
  not_covered: z.array(z.string()),
  gross_floor_area: z.number().int().nullable(),
  limit_tco2e: z
    .number()
    .nullable()
    .meta({ description: 'the annual building emissions limit: the limit_lines summed, or the limit_tco2e given' }),
  limit_basis: z
    .enum(['property_types', 'occupancy_groups', 'given'])
    .nullable()
    .meta({
      description:
        "what limit_tco2e is from: the rule's limits per Portfolio Manager property type (1 RCNY § 103-14(c)(3)), the law's per " +
        'occupancy group (§ 28-320.3), or the limit_tco2e given; null without a limit',
    }),
  limit_lines: z
    .array(
      z.object({
        occupancy_group: z.string().nullable().meta({ description: 'the occupancy group of a line by occupancy group' }),
        property_type: z
          .enum(PROPERTY_TYPES)
          .nullable()
          .meta({ description: 'the recorded Portfolio Manager property use of a line by property type' }),
        gross_floor_area: z.number().int(),
        intensity_limit: z.number().nullable(),
        tco2e: tons.nullable(),
        source: z.string().nullable(),
      }),
    )
    .meta({
      description: 'each recorded occupancy group or property use of the limit_basis: its intensity limit (tCO2e/sf), times its area',
    }),
  excess_tco2e: tons.nullable(),
  penalty_per_ton: z.number().meta({ description: 'USD per metric ton over the limit (§ 28-320.6)' }),
  projected_penalty: z.number().nullable().meta({ description: 'USD, to the cent' }),
  notes: z.array(z.string()),
});

const energizeDenverAnswer = z.object({
  status: z.enum(['computed', 'no_property_uses', 'target_not_confirmed']),
  year: z.number().int(),
  site_energy_kbtu: z.number().meta({ description: "the year's site energy, kBtu (Portfolio Manager conversions)" }),
  energy_lines: z.array(
    z.object({
      utility_type: z.enum(METER_UTILITY_TYPES),
      energy: z.number(),
      energy_unit: z.string(),
      kbtu_per_unit: z.number(),
      kbtu: z.number(),
    }),
  ),
  gross_floor_area: z.number().int().nullable().meta({ description: "the property uses' areas summed; null without uses" }),
  site_eui: z.number().nullable().meta({ description: 'kBtu/sf/yr, one decimal, not weather normalized' }),
  weather_normalized: z.literal(false),
  final_target_year: z.number().int().meta({ description: 'the first calendar year the final target applies (updated timeline)' }),
  final_target_eui: z.number().nullable().meta({
    description: "kBtu/sf/yr: each use's target times its area, summed, over the total area; null where a use has none confirmed",
  }),
  target_lines: z.array(
    z.object({
      property_type: z.enum(PROPERTY_TYPES),
      gross_floor_area: z.number().int(),
      target_eui: z.number().nullable(),
      target_kbtu: z.number().nullable(),
      note: z.string().nullable(),
    }),
  ),
  kbtu_over_final_target: z
    .number()
    .nullable()
    .meta({ description: 'site kBtu above the final target (target EUI x area), to the kBtu; 0 when under it' }),
  projected_penalty: z.null().meta({ description: "always null: the city's penalty rates are set by rule and not confirmed" }),
  notes: z.array(z.string()),
});

export const buildingPerformanceResponse = z
  .object({
    property_id: z.string(),
    year: z.number().int(),
    jurisdiction: z.enum(['new_york_city', 'boston', 'denver']).nullable(),
    applies: z.boolean(),
    message: z.string(),
    standards: z.array(
      z.object({
        standard: z.string(),
        status: z.enum(['partly_confirmed', 'not_confirmed']),
        reason: z.string().nullable(),
        periods: z.array(period),
        sources: z.array(z.string()),
        berdo: berdoAnswer
          .optional()
          .meta({ description: "Boston only: the year's BERDO emissions against the standard blended over the recorded property uses" }),
        energize_denver: energizeDenverAnswer
          .optional()
          .meta({ description: "Denver only: the year's site EUI against the final target blended over the recorded property uses" }),
      }),
    ),
  })
  .meta({ example: ex.buildingPerformance });

export const portfolioEmissionsQuery = emissionsQuery.extend({
  portfolio_id: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: "one of the caller's portfolios; default: all the caller's properties" }),
});
export type PortfolioEmissionsQuery = z.output<typeof portfolioEmissionsQuery>;

export const portfolioEmissionsResponse = z
  .object({
    year: z.number().int(),
    method: z.literal('location-based'),
    unit: z.literal('metric tons CO2e'),
    total_tco2e: tons.meta({ description: "the properties' totals, summed" }),
    kg_co2e_per_sqft: z
      .number()
      .nullable()
      .meta({ description: 'the tons of the properties with sqft x 1000 / their sqft; null when none has sqft' }),
    properties: z.array(
      z.object({
        property_id: z.string(),
        name: z.string(),
        tco2e: tons,
        sqft: z.number().int().nullable(),
        kg_co2e_per_sqft: z.number().nullable(),
        meters_not_counted: z
          .number()
          .int()
          .meta({ description: "meters with bills in the year and no confirmed factor (see the property's answer)" }),
        meter_months_from_intervals: z
          .number()
          .int()
          .meta({ description: "the property's meter-months counted from interval readings instead of bills (see the property's answer)" }),
      }),
    ),
    factors: z.array(factorUsed),
    notes: z.array(z.string()),
  })
  .meta({ example: ex.portfolioEmissions });

/**
 * A property's gross floor area split by kind (LL97 occupancy groups, Portfolio Manager property
 * uses): the PUT body lists each kind at most once with its area in sf, and the answer adds the areas up.
 */
function floorAreaSplit<List extends string, Kind extends string, Value extends string>(spec: {
  list: List;
  kind: Kind;
  kinds: readonly [Value, ...Value[]];
  kindDescription: string;
  areaDescription: string;
  example: Value;
}) {
  const kind = z.enum(spec.kinds).meta({ description: spec.kindDescription });
  const area = z.number().int().min(1).max(50_000_000).meta({ description: spec.areaDescription });
  const item = z.object({ [spec.kind]: kind, gross_floor_area: area } as { [K in Kind]: typeof kind } & { gross_floor_area: typeof area });
  const exampleList = [{ [spec.kind]: spec.example, gross_floor_area: 40000 }];

  const list = z
    .array(item)
    .max(spec.kinds.length)
    .refine((entries) => new Set(entries.map((e) => (e as Record<Kind, Value>)[spec.kind])).size === entries.length, {
      error: `each ${spec.kind} at most once`,
    });
  const body = z.object({ [spec.list]: list } as { [L in List]: typeof list }).meta({ example: { [spec.list]: exampleList } });

  const items = z.array(item);
  const response = z
    .object({
      property_id: z.string(),
      ...({ [spec.list]: items } as { [L in List]: typeof items }),
      gross_floor_area: z
        .number()
        .int()
        .meta({ description: `the ${spec.list} summed` }),
    })
    .meta({
      example: {
        property_id: '5b0f3c8e-7d1a-4c2e-9f6b-1a2b3c4d5e6f',
        [spec.list]: exampleList,
        gross_floor_area: 40000,
      },
    });
  return { body, response };
}

const occupancy = floorAreaSplit({
  list: 'areas',
  kind: 'occupancy_group',
  kinds: OCCUPANCY_GROUPS,
  kindDescription:
    'NYC Building Code occupancy group as LL97 names it; B-ambulatory-health is B used for ambulatory health care (medical office)',
  areaDescription: 'sf of the group in the building',
  example: 'B',
});

export const occupancyBody = occupancy.body;
export type OccupancyBody = z.output<typeof occupancyBody>;
export const occupancyResponse = occupancy.response;

const propertyUses = floorAreaSplit({
  list: 'uses',
  kind: 'property_type',
  kinds: PROPERTY_TYPES,
  kindDescription: 'ENERGY STAR Portfolio Manager property type, spelled as Portfolio Manager spells it (e.g. Office, Multifamily Housing)',
  areaDescription: 'sf of the use in the property',
  example: 'Office',
});

export const propertyUsesBody = propertyUses.body;
export type PropertyUsesBody = z.output<typeof propertyUsesBody>;
export const propertyUsesResponse = propertyUses.response;
