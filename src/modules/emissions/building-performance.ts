/**
 * Which building-performance standard a property falls under, and its answer for a year. Pure:
 * the service passes the property, its ZIP code's county (GeoNames) and its year of energy.
 */
import type { EnergyByType, Ll97CountedType } from './ll97.calc';
import { COEFFICIENTS_2030_2034, COEFFICIENTS_2030_2034_NOT_CONFIRMED, COEFFICIENTS_2030_2034_SOURCE } from './ll97-espm';
import { LIMIT_SOURCES, LIMITS_2024_2029, LIMITS_2030_2034, type LimitTable, type OccupancyGroup } from './occupancy';

export interface OccupancyArea {
  group: OccupancyGroup;
  sqft: number;
}
import {
  COEFFICIENTS_2024_2029,
  excessAndPenalty,
  ll97Emissions,
  ll97Emissions2024To2029,
  LL97_SOURCES,
  PENALTY_CENTS_PER_TON,
} from './ll97.calc';
import { roundTons } from './emissions.calc';
import { DENVER_SOURCES, energizeDenver, type EnergizeDenverAnswer } from './energize-denver.calc';
import type { PropertyUseArea } from './property-types';

/** § 28-320.3.1.1 gives coefficients for #2 and #4 fuel oil only (items 3 and 4). */
const NO_5_6_NOTE = 'Local Law 97 (§ 28-320.3.1.1) gives no coefficient for fuel oil No. 5 or No. 6: its energy is not counted.';

export type Jurisdiction = 'new_york_city' | 'boston' | 'denver';

/** The five counties (boroughs) of New York City as GeoNames names them. */
const NYC_COUNTIES = new Set(['New York', 'Kings', 'Queens', 'Bronx', 'Richmond']);

/** The jurisdiction of a property from its state, city and its ZIP code's county; null outside the three. */
export function jurisdictionOf(p: { state: string; city: string }, county: string | null): Jurisdiction | null {
  if (p.state === 'NY' && county !== null && NYC_COUNTIES.has(county)) return 'new_york_city';
  if (p.state === 'MA' && p.city.trim().toLowerCase() === 'boston') return 'boston';
  if (p.state === 'CO' && (county === 'Denver' || p.city.trim().toLowerCase() === 'denver')) return 'denver';
  return null;
}

const NOT_CONFIRMED = {
  boston: {
    standard: 'Boston BERDO 2.0 (Building Emissions Reduction and Disclosure Ordinance)',
    reason:
      "The ordinance's emissions standards per building use (City Code § 7-2.2, Table 1, kgCO2e/sf) were read, but not the city's " +
      "emission factors that a building's BERDO emissions are computed with, nor the alternative compliance payment amount, and " +
      'the property records no BERDO building use; nothing is computed and no number is guessed (emissions README)',
  },
} as const;

const DENVER_STANDARD = 'Energize Denver building performance requirements (Denver Revised Municipal Code ch. 10, art. XIV)';

const PERIOD_2030_COEFFICIENTS =
  'For 2030-2034 the law leaves the greenhouse gas coefficients to rule (§ 28-320.3.2.1): emissions by 1 RCNY § 103-14(d)(3)(ii), ' +
  'utility electricity 0.000145 tCO2e/kWh and natural gas 0.00005311 tCO2e/kBtu, read in public quotations of the rule (three ' +
  'independent sources each), not in the rule itself.';
/** Why 2030-2034 is not computed for a building using energy whose coefficient for the period is not confirmed (steam, fuel oil). */
const period2030NotConfirmed = (types: Ll97CountedType[]) =>
  "The rule's 2030-2034 coefficient is not confirmed for " +
  types
    .map((t) =>
      t in COEFFICIENTS_2030_2034_NOT_CONFIRMED
        ? COEFFICIENTS_2030_2034_NOT_CONFIRMED[t as keyof typeof COEFFICIENTS_2030_2034_NOT_CONFIRMED]
        : t,
    )
    .join('; ') +
  ": with that energy, the building's emissions, any excess and the penalty are not computed for this period.";
