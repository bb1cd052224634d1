/**
 * A URDB record sent to POST /tariffs/custom is the caller's input, not upstream data: what the
 * catalog import repairs by its written rules because it cannot ask anyone (a tier whose `max` does
 * not rise, data/reference/README.md "Upstream errors") is refused here, and so is a schedule that
 * names a period without rates. Every problem is reported at its exact JSON path, written as in the
 * record (`urdb.energyratestructure[0][1].max`, `urdb.energyweekdayschedule[0][12]`), so a client
 * can point at the value. Pure; runs before the normaliser (urdb.import.ts), which keeps its own
 * checks for what is not here (tariffs README "Custom tariffs").
 */
import type { FieldError } from '../../../platform/http/errors';
import type { EnergyTierUnit } from '../tariff.model';

/** The tier units the engine prices energy in (every member of EnergyTierUnit, so a new one is not forgotten). */
const ENERGY_UNITS: Record<EnergyTierUnit, true> = { kWh: true, 'kWh daily': true, 'kWh/kW': true, 'kWh/kVA': true };
const NUMERIC_TIER_KEYS = ['rate', 'adj', 'max', 'sell'] as const;

interface RateStructure {
  key: string;
  /** The unit of a tier that gives none (urdb.tiers.ts). */
  defaultUnit: string;
  /** 12x24 schedules of period indexes into this structure. */
  schedules: string[];
  /** 12 period indexes, one a month. */
  months?: string;
  energy?: true;
}

const STRUCTURES: readonly RateStructure[] = [
  { key: 'energyratestructure', defaultUnit: 'kWh', schedules: ['energyweekdayschedule', 'energyweekendschedule'], energy: true },
  { key: 'demandratestructure', defaultUnit: 'kW', schedules: ['demandweekdayschedule', 'demandweekendschedule'] },
  { key: 'flatdemandstructure', defaultUnit: 'kW', schedules: [], months: 'flatdemandmonths' },
  { key: 'coincidentratestructure', defaultUnit: 'kW', schedules: ['coincidentschedule'] },
];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The periods of a rate structure as the record gives them: their count (0 when the record has no
 * such structure), or null when the structure itself is malformed (its schedules are then not
 * checked against it: the structure's own error says what to fix).
 */
function checkStructure(record: Record<string, unknown>, s: RateStructure, errors: FieldError[]): number | null {
  const value = record[s.key];
  const at = `urdb.${s.key}`;
  if (value === undefined) return 0;
  if (!Array.isArray(value)) {
    errors.push({
      field: at,
      message: `${at} must be a list of periods, each a list of tiers (leave the key out when the record has none)`,
    });
    return null;
  }
  if (value.length === 0) return null; // the normaliser's "has no periods"
  let wellFormed = true;
  value.forEach((period: unknown, i) => {
    const pat = `${at}[${i}]`;
    if (!Array.isArray(period) || period.length === 0) {
      errors.push({ field: pat, message: `${pat} must be a list of at least one tier` });
      wellFormed = false;
      return;
    }
    period.forEach((tier: unknown, j) => {
      const tat = `${pat}[${j}]`;
      if (!isObject(tier)) {
        errors.push({ field: tat, message: `${tat} must be a tier: an object of rate, adj, max, unit, sell` });
        return;
      }
      for (const k of NUMERIC_TIER_KEYS) {
        const v = tier[k];
        if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v)))
          errors.push({ field: `${tat}.${k}`, message: `${tat}.${k} must be a number (leave the key out for none)` });
      }
      if (tier.unit !== undefined) {
        const known = s.energy ? Object.keys(ENERGY_UNITS) : null;
        if (typeof tier.unit !== 'string' || (known !== null && !known.includes(tier.unit))) {
          errors.push({ field: `${tat}.unit`, message: `${tat}.unit must be ${known ? `one of ${known.join(', ')}` : 'a string'}` });
        }
      }
      // Tier maxima are cumulative bounds: each above the one before it in the same unit (bounds of
      // different units, kWh then kWh/kW "hours-use" tiers, are not comparable and are taken as published).
      const prev: unknown = j > 0 ? period[j - 1] : undefined;
      if (!isObject(prev)) return;
      const unit = tier.unit ?? s.defaultUnit;
      const { max } = tier;
      if ((prev.unit ?? s.defaultUnit) !== unit || typeof prev.max !== 'number' || typeof max !== 'number') return;
      if (Number.isFinite(prev.max) && Number.isFinite(max) && max <= prev.max) {
        errors.push({
          field: `${tat}.max`,
          message: `${tat}.max must be greater than the previous tier's max (${prev.max} ${String(unit)}): it is ${max}, so the tier would cover no usage`,
        });
      }
    });
  });
  return wellFormed ? value.length : null;
}

