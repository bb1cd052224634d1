/**
 * New York City Local Law 97's answer per compliance period for a calendar year of energy: the
 * year's emissions by the period's coefficients against the building's limit (the rule's per
 * recorded property use, or the law's per recorded occupancy group, or the limit given), the excess
 * and the projected penalty. Pure (README "Local Law 97").
 */
import {
  excessAndPenalty,
  ll97Emissions,
  ll97Emissions2024To2029,
  PENALTY_CENTS_PER_TON,
  type EnergyByType,
  type Ll97CountedType,
  type Ll97Emissions,
  type Ll97EmissionsLine,
} from './ll97.calc';
import { COEFFICIENTS_2030_2034, COEFFICIENTS_2030_2034_NOT_CONFIRMED, ESPM_READ_AS, ESPM_RULE, espmLimit, espmNameOf } from './ll97-espm';
import { LIMIT_SOURCES, LIMITS_2024_2029, LIMITS_2030_2034, type LimitTable, type OccupancyGroup } from './occupancy';
import { roundTons } from './emissions.calc';
import type { PropertyUseArea } from './property-types';

export interface OccupancyArea {
  group: OccupancyGroup;
  sqft: number;
}

/** § 28-320.3.1.1 gives coefficients for #2 and #4 fuel oil only (items 3 and 4). */
const NO_5_6_NOTE = 'Local Law 97 (§ 28-320.3.1.1) gives no coefficient for fuel oil No. 5 or No. 6: its energy is not counted.';

/** Where the limits per property type were read (an answer's sources, when the property records its uses). */
export const ESPM_LIMITS_SOURCE = `${ESPM_RULE} (c)(3): building emissions limits per Portfolio Manager property type; ${ESPM_READ_AS}`;

const PERIOD_2030_COEFFICIENTS =
  'For 2030-2034 the law leaves the greenhouse gas coefficients to rule (§ 28-320.3.2.1): emissions by 1 RCNY § 103-14(d)(3)(ii), ' +
  'utility electricity 0.000145 tCO2e/kWh and natural gas 0.00005311 tCO2e/kBtu, read in public quotations of the rule (three ' +
  'independent sources each), not in the rule itself.';
const NOT_CONFIRMED_2030: Partial<Record<Ll97CountedType, string>> = COEFFICIENTS_2030_2034_NOT_CONFIRMED;
/** Why 2030-2034 is not computed for a building using energy whose coefficient for the period is not confirmed (steam, fuel oil). */
const period2030NotConfirmed = (types: Ll97CountedType[]) =>
  "The rule's 2030-2034 coefficient is not confirmed for " +
  types.map((t) => NOT_CONFIRMED_2030[t] ?? t).join('; ') +
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
  "(1 RCNY § 103-14(c)(3)); this property records occupancy groups only, so this is the law's occupancy-group limit. Record its " +
  'property uses (PUT /pm/properties/{id}/property-uses) for the limit by property type.';
const GIVEN_LIMIT = 'Excess and projected penalty are against the limit given in the request (limit_tco2e), not one this service computed.';
const NO_OCCUPANCY =
  'No occupancy groups are recorded for this property (PUT /pm/properties/{id}/occupancy), nor property uses ' +
  "(PUT /pm/properties/{id}/property-uses): the limit is each group's or use's intensity limit times its gross floor area, so " +
  'none is computed.';
const RULE_LIMITS =
  "1 RCNY § 103-14(c)(3)'s limits per Portfolio Manager property type, each use's intensity limit times its gross floor area, " +
  'summed (read in public quotations of the rule, three independent sources each, not in the rule itself)';
const FROM_2026_BY_TYPE =
  'From calendar year 2026 all owners report with Portfolio Manager property types (NYC Sustainable Buildings; the Department ' +
  `of Buildings' announcement): the limit is ${RULE_LIMITS}.`;
const PERIOD_2030_BY_TYPE =
  'For 2030-2034, reported with Portfolio Manager property types as every report from calendar year 2026 is, the limit is ' +
  `${RULE_LIMITS}.`;
const ONLY_TYPES_2024_2025 =
  'For calendar years 2024 and 2025 an owner whose limit the rule lowered may report with occupancy groups instead ' +
  '(NYC Sustainable Buildings); none are recorded (PUT /pm/properties/{id}/occupancy), so the limit is by the recorded property ' +
  `uses: ${RULE_LIMITS}.`;
