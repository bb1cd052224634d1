import { isCalendarDate } from '../../platform/dates';
import { METER_UTILITY_TYPES, type MeterUtilityType } from '../meters/units';
import { heatContentProblem, MAX_BILL_AMOUNT, MIN_BILL_AMOUNT, NUMERIC_14_MAX, periodProblem } from './bill-rules';
import type { MeterRef } from './import-meters';
import type { NewBill } from './repository';

/**
 * Validation of one CSV bill row, hand-written rather than zod because it runs for every
 * row of imports of up to 50 MB; the rules are bill-rules.ts's, as for POST .../bills. It reads
 * what utility portals export: amounts with a leading `$` and thousands separators
 * (`-$1,234.56`), dates as `YYYY-MM-DD` or `MM/DD/YYYY`.
 */

export const REQUIRED_COLUMNS = ['period_start', 'period_end', 'amount'] as const;
/** A row names its meter by meter_id, account_number or utility_type (the default meter): one of these columns is required. */
export const METER_COLUMNS = ['meter_id', 'account_number', 'utility_type'] as const;
export const OPTIONAL_COLUMNS = ['usage', 'unit', 'usage_kwh', 'demand_kw', 'is_estimated', 'heat_content'] as const;
type Column = (typeof REQUIRED_COLUMNS)[number] | (typeof METER_COLUMNS)[number] | (typeof OPTIONAL_COLUMNS)[number];

export type ColumnIndex = Record<Column, number | undefined> & { width: number };

/** Maps header names to positions; throws a message naming the first missing required column. */
export function readHeader(header: string[]): ColumnIndex {
  const names = header.map((h) => h.trim().toLowerCase());
  const index = { width: names.length } as ColumnIndex;
  for (const col of [...REQUIRED_COLUMNS, ...METER_COLUMNS, ...OPTIONAL_COLUMNS]) {
    const i = names.indexOf(col);
    index[col] = i === -1 ? undefined : i;
  }
  if (METER_COLUMNS.every((c) => index[c] === undefined))
    throw new Error('CSV header must name the column utility_type (or meter_id or account_number)');
  const missing = REQUIRED_COLUMNS.find((c) => index[c] === undefined);
  if (missing) throw new Error(`CSV header must name the column ${missing}`);
  return index;
}

/**
 * A row as read, before its meter is known (the import resolves it, then applies the usage rule):
 * a new bill's fields, its meter named by reference and its unit optional (no line items in a CSV).
 */
export interface BillDraft extends Omit<NewBill, 'meter_id' | 'utility_type' | 'unit' | 'line_items'> {
  meter: MeterRef;
  unit?: string;
}

const utilityTypes: ReadonlySet<string> = new Set(METER_UTILITY_TYPES);
const TRUE_WORDS: ReadonlySet<string> = new Set(['true', 'yes', 'y', '1']);
const FALSE_WORDS: ReadonlySet<string> = new Set(['false', 'no', 'n', '0', '']);
/** Digits, optionally grouped by thousands (`1,234,567`), then decimals. */
const QUANTITY = /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/;
/** A sign before or after an optional `$`, digits as QUANTITY, at most 2 decimals. */
const MONEY = /^(-?)\$?(-?)((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?)$/;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** `YYYY-MM-DD` of a `YYYY-MM-DD` or `MM/DD/YYYY` date that exists, else null. */
export function readDate(v: string): string | null {
  const us = US_DATE.exec(v);
  const iso = us ? `${us[3]}-${us[1]!.padStart(2, '0')}-${us[2]!.padStart(2, '0')}` : v;
  return isCalendarDate(iso) ? iso : null;
}

/** Dollars of a money cell (`1234.5`, `$1,234.50`, `-$12.00`), or null when it is not one. */
export function readAmount(v: string): number | null {
  const m = MONEY.exec(v);
  if (!m || (m[1] && m[2])) return null;
  const dollars = Number(m[3]!.replaceAll(',', ''));
  return m[1] || m[2] ? -dollars : dollars;
}

function quantity(v: string, col: string): number | null {
  if (v === '') return null;
  const n = QUANTITY.test(v) ? Number(v.replaceAll(',', '')) : NaN;
  if (!(n <= NUMERIC_14_MAX)) throw new Error(`${col}: value is not a valid non-negative number`);
  return n;
}

/** The bill of a row, or an error message naming the first bad field; `today` (YYYY-MM-DD) bounds the period. */
export function parseBillRow(record: string[], columns: ColumnIndex, today: string): BillDraft | string {
  if (record.length !== columns.width) return `expected ${columns.width} fields, found ${record.length}`;
  const cell = (c: Column) => (columns[c] === undefined ? '' : record[columns[c]]!.trim());
  const meterId = cell('meter_id');
  const accountNumber = cell('account_number');
  const utilityType = cell('utility_type');
  if (utilityType === '' && meterId === '' && accountNumber === '') return 'utility_type: field required';
  for (const c of REQUIRED_COLUMNS) if (cell(c) === '') return `${c}: field required`;
  if (utilityType !== '' && !utilityTypes.has(utilityType)) return `utility_type: must be one of ${METER_UTILITY_TYPES.join(', ')}`;
  const periodStart = readDate(cell('period_start'));
  if (periodStart === null) return 'period_start: invalid date, expected YYYY-MM-DD or MM/DD/YYYY';
  const periodEnd = readDate(cell('period_end'));
  if (periodEnd === null) return 'period_end: invalid date, expected YYYY-MM-DD or MM/DD/YYYY';
  const problem = periodProblem(periodStart, periodEnd, today);
  if (problem) return `${problem.field}: ${problem.message}`;
  const amount = readAmount(cell('amount'));
  if (amount === null) return 'amount: value is not an amount with at most 2 decimals';
  if (amount < MIN_BILL_AMOUNT || amount > MAX_BILL_AMOUNT) {
    return `amount: must be from ${MIN_BILL_AMOUNT.toLocaleString('en-US')} to ${MAX_BILL_AMOUNT.toLocaleString('en-US')}`;
  }
  const estimated = cell('is_estimated').toLowerCase();
  if (!TRUE_WORDS.has(estimated) && !FALSE_WORDS.has(estimated)) return 'is_estimated: expected true or false (or yes/no, 1/0)';
  const unit = cell('unit');
  try {
    const heatContent = quantity(cell('heat_content'), 'heat_content');
    const heatProblem =
      heatContent === null
        ? null
        : /\.\d{5,}$/.test(cell('heat_content'))
          ? 'ensure this value has at most 4 decimal places'
          : heatContentProblem(heatContent);
    if (heatProblem) return `heat_content: ${heatProblem}`;
    return {
      meter: {
        meterId: meterId === '' ? undefined : meterId,
        accountNumber: accountNumber === '' ? undefined : accountNumber,
        utilityType: utilityType === '' ? undefined : (utilityType as MeterUtilityType),
      },
      period_start: periodStart,
      period_end: periodEnd,
      amount,
      usage: quantity(cell('usage'), 'usage'),
      unit: unit === '' ? undefined : unit,
      usage_kwh: quantity(cell('usage_kwh'), 'usage_kwh'),
      demand_kw: quantity(cell('demand_kw'), 'demand_kw'),
      is_estimated: TRUE_WORDS.has(estimated),
      heat_content: heatContent,
    };
  } catch (err) {
    return (err as Error).message;
  }
}
