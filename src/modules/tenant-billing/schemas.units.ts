/**
 * The units of a calculation: their zod schemas are the one check of units, whatever they came
 * from. The request body's units are checked with the body (calculateRubsBody), the PMS's once
 * fetched (pmsUnits); the factors the configuration's method needs, once it is known
 * (unitsOfMethod). Messages are in the wording of the API's other validation errors.
 */
import { z } from 'zod';
import { isCalendarDate } from '../../platform/dates';
import { decimalPlacesOf } from '../../platform/money';
import { isoDate } from '../../platform/http/validate';
import { FACTOR_PLACES, METHOD_FACTORS, type AllocationMethod, type BillingUnit } from './rubs.types';
import { dayNumber } from './occupancy';

/** Most units one calculation takes (the request body limit is sized for it). */
export const MAX_UNITS = 10_000;
/** Upper bounds that keep every figure far inside the exact-integer range. */
export const MAX_SQFT = 1_000_000_000;
export const MAX_OCCUPANTS = 1_000_000;
export const MAX_CUSTOM_WEIGHT = 100;
/** Most occupancies of one unit in one period (one a day). */
export const MAX_OCCUPANCIES = 31;
/** unit_id and tenant_name are at most this long, as are the request's other ids (schemas.ts). */
export const MAX_TEXT = 200;

/** A factor from 0 to `max` with at most FACTOR_PLACES decimals: one problem per field, range first. */
const factor = (max: number) =>
  z
    .number()
    .min(0, { abort: true })
    .max(max, { abort: true })
    .refine((v) => decimalPlacesOf(v, FACTOR_PLACES) !== null, { error: `ensure this value has at most ${FACTOR_PLACES} decimal places` })
    .meta({ multipleOf: Number(`1e-${FACTOR_PLACES}`) });
const occupantCount = z.number().int({ abort: true }).min(0, { abort: true }).max(MAX_OCCUPANTS, { abort: true });
const optionalDate = isoDate.nullable().optional();
/** A unit or an occupancy that is not an object, null included. */
const notADict = { error: (iss: { input?: unknown }) => (iss.input === null ? 'value is not a valid dict' : undefined) };

const occupancyBody = z.object(
  {
    tenant_name: z.string().max(MAX_TEXT),
    move_in: optionalDate.meta({ description: 'First day (inclusive); absent: since before the period.' }),
    move_out: optionalDate.meta({ description: 'Last day (inclusive); absent: still there after the period.' }),
    occupant_count: occupantCount.nullable().optional().meta({ description: 'Required by occupant_count and sqft_occupant.' }),
  },
  notADict,
);

/** Fields that cannot be sent beside occupancies: each occupancy has its dates. */
const NOT_WITH_OCCUPANCIES = ['is_vacant', 'move_in', 'move_out'] as const;

/** A unit by itself: its fields, its move dates in order, and no vacancy or dates beside occupancies. */
export const unitBody = z
  .object(
    {
      unit_id: z.string().min(1).max(MAX_TEXT),
      tenant_name: z.string().max(MAX_TEXT).meta({ description: 'May be empty for a vacant unit.' }),
      sqft: factor(MAX_SQFT).nullable().optional().meta({ description: 'Required by sqft and sqft_occupant; at most 4 decimals.' }),
      occupant_count: occupantCount.nullable().optional().meta({ description: 'Required by occupant_count and sqft_occupant.' }),
      custom_weight: factor(MAX_CUSTOM_WEIGHT)
        .nullable()
        .optional()
        .meta({ description: 'Required by custom_weight; 0 to 100, at most 4 decimals.' }),
      is_vacant: z.boolean().default(false),
      move_in: optionalDate.meta({
        description: 'First day occupied (inclusive); the factor is prorated by the days occupied in the period.',
      }),
      move_out: optionalDate.meta({ description: 'Last day occupied (inclusive).' }),
      // Their count is checked with the period (occupancyProblems), where the message can name the unit.
      occupancies: z
        .array(occupancyBody)
        .nullable()
        .optional()
        .meta({
          minItems: 1,
          maxItems: MAX_OCCUPANCIES,
          description:
            'Turnover: the residents of the period, one after another, in place of one tenant (not with is_vacant, move_in ' +
            'or move_out). Each is charged for its days; the unit counts once in the totals; days no occupancy covers follow the ' +
            'vacancy policy. Overlapping occupancies, one that moves out before it moves in or has no day in the period: 422 naming the unit.',
        }),
    },
    notADict,
  )
  .superRefine((u, ctx) => {
    if (isCalendarDate(u.move_in ?? '') && isCalendarDate(u.move_out ?? '') && u.move_out! < u.move_in!) {
      ctx.addIssue({ code: 'custom', path: ['move_out'], message: 'move_out must not be before move_in' });
    }
    if (u.occupancies === undefined || u.occupancies === null) return;
    for (const field of NOT_WITH_OCCUPANCIES) {
      if (u[field] !== undefined && u[field] !== null && u[field] !== false) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `unit '${u.unit_id}': ${field} cannot be combined with occupancies (each occupancy has its dates; days no occupancy covers are vacant)`,
        });
      }
    }
  });

