import { z } from 'zod';
import { validationFailed, type FieldError } from './errors';
import { toScaledInteger } from '../money';

/**
 * A lower or upper bound broken: a string's length, a list's size, or a value
 * ("ensure this value has at least 8 characters", "ensure this value is less than or equal to 100").
 */
function boundMessage(origin: string, inclusive: boolean | undefined, bound: string, size: string, value: string): string {
  if (origin === 'string') return `ensure this value has ${size} ${bound} characters`;
  if (origin === 'array' || origin === 'set') return `ensure this value has ${size} ${bound} items`;
  return inclusive === false ? `ensure this value is ${value} ${bound}` : `ensure this value is ${value} or equal to ${bound}`;
}

/**
 * Default messages in the wording clients already test against ("field required",
 * "ensure this value has at least 8 characters"). A message set on a schema
 * (e.g. "Invalid state code") takes precedence over these.
 */
function defaultMessage(iss: z.core.$ZodRawIssue): string | undefined {
  switch (iss.code) {
    case 'invalid_type': {
      if (iss.input === undefined) return 'field required';
      if (iss.input === null) return 'none is not an allowed value';
      const expected = iss.expected;
      if (expected === 'int') return 'value is not a valid integer';
      if (expected === 'number') return 'value is not a valid number';
      if (expected === 'string') return 'str type expected';
      if (expected === 'boolean') return 'value could not be parsed to a boolean';
      if (expected === 'array') return 'value is not a valid list';
      if (expected === 'object') return 'value is not a valid dict';
      return `value is not a valid ${expected}`;
    }
    case 'too_small':
      return boundMessage(iss.origin, iss.inclusive, String(iss.minimum), 'at least', 'greater than');
    case 'too_big':
      return boundMessage(iss.origin, iss.inclusive, String(iss.maximum), 'at most', 'less than');
    case 'invalid_format':
      if (iss.format === 'email') return 'value is not a valid email address';
      if (iss.format === 'date') return 'invalid date format, expected YYYY-MM-DD';
      if (iss.format === 'url') return 'invalid or missing URL scheme';
      return `string does not match the expected format`;
    case 'invalid_value':
      return `value is not a valid enumeration member; permitted: ${iss.values.map((v) => `'${String(v)}'`).join(', ')}`;
    case 'unrecognized_keys':
      return `extra fields not permitted: ${iss.keys.join(', ')}`;
    case 'not_multiple_of':
      return `ensure this value is a multiple of ${String(iss.divisor)}`;
    default:
      return undefined;
  }
}

z.config({ customError: defaultMessage });

export function toFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((i) => ({ field: i.path.map(String).join('.'), message: i.message }));
}

/** Parses input with a schema or throws a 422 listing every field's error (detail = first message). */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationFailed(toFieldErrors(result.error));
}

/** Query-string boolean: accepts true/false/1/0 (z.coerce.boolean would read "false" as true). */
export const queryBoolean = z
  .enum(['true', 'false', '1', '0'], { error: 'value could not be parsed to a boolean' })
  .transform((v) => v === 'true' || v === '1');

/** Why a date of year 0000 is refused: PostgreSQL has no year 0 (1 BC), and four digits write no year past 9999. */
export const YEAR_OUT_OF_RANGE = 'year out of range (0001 to 9999)';

/**
 * Calendar date YYYY-MM-DD that really exists (2026-02-30 is rejected) in the years 0001 to 9999:
 * 0000-01-01 is a 422, not a 500 from PostgreSQL. Every date the API takes is this schema.
 */
export const isoDate = z.iso.date().refine((v) => !v.startsWith('0000'), { error: YEAR_OUT_OF_RANGE });

/**
 * A number written with at most `places` decimals (money to the cent: 2), checked exactly on
 * its decimal digits (money.ts); the OpenAPI document states it as `multipleOf`.
 */
export const decimalNumber = (places: number) =>
  z
    .number()
    .refine((v) => toScaledInteger(v, places) !== null, { error: `ensure this value has at most ${places} decimal places` })
    .meta({ multipleOf: Number(`1e-${places}`) }); // 10 ** -4 would be 9.999999999999999e-05