const PERIOD_2030_PROJECTION =
  "This year's energy against the 2030-2034 limit and coefficients: what the period would charge if the building used the same " +
  'energy then.';
const PERIOD_2030_LAW_LIMIT =
  "The limit shown is the law's own (§ 28-320.3.2 items 1 to 10, item 6 as amended by Local Law 147 of 2019). 1 RCNY § 103-14(c)(3) " +
  'sets limits per Portfolio Manager property type for this period, which reports from calendar year 2026 use; this property ' +
  "records occupancy groups only, so its limit under the rule can differ (an office's is lower, 0.002690852 tCO2e/sf against " +
  "group B's 0.00453, and its penalty higher than shown).";
const FROM_2026 =
  'The Department of Buildings has announced that reports from calendar year 2026 use limits per Portfolio Manager property type ' +
  "(1 RCNY § 103-14(c)(3)); this property records occupancy groups only, so this is the law's occupancy-group limit.";
const GIVEN_LIMIT = 'Excess and projected penalty are against the limit given in the request (limit_tco2e), not one this service computed.';
const NO_OCCUPANCY =
  "No occupancy groups are recorded for this property (PUT /pm/properties/{id}/occupancy): the limit is each group's " +
  'intensity limit times its gross floor area, so none is computed.';

export interface Ll97PeriodAnswer {
  period: '2024-2029' | '2030-2034';
  status: 'computed' | 'computed_with_given_limit' | 'no_occupancy' | 'not_confirmed' | 'outside_period';
  emissions_tco2e: number | null;
  emissions_lines: Array<{
    utility_type: string;
    energy: number;
    energy_unit: string;
    coefficient: number;
    coefficient_unit: string;
    tco2e: number;
  }>;
  not_covered: string[];
  gross_floor_area: number | null;
  limit_tco2e: number | null;
  limit_lines: Array<{
    occupancy_group: string;
    gross_floor_area: number;
    intensity_limit: number | null;
    tco2e: number | null;
    source: string | null;
  }>;
  excess_tco2e: number | null;
  penalty_per_ton: number;
  projected_penalty: number | null;
  notes: string[];
}

/** The limit of the recorded areas by one period's table: each group's intensity limit x its area, summed (null without areas). */
function limitOf(table: LimitTable, areas: OccupancyArea[]) {
  const lines = areas.map((a) => {
    const l = table[a.group];
    return {
      occupancy_group: a.group,
      gross_floor_area: a.sqft,
      intensity_limit: l.value,
      tco2e: roundTons(l.value * a.sqft),
      source: `${LIMIT_SOURCES[l.source]}: ${l.label}`,
    };
  });
  const limit = areas.length ? roundTons(areas.reduce((sum, a) => sum + table[a.group].value * a.sqft, 0)) : null;
  return { lines, limit };
}

/**
 * 2030-2034: the law's own limit of the recorded areas (or the limit given, when the year is in the
 * period) against the year's energy by the rule's 2030-2034 coefficients (1 RCNY § 103-14(d)(3)(ii),
 * as quoted); not computed when the year has steam, whose coefficient is not confirmed.
 */
