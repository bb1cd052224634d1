/**
 * Which building-performance standard a property falls under, and its answer for a year. Pure:
 * the service passes the property, its ZIP code's county (GeoNames) and its year of energy.
 */
import { COEFFICIENTS_2024_2029, LL97_SOURCES, type EnergyByType } from './ll97.calc';
import { COEFFICIENTS_2030_2034_SOURCE } from './ll97-espm';
import { LIMIT_SOURCES } from './occupancy';
import { DENVER_SOURCES, energizeDenver, type EnergizeDenverAnswer } from './energize-denver.calc';
import type { PropertyUseArea } from './property-types';
import { BERDO_SOURCES } from './berdo.calc';
import { berdoAnswer, type BerdoAnswer } from './berdo.answer';
import { ESPM_LIMITS_SOURCE, ll97Periods, type Ll97PeriodAnswer, type OccupancyArea } from './ll97.periods';

export { ll97Periods, type LimitBasis, type LimitLine, type Ll97PeriodAnswer, type OccupancyArea } from './ll97.periods';
export { berdoAnswer, type BerdoAnswer } from './berdo.answer';

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

/** The jurisdiction of a property at its ZIP code, whose county `counties` gives (GeoNames, bundledZipCounties). */
export const jurisdictionAt = (p: { state: string; city: string; zipCode: string }, counties: ReadonlyMap<string, { county: string }>) =>
  jurisdictionOf(p, counties.get(p.zipCode)?.county ?? null);

/** How an answer names the property's place, its `where` ("Brooklyn, NY 11201"). */
export const placeOf = (p: { city: string; state: string; zipCode: string }) => `${p.city}, ${p.state} ${p.zipCode}`;

/** New York City's answer: the message at `where` for `year`, the standard, and what of it is confirmed. */
export const ll97Applies = (where: string, year: number) =>
  `New York City's Local Law 97 applies at ${where} to a covered building (over 25,000 gross sf, with exceptions): ` +
  `${year} against its limits, by the law's own coefficients and limits (for 2030-2034, the coefficients of the rule the law ` +
  'leaves them to, as quoted).';
export const LL97_STANDARD = 'New York City Local Law 97 of 2019 (Administrative Code § 28-320)';
export const LL97_CONFIRMED =
  '2024-2029: coefficients, occupancy-group limits (§ 28-320.3.1 items 1 to 10) and penalty from the law; 2030-2034: the ' +
  "law's occupancy-group limits (§ 28-320.3.2 items 1 to 10) and the rule's electricity and gas coefficients (1 RCNY " +
  '§ 103-14(d)(3)(ii), as quoted by three independent sources); its steam coefficient is not confirmed';

const BOSTON_STANDARD = 'Boston BERDO 2.0 (Building Emissions Reduction and Disclosure Ordinance, City of Boston Code § 7-2.2)';

const DENVER_STANDARD = 'Energize Denver building performance requirements (Denver Revised Municipal Code ch. 10, art. XIV)';

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
  /** Boston only: the year's BERDO emissions against the standard blended over the recorded property uses, and the ACP. */
  berdo?: BerdoAnswer;
}

/** Boston's answer: BERDO 2.0 computed where its numbers are confirmed. */
function bostonAnswer(year: number, energy: EnergyByType, where: string, uses: PropertyUseArea[]): BuildingPerformanceAnswer {
  const berdo = berdoAnswer(year, energy, uses);
  return {
    jurisdiction: 'boston',
    applies: true,
    message:
      `Boston's BERDO 2.0 applies at ${where} to a covered building: ${year}'s emissions by the city's factors against the ` +
      "emissions standard blended over the property's Portfolio Manager uses, and the alternative compliance payment on the excess.",
    standards: [
      {
        standard: BOSTON_STANDARD,
        status: berdo.status === 'not_confirmed' ? 'not_confirmed' : 'partly_confirmed',
        reason:
          "Table 1's emissions standards (law), the city's emission factors for 2025 and 2026 and the $234 alternative compliance " +
          'payment (secondary sources, two or more each), the Portfolio Manager types two independent calculators map alike; ' +
          'other years, other types and fuel oil are not confirmed',
        periods: [],
        sources: Object.values(BERDO_SOURCES),
        berdo,
      },
    ],
  };
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
        `No building-performance standard known to this service applies at ${where}: it covers New York City's Local Law 97, ` +
        "Boston's BERDO 2.0 and Energize Denver's site EUI targets.",
    };
  }
  if (jurisdiction === 'denver') return denverAnswer(year, energy, where, uses);
  if (jurisdiction === 'boston') return bostonAnswer(year, energy, where, uses);
  return {
    jurisdiction,
    applies: true,
    message: ll97Applies(where, year),
    standards: [
      {
        standard: LL97_STANDARD,
        status: 'partly_confirmed',
        reason:
          LL97_CONFIRMED +
          (uses.length
            ? "; with the property's uses recorded, the rule's limits per Portfolio Manager property type (1 RCNY § 103-14(c)(3), as " +
              'quoted by three independent sources) from calendar year 2026 and for 2030-2034, and for 2024-2025 the higher of the two'
            : ''),
        periods: ll97Periods(year, energy, grossFloorArea, areas, givenLimit, uses),
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
          ...(uses.length ? [ESPM_LIMITS_SOURCE] : []),
        ],
      },
    ],
  };
}
