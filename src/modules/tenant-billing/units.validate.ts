/**
 * Checks tenant units against the configuration's method before they are allocated, whatever
 * they came from (a request body or the PMS), so the allocator only ever sees valid input.
 * Pure: returns the problems, with the request field each concerns.
 */
import type { FieldError } from '../../platform/http/errors';
import { isCalendarDate } from '../../platform/dates';
import { decimalPlacesOf } from '../../platform/money';
import { FACTOR_PLACES, METHOD_FACTORS, type AllocationMethod } from './rubs.types';
import { dayNumber } from './occupancy';

/** Most units one calculation takes (the request body limit is sized for it). */
export const MAX_UNITS = 10_000;
/** Upper bounds that keep every figure far inside the exact-integer range. */
export const MAX_SQFT = 1_000_000_000;
export const MAX_OCCUPANTS = 1_000_000;
export const MAX_CUSTOM_WEIGHT = 100;
/** Most occupancies of one unit in one period (one a day). */
export const MAX_OCCUPANCIES = 31;
/** At most this many problems are listed (the first is the detail). */
const MAX_ERRORS = 100;

/** unit_id and tenant_name are at most this long (as are the request's other ids, schemas.ts). */
export const MAX_TEXT = 200;

const FACTOR_FIELDS = ['sqft', 'occupant_count', 'custom_weight'] as const;
type FactorField = (typeof FACTOR_FIELDS)[number];
const MAX_OF: Record<FactorField, number> = { sqft: MAX_SQFT, occupant_count: MAX_OCCUPANTS, custom_weight: MAX_CUSTOM_WEIGHT };

/** The problem of a factor that is present (null and absent are checked against the method). */
function factorProblem(name: FactorField, value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'value is not a valid number';
  if (name === 'occupant_count' && !Number.isInteger(value)) return 'value is not a valid integer';
  if (value < 0) return 'ensure this value is greater than or equal to 0';
  if (value > MAX_OF[name]) return `ensure this value is less than or equal to ${MAX_OF[name]}`;
  return decimalPlacesOf(value, FACTOR_PLACES) === null ? `ensure this value has at most ${FACTOR_PLACES} decimal places` : null;
}

function textProblem(value: unknown, minLength: number): string | null {
  if (value === undefined) return 'field required';
  if (value === null) return 'none is not an allowed value';
  if (typeof value !== 'string') return 'str type expected';
  if (value.length < minLength) return `ensure this value has at least ${minLength} characters`;
  if (value.length > MAX_TEXT) return `ensure this value has at most ${MAX_TEXT} characters`;
  return null;
}

function dateProblem(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return 'str type expected';
  return isCalendarDate(value) ? null : 'invalid date format, expected YYYY-MM-DD';
}

/** The billing period the units are checked against (occupancies must have a day in it). */
export interface CheckPeriod {
  start: string;
  end: string;
}

type Add = (field: string, message: string) => void;

/**
 * The occupancies of a unit that turned over: each a resident with optional dates and, for the
 * occupant methods, a head count; none may start after it ends, fall outside the period or
 * overlap another. Messages name the unit.
 */
function occupancyProblems(unitId: string, raw: unknown, needsOccupants: boolean, period: CheckPeriod | undefined, add: Add): void {
  if (!Array.isArray(raw)) {
    add('occupancies', 'value is not a valid list');
    return;
  }
  if (raw.length === 0) {
    add('occupancies', `unit '${unitId}': occupancies must not be empty`);
    return;
  }
  if (raw.length > MAX_OCCUPANCIES) {
    add('occupancies', `unit '${unitId}': at most ${MAX_OCCUPANCIES} occupancies`);
    return;
  }
  const spans: Array<{ k: number; from: number; to: number }> = [];
  const startDay = period ? dayNumber(period.start) : -Infinity;
  const endDay = period ? dayNumber(period.end) : Infinity;
  raw.forEach((o: unknown, k) => {
    const at = `occupancies.${k}`;
    if (typeof o !== 'object' || o === null || Array.isArray(o)) {
      add(at, 'value is not a valid dict');
      return;
    }
    const occ = o as Record<string, unknown>;
    const nameProblem = textProblem(occ.tenant_name, 0);
    if (nameProblem) add(`${at}.tenant_name`, nameProblem);
    if (occ.occupant_count === undefined || occ.occupant_count === null) {
      if (needsOccupants) add(`${at}.occupant_count`, `unit '${unitId}': occupant_count required for each occupancy by the occupant methods`);
    } else {
      const problem = factorProblem('occupant_count', occ.occupant_count);
      if (problem) add(`${at}.occupant_count`, problem);
    }
    const inProblem = dateProblem(occ.move_in);
    const outProblem = dateProblem(occ.move_out);
    if (inProblem) add(`${at}.move_in`, inProblem);
    if (outProblem) add(`${at}.move_out`, outProblem);
    if (inProblem || outProblem) return;
    const from = typeof occ.move_in === 'string' ? Math.max(dayNumber(occ.move_in), startDay) : startDay;
    const to = typeof occ.move_out === 'string' ? Math.min(dayNumber(occ.move_out), endDay) : endDay;
    if (typeof occ.move_in === 'string' && typeof occ.move_out === 'string' && occ.move_out < occ.move_in) {
      add(`${at}.move_out`, `unit '${unitId}': occupancy ${k} moves out before it moves in`);
    } else if (to < from) {
      add(at, `unit '${unitId}': occupancy ${k} has no day in the billing period`);
    } else {
      spans.push({ k, from, to });
    }
  });
  spans.sort((a, b) => a.from - b.from || a.k - b.k);
  for (let j = 1; j < spans.length; j++) {
    if (spans[j].from <= spans[j - 1].to) {
      const [a, b] = [spans[j - 1].k, spans[j].k].sort((x, y) => x - y);
      add(`occupancies.${b}`, `unit '${unitId}': occupancies ${a} and ${b} overlap`);
    }
  }
}

