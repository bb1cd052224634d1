/**
 * Boston BERDO 2.0 (City of Boston Code § 7-2.2): a building's emissions by the city's factors, its
 * area-weighted (blended) emissions standard, the excess and the alternative compliance payment.
 * Pure, no I/O. The numbers are in berdo.data.ts (re-exported here), each cited in the emissions README ("Boston BERDO 2.0"); where
 * one is missing the answer is `not_confirmed` and names exactly what is missing.
 */
import {
  BERDO_ACP_CENTS_PER_TON,
  BERDO_EMISSIONS_STANDARDS,
  BERDO_FACTOR_YEARS,
  BERDO_FACTORS,
  BERDO_PERIODS,
  BERDO_STANDARDS_TENTHS,
  PM_TYPE_TO_BERDO_USE,
  type BerdoBuildingUse,
  type BerdoPeriod,
} from './berdo.data';

export * from './berdo.data';

/** The compliance period a calendar year falls in; null before 2025 (Table 1 sets no standard). */
export function berdoPeriodOf(year: number): { period: BerdoPeriod; index: number } | null {
  if (year < 2025) return null;
  const index = Math.min(Math.floor((year - 2025) / 5), BERDO_PERIODS.length - 1);
  return { period: BERDO_PERIODS[index], index };
}

/** A building use's emissions standard for a year, kgCO2e/sf/yr (Table 1); null before 2025. */
export function berdoStandard(use: BerdoBuildingUse, year: number): number | null {
  const p = berdoPeriodOf(year);
  return p ? BERDO_EMISSIONS_STANDARDS[use][p.index] : null;
}

const BY_LOWER_CASE = new Map(Object.entries(PM_TYPE_TO_BERDO_USE).map(([t, use]) => [t.toLowerCase(), { propertyType: t, use }]));

/** The BERDO building use of a Portfolio Manager type (case and outer spaces ignored); null where not confirmed. */
export function berdoUseOf(propertyType: string): { propertyType: string; use: BerdoBuildingUse } | null {
  return BY_LOWER_CASE.get(propertyType.trim().toLowerCase()) ?? null;
}

/**
 * Massachusetts RPS Class I minimum, per cent of retail sales, for a calendar year (M.G.L. c. 25A
 * § 11F(a)): 1 by 2003; then +0.5 a year to 2009, +1 to 2019, +2 to 2024, +3 to 2029, +1 every year
 * after. Null before 2003.
 */
export function rpsClassIPercent(year: number): number | null {
  if (year < 2003) return null;
  const steps: Array<[lastYear: number, perYear: number]> = [
    [2009, 0.5],
    [2019, 1],
    [2024, 2],
    [2029, 3],
    [Infinity, 1],
  ];
  let percent = 1;
  let previous = 2003;
  for (const [lastYear, perYear] of steps) {
    const until = Math.min(year, lastYear);
    percent += (until - previous) * perYear;
    if (year <= lastYear) break;
    previous = lastYear;
  }
  return percent;
}

export interface BerdoAssessmentInput {
  /** The building's Portfolio Manager property uses and their gross floor areas (sf). */
  uses: Array<{ propertyType: string; grossFloorArea: number }>;
  /** The calendar year assessed. */
  year: number;
  /**
   * The year's energy: electricity in kWh, natural gas in therms, district steam in kBtu; fuel oil
   * (No. 2, No. 4, No. 5 and 6) and an `other` meter's unknown fuel in kBtu, whose BERDO factors are
   * not confirmed (a year with any of them is `not_confirmed`, naming it).
   */
  energy: {
    electricKwh: number;
    gasTherms: number;
    steamKbtu: number;
    fuelOil2Kbtu?: number;
    fuelOil4Kbtu?: number;
    fuelOil56Kbtu?: number;
    otherKbtu?: number;
  };
}

export interface BerdoEmissionLine {
  fuel: 'electricity' | 'natural_gas' | 'district_steam';
  energy: number;
  energyUnit: 'kWh' | 'therms' | 'kBtu';
  /** kgCO2e/MWh (electricity, before the RPS share is taken off) or kgCO2e/MMBtu. */
  factor: number;
  factorUnit: 'kgCO2e/MWh' | 'kgCO2e/MMBtu';
  /** Electricity only: the RPS Class I share (per cent) taken off, U x (1 - R) x E. */
  rpsClassIPercent?: number;
  tco2e: number;
}

export interface BerdoLimitLine {
  propertyType: string;
  berdoUse: BerdoBuildingUse;
  grossFloorArea: number;
  standardKgPerSf: number;
  tco2e: number;
}