/** Why `value` is not a period of a structure with `count` periods, or null when it is one. */
function periodProblem(value: unknown, count: number, structure: string): string | null {
  if (!isIndex(value)) return `must be a period index: an integer from 0 (the first period of urdb.${structure})`;
  if (value < count) return null;
  return count === 0
    ? `is ${value}: a period without rates (the record has no urdb.${structure})`
    : `is ${value}: a period without rates (urdb.${structure} has ${plural(count, 'period')}, ${count === 1 ? 'index 0' : `indexes 0 to ${count - 1}`})`;
}

/** A 12x24 schedule: every value a period of the structure; one error per month, at its first wrong hour. */
function checkSchedule(record: Record<string, unknown>, key: string, count: number, structure: string, errors: FieldError[]): void {
  const value = record[key];
  const at = `urdb.${key}`;
  // Absent, or not 12 months at all: the normaliser's rules and words (whether it is required, "is not 12 months of 24 hours").
  if (!Array.isArray(value) || value.length !== 12) return;
  value.forEach((row: unknown, m) => {
    if (!Array.isArray(row) || row.length !== 24) {
      errors.push({
        field: `${at}[${m}]`,
        message: `${at}[${m}] must be 24 hours (0 to 23), every value a period index of urdb.${structure}`,
      });
      return;
    }
    const wrong = row.flatMap((v: unknown, h) => {
      const problem = periodProblem(v, count, structure);
      return problem === null ? [] : [{ h, problem }];
    });
    if (wrong.length === 0) return;
    const first = wrong[0]!;
    const more =
      wrong.length > 1 ? `; so ${wrong.length === 2 ? 'is 1 more hour' : `are ${wrong.length - 1} more hours`} of this month` : '';
    errors.push({ field: `${at}[${m}][${first.h}]`, message: `${at}[${m}][${first.h}] ${first.problem}${more}` });
  });
}

/** flatdemandmonths: 12 period indexes of flatdemandstructure, one a month. */
function checkMonths(record: Record<string, unknown>, key: string, count: number, structure: string, errors: FieldError[]): void {
  const value = record[key];
  const at = `urdb.${key}`;
  if (!Array.isArray(value) || value.length !== 12) return; // the normaliser's rules, as for schedules
  value.forEach((v: unknown, m) => {
    const problem = periodProblem(v, count, structure);
    if (problem !== null) errors.push({ field: `${at}[${m}]`, message: `${at}[${m}] ${problem}` });
  });
}

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z in Unix seconds: the dates PostgreSQL stores and YYYY-MM-DD writes. */
const FIRST_SECOND = -62135596800;
const LAST_SECOND = 253402300799;

/** startdate and enddate, Unix seconds when present: a day of the years 0001 to 9999 (PostgreSQL has no year 0). */
function checkDates(record: Record<string, unknown>, errors: FieldError[]): void {
  for (const key of ['startdate', 'enddate']) {
    const value = record[key];
    const at = `urdb.${key}`;
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      errors.push({ field: at, message: `${at} must be a Unix time in seconds (leave the key out for none)` });
    } else if (value < FIRST_SECOND || value > LAST_SECOND) {
      errors.push({ field: at, message: `${at} is ${value}: year out of range (0001 to 9999)` });
    }
  }
}

/** Every problem of the record's dates, rate structures and schedules, each at its JSON path; empty when none. */
export function checkUrdbRecord(record: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  checkDates(record, errors);
  for (const s of STRUCTURES) {
    const count = checkStructure(record, s, errors);
    if (count === null) continue;
    for (const key of s.schedules) checkSchedule(record, key, count, s.key, errors);
    if (s.months) checkMonths(record, s.months, count, s.key, errors);
  }
  return errors;
}