const tonsText = (t: number) => `${t.toLocaleString('en-US', { maximumFractionDigits: 3 })} t`;
/** For 2024 and 2025 with both recorded: the owner's choice, the higher (more lenient) limit. */
const chosen2024To2025 = (groups: number, types: number, basis: 'occupancy_groups' | 'property_types') =>
  'For calendar years 2024 and 2025 an owner may report with occupancy groups or with Portfolio Manager property types ' +
  `(NYC Sustainable Buildings); the higher, more lenient limit is used: ${
    basis === 'occupancy_groups' ? 'occupancy groups' : 'property types'
  } (occupancy groups ${tonsText(groups)} by § 28-320.3.1; property types ${tonsText(types)} by ${RULE_LIMITS}).`;
/** A recorded use whose type has no confirmed limit: the limit is not given (the other uses' sum would understate it). */
const typesNotConfirmed = (period: string, types: string[]) =>
  `No confirmed ${period} limit under 1 RCNY § 103-14(c)(3) for the recorded property use${types.length > 1 ? 's' : ''} ` +
  `${types.map((t) => `"${t}"`).join(', ')}: the rule's table as quoted has 60 types (it has none for "Mixed Use Property" or ` +
  '"Other": record each use by its own type). The limit, excess and penalty are not given: the other uses\' limits alone would ' +
  'understate the limit.';

export interface Ll97PeriodAnswer {
  period: '2024-2029' | '2030-2034';
  status: 'computed' | 'computed_with_given_limit' | 'no_occupancy' | 'limit_not_confirmed' | 'not_confirmed' | 'outside_period';
  emissions_tco2e: number | null;
  emissions_lines: Ll97EmissionsLine[];
  not_covered: string[];
  gross_floor_area: number | null;
  limit_tco2e: number | null;
  /** What the limit is from: the rule's property types, the law's occupancy groups, or the limit given in the request. */
  limit_basis: LimitBasis | null;
  limit_lines: LimitLine[];
  excess_tco2e: number | null;
  penalty_per_ton: number;
  projected_penalty: number | null;
  notes: string[];
}

export type LimitBasis = 'property_types' | 'occupancy_groups' | 'given';

/** One occupancy group's or one property use's part of the limit. */
export interface LimitLine {
  occupancy_group: string | null;
  property_type: string | null;
  gross_floor_area: number;
  intensity_limit: number | null;
  tco2e: number | null;
  source: string | null;
}

/** The limit of the recorded areas by one period's table: each group's intensity limit x its area, summed (null without areas). */
function limitOf(table: LimitTable, areas: OccupancyArea[]): { lines: LimitLine[]; limit: number | null } {
  const lines = areas.map((a) => {
    const l = table[a.group];
    return {
      occupancy_group: a.group,
      property_type: null,
      gross_floor_area: a.sqft,
      intensity_limit: l.value,
      tco2e: roundTons(l.value * a.sqft),
      source: `${LIMIT_SOURCES[l.source]}: ${l.label}`,
    };
  });
  const limit = areas.length ? roundTons(areas.reduce((sum, a) => sum + table[a.group].value * a.sqft, 0)) : null;
  return { lines, limit };
}

const GROUPS_2024_2025_WHEN_TYPES_UNCONFIRMED =
  'For calendar years 2024 and 2025 an owner may report by occupancy groups (NYC Sustainable Buildings, "Buildings Emissions ' +
  'Limits Under Local Law 97"): the recorded groups\' limit under the law is used.';

/** The limit a period's answer is set against, what it is from, and what could not be confirmed. */
interface LimitChoice {
  basis: 'property_types' | 'occupancy_groups' | null;
  limit: number | null;
  lines: LimitLine[];
  notes: string[];
  /** Recorded property uses whose type has no confirmed limit (then `limit` is null). */
  notConfirmed: string[];
}

