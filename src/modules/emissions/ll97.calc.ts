/**
 * New York City Local Law 97 of 2019 (Administrative Code title 28, article 320): a covered
 * building's emissions by the law's own coefficients, its limit, and the civil penalty. Pure.
 * Every number here is the law's text as read on 2026-11-28 (README "Local Law 97"); the 2030-2034
 * coefficients the law leaves to rule are passed in (`ll97Emissions`, from ll97-espm.ts). A number
 * that could not be confirmed is absent and the answer says so.
 */
import type { MeterUtilityType } from '../meters/units';

/** Where the law's text was read (American Legal Publishing's New York City Administrative Code). */
export const LL97_SOURCES = {
  coefficients:
    'NYC Administrative Code § 28-320.3.1.1 (greenhouse gas coefficients of energy consumption for calendar years 2024 through 2029), ' +
    'codelibrary.amlegal.com, read 2026-11-28',
  penalty:
    'NYC Administrative Code § 28-320.6 (penalty: the difference between the building emissions limit and the reported building ' +
    'emissions, multiplied by $268), codelibrary.amlegal.com, read 2026-11-28',
  limits:
    "NYC Administrative Code §§ 28-320.3.1 (2024-2029) and 28-320.3.2 (2030-2034), read 2026-11-28: a building's limit is each " +
    "occupancy group's building emissions intensity limit (tCO2e/sf) times its gross floor area, summed over the groups of a " +
    'mixed-use building',
} as const;

/** $ per metric ton CO2e over the limit (§ 28-320.6), in cents. */
export const PENALTY_CENTS_PER_TON = 268_00;

/** § 28-320.3.1.1, calendar years 2024 through 2029, tCO2e per unit. */
export const COEFFICIENTS_2024_2029 = {
  electric: { value: 0.000288962, unit: 'tCO2e/kWh', item: 'item 1, utility electricity' },
  gas: { value: 0.00005311, unit: 'tCO2e/kBtu', item: 'item 2, natural gas' },
  fuel_oil_2: { value: 0.00007421, unit: 'tCO2e/kBtu', item: 'item 3, #2 fuel oil' },
  fuel_oil_4: { value: 0.00007529, unit: 'tCO2e/kBtu', item: 'item 4, #4 fuel oil' },
  steam: { value: 0.00004493, unit: 'tCO2e/kBtu', item: 'item 5, district steam' },
} as const;

/** A year's energy of the building by utility type, in the types' common units (kWh, therms, kBtu of steam and fuel oil). */
export type EnergyByType = Partial<Record<MeterUtilityType, number>>;

/** A coefficient of one period: tCO2e per kWh (electricity) or per kBtu (fuels), and where it is set. */
export interface Ll97Coefficient {
  value: number;
  unit: string;
  item: string;
}

/** The utility types LL97 gives a coefficient for. */
export type Ll97CountedType = 'electric' | 'gas' | 'steam' | 'fuel_oil_2' | 'fuel_oil_4';

/** One period's coefficients of the utility types a meter can carry; a type absent has no confirmed coefficient. */
export type Ll97Coefficients = Partial<Record<Ll97CountedType, Ll97Coefficient>>;

/** One utility type counted: its energy, the coefficient and the tons. */
export interface Ll97EmissionsLine {
  utility_type: Ll97CountedType;
  energy: number;
  energy_unit: string;
  coefficient: number;
  coefficient_unit: string;
  tco2e: number;
}

export interface Ll97Emissions {
  tco2e: number;
  lines: Ll97EmissionsLine[];
  /** Types with energy the law's coefficients do not cover (other fuels, unknown). */
  notCovered: MeterUtilityType[];
  /** Energy types the period's coefficients cover but whose coefficient is not confirmed: the total leaves them out. */
  unconfirmed: Ll97CountedType[];
}

/**
 * Building emissions for a year by one period's coefficients: kWh x the electricity coefficient;
 * natural gas kBtu (1 therm = 100 kBtu) x the gas coefficient; district steam, #2 and #4 fuel oil
 * kBtu x theirs (fuel oil meters read in kBtu: 1 gallon = 138 kBtu of No. 2, 146 of No. 4, meters
 * README "Units"). Water, sewer and trash are not energy; fuel oil No. 5/6 (no coefficient in the
 * law) and an `other` meter's unknown fuel are listed in notCovered; energy of a type whose
 * coefficient the period does not give is listed in `unconfirmed`.
 */
export function ll97Emissions(energy: EnergyByType, c: Ll97Coefficients): Ll97Emissions {
  const lines: Ll97Emissions['lines'] = [];
  const unconfirmed: Ll97Emissions['unconfirmed'] = [];
  const add = (type: Ll97CountedType, amount: number, unit: string) => {
    const coef = c[type];
    if (!coef) {
      unconfirmed.push(type);
      return;
    }
    lines.push({
      utility_type: type,
      energy: amount,
      energy_unit: unit,
      coefficient: coef.value,
      coefficient_unit: coef.unit,
      tco2e: amount * coef.value,
    });
  };
  if (energy.electric) add('electric', energy.electric, 'kWh');
  if (energy.gas) add('gas', energy.gas * 100, 'kBtu');
  if (energy.steam) add('steam', energy.steam, 'kBtu');
  if (energy.fuel_oil_2) add('fuel_oil_2', energy.fuel_oil_2, 'kBtu');
  if (energy.fuel_oil_4) add('fuel_oil_4', energy.fuel_oil_4, 'kBtu');
  const notCovered = (['fuel_oil_5_6', 'other'] as const).filter((t) => energy[t]);
  return { tco2e: lines.reduce((s, l) => s + l.tco2e, 0), lines, notCovered, unconfirmed };
}

/**
 * Building emissions for a year of 2024-2029 by § 28-320.3.1.1: kWh x 0.000288962; natural gas
 * kBtu x 0.00005311; district steam kBtu x 0.00004493; #2 and #4 fuel oil kBtu x 0.00007421 and
 * 0.00007529.
 */
export function ll97Emissions2024To2029(energy: EnergyByType): Ll97Emissions {
  return ll97Emissions(energy, COEFFICIENTS_2024_2029);
}

/**
 * Emissions over the limit and the penalty at $268 a ton (§ 28-320.6), the penalty in exact
 * cents: the excess is taken to the kilogram first (as the answers show it), then x 26,800 cents.
 */
export function excessAndPenalty(emissionsTons: number, limitTons: number): { excessTons: number; penaltyCents: number } {
  const excessKg = Math.max(0, Math.round(emissionsTons * 1000) - Math.round(limitTons * 1000));
  // kg x 26,800 cents / 1000, rounded half up to the cent, in integers.
  const penaltyCents = Math.floor((excessKg * PENALTY_CENTS_PER_TON + 500) / 1000);
  return { excessTons: excessKg / 1000, penaltyCents };
}
