/** Shared set-up of the emissions inventory's tests: New York's eGRID subregion and its electric and gas meters. */
import type { InventoryMeter } from './emissions.calc';

/** eGRID2022 NYCW (NPCC NYC/Westchester) SRC2ERTA, lb CO2e/MWh, as in data/reference: 886.58 x 0.45359237 / 1000 = 0.40214592339 t/MWh. */
export const NYCW = { subregion: 'NYCW', lbPerMwh: 886.58 };

/** Meter `e` (electric) and meter `g` (gas); a test adds its other meters after them. */
export const ELECTRIC_AND_GAS: InventoryMeter[] = [
  { id: 'e', name: 'Electric', utilityType: 'electric' },
  { id: 'g', name: 'Gas', utilityType: 'gas' },
];