/**
 * The limit of a period (`year` is the calendar year assessed). Without property uses: the law's
 * occupancy-group limit (§ 28-320.3.1 or .3.2). With them: the rule's limit per property type
 * (1 RCNY § 103-14(c)(3)) from calendar year 2026 and for 2030-2034; for 2024 and 2025, when
 * occupancy groups are recorded too, the owner's choice, so the higher (more lenient) of the two.
 * A use whose type has no confirmed limit leaves the limit unset (never the other uses' sum), except
 * in 2024 and 2025 with occupancy groups recorded, which the owner may report by instead.
 */
function limitChoice(period: '2024-2029' | '2030-2034', year: number, areas: OccupancyArea[], uses: PropertyUseArea[]): LimitChoice {
  const groups = limitOf(period === '2024-2029' ? LIMITS_2024_2029 : LIMITS_2030_2034, areas);
  if (!uses.length) return { basis: areas.length ? 'occupancy_groups' : null, ...groups, notes: [], notConfirmed: [] };
  // 2030-2034 is always the rule's 2030-2034 limits, whatever the year assessed (a projection outside the period).
  const byType = espmLimit(
    uses.map((u) => ({ propertyType: espmNameOf(u.type), grossFloorArea: u.sqft })),
    period === '2024-2029' ? year : 2030,
  );
  if (byType.status !== 'computed') {
    const missing = byType.status === 'not_confirmed' ? byType.not_confirmed : [];
    const note = typesNotConfirmed(period, missing);
    // 2024 and 2025 may still be reported by occupancy groups: the law's limit, where they are recorded.
    if (period === '2024-2029' && year < 2026 && groups.limit !== null)
      return { basis: 'occupancy_groups', ...groups, notes: [note, GROUPS_2024_2025_WHEN_TYPES_UNCONFIRMED], notConfirmed: [] };
    return { basis: 'property_types', limit: null, lines: [], notes: [note], notConfirmed: missing };
  }
  const lines: LimitLine[] = byType.lines.map((l, i) => ({
    occupancy_group: null,
    property_type: uses[i]!.type,
    gross_floor_area: l.gross_floor_area,
    intensity_limit: l.intensity_limit,
    tco2e: l.tco2e,
    source: l.source,
  }));
  const types = { basis: 'property_types' as const, limit: byType.limit_tco2e, lines, notConfirmed: [] };
  if (period === '2030-2034') return { ...types, notes: [PERIOD_2030_BY_TYPE] };
  if (year >= 2026) return { ...types, notes: [FROM_2026_BY_TYPE] };
  if (groups.limit === null) return { ...types, notes: [ONLY_TYPES_2024_2025] };
  const basis = groups.limit > byType.limit_tco2e ? 'occupancy_groups' : 'property_types';
  const note = chosen2024To2025(groups.limit, byType.limit_tco2e, basis);
  return basis === 'occupancy_groups' ? { basis, ...groups, notes: [note], notConfirmed: [] } : { ...types, notes: [note] };
}

/** The status of a period with confirmed emissions: given limit, limit not confirmed, no limit recorded, or computed. */
function statusOf(given: number | null, choice: LimitChoice): Ll97PeriodAnswer['status'] {
  if (given !== null) return 'computed_with_given_limit';
  if (choice.notConfirmed.length) return 'limit_not_confirmed';
  return choice.limit === null ? 'no_occupancy' : 'computed';
}

/** The notes on the limit: the limit given, or how the computed one was chosen (or why there is none). */
function limitNotes(given: number | null, choice: LimitChoice, lawNote: string[]): string[] {
  if (given !== null) return [GIVEN_LIMIT];
  if (choice.basis === null) return [NO_OCCUPANCY];
  return choice.basis === 'occupancy_groups' && !choice.notes.length ? lawNote : choice.notes;
}

const NOT_COVERED_NOTES = (notCovered: string[]) => [
  ...(notCovered.includes('other') ? ["An 'other' meter's fuel is unknown: its energy is not counted."] : []),
  ...(notCovered.includes('fuel_oil_5_6') ? [NO_5_6_NOTE] : []),
];

/**
 * 2030-2034: the limit of the recorded uses (the rule's) or areas (the law's), or the limit given
 * when the year is in the period, against the year's energy by the rule's 2030-2034 coefficients
 * (1 RCNY § 103-14(d)(3)(ii), as quoted); not computed when the year has energy whose coefficient
 * is not confirmed (steam, fuel oil).
 */
