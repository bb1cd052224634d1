/**
 * Emission factors the location-based inventory uses (README "Factors", with the source of each).
 * Pure data and arithmetic: no I/O.
 */

/** 1 lb = 0.45359237 kg exactly (international avoirdupois pound). */
export const KG_PER_LB = 0.45359237;

/** The Hub edition every fuel factor here is read in, and its 100-year GWPs (IPCC AR4). */
const HUB_2018 = 'EPA GHG Emission Factors Hub (Emission Factors for Greenhouse Gas Inventories, 9 March 2018)';
const AR4 = { gwpCh4: 25, gwpN2o: 298 } as const;

/** A Hub row's kg CO2e per mmBtu: kg CO2 + (g CH4 x GWP CH4 + g N2O x GWP N2O) / 1000. */
function kgCo2ePerMmbtu(f: { kgCo2PerMmbtu: number; gCh4PerMmbtu: number; gN2oPerMmbtu: number; gwpCh4: number; gwpN2o: number }) {
  return f.kgCo2PerMmbtu + (f.gCh4PerMmbtu * f.gwpCh4 + f.gN2oPerMmbtu * f.gwpN2o) / 1000;
}

/**
 * Natural gas, EPA Center for Corporate Climate Leadership, "Emission Factors for Greenhouse Gas
 * Inventories" (GHG Emission Factors Hub), edition last modified 9 March 2018, Table 1 Stationary
 * Combustion, row "Natural Gas": 53.06 kg CO2, 1.0 g CH4 and 0.10 g N2O per mmBtu; the same
 * document's 100-year GWPs (IPCC AR4): CH4 25, N2O 298. The 2024 Hub's Table 1 lists the same
 * three per-gas values for natural gas.
 */
export const NATURAL_GAS = {
  kgCo2PerMmbtu: 53.06,
  gCh4PerMmbtu: 1.0,
  gN2oPerMmbtu: 0.1,
  ...AR4,
  source:
    `${HUB_2018}, Table 1 Stationary Combustion, ` +
    'Natural Gas: 53.06 kg CO2, 1.0 g CH4, 0.10 g N2O per mmBtu; GWP CH4 25, N2O 298 (IPCC AR4, same document)',
  year: 2018,
} as const;

/** kg CO2e per mmBtu of natural gas: 53.06 + 1.0 x 25 / 1000 + 0.10 x 298 / 1000 = 53.1148. */
export const naturalGasKgCo2ePerMmbtu = (): number => kgCo2ePerMmbtu(NATURAL_GAS);

/** Metric tons CO2e of `therms` of natural gas (1 therm = 0.1 mmBtu). */
export function naturalGasTons(therms: number): number {
  return (therms * 0.1 * naturalGasKgCo2ePerMmbtu()) / 1000;
}

/**
 * District steam, the same Hub edition (Emission Factors for Greenhouse Gas Inventories, 9 March
 * 2018), Table 7 "Steam and Heat": 66.33 kg CO2, 1.25 g CH4 and 0.125 g N2O per mmBtu of steam
 * purchased (the Hub assumes natural gas burned at 80 % boiler efficiency), and the same AR4 GWPs
 * as for natural gas. The 2023 and 2024 Hub editions list the same three values in Table 7.
 */
export const DISTRICT_STEAM = {
  kgCo2PerMmbtu: 66.33,
  gCh4PerMmbtu: 1.25,
  gN2oPerMmbtu: 0.125,
  ...AR4,
  source:
    `${HUB_2018}, Table 7 Steam and Heat: ` +
    '66.33 kg CO2, 1.25 g CH4, 0.125 g N2O per mmBtu of steam purchased; GWP CH4 25, N2O 298 (IPCC AR4, same document)',
  year: 2018,
} as const;

/** kg CO2e per mmBtu of district steam: 66.33 + 1.25 x 25 / 1000 + 0.125 x 298 / 1000 = 66.3985. */
export const districtSteamKgCo2ePerMmbtu = (): number => kgCo2ePerMmbtu(DISTRICT_STEAM);