export type BerdoAssessment =
  | {
      status: 'computed';
      year: number;
      period: BerdoPeriod;
      emissionsTco2e: number;
      emissionLines: BerdoEmissionLine[];
      grossFloorArea: number;
      /** The area-weighted standard, limit / gross floor area, kgCO2e/sf (to 4 decimals). */
      blendedStandardKgPerSf: number;
      limitTco2e: number;
      limitLines: BerdoLimitLine[];
      excessTco2e: number;
      acpDollarsPerTon: number;
      /** The alternative compliance payment for the excess, in cents (excess to the kilogram x $234). */
      acpCents: number;
    }
  | { status: 'not_confirmed'; year: number; period: BerdoPeriod; missing: string[] }
  | { status: 'no_standard'; year: number; reason: string };

function validate(input: BerdoAssessmentInput): void {
  const { uses, year, energy } = input;
  if (!Number.isInteger(year)) throw new RangeError(`year must be an integer, got ${year}`);
  if (!Array.isArray(uses) || uses.length === 0) throw new RangeError('uses must list at least one property use');
  for (const u of uses) {
    if (typeof u.propertyType !== 'string' || u.propertyType.trim() === '') throw new RangeError('each use needs a propertyType');
    if (!Number.isFinite(u.grossFloorArea) || u.grossFloorArea <= 0) {
      throw new RangeError(`grossFloorArea of "${u.propertyType}" must be a positive number, got ${u.grossFloorArea}`);
    }
  }
  for (const [k, v] of Object.entries(energy)) {
    if (v === undefined) continue;
    if (!Number.isFinite(v) || v < 0) throw new RangeError(`energy.${k} must be a number >= 0, got ${v}`);
  }
}

/** The uses merged by property type (case-insensitively, areas summed), in first-seen order. */
function mergedUses(uses: BerdoAssessmentInput['uses']): Array<{ propertyType: string; grossFloorArea: number }> {
  const byKey = new Map<string, { propertyType: string; grossFloorArea: number }>();
  for (const u of uses) {
    const key = u.propertyType.trim().toLowerCase();
    const seen = byKey.get(key);
    if (seen) seen.grossFloorArea += u.grossFloorArea;
    else
      byKey.set(key, { propertyType: berdoUseOf(u.propertyType)?.propertyType ?? u.propertyType.trim(), grossFloorArea: u.grossFloorArea });
  }
  return [...byKey.values()];
}

/** Fuels a meter can carry whose BERDO emission factor is not confirmed in any year, with why. */
const UNCONFIRMED_FUELS = [
  ['fuelOil2Kbtu', 'fuel oil No. 2'],
  ['fuelOil4Kbtu', 'fuel oil No. 4'],
  ['fuelOil56Kbtu', 'fuel oil No. 5 and 6'],
] as const;

/** Exactly what a year's emissions need that is not confirmed: a factor for each fuel used. */
function missingFactors(year: number, energy: BerdoAssessmentInput['energy']): string[] {
  const missing: string[] = [];
  if (!BERDO_FACTOR_YEARS.includes(year)) {
    const list = `BERDO Emissions Factors List, confirmed only for ${BERDO_FACTOR_YEARS.join(' and ')}`;
    if (energy.electricKwh > 0) missing.push(`projected grid emission factor for ${year} (${list})`);
    if (energy.gasTherms > 0) missing.push(`natural gas emission factor for ${year} (${list})`);
    if (energy.steamKbtu > 0) missing.push(`district steam emission factor for ${year} (${list})`);
  }
  for (const [key, fuel] of UNCONFIRMED_FUELS) {
    if ((energy[key] ?? 0) > 0) {
      missing.push(`${fuel} emission factor (BERDO Emissions Factors List: its fuel oil factors are not confirmed by two sources)`);
    }
  }
  if ((energy.otherKbtu ?? 0) > 0) missing.push("emission factor of an 'other' meter's energy (its fuel is unknown)");
  return missing;
}

/** Exactly what the blended standard needs that is not confirmed: unmapped types, uses under 10 %. */
function missingForLimit(uses: Array<{ propertyType: string; grossFloorArea: number }>): string[] {
  const total = uses.reduce((s, u) => s + u.grossFloorArea, 0);
  const missing: string[] = [];
  for (const u of uses) {
    if (!berdoUseOf(u.propertyType)) missing.push(`BERDO building use of the Portfolio Manager type "${u.propertyType}"`);
    if (uses.length > 1 && u.grossFloorArea * 10 < total) {
      const pct = Math.round((u.grossFloorArea / total) * 1000) / 10;
      missing.push(
        `whether "${u.propertyType}" (${pct} % of the gross floor area, under the ordinance's 10 %) counts in the blended ` +
          'standard: a use under 10 % of the floor area is a primary use only with 10 % of the energy or emissions, and the ' +
          'treatment of one that is not could not be confirmed',
      );
    }
  }
  return missing;
}

const roundKg = (kg: number) => Math.round(kg);