function period2030(
  base: Omit<Ll97PeriodAnswer, 'period' | 'status' | 'notes'>,
  year: number,
  energy: EnergyByType,
  areas: OccupancyArea[],
  givenLimit: number | null,
): Ll97PeriodAnswer {
  const computed = limitOf(LIMITS_2030_2034, areas);
  const given = year >= 2030 && year <= 2034 ? givenLimit : null;
  const e = ll97Emissions(energy, COEFFICIENTS_2030_2034);
  const limitNote = areas.length ? [PERIOD_2030_LAW_LIMIT] : [];
  if (e.unconfirmed.length) {
    const notes = [period2030NotConfirmed(e.unconfirmed), ...(areas.length ? limitNote : [NO_OCCUPANCY])];
    return { ...base, period: '2030-2034', status: 'not_confirmed', limit_tco2e: computed.limit, limit_lines: computed.lines, notes };
  }
  const limit = given ?? computed.limit;
  const penalty = limit === null ? null : excessAndPenalty(e.tco2e, limit);
  const status: Ll97PeriodAnswer['status'] = given !== null ? 'computed_with_given_limit' : !areas.length ? 'no_occupancy' : 'computed';
  const notes = [
    PERIOD_2030_COEFFICIENTS,
    ...(year < 2030 || year > 2034 ? [PERIOD_2030_PROJECTION] : []),
    ...(given !== null ? [GIVEN_LIMIT] : !areas.length ? [NO_OCCUPANCY] : limitNote),
    ...(e.notCovered.includes('other') ? ["An 'other' meter's fuel is unknown: its energy is not counted."] : []),
    ...(e.notCovered.includes('fuel_oil_5_6') ? [NO_5_6_NOTE] : []),
  ];
  return {
    ...base,
    period: '2030-2034',
    status,
    emissions_tco2e: roundTons(e.tco2e),
    emissions_lines: e.lines.map((l) => ({ ...l, tco2e: roundTons(l.tco2e) })),
    not_covered: e.notCovered,
    limit_tco2e: limit,
    limit_lines: computed.lines,
    excess_tco2e: penalty?.excessTons ?? null,
    projected_penalty: penalty ? penalty.penaltyCents / 100 : null,
    notes,
  };
}

/**
 * LL97's answer for a calendar year of energy: the period the year falls in, computed as far as the
 * city's numbers are confirmed. The limit is the recorded occupancy areas' (area-weighted sum), or
 * `givenLimit` (the limit the owner's LL97 report states) when the request gives one.
 */
export function ll97Periods(
  year: number,
  energy: EnergyByType,
  grossFloorArea: number | null,
  areas: OccupancyArea[],
  givenLimit: number | null = null,
): Ll97PeriodAnswer[] {
  const base = {
    emissions_tco2e: null,
    emissions_lines: [],
    not_covered: [],
    gross_floor_area: grossFloorArea,
    limit_tco2e: null,
    limit_lines: [],
    excess_tco2e: null,
    penalty_per_ton: PENALTY_CENTS_PER_TON / 100,
    projected_penalty: null,
  };
  const second = period2030(base, year, energy, areas, givenLimit);
  if (year < 2024 || year > 2029)
    return [{ ...base, period: '2024-2029', status: 'outside_period', notes: [`${year} is not in 2024-2029.`] }, second];
  const e = ll97Emissions2024To2029(energy);
  const computed = limitOf(LIMITS_2024_2029, areas);
  const limit = givenLimit ?? computed.limit;
  const penalty = limit === null ? null : excessAndPenalty(e.tco2e, limit);
  const status: Ll97PeriodAnswer['status'] =
    givenLimit !== null ? 'computed_with_given_limit' : !areas.length ? 'no_occupancy' : 'computed';
  const notes = [
    ...(givenLimit !== null ? [GIVEN_LIMIT] : []),
    ...(givenLimit === null && !areas.length ? [NO_OCCUPANCY] : []),
    ...(year >= 2026 && givenLimit === null && computed.limit !== null ? [FROM_2026] : []),
    ...(e.notCovered.includes('other') ? ["An 'other' meter's fuel is unknown: its energy is not counted."] : []),
    ...(e.notCovered.includes('fuel_oil_5_6') ? [NO_5_6_NOTE] : []),
  ];
  return [
    {
      ...base,
      period: '2024-2029',
      status,
      emissions_tco2e: roundTons(e.tco2e),
      emissions_lines: e.lines.map((l) => ({ ...l, tco2e: roundTons(l.tco2e) })),
      not_covered: e.notCovered,
      limit_tco2e: limit,
      limit_lines: computed.lines,
      excess_tco2e: penalty?.excessTons ?? null,
      projected_penalty: penalty ? penalty.penaltyCents / 100 : null,
      notes,
    },
    second,
  ];
}

export interface BuildingPerformanceAnswer {
  jurisdiction: Jurisdiction | null;
  applies: boolean;
  message: string;
  standards: StandardAnswer[];
}

