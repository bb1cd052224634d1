import { z } from 'zod';
// Also installs the service's validation messages, which the webhook log's reasons use in every process.
import { isoDate } from '../../platform/http/validate';

/** Upper bound of the numeric(14, 3) columns. */
const NUMBER_MAX = 99_999_999_999;
const INT_MAX = 2_147_483_647;

/** Text PostgreSQL can store: no NUL characters. */
export const storableText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !v.includes('\u0000'), { error: 'must not contain NUL characters' });

/** A field a record may leave out or send as null: null either way. */
const orNull = <T extends z.ZodType>(schema: T) =>
  schema
    .nullable()
    .optional()
    .transform((v) => v ?? null);

/** A count (occupants, bedrooms) and a measure (sqft, bathrooms) the columns can hold. */
const count = () => orNull(z.number().int().min(0).max(INT_MAX));
const measure = () => orNull(z.number().min(0).max(NUMBER_MAX));

/** A PMS id or unit number sent as text: trimmed, not empty, at most 200 characters. */
const pmsText = () =>
  storableText(200)
    .transform((v) => v.trim())
    .pipe(z.string().min(1));

/** PMS identifiers: strings, or numbers some providers send; kept as strings. */
const pmsId = z.union([pmsText(), z.number().int().min(0).transform(String)]);

/** A lease date: `YYYY-MM-DD`, or an ISO date-time of which the date is kept. */
const leaseDate = orNull(
  z
    .string()
    .transform((v) => v.slice(0, 10))
    .pipe(isoDate),
);

export const currentLease = z.object({
  resident_name: orNull(storableText(500)),
  occupant_count: count(),
  start_date: leaseDate,
  end_date: leaseDate,
});

/** A unit is vacant or occupied, as the provider says (the units table keeps the same two). */
export const UNIT_STATUSES = ['vacant', 'occupied'] as const;
export type UnitStatus = (typeof UNIT_STATUSES)[number];

/**
 * A PMS unit record, as unit webhook events carry it in `data` and the provider's units API
 * returns it: the same record from either source. A record replaces the stored one whole.
 */
export const pmsUnitData = z.object({
  id: pmsId,
  property_id: pmsId,
  unit_number: z.union([pmsText(), z.number().transform(String)]),
  sqft: measure(),
  bedrooms: count(),
  bathrooms: measure(),
  status: z.enum(UNIT_STATUSES),
  current_lease: orNull(currentLease),
});

export type PmsUnitData = z.output<typeof pmsUnitData>;

/** A unit as the units table stores it (snake_case, the shape the bulk SQL reads). */
export interface UnitRecord {
  pms_unit_id: string;
  unit_number: string;
  sqft: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  status: UnitStatus;
  resident_name: string | null;
  occupant_count: number | null;
  lease_start: string | null;
  lease_end: string | null;
}

/** The stored form of a PMS unit: the lease's resident and occupants move onto the unit. */
export function toUnitRecord(u: PmsUnitData): UnitRecord {
  const lease = u.current_lease;
  return {
    pms_unit_id: u.id,
    unit_number: u.unit_number,
    sqft: u.sqft,
    bedrooms: u.bedrooms,
    bathrooms: u.bathrooms,
    status: u.status,
    resident_name: lease?.resident_name ?? null,
    occupant_count: lease?.occupant_count ?? null,
    lease_start: lease?.start_date ?? null,
    lease_end: lease?.end_date ?? null,
  };
}

/** The fields a RUBS allocation reads: vacancy, occupants, size. */
export interface RubsFactors {
  status: string;
  occupant_count: number | null;
  sqft: number | null;
}

/** The RUBS factors that differ between two states of a unit, as `field old -> new` phrases. */
export function movedRubsFactors(before: RubsFactors, after: RubsFactors): string[] {
  const moved: string[] = [];
  const show = (v: unknown) => (v === null || v === undefined ? 'none' : String(v));
  if (before.status !== after.status) moved.push(`status ${before.status} -> ${after.status}`);
  if ((before.occupant_count ?? null) !== (after.occupant_count ?? null))
    moved.push(`occupants ${show(before.occupant_count)} -> ${show(after.occupant_count)}`);
  if ((before.sqft === null ? null : Number(before.sqft)) !== (after.sqft === null ? null : Number(after.sqft)))
    moved.push(`sqft ${show(before.sqft)} -> ${show(after.sqft)}`);
  return moved;
}

/** The first problem of a failed parse, as `field: message` (the webhook log's reason). */
export function firstIssue(error: z.ZodError, prefix = ''): string {
  const issue = error.issues[0];
  const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
