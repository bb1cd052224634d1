import { isCalendarDate } from '../../platform/dates';
import { MAX_BILL_AMOUNT, MIN_BILL_AMOUNT, NUMERIC_14_MAX, periodProblem } from './bill-rules';
import type { NewBill } from './repository';
import { UTILITY_TYPES } from './utility-types';

/**
 * Validation of one CSV bill row, hand-written rather than zod because it runs for every
 * row of imports of up to 50 MB; the rules are bill-rules.ts's, as for POST .../bills. It reads
 * what utility portals export: amounts with a leading `$` and thousands separators
 * (`-$1,234.56`), dates as `YYYY-MM-DD` or `MM/DD/YYYY`.
 */

export const REQUIRED_COLUMNS = ['utility_type', 'period_start', 'period_end', 'amount'] as const;
export const OPTIONAL_COLUMNS = ['usage_kwh', 'demand_kw'] as const;
type Column = (typeof REQUIRED_COLUMNS)[number] | (typeof OPTIONAL_COLUMNS)[number];

export type ColumnIndex = Record<Column, number | undefined> & { width: number };

/** Maps header names to positions; throws a message naming the first missing required column. */
export function readHeader(header: string[]): ColumnIndex {
  const names = header.map((h) => h.trim().toLowerCase());
  const index = { width: names.length } as ColumnIndex;
  for (const col of [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS]) {
    const i = names.indexOf(col);
    index[col] = i === -1 ? undefined : i;
  }
  const missing = REQUIRED_COLUMNS.find((c) => index[c] === undefined);
  if (missing) throw new Error(`CSV header must name the column ${missing}`);
  return index;
}

const utilityTypes: ReadonlySet<string> = new Set(UTILITY_TYPES);
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
export function parseBillRow(record: string[], columns: ColumnIndex, today: string): NewBill | string {
  if (record.length !== columns.width) return `expected ${columns.width} fields, found ${record.length}`;
  const cell = (c: Column) => (columns[c] === undefined ? '' : record[columns[c]]!.trim());
  for (const c of REQUIRED_COLUMNS) if (cell(c) === '') return `${c}: field required`;
  const utilityType = cell('utility_type');
  if (!utilityTypes.has(utilityType)) return `utility_type: must be one of ${UTILITY_TYPES.join(', ')}`;
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
  try {
    return {
      utility_type: utilityType,
      period_start: periodStart,
      period_end: periodEnd,
      amount,
      usage_kwh: quantity(cell('usage_kwh'), 'usage_kwh'),
      demand_kw: quantity(cell('demand_kw'), 'demand_kw'),
    };
  } catch (err) {
    return (err as Error).message;
  }
}
