/**
 * Meter utility types, the units a meter of each type reads in, and how units convert (README
 * "Units"). Pure data: the table checks, the API schemas, the CSV import and the analytics read it.
 */
export const METER_UTILITY_TYPES = [
  'electric',
  'gas',
  'water',
  'sewer',
  'trash',
  'steam',
  'fuel_oil_2',
  'fuel_oil_4',
  'fuel_oil_5_6',
  'other',
] as const;
export type MeterUtilityType = (typeof METER_UTILITY_TYPES)[number];

/**
 * Fuel oil, as ENERGY STAR Portfolio Manager's meter types "Fuel Oil (No. 2)", "Fuel Oil (No. 4)"
 * and "Fuel Oil (No. 5 and No. 6)": delivered, not tariffed. Its bills are recorded and counted in
 * costs, but no tariff prices them (README "Fuel oil").
 */
export const FUEL_OIL_TYPES = ['fuel_oil_2', 'fuel_oil_4', 'fuel_oil_5_6'] as const;
export type FuelOilType = (typeof FUEL_OIL_TYPES)[number];

export function isFuelOil(type: string): type is FuelOilType {
  return (FUEL_OIL_TYPES as readonly string[]).includes(type);
}

/** Why a bill of a fuel oil meter is never priced on a tariff (the audit, the what-if and the meter's tariff_id say it). */
export const FUEL_OIL_NOT_TARIFFED =
  'fuel oil is delivered, not tariffed: its bills are recorded and counted in costs, never priced on a tariff';

export interface UnitFamily {
  /** The unit figures of this type are summed in (cost_by_utility.usage). */
  common: string;
  /** Each unit a bill or meter may use, with how many common units one of it is; the first is a new meter's default. */
  units: Readonly<Record<string, number>>;
  /**
   * kBtu of site energy per common unit (ENERGY STAR Portfolio Manager, Technical Reference "Thermal
   * Conversion Factors", US): null for what is not energy (water, sewer, trash).
   */
  kbtuPerCommon: number | null;
}

/** US gallons in a cubic foot: 1,728 in³ / 231 in³. */
const GALLONS_PER_CF = 1728 / 231;
const WATER: UnitFamily = {
  common: 'gallons',
  units: { kgal: 1000, gallons: 1, ccf: 100 * GALLONS_PER_CF, cf: GALLONS_PER_CF, m3: 264.172052 },
  kbtuPerCommon: null,
};

export const UNIT_FAMILIES: Readonly<Record<MeterUtilityType, UnitFamily>> = {
  // Portfolio Manager: 1 kWh = 3.412 kBtu.
  electric: { common: 'kWh', units: { kWh: 1 }, kbtuPerCommon: 3.412 },
  // Portfolio Manager: 1 therm = 100 kBtu, 1 cf = 1.026 kBtu (so 1 ccf = 1.026 therms, 1 Mcf = 10.26 therms).
  gas: { common: 'therms', units: { therms: 1, ccf: 1.026, mcf: 10.26, cf: 0.01026, kBtu: 0.01, MMBtu: 10 }, kbtuPerCommon: 100 },
  water: WATER,
  sewer: WATER,
  trash: { common: 'tons', units: { tons: 1, lbs: 0.0005 }, kbtuPerCommon: null },
  // Portfolio Manager: district steam 1 lb = 1.194 kBtu (saturated steam at 150 psi), 1 therm = 100 kBtu.
  steam: { common: 'kBtu', units: { klbs: 1194, lbs: 1.194, Mlbs: 1_194_000, kBtu: 1, therms: 100, MMBtu: 1000 }, kbtuPerCommon: 1 },
  // Portfolio Manager, US: 1 gallon of fuel oil No. 2 = 138 kBtu, No. 4 = 146, No. 5 and No. 6 = 150 (README "Units").
  fuel_oil_2: { common: 'kBtu', units: { gallons: 138, kBtu: 1, MMBtu: 1000 }, kbtuPerCommon: 1 },
  fuel_oil_4: { common: 'kBtu', units: { gallons: 146, kBtu: 1, MMBtu: 1000 }, kbtuPerCommon: 1 },
  fuel_oil_5_6: { common: 'kBtu', units: { gallons: 150, kBtu: 1, MMBtu: 1000 }, kbtuPerCommon: 1 },
  other: { common: 'kBtu', units: { kBtu: 1, MMBtu: 1000 }, kbtuPerCommon: 1 },
};

/** A new meter's unit when none is given: the first of its type's units. */
export function defaultUnit(type: MeterUtilityType): string {
  return Object.keys(UNIT_FAMILIES[type].units)[0]!;
}

export function isUnitOf(type: MeterUtilityType, unit: string): boolean {
  return Object.hasOwn(UNIT_FAMILIES[type].units, unit);
}

/** "kWh" / "therms, ccf, mcf, cf, kBtu, MMBtu": the units of a type, for messages and the API document. */
export function unitsOf(type: MeterUtilityType): string {
  return Object.keys(UNIT_FAMILIES[type].units).join(', ');
}

/** Why `unit` cannot be a unit of `type`, or null when it can. */
export function unitProblem(type: MeterUtilityType, unit: string): string | null {
  return isUnitOf(type, unit) ? null : `unit '${unit}' is not a unit of ${type} (${unitsOf(type)})`;
}

/** `usage` in `unit` (a unit of `type`) expressed in the type's common unit. */
export function toCommonUnit(type: MeterUtilityType, usage: number, unit: string): number {
  return usage * UNIT_FAMILIES[type].units[unit]!;
}

/** `usage` (a decimal, or its text) in `unit`, as integer thousandths of the type's common unit: how analytics store usage. */
export function usageMilliOf(type: MeterUtilityType, usage: number | string, unit: string): number {
  return Math.round(toCommonUnit(type, Number(usage), unit) * 1000);
}

/** A cost figure of one utility type as the API shows it: dollars, usage in the type's common unit (null: unknown), that unit. */
export function utilityFigure(type: MeterUtilityType, cents: number, usageMilli: number | null) {
  return { utility_type: type, cost: cents / 100, usage: usageMilli === null ? null : usageMilli / 1000, unit: UNIT_FAMILIES[type].common };
}

/** SQL of the (utility_type, unit) pairs a table may hold, for its check constraint. */
export function unitPairsSql(typeColumn: string, unitColumn: string): string {
  const pairs = METER_UTILITY_TYPES.flatMap((t) => Object.keys(UNIT_FAMILIES[t].units).map((u) => `('${t}', '${u}')`));
  return `(${typeColumn}, ${unitColumn}) in (${pairs.join(', ')})`;
}
