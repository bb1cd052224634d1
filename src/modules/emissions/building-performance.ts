/**
 * Which building-performance standard a property falls under, and its answer for a year. Pure:
 * the service passes the property, its ZIP code's county (GeoNames) and its year of energy.
 */
import type { EnergyByType } from './ll97.calc';
import { COEFFICIENTS_2024_2029, excessAndPenalty, ll97Emissions2024To2029, LL97_SOURCES, PENALTY_CENTS_PER_TON } from './ll97.calc';
import { roundTons } from './emissions.calc';

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
    reason: "BERDO 2.0's emissions standards and its alternative compliance payment could not be confirmed from the ordinance or the "
      + "city's published regulations in the sources available; no limit is guessed",
  },
  denver: {
    standard: 'Energize Denver building performance requirements',
    reason: "Energize Denver's site EUI targets and penalties could not be confirmed from the city's published rules in the sources "
      + 'available; no target is guessed',
  },
} as const;

const LIMIT_2024_NOT_CONFIRMED = 'The 2024-2029 building emissions intensity limits of § 28-320.3.1 (per occupancy group) could not be '
  + 'read from the law\'s text in the sources available on 2026-11-28, so no limit, excess or penalty is given: none is guessed. The '
  + 'emissions by the law\'s own coefficients are given, to compare with the limit the building\'s registered design professional reports.';
const PERIOD_2030_NOT_CONFIRMED = 'For 2030-2034 the coefficients are set by rule (1 RCNY § 103-14) and the rule replaces the '
  + "law's occupancy-group limits with limits per Portfolio Manager property type; neither could be confirmed from the rule's text in "
  + 'the sources available, so nothing is computed for this period.';

export interface Ll97PeriodAnswer {
  period: '2024-2029' | '2030-2034';
  status: 'limit_not_confirmed' | 'computed_with_given_limit' | 'not_confirmed' | 'outside_period';
  emissions_tco2e: number | null;
  emissions_lines: Array<{ utility_type: string; energy: number; energy_unit: string; coefficient: number; coefficient_unit: string; tco2e: number }>;
  not_covered: string[];
  gross_floor_area: number | null;
  limit_tco2e: number | null;
  excess_tco2e: number | null;
  penalty_per_ton: number;
  projected_penalty: number | null;
  notes: string[];
}

const GIVEN_LIMIT = 'Excess and projected penalty are against the limit given in the request (limit_tco2e), not one this service computed.';

/**
 * LL97's answer for a calendar year of energy: the period the year falls in is computed as far as
 * the law's numbers are confirmed; with `givenLimit` (the limit the owner's LL97 report states), also
 * the excess and the projected penalty.
 */
export function ll97Periods(year: number, energy: EnergyByType, grossFloorArea: number | null, givenLimit: number | null = null): Ll97PeriodAnswer[] {
  const base = {
    emissions_tco2e: null, emissions_lines: [], not_covered: [], gross_floor_area: grossFloorArea, limit_tco2e: null,
    excess_tco2e: null, penalty_per_ton: PENALTY_CENTS_PER_TON / 100, projected_penalty: null,
  };
  const first: Ll97PeriodAnswer = year >= 2024 && year <= 2029
    ? (() => {
      const e = ll97Emissions2024To2029(energy);
      const penalty = givenLimit === null ? null : excessAndPenalty(e.tco2e, givenLimit);
      return {
        ...base, period: '2024-2029' as const, status: penalty ? 'computed_with_given_limit' as const : 'limit_not_confirmed' as const,
        emissions_tco2e: roundTons(e.tco2e),
        emissions_lines: e.lines.map((l) => ({ ...l, tco2e: roundTons(l.tco2e) })), not_covered: e.notCovered,
        limit_tco2e: givenLimit, excess_tco2e: penalty?.excessTons ?? null, projected_penalty: penalty ? penalty.penaltyCents / 100 : null,
        notes: [
          LIMIT_2024_NOT_CONFIRMED, ...(penalty ? [GIVEN_LIMIT] : []),
          ...(e.notCovered.length ? ["An 'other' meter's fuel is unknown: its energy is not counted."] : []),
        ],
      };
    })()
    : { ...base, period: '2024-2029', status: 'outside_period', notes: [`${year} is not in 2024-2029.`] };
  const second: Ll97PeriodAnswer = { ...base, period: '2030-2034', status: 'not_confirmed', notes: [PERIOD_2030_NOT_CONFIRMED] };
  return [first, second];
}

export interface StandardAnswer {
  standard: string;
  status: 'partly_confirmed' | 'not_confirmed';
  reason: string | null;
  periods: Ll97PeriodAnswer[];
  sources: string[];
}

/** The building-performance answer of a property for a year. */
export function buildingPerformance(
  jurisdiction: Jurisdiction | null, year: number, energy: EnergyByType, grossFloorArea: number | null, where: string, givenLimit: number | null = null,
): { jurisdiction: Jurisdiction | null; applies: boolean; message: string; standards: StandardAnswer[] } {
  if (jurisdiction === null) {
    return {
      jurisdiction, applies: false, standards: [],
      message: `No building-performance standard known to this service applies at ${where}: it covers New York City's Local Law 97 `
        + "(and names Boston's BERDO 2.0 and Energize Denver, whose numbers are not confirmed).",
    };
  }
  if (jurisdiction !== 'new_york_city') {
    const s = NOT_CONFIRMED[jurisdiction];
    return {
      jurisdiction, applies: true, message: `${s.standard} applies at ${where}; its numbers are not confirmed.`,
      standards: [{ standard: s.standard, status: 'not_confirmed', reason: s.reason, periods: [], sources: [] }],
    };
  }
  return {
    jurisdiction, applies: true,
    message: `New York City's Local Law 97 applies at ${where} to a covered building; ${year}'s emissions by the law's coefficients `
      + 'are given, its limit is not confirmed.',
    standards: [{
      standard: 'New York City Local Law 97 of 2019 (Administrative Code § 28-320)',
      status: 'partly_confirmed',
      reason: null,
      periods: ll97Periods(year, energy, grossFloorArea, givenLimit),
      sources: [
        `${LL97_SOURCES.coefficients}: ${Object.values(COEFFICIENTS_2024_2029).map((c) => `${c.item} ${c.value} ${c.unit}`).join('; ')}`,
        LL97_SOURCES.penalty,
        LL97_SOURCES.limits,
      ],
    }],
  };
}