/**
 * Every problem of the units (at most 100), in unit order, in the wording of the API's other
 * validation errors; empty when they are BillingUnits (rubs.types.ts) the method can allocate. This is the one
 * check of units (the request body's are not parsed by zod, and the PMS's come here too): every
 * field's type, range and decimals, the method's factors, unique ids, move dates in order, and the
 * occupancies of units that turned over (checked against the period when it is given).
 */
export function validateUnits(method: AllocationMethod, units: readonly unknown[], period?: CheckPeriod): FieldError[] {
  const errors: FieldError[] = [];
  const add = (i: number, field: string, message: string) => {
    if (errors.length < MAX_ERRORS) errors.push({ field: `units.${i}.${field}`, message });
  };
  if (units.length === 0) return [{ field: 'units', message: 'units array must not be empty' }];
  if (units.length > MAX_UNITS) return [{ field: 'units', message: `units array must not have more than ${MAX_UNITS} units` }];
  const required = new Set<string>(METHOD_FACTORS[method]);
  const needsOccupants = required.has('occupant_count');
  const seen = new Set<string>();
  for (let i = 0; i < units.length && errors.length < MAX_ERRORS; i++) {
    const raw = units[i];
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      if (errors.length < MAX_ERRORS) errors.push({ field: `units.${i}`, message: 'value is not a valid dict' });
      continue;
    }
    const u = raw as Record<string, unknown>;
    const turnover = u.occupancies !== undefined && u.occupancies !== null;
    const idProblem = textProblem(u.unit_id, 1);
    if (idProblem) add(i, 'unit_id', idProblem);
    else if (seen.has(u.unit_id as string)) add(i, 'unit_id', `unit_id '${u.unit_id as string}' appears more than once`);
    else seen.add(u.unit_id as string);
    const nameProblem = textProblem(u.tenant_name, 0);
    if (nameProblem) add(i, 'tenant_name', nameProblem);
    for (const name of FACTOR_FIELDS) {
      const value = u[name];
      if (value === undefined || value === null) {
        if (required.has(name) && !(turnover && name === 'occupant_count')) add(i, name, `${name} required for ${method} allocation method`);
      } else {
        const problem = factorProblem(name, value);
        if (problem) add(i, name, problem);
      }
    }
    if (u.is_vacant === null) add(i, 'is_vacant', 'none is not an allowed value');
    else if (u.is_vacant !== undefined && typeof u.is_vacant !== 'boolean') add(i, 'is_vacant', 'value could not be parsed to a boolean');
    const moveInProblem = dateProblem(u.move_in);
    const moveOutProblem = dateProblem(u.move_out);
    if (moveInProblem) add(i, 'move_in', moveInProblem);
    if (moveOutProblem) add(i, 'move_out', moveOutProblem);
    else if (!moveInProblem && typeof u.move_in === 'string' && typeof u.move_out === 'string' && u.move_out < u.move_in) {
      add(i, 'move_out', 'move_out must not be before move_in');
    }
    if (turnover) {
      const unitId = typeof u.unit_id === 'string' ? u.unit_id : String(i);
      for (const field of ['is_vacant', 'move_in', 'move_out'] as const) {
        if (u[field] !== undefined && u[field] !== null && u[field] !== false) {
          add(i, field, `unit '${unitId}': ${field} cannot be combined with occupancies (each occupancy has its dates; days no occupancy covers are vacant)`);
        }
      }
      occupancyProblems(unitId, u.occupancies, needsOccupants, period, (field, message) => add(i, field, message));
    }
  }
  return errors;
}