export interface StandardAnswer {
  standard: string;
  status: 'partly_confirmed' | 'not_confirmed';
  reason: string | null;
  periods: Ll97PeriodAnswer[];
  sources: string[];
  /** Denver only: the year's site EUI against the final target blended over the recorded property uses. */
  energize_denver?: EnergizeDenverAnswer;
}

/** Energize Denver's answer: the year's site EUI against the final target blended over the property uses. */
function denverAnswer(year: number, energy: EnergyByType, where: string, uses: PropertyUseArea[]): BuildingPerformanceAnswer {
  return {
    jurisdiction: 'denver',
    applies: true,
    message:
      `Energize Denver applies at ${where} to a building of 25,000 gross sf or more: ${year}'s site EUI against the final target ` +
      "blended over the property's Portfolio Manager uses, by the city's published targets.",
    standards: [
      {
        standard: DENVER_STANDARD,
        status: 'partly_confirmed',
        reason:
          "Final site EUI targets from the city's published table (types Adult Education to Other - Mall), blended by area; the site " +
          "EUI is not weather normalized; interim targets (from each building's 2019 baseline) and the penalty rates set by rule are " +
          'not confirmed, so no penalty is projected',
        periods: [],
        sources: Object.values(DENVER_SOURCES),
        energize_denver: energizeDenver(year, energy, uses),
      },
    ],
  };
}

/** The building-performance answer of a property for a year. */
export function buildingPerformance(
  jurisdiction: Jurisdiction | null,
  year: number,
  energy: EnergyByType,
  grossFloorArea: number | null,
  where: string,
  areas: OccupancyArea[] = [],
  givenLimit: number | null = null,
  uses: PropertyUseArea[] = [],
): { jurisdiction: Jurisdiction | null; applies: boolean; message: string; standards: StandardAnswer[] } {
  if (jurisdiction === null) {
    return {
      jurisdiction,
      applies: false,
      standards: [],
      message:
        `No building-performance standard known to this service applies at ${where}: it covers New York City's Local Law 97 ` +
        "and Energize Denver's site EUI targets (and names Boston's BERDO 2.0, whose numbers are not confirmed).",
    };
  }
  if (jurisdiction === 'denver') return denverAnswer(year, energy, where, uses);
  if (jurisdiction !== 'new_york_city') {
    const s = NOT_CONFIRMED[jurisdiction];
    return {
      jurisdiction,
      applies: true,
      message: `${s.standard} applies at ${where}; its numbers are not confirmed.`,
      standards: [{ standard: s.standard, status: 'not_confirmed', reason: s.reason, periods: [], sources: [] }],
    };
  }
  return {
    jurisdiction,
    applies: true,
    message:
      `New York City's Local Law 97 applies at ${where} to a covered building (over 25,000 gross sf, with exceptions): ` +
      `${year} against its limits, by the law's own coefficients and limits (for 2030-2034, the coefficients of the rule the law ` +
      'leaves them to, as quoted).',
    standards: [
      {
        standard: 'New York City Local Law 97 of 2019 (Administrative Code § 28-320)',
        status: 'partly_confirmed',
        reason:
          '2024-2029: coefficients, occupancy-group limits (§ 28-320.3.1 items 1 to 10) and penalty from the law; 2030-2034: the ' +
          "law's occupancy-group limits (§ 28-320.3.2 items 1 to 10) and the rule's electricity and gas coefficients (1 RCNY " +
          '§ 103-14(d)(3)(ii), as quoted by three independent sources); its steam coefficient is not confirmed',
        periods: ll97Periods(year, energy, grossFloorArea, areas, givenLimit),
        sources: [
          `${LL97_SOURCES.coefficients}: ${Object.values(COEFFICIENTS_2024_2029)
            .map((c) => `${c.item} ${c.value} ${c.unit}`)
            .join('; ')}`,
          LL97_SOURCES.penalty,
          LL97_SOURCES.limits,
          LIMIT_SOURCES.law2024,
          LIMIT_SOURCES.dob,
          LIMIT_SOURCES.sustainable,
          LIMIT_SOURCES.law2030,
          COEFFICIENTS_2030_2034_SOURCE,
        ],
      },
    ],
  };
}
