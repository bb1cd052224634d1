/**
 * The factors an emissions answer names (`factors`): the ZIP code's eGRID grid factor and the EPA Hub
 * fuel factors, each with its value, unit, source and year (README "Factors"). Re-exported by
 * service.ts, where they were first defined.
 */
import type { MeterUtilityType } from '../meters/units';
import { EGRID_SOURCE, type EgridReference } from './egrid';
import type { GridFactor } from './emissions.calc';
import {
  DISTRICT_STEAM,
  districtSteamKgCo2ePerMmbtu,
  fuelOilKgCo2ePerMmbtu,
  fuelOilReference,
  naturalGasKgCo2ePerMmbtu,
  NATURAL_GAS,
  tonsPerMwh,
} from './factors';
export interface FactorUsed {
  utility_type: 'electric' | 'gas' | 'steam' | 'fuel_oil_2' | 'fuel_oil_4';
  value: number;
  unit: string;
  /** The same factor per unit of the meter's common unit, in metric tons CO2e. */
  tco2e_per_unit: number;
  per_unit: string;
  source: string;
  year: number;
  subregion: string | null;
  note: string | null;
}

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places + 0;

/** The grid factor of a ZIP code: its first Power Profiler subregion (saying so when it lists several). */
export function gridOfZip(egrid: EgridReference, zip: string): { grid: GridFactor; factor: FactorUsed | null } {
  const subregions = egrid.zipSubregions.get(zip);
  if (!subregions) {
    return {
      grid: {
        subregion: null,
        reason: `ZIP code ${zip} is not in EPA's Power Profiler ZIP map: no eGRID subregion, so electricity is not counted`,
      },
      factor: null,
    };
  }
  const rate = egrid.rates.get(subregions[0]!)!;
  const note =
    subregions.length > 1
      ? `ZIP code ${zip} lies in the eGRID subregions ${subregions.join(', ')}: the first (${rate.subregion}) is used, as EPA's Power Profiler lists it first`
      : null;
  return {
    grid: { subregion: rate.subregion, lbPerMwh: rate.co2eLbPerMwh },
    factor: {
      utility_type: 'electric',
      value: rate.co2eLbPerMwh,
      unit: 'lb CO2e/MWh',
      tco2e_per_unit: round(tonsPerMwh(rate.co2eLbPerMwh) / 1000, 9),
      per_unit: 'kWh',
      source: `${EGRID_SOURCE.source}; subregion ${rate.subregion} (${rate.name}); 1 lb = 0.45359237 kg; output rate, no grid loss added`,
      year: EGRID_SOURCE.year,
      subregion: rate.subregion,
      note,
    },
  };
}

/** A fuel's factor per mmBtu, stated per the unit its bills are in (`perMmbtu` of them make an mmBtu). */
const fuelFactor = (
  utilityType: FactorUsed['utility_type'],
  kgPerMmbtu: number,
  perUnit: 'therm' | 'kBtu',
  perMmbtu: number,
  reference: { source: string; year: number },
): FactorUsed => ({
  utility_type: utilityType,
  value: round(kgPerMmbtu, 4),
  unit: 'kg CO2e/mmBtu',
  tco2e_per_unit: round(kgPerMmbtu / perMmbtu / 1000, 9),
  per_unit: perUnit,
  source: reference.source,
  year: reference.year,
  subregion: null,
  note: null,
});

export const GAS_FACTOR = fuelFactor('gas', naturalGasKgCo2ePerMmbtu(), 'therm', 10, NATURAL_GAS);
export const STEAM_FACTOR = fuelFactor('steam', districtSteamKgCo2ePerMmbtu(), 'kBtu', 1000, DISTRICT_STEAM);
export const FUEL_OIL_FACTORS = {
  fuel_oil_2: fuelFactor('fuel_oil_2', fuelOilKgCo2ePerMmbtu('fuel_oil_2'), 'kBtu', 1000, fuelOilReference('fuel_oil_2')),
  fuel_oil_4: fuelFactor('fuel_oil_4', fuelOilKgCo2ePerMmbtu('fuel_oil_4'), 'kBtu', 1000, fuelOilReference('fuel_oil_4')),
} as const;

/** The Hub factors (gas, steam, fuel oil) of the utility types in `used`, in that order. */
export function hubFactorsOf(used: { has: (t: MeterUtilityType) => boolean }): FactorUsed[] {
  return [
    ...(used.has('gas') ? [GAS_FACTOR] : []),
    ...(used.has('steam') ? [STEAM_FACTOR] : []),
    ...(used.has('fuel_oil_2') ? [FUEL_OIL_FACTORS.fuel_oil_2] : []),
    ...(used.has('fuel_oil_4') ? [FUEL_OIL_FACTORS.fuel_oil_4] : []),
  ];
}