/** Metric tons CO2e of `kbtu` of district steam (1 mmBtu = 1,000 kBtu). */
export function districtSteamTons(kbtu: number): number {
  return ((kbtu / 1000) * districtSteamKgCo2ePerMmbtu()) / 1000;
}

/**
 * Fuel oil, the same Hub edition (Emission Factors for Greenhouse Gas Inventories, 9 March 2018),
 * Table 1 Stationary Combustion, Petroleum Products: "Distillate Fuel Oil No. 2" 73.96 kg CO2 and
 * "Distillate Fuel Oil No. 4" 75.04 kg CO2 per mmBtu, each with 3.0 g CH4 and 0.60 g N2O per mmBtu,
 * and the same AR4 GWPs as for natural gas. The Hub lists residual fuel oil No. 5 (72.93 kg CO2)
 * and No. 6 (75.10) apart; a "No. 5 and No. 6" meter does not say which it burns, so it has no
 * factor (UNSUPPORTED_REASONS).
 */
export const FUEL_OIL = {
  fuel_oil_2: { row: 'Distillate Fuel Oil No. 2', kgCo2PerMmbtu: 73.96 },
  fuel_oil_4: { row: 'Distillate Fuel Oil No. 4', kgCo2PerMmbtu: 75.04 },
} as const;
const PETROLEUM = { gCh4PerMmbtu: 3.0, gN2oPerMmbtu: 0.6, ...AR4 } as const;
export type CountedFuelOil = keyof typeof FUEL_OIL;

/** The source and year of a fuel oil factor, as the answers name it. */
export function fuelOilReference(type: CountedFuelOil): { source: string; year: number } {
  return {
    source:
      `${HUB_2018}, Table 1 Stationary Combustion, ` +
      `${FUEL_OIL[type].row}: ${FUEL_OIL[type].kgCo2PerMmbtu.toFixed(2)} kg CO2, 3.0 g CH4, 0.60 g N2O per mmBtu; ` +
      'GWP CH4 25, N2O 298 (IPCC AR4, same document)',
    year: 2018,
  };
}

/** kg CO2e per mmBtu of fuel oil: No. 2 73.96 + 3.0 x 25 / 1000 + 0.60 x 298 / 1000 = 74.2138; No. 4 75.2938. */
export const fuelOilKgCo2ePerMmbtu = (type: CountedFuelOil): number =>
  kgCo2ePerMmbtu({ ...PETROLEUM, kgCo2PerMmbtu: FUEL_OIL[type].kgCo2PerMmbtu });

/** Metric tons CO2e of `kbtu` of fuel oil (1 mmBtu = 1,000 kBtu). */
export function fuelOilTons(type: CountedFuelOil, kbtu: number): number {
  return ((kbtu / 1000) * fuelOilKgCo2ePerMmbtu(type)) / 1000;
}

/** Metric tons CO2e per MWh at an eGRID output rate in lb CO2e/MWh (no grid loss: output rates). */
export function tonsPerMwh(lbPerMwh: number): number {
  return (lbPerMwh * KG_PER_LB) / 1000;
}

/** Metric tons CO2e of `kwh` of grid electricity at an eGRID output rate in lb CO2e/MWh. */
export function electricityTons(kwh: number, lbPerMwh: number): number {
  return (kwh / 1000) * tonsPerMwh(lbPerMwh);
}

/**
 * Utility types without a factor here, and why (every answer repeats the reason for the meters
 * it leaves out). Water, sewer and trash are not energy: they are outside an energy inventory.
 */
export const UNSUPPORTED_REASONS = {
  other: "an 'other' meter's fuel is not known (propane has no meter type yet), so no factor applies",
  fuel_oil_5_6:
    'the EPA Hub gives residual fuel oil No. 5 (72.93 kg CO2/mmBtu) and No. 6 (75.10) apart; a "No. 5 and No. 6" meter does not ' +
    'say which it burns, so no factor is applied',
  water: 'water is not energy: outside the energy emissions inventory',
  sewer: 'sewer is not energy: outside the energy emissions inventory',
  trash: 'trash is not energy: outside the energy emissions inventory',
} as const;
