import { z } from 'zod';
import * as ex from './examples';
import { METER_UTILITY_TYPES, UNIT_FAMILIES, unitsOf } from './units';
import { METER_COVERS } from './tables';

const UNITS_DESCRIPTION = METER_UTILITY_TYPES.map((t) => `${t}: ${unitsOf(t)}`).join('; ');
const ALL_UNITS = [...new Set(METER_UTILITY_TYPES.flatMap((t) => Object.keys(UNIT_FAMILIES[t].units)))] as [string, ...string[]];

export const meterUtilityType = z.enum(METER_UTILITY_TYPES, { error: (iss) => (iss.input === undefined ? 'field required' : undefined) });
/** Any unit of some type; whether it fits the meter's type is the service's check (units.ts). */
export const meterUnit = z
  .enum(ALL_UNITS)
  .meta({ description: `A unit of the utility type (the first is the default): ${UNITS_DESCRIPTION}.` });
const label = (max: number) => z.string().trim().min(1).max(max);
const META_COVERS =
  'What the meter measures: whole_building (default), common_area (the shared spaces of the building: hallways, ' +
  'lighting, central plant) or tenant (the space of one tenant). Benchmarks rank only properties whose meters behind the figure ' +
  'cover the whole building (meters README "What a meter covers").';

export const meterIdParams = z.object({ id: z.string().min(1).max(200) });

export const createMeterBody = z
  .object({
    utility_type: meterUtilityType,
    unit: meterUnit.optional(),
    name: label(200).optional().meta({ description: 'Defaults to "<Type> meter" ("Water meter").' }),
    account_number: label(200).nullable().optional(),
    meter_number: label(200).nullable().optional(),
    tariff_id: z.string().min(1).max(200).nullable().optional().meta({
      description:
        "The tariff this meter's bills are priced on (a catalog tariff or your own of the meter's utility type and its property's state); without one, the property's.",
    }),
    supply_tariff_id: z
      .string()
      .min(1)
      .max(200)
      .nullable()
      .optional()
      .meta({ description: 'A supply-only tariff of your own (a supply contract) priced beside a delivery-only tariff_id.' }),
    is_active: z.boolean().optional(),
    covers: z.enum(METER_COVERS).optional().meta({ description: META_COVERS }),
  })
  .meta({ example: ex.createMeterRequest });
export type CreateMeterInput = z.output<typeof createMeterBody>;

export const updateMeterBody = z
  .object({
    utility_type: meterUtilityType.optional().meta({ description: "Cannot change: given, it must be the meter's." }),
    unit: meterUnit.optional(),
    name: label(200).optional(),
    account_number: label(200).nullable().optional(),
    meter_number: label(200).nullable().optional(),
    tariff_id: z.string().min(1).max(200).nullable().optional(),
    supply_tariff_id: z.string().min(1).max(200).nullable().optional(),
    is_active: z.boolean().optional(),
    covers: z.enum(METER_COVERS).optional().meta({ description: META_COVERS }),
  })
  .meta({ example: { name: 'Domestic water (north riser)', is_active: false } });
export type UpdateMeterInput = z.output<typeof updateMeterBody>;

export const meterResponse = z
  .object({
    id: z.string(),
    property_id: z.string(),
    utility_type: z.enum(METER_UTILITY_TYPES),
    unit: z.string(),
    name: z.string(),
    account_number: z.string().nullable(),
    meter_number: z.string().nullable(),
    tariff_id: z.string().nullable(),
    supply_tariff_id: z.string().nullable(),
    is_active: z.boolean(),
    covers: z.enum(METER_COVERS).meta({ description: META_COVERS }),
    is_default: z.boolean().meta({ description: 'Bills of this utility type sent without meter_id go to this meter.' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ example: ex.meter });

/** A cost figure's share of one utility type: dollars, usage in the type's common unit (units.ts), that unit. */
export const utilityCost = z.object({
  utility_type: z.enum(METER_UTILITY_TYPES),
  cost: z.number(),
  usage: z
    .number()
    .nullable()
    .meta({ description: 'In unit, the common unit of the type (kWh, therms, gallons, tons, kBtu); null when no bill gave usage.' }),
  unit: z.string(),
});

/** A utility type's annual cost, with what it rests on (analytics README "One annual cost"). */
export const utilityAnnualCost = utilityCost.extend({
  basis: z.enum(['actual', 'estimate', 'mixed']).meta({
    description:
      'actual: 10 or more of the last 12 complete months billed, scaled to 12; estimate: the bill engine on the tariff ' +
      '(electric only); mixed: a sum over properties of both.',
  }),
});
