/**
 * Emission factors the location-based inventory uses (README "Factors", with the source of each).
 * Pure data and arithmetic: no I/O.
 */

/** 1 lb = 0.45359237 kg exactly (international avoirdupois pound). */
export const KG_PER_LB = 0.45359237;

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
  gwpCh4: 25,
  gwpN2o: 298,
  source:
    'EPA GHG Emission Factors Hub (Emission Factors for Greenhouse Gas Inventories, 9 March 2018), Table 1 Stationary Combustion, ' +
    'Natural Gas: 53.06 kg CO2, 1.0 g CH4, 0.10 g N2O per mmBtu; GWP CH4 25, N2O 298 (IPCC AR4, same document)',
  year: 2018,
} as const;

/** kg CO2e per mmBtu of natural gas: 53.06 + 1.0 x 25 / 1000 + 0.10 x 298 / 1000 = 53.1148. */
export function naturalGasKgCo2ePerMmbtu(): number {
  const g = NATURAL_GAS;
  return g.kgCo2PerMmbtu + (g.gCh4PerMmbtu * g.gwpCh4 + g.gN2oPerMmbtu * g.gwpN2o) / 1000;
}

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
  gwpCh4: 25,
  gwpN2o: 298,
  source:
    'EPA GHG Emission Factors Hub (Emission Factors for Greenhouse Gas Inventories, 9 March 2018), Table 7 Steam and Heat: ' +
    '66.33 kg CO2, 1.25 g CH4, 0.125 g N2O per mmBtu of steam purchased; GWP CH4 25, N2O 298 (IPCC AR4, same document)',
  year: 2018,
} as const;

/** kg CO2e per mmBtu of district steam: 66.33 + 1.25 x 25 / 1000 + 0.125 x 298 / 1000 = 66.3985. */
export function districtSteamKgCo2ePerMmbtu(): number {
  const s = DISTRICT_STEAM;
  return s.kgCo2PerMmbtu + (s.gCh4PerMmbtu * s.gwpCh4 + s.gN2oPerMmbtu * s.gwpN2o) / 1000;
}

/** Metric tons CO2e of `kbtu` of district steam (1 mmBtu = 1,000 kBtu). */
export function districtSteamTons(kbtu: number): number {
  return ((kbtu / 1000) * districtSteamKgCo2ePerMmbtu()) / 1000;
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
  other: "an 'other' meter's fuel is not known (fuel oil and propane have no meter type yet), so no factor applies",
  water: 'water is not energy: outside the energy emissions inventory',
  sewer: 'sewer is not energy: outside the energy emissions inventory',
  trash: 'trash is not energy: outside the energy emissions inventory',
} as const;
