/**
 * The stored form of a calculation (rubs_calculations.result), and reading it back as the answer:
 * the unit bills are built by the same helpers as a new calculation's (presenters.ts).
 */
import { toCents } from '../../platform/money';
import type { Allocation } from './rubs.types';
import { readLegacyDeflatedUnits, type LegacyDeflatedDocument } from './legacy-deflated';
import {
  assemble,
  completeUnitBill,
  extrasOf,
  factorFields,
  invoiceNumbers,
  type CalculationHead,
  type CalculationMeta,
  type LineExtras,
  type UnitBill,
} from './presenters';
import type { CalculationResponse } from './schemas.response';

/**
 * The stored form of a calculation, written as plain JSON to rubs_calculations.result: the answer
 * without its unit bills, and the unit bills as rows of values (amounts in integer cents, the share
 * in hundredths of a percent): rows do not repeat every key name per unit. The status and the
 * invoice numbers are columns of the row (they change, or are the row's), not part of it.
 */
export interface StoredCalculation {
  /** 3: this plain form (2 was the deflated form, read by legacy-deflated.ts). */
  format: 3;
  calculation: CalculationHead;
  /**
   * Per line: unit_id, tenant_name, the method's factor fields, the share (1/100 %), base cents,
   * fee cents, occupied days (0: vacant), then move_in, move_out when either is set or extras
   * follow, then the line's LineExtras when it has any (turnover, occupancy table, a charge limit).
   */
  units: unknown[][];
}

/** The occupied days of a stored line (its column after the factor fields, the share, base and fee). */
const storedDays = (row: unknown[], fields: number) => row[2 + fields + 3] as number;

export function toStored(head: CalculationHead, a: Allocation): StoredCalculation {
  const fields = factorFields(head.method);
  const units = a.lines.map((l) => {
    const row: unknown[] = [l.unit.unit_id, l.tenantName];
    for (const f of fields) row.push((f === 'occupant_count' ? l.occupantCount : l.unit[f]) ?? null);
    row.push(l.shareBasisPoints, l.baseCents, l.adminFeeCents, l.occupiedDays);
    const extras = extrasOf(l, a.periodDays);
    if (l.moveIn || l.moveOut || extras) row.push(l.moveIn, l.moveOut);
    if (extras) row.push(extras);
    return row;
  });
  return { format: 3, calculation: head, units };
}

/** A stored result's text: the plain form as it is, a row stored before issue 28 through its legacy decoder. */
export function readStored(text: string): StoredCalculation {
  const doc = JSON.parse(text) as StoredCalculation | LegacyDeflatedDocument;
  return doc.format === 2 ? { format: 3, calculation: doc.calculation as CalculationHead, units: readLegacyDeflatedUnits(doc) } : doc;
}

/** The terms and figures calculations stored before issue 30 did not have, at the values they had in effect. */
function withIssue30Defaults(c: CalculationHead): CalculationHead {
  const reconciliation: Record<string, unknown> = { ...c.reconciliation };
  for (const key of ['billing_fees', 'max_charge_absorbed', 'min_charge_added']) reconciliation[key] ??= 0;
  const head: Record<string, unknown> = { ...c, reconciliation };
  const defaults: Record<string, unknown> = {
    billing_config_version: 1,
    occupant_factors: null,
    max_charge: null,
    min_charge: null,
    billing_fee: 0,
    due_date: null,
  };
  for (const [key, value] of Object.entries(defaults)) if (head[key] === undefined) head[key] = value;
  // Calculations before interval proration (issue 50) all counted days.
  const basis = c.allocation_basis as Record<string, unknown>;
  if (basis.basis === undefined) {
    const { period_days, ...others } = basis;
    head.allocation_basis = { period_days, basis: 'days', ...others };
  }
  return head as CalculationHead;
}

/** One stored line (StoredCalculation['units']) as its unit bill; `fields` are factorFields of the method. */
function unitBillOfRow(row: unknown[], fields: ReturnType<typeof factorFields>, billingFeeCents: number, invoice: string | null): UnitBill {
  const f = fields.length;
  const bill: Record<string, unknown> = { unit_id: row[0], tenant_name: row[1] };
  for (let k = 0; k < f; k++) bill[fields[k]] = row[2 + k];
  const [bp, base, fee, days, ...rest] = row.slice(2 + f) as [number, number, number, number, ...unknown[]];
  const extras = rest.length === 3 ? (rest[2] as LineExtras) : null;
  const moves = rest.length >= 2 ? (rest.slice(0, 2) as Array<string | null>) : null;
  return completeUnitBill(bill, bp, base, fee, days, moves, extras, billingFeeCents, invoice);
}

/** A stored calculation read back: its head (with the defaults of older rows) and the bill of each line, on demand. */
function storedLines(s: StoredCalculation, meta: CalculationMeta) {
  const head = withIssue30Defaults(s.calculation);
  const fields = factorFields(head.method);
  const feeCents = toCents(head.billing_fee);
  const invoices = invoiceNumbers(
    meta,
    s.units.map((row) => storedDays(row, fields.length)),
  );
  return { head, billOf: (i: number) => unitBillOfRow(s.units[i], fields, feeCents, invoices[i]) };
}

export function fromStored(s: StoredCalculation, meta: CalculationMeta): CalculationResponse {
  const { head, billOf } = storedLines(s, meta);
  return assemble(
    head,
    s.units.map((_, i) => billOf(i)),
    meta,
  );
}

/**
 * What a statement reads of a stored calculation: the answer without its unit bills, and the bills
 * of one unit's lines (one per occupancy of a unit that turned over, in order) as fromStored would
 * give them, without building the others; none for a unit the calculation does not have.
 */
export function storedUnitLines(
  s: StoredCalculation,
  meta: CalculationMeta,
  unitId: string,
): { calculation: Omit<CalculationResponse, 'unit_bills'>; bills: UnitBill[] } {
  const { head, billOf } = storedLines(s, meta);
  const bills = s.units.flatMap((r, i) => (r[0] === unitId ? [billOf(i)] : []));
  const { unit_bills: _none, ...calculation } = assemble(head, [], meta);
  return { calculation, bills };
}
