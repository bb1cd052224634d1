import { z } from 'zod';
import { PROPERTY_TYPES } from './property-types';
import { tons } from './tons.schema';

/** Boston BERDO 2.0's part of the building-performance answer (berdo.answer.ts). */
export const berdoAnswer = z.object({
  status: z.enum(['computed', 'not_confirmed', 'no_property_uses', 'no_standard']),
  year: z.number().int(),
  period: z.string().nullable().meta({ description: "Table 1's compliance period of the year, e.g. 2025-2029" }),
  emissions_tco2e: tons.nullable().meta({ description: "the year's emissions by the city's BERDO factors" }),
  emission_lines: z.array(
    z.object({
      fuel: z.enum(['electricity', 'natural_gas', 'district_steam']),
      energy: z.number(),
      energy_unit: z.string(),
      factor: z.number().meta({ description: 'kgCO2e/MWh (electricity, before the RPS share) or kgCO2e/MMBtu' }),
      factor_unit: z.string(),
      rps_class_i_percent: z
        .number()
        .nullable()
        .meta({ description: 'electricity: the Massachusetts RPS Class I share taken off, MWh x (1 - R) x factor' }),
      tco2e: tons,
    }),
  ),
  gross_floor_area: z.number().int().nullable().meta({ description: "the property uses' areas summed" }),
  blended_standard_kg_per_sf: z.number().nullable().meta({ description: 'limit / gross floor area, kgCO2e/sf (4 decimals)' }),
  limit_tco2e: tons.nullable().meta({ description: "each use's Table 1 standard x its area, summed" }),
  limit_lines: z.array(
    z.object({
      property_type: z.enum(PROPERTY_TYPES),
      berdo_use: z.string().meta({ description: "Table 1's building use of the Portfolio Manager type" }),
      gross_floor_area: z.number().int(),
      standard_kg_per_sf: z.number(),
      tco2e: tons,
    }),
  ),
  excess_tco2e: tons.nullable(),
  acp_per_ton: z.number().meta({ description: 'USD per metric ton over the standard (alternative compliance payment)' }),
  alternative_compliance_payment: z.number().nullable().meta({ description: 'USD, to the cent: the excess to the kilogram x acp_per_ton' }),
  missing: z.array(z.string()).meta({ description: 'not_confirmed: every number the year needs that is not confirmed' }),
  notes: z.array(z.string()),
});
