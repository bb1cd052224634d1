import { isCalendarDate } from '../../platform/dates';
import { BILL_NUMBER_MAX } from './schemas';
import type { NewBill } from './repository';
import { UTILITY_TYPES } from './utility-types';

/**
 * Validation of one CSV bill row, hand-written rather than zod because it runs for every
 * row of imports of up to 50 MB; the rules and messages match POST .../bills.
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
const DECIMAL = /^\d{1,11}(\.\d+)?$/;
const MONEY = /^\d{1,11}(\.\d{1,2})?$/;
function quantity(v: string, col: string): number | null {
  if (v === '') return null;
  if (!DECIMAL.test(v) || Number(v) > BILL_NUMBER_MAX) throw new Error(`${col}: value is not a valid non-negative number`);
  return Number(v);
}

/** The bill of a row, or an error message naming the first bad field. */
export function parseBillRow(record: string[], columns: ColumnIndex): NewBill | string {
  if (record.length !== columns.width) return `expected ${columns.width} fields, found ${record.length}`;
  const cell = (c: Column) => (columns[c] === undefined ? '' : record[columns[c]]!.trim());
  const utilityType = cell('utility_type');
  const periodStart = cell('period_start');
  const periodEnd = cell('period_end');
  const amount = cell('amount');
  for (const c of REQUIRED_COLUMNS) if (cell(c) === '') return `${c}: field required`;
  if (!utilityTypes.has(utilityType)) return `utility_type: must be one of ${UTILITY_TYPES.join(', ')}`;
  if (!isCalendarDate(periodStart)) return 'period_start: invalid date format, expected YYYY-MM-DD';
  if (!isCalendarDate(periodEnd)) return 'period_end: invalid date format, expected YYYY-MM-DD';
  if (periodEnd < periodStart) return 'period_end: period_end must not be before period_start';
  if (!MONEY.test(amount) || Number(amount) > BILL_NUMBER_MAX) {
    return 'amount: value is not a valid non-negative amount with at most 2 decimals';
  }
  try {
    return {
      utility_type: utilityType,
      period_start: periodStart,
      period_end: periodEnd,
      amount: Number(amount),
      usage_kwh: quantity(cell('usage_kwh'), 'usage_kwh'),
      demand_kw: quantity(cell('demand_kw'), 'demand_kw'),
    };
  } catch (err) {
    return (err as Error).message;
  }
}
