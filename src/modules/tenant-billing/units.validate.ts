/**
 * Checks tenant units against the configuration's method before they are allocated, whatever
 * they came from (a request body or the PMS), so the allocator only ever sees valid input.
 * Pure: returns the problems, with the request field each concerns.
 */
import type { FieldError } from '../../platform/http/errors';
import { isCalendarDate } from '../../platform/dates';
import { decimalPlacesOf } from '../../platform/money';
import { FACTOR_PLACES, METHOD_FACTORS, type AllocationMethod } from './rubs.calc';

/** Most units one calculation takes (the request body limit is sized for it). */
export const MAX_UNITS = 10_000;
/** Upper bounds that keep every figure far inside the exact-integer range. */
export const MAX_SQFT = 1_000_000_000;
export const MAX_OCCUPANTS = 1_000_000;
export const MAX_CUSTOM_WEIGHT = 100;
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

/**
 * Every problem of the units (at most 100), in unit order, in the wording of the API's other
 * validation errors; empty when they are BillingUnits (rubs.calc.ts) the method can allocate. This is the one
 * check of units (the request body's are not parsed by zod, and the PMS's come here too): every
 * field's type, range and decimals, the method's factors, unique ids, move dates in order.
 */
export function validateUnits(method: AllocationMethod, units: readonly unknown[]): FieldError[] {
  const errors: FieldError[] = [];
  const add = (i: number, field: string, message: string) => {
    if (errors.length < MAX_ERRORS) errors.push({ field: `units.${i}.${field}`, message });
  };
  if (units.length === 0) return [{ field: 'units', message: 'units array must not be empty' }];
  if (units.length > MAX_UNITS) return [{ field: 'units', message: `units array must not have more than ${MAX_UNITS} units` }];
  const required = new Set<string>(METHOD_FACTORS[method]);
  const seen = new Set<string>();
  for (let i = 0; i < units.length && errors.length < MAX_ERRORS; i++) {
    const raw = units[i];
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      if (errors.length < MAX_ERRORS) errors.push({ field: `units.${i}`, message: 'value is not a valid dict' });
      continue;
    }
    const u = raw as Record<string, unknown>;
    const idProblem = textProblem(u.unit_id, 1);
    if (idProblem) add(i, 'unit_id', idProblem);
    else if (seen.has(u.unit_id as string)) add(i, 'unit_id', `unit_id '${u.unit_id as string}' appears more than once`);
    else seen.add(u.unit_id as string);
    const nameProblem = textProblem(u.tenant_name, 0);
    if (nameProblem) add(i, 'tenant_name', nameProblem);
    for (const name of FACTOR_FIELDS) {
      const value = u[name];
      if (value === undefined || value === null) {
        if (required.has(name)) add(i, name, `${name} required for ${method} allocation method`);
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
  }
  return errors;
}