function emissionsOf(year: number, energy: BerdoAssessmentInput['energy']): { kg: number; lines: BerdoEmissionLine[] } {
  const r = rpsClassIPercent(year) as number;
  const grid = BERDO_FACTORS.gridKgPerMwh[year];
  // kg = kWh x (100 - R) x E / 100,000; therms x 0.1 MMBtu x 53.11; kBtu / 1000 x 66.40 (hundredths kept integral).
  const gasHundredths = Math.round(BERDO_FACTORS.gasKgPerMmbtu * 100);
  const steamHundredths = Math.round(BERDO_FACTORS.steamKgPerMmbtu * 100);
  const parts: Array<[BerdoEmissionLine, number]> = [];
  if (energy.electricKwh > 0) {
    const kg = (energy.electricKwh * (100 - r) * grid) / 100_000;
    parts.push([
      {
        fuel: 'electricity',
        energy: energy.electricKwh,
        energyUnit: 'kWh',
        factor: grid,
        factorUnit: 'kgCO2e/MWh',
        rpsClassIPercent: r,
        tco2e: 0,
      },
      kg,
    ]);
  }
  /** A fuel BERDO counts per MMBtu (gas, steam): its line without tons, and its kg. */
  const perMmbtu = (
    fuel: 'natural_gas' | 'district_steam',
    used: number,
    energyUnit: 'therms' | 'kBtu',
    factor: number,
    kg: number,
  ): [BerdoEmissionLine, number] => [{ fuel, energy: used, energyUnit, factor, factorUnit: 'kgCO2e/MMBtu', tco2e: 0 }, kg];
  if (energy.gasTherms > 0)
    parts.push(perMmbtu('natural_gas', energy.gasTherms, 'therms', BERDO_FACTORS.gasKgPerMmbtu, (energy.gasTherms * gasHundredths) / 1000));
  if (energy.steamKbtu > 0)
    parts.push(
      perMmbtu('district_steam', energy.steamKbtu, 'kBtu', BERDO_FACTORS.steamKgPerMmbtu, (energy.steamKbtu * steamHundredths) / 100_000),
    );
  const lines = parts.map(([line, kg]) => ({ ...line, tco2e: roundKg(kg) / 1000 }));
  return { kg: parts.reduce((s, [, kg]) => s + kg, 0), lines };
}

function limitOf(index: number, uses: Array<{ propertyType: string; grossFloorArea: number }>): { kg: number; lines: BerdoLimitLine[] } {
  let kg = 0;
  const lines = uses.map((u) => {
    const use = (berdoUseOf(u.propertyType) as { use: BerdoBuildingUse }).use;
    const tenths = BERDO_STANDARDS_TENTHS[use][index];
    const lineKg = (tenths * u.grossFloorArea) / 10;
    kg += lineKg;
    return {
      propertyType: u.propertyType,
      berdoUse: use,
      grossFloorArea: u.grossFloorArea,
      standardKgPerSf: tenths / 10,
      tco2e: roundKg(lineKg) / 1000,
    };
  });
  return { kg, lines };
}

/**
 * A building's BERDO year: emissions (electricity U x (1 - R) x E, gas and steam by the list's
 * factors), the limit (each use's Table 1 standard x its gross floor area, summed: the blended,
 * area-weighted standard), the excess to the kilogram and the ACP at $234 a ton, rounded half up to
 * the cent. Throws RangeError on input no caller should pass (validate at the API edge first).
 */
export function berdoAssessment(input: BerdoAssessmentInput): BerdoAssessment {
  validate(input);
  const { year, energy } = input;
  const p = berdoPeriodOf(year);
  if (!p) return { status: 'no_standard', year, reason: 'Table 1 of § 7-2.2 sets emissions standards from 2025 only' };
  const uses = mergedUses(input.uses);
  const missing = [...missingForLimit(uses), ...missingFactors(year, energy)];
  if (missing.length > 0) return { status: 'not_confirmed', year, period: p.period, missing };

  const emissions = emissionsOf(year, energy);
  const limit = limitOf(p.index, uses);
  const area = uses.reduce((s, u) => s + u.grossFloorArea, 0);
  const excessKg = Math.max(0, roundKg(emissions.kg) - roundKg(limit.kg));
  return {
    status: 'computed',
    year,
    period: p.period,
    emissionsTco2e: roundKg(emissions.kg) / 1000,
    emissionLines: emissions.lines,
    grossFloorArea: area,
    blendedStandardKgPerSf: Math.round((limit.kg / area) * 10_000) / 10_000,
    limitTco2e: roundKg(limit.kg) / 1000,
    limitLines: limit.lines,
    excessTco2e: excessKg / 1000,
    acpDollarsPerTon: BERDO_ACP_CENTS_PER_TON / 100,
    // kg x 23,400 cents / 1000, rounded half up to the cent, in integers.
    acpCents: Math.floor((excessKg * BERDO_ACP_CENTS_PER_TON + 500) / 1000),
  };
}