function period2030(
  base: Omit<Ll97PeriodAnswer, 'period' | 'status' | 'notes'>,
  year: number,
  energy: EnergyByType,
  areas: OccupancyArea[],
  uses: PropertyUseArea[],
  givenLimit: number | null,
): Ll97PeriodAnswer {
  const choice = limitChoice('2030-2034', year, areas, uses);
  const given = year >= 2030 && year <= 2034 ? givenLimit : null;
  const e = ll97Emissions(energy, COEFFICIENTS_2030_2034);
  const limitNote = choice.basis === 'occupancy_groups' ? [PERIOD_2030_LAW_LIMIT] : choice.notes;
  if (e.unconfirmed.length) {
    const notes = [period2030NotConfirmed(e.unconfirmed), ...(choice.basis === null ? [NO_OCCUPANCY] : limitNote)];
    return {
      ...base,
      period: '2030-2034',
      status: 'not_confirmed',
      limit_tco2e: choice.limit,
      limit_basis: choice.basis,
      limit_lines: choice.lines,
      notes,
    };
  }
  const notes = [
    PERIOD_2030_COEFFICIENTS,
    ...(year < 2030 || year > 2034 ? [PERIOD_2030_PROJECTION] : []),
    ...limitNotes(given, choice, [PERIOD_2030_LAW_LIMIT]),
    ...NOT_COVERED_NOTES(e.notCovered),
  ];
  return computedPeriod(base, '2030-2034', e, given, choice, notes);
}

/** A period whose emissions are confirmed: the emissions against the limit given, else the chosen one, the excess and the penalty. */
function computedPeriod(
  base: Omit<Ll97PeriodAnswer, 'period' | 'status' | 'notes'>,
  period: Ll97PeriodAnswer['period'],
  e: Ll97Emissions,
  given: number | null,
  choice: LimitChoice,
  notes: string[],
): Ll97PeriodAnswer {
  const limit = given ?? choice.limit;
  const penalty = limit === null ? null : excessAndPenalty(e.tco2e, limit);
  return {
    ...base,
    period,
    status: statusOf(given, choice),
    emissions_tco2e: roundTons(e.tco2e),
    emissions_lines: e.lines.map((l) => ({ ...l, tco2e: roundTons(l.tco2e) })),
    not_covered: e.notCovered,
    limit_tco2e: limit,
    limit_basis: given !== null ? 'given' : choice.basis,
    limit_lines: choice.lines,
    excess_tco2e: penalty?.excessTons ?? null,
    projected_penalty: penalty ? penalty.penaltyCents / 100 : null,
    notes,
  };
}

/**
 * LL97's answer for a calendar year of energy: the period the year falls in, computed as far as the
 * city's numbers are confirmed. The limit is the recorded property uses' by the rule (from 2026, and
 * for 2024-2025 the higher of it and the occupancy groups'), else the recorded occupancy areas' by
 * the law (area-weighted sums), or `givenLimit` (the limit the owner's LL97 report states) when the
 * request gives one.
 */
export function ll97Periods(
  year: number,
  energy: EnergyByType,
  grossFloorArea: number | null,
  areas: OccupancyArea[],
  givenLimit: number | null = null,
  uses: PropertyUseArea[] = [],
): Ll97PeriodAnswer[] {
  const base = {
    emissions_tco2e: null,
    emissions_lines: [],
    not_covered: [],
    gross_floor_area: grossFloorArea,
    limit_tco2e: null,
    limit_basis: null,
    limit_lines: [],
    excess_tco2e: null,
    penalty_per_ton: PENALTY_CENTS_PER_TON / 100,
    projected_penalty: null,
  };
  const second = period2030(base, year, energy, areas, uses, givenLimit);
  if (year < 2024 || year > 2029)
    return [{ ...base, period: '2024-2029', status: 'outside_period', notes: [`${year} is not in 2024-2029.`] }, second];
  const e = ll97Emissions2024To2029(energy);
  const choice = limitChoice('2024-2029', year, areas, uses);
  const lawNote = year >= 2026 ? [FROM_2026] : [];
  const notes = [...limitNotes(givenLimit, choice, lawNote), ...NOT_COVERED_NOTES(e.notCovered)];
  return [computedPeriod(base, '2024-2029', e, givenLimit, choice, notes), second];
}