/** 1 to MAX_UNITS units, each unit_id once. */
export const unitList = z
  .array(unitBody)
  .min(1, { error: 'units array must not be empty' })
  .max(MAX_UNITS, { error: `units array must not have more than ${MAX_UNITS} units` })
  .superRefine((units, ctx) => {
    const seen = new Set<string>();
    units.forEach((u, i) => {
      if (u.unit_id.length === 0 || u.unit_id.length > MAX_TEXT) return;
      if (seen.has(u.unit_id))
        ctx.addIssue({ code: 'custom', path: [i, 'unit_id'], message: `unit_id '${u.unit_id}' appears more than once` });
      else seen.add(u.unit_id);
    });
  });

/** The units the PMS gave (they have no occupancies), checked as a request's would be. */
export const pmsUnits = z.object({ units: unitList });

/** The billing period units are checked against. */
export interface CheckPeriod {
  start: string;
  end: string;
}

type Problem = { path: Array<string | number>; message: string };

/**
 * The occupancies of a unit that turned over: 1 to MAX_OCCUPANCIES stays, none moving out before
 * it moves in, each with a day in the period, none overlapping another (their days in the period
 * compared). Messages name the unit.
 */
function occupancyProblems(u: z.output<typeof unitBody>, period: CheckPeriod): Problem[] {
  const list = u.occupancies!;
  const name = `unit '${u.unit_id}'`;
  if (list.length === 0) return [{ path: ['occupancies'], message: `${name}: occupancies must not be empty` }];
  if (list.length > MAX_OCCUPANCIES) return [{ path: ['occupancies'], message: `${name}: at most ${MAX_OCCUPANCIES} occupancies` }];
  const problems: Problem[] = [];
  const spans: Array<{ k: number; from: number; to: number }> = [];
  const startDay = dayNumber(period.start);
  const endDay = dayNumber(period.end);
  list.forEach((o, k) => {
    const moveIn = o.move_in ?? null;
    const moveOut = o.move_out ?? null;
    if ((moveIn !== null && !isCalendarDate(moveIn)) || (moveOut !== null && !isCalendarDate(moveOut))) return;
    const from = moveIn === null ? startDay : Math.max(dayNumber(moveIn), startDay);
    const to = moveOut === null ? endDay : Math.min(dayNumber(moveOut), endDay);
    if (moveIn !== null && moveOut !== null && moveOut < moveIn) {
      problems.push({ path: ['occupancies', k, 'move_out'], message: `${name}: occupancy ${k} moves out before it moves in` });
    } else if (to < from) {
      problems.push({ path: ['occupancies', k], message: `${name}: occupancy ${k} has no day in the billing period` });
    } else {
      spans.push({ k, from, to });
    }
  });
  spans.sort((a, b) => a.from - b.from || a.k - b.k);
  for (let j = 1; j < spans.length; j++) {
    if (spans[j]!.from <= spans[j - 1]!.to) {
      const [a, b] = [spans[j - 1]!.k, spans[j]!.k].sort((x, y) => x - y);
      problems.push({ path: ['occupancies', b!], message: `${name}: occupancies ${a} and ${b} overlap` });
    }
  }
  return problems;
}

/** Adds the occupancy problems of every unit that turned over to a body with its period (calculateRubsBody). */
export function checkOccupancies(units: ReadonlyArray<z.output<typeof unitBody>>, period: CheckPeriod, ctx: z.RefinementCtx): void {
  if (!isCalendarDate(period.start) || !isCalendarDate(period.end) || period.end < period.start) return;
  units.forEach((u, i) => {
    if (u.occupancies === undefined || u.occupancies === null) return;
    for (const p of occupancyProblems(u, period)) ctx.addIssue({ code: 'custom', path: ['units', i, ...p.path], message: p.message });
  });
}

/**
 * The factors `method` allocates by, of every unit: a unit that turned over needs no occupant_count
 * of its own, but the occupant methods need one on each of its occupancies. Checked once the
 * configuration (and so the method) is known.
 */
export function unitsOfMethod(method: AllocationMethod) {
  const required = new Set<string>(METHOD_FACTORS[method]);
  const needsOccupants = required.has('occupant_count');
  return z.object({ units: z.array(z.custom<BillingUnit>()) }).superRefine(({ units }, ctx) => {
    units.forEach((u, i) => {
      const turnover = u.occupancies !== undefined && u.occupancies !== null;
      for (const name of ['sqft', 'occupant_count', 'custom_weight'] as const) {
        if (!required.has(name) || (u[name] !== undefined && u[name] !== null) || (turnover && name === 'occupant_count')) continue;
        ctx.addIssue({ code: 'custom', path: ['units', i, name], message: `${name} required for ${method} allocation method` });
      }
      if (!turnover || !needsOccupants) return;
      u.occupancies!.forEach((o, k) => {
        if (o.occupant_count !== undefined && o.occupant_count !== null) return;
        ctx.addIssue({
          code: 'custom',
          path: ['units', i, 'occupancies', k, 'occupant_count'],
          message: `unit '${u.unit_id}': occupant_count required for each occupancy by the occupant methods`,
        });
      });
    });
  });
}
