/**
 * A stored calculation as CSV for a ledger import: RFC 4180 (CRLF line ends, a header row, fields
 * with a comma, quote or line break in double quotes, quotes doubled), one row per unit, each row
 * self-contained (calculation, period and utility on every line); a unit that turned over has one
 * row per occupancy. Amounts have two decimals.
 */
import type { CalculationResponse } from './schemas.response';
import { factorFields } from './presenters';
import { csvField, neutralise } from '../../platform/csv';

const amount = (v: number) => v.toFixed(2);

export function calculationCsv(c: CalculationResponse): string {
  const factors = factorFields(c.method);
  const header = [
    'calculation_id',
    'property_id',
    'billing_period_start',
    'billing_period_end',
    'utility_type',
    'method',
    'unit_id',
    'tenant_name',
    'is_vacant',
    'occupied_days',
    ...factors,
    'allocation_percent',
    'base_charge',
    'admin_fee',
    'total_charge',
    // Since issue 30, after the columns clients already read by position.
    'occupancy',
    'move_in',
    'move_out',
    'billing_fee',
    'invoice_number',
    'due_date',
    'status',
  ];
  const lines = [header.join(',')];
  for (const u of c.unit_bills) {
    const fields = [
      c.id,
      c.property_id,
      c.billing_period_start,
      c.billing_period_end,
      c.utility_type,
      c.method,
      neutralise(u.unit_id),
      neutralise(u.tenant_name),
      String(u.is_vacant),
      String(u.occupied_days),
      ...factors.map((f) => String(u[f] ?? '')),
      u.allocation_percent.toFixed(2),
      amount(u.base_charge),
      amount(u.admin_fee),
      amount(u.total_charge),
      u.occupancy === undefined ? '' : String(u.occupancy),
      u.move_in ?? '',
      u.move_out ?? '',
      amount(u.billing_fee ?? 0),
      u.invoice_number ?? '',
      c.due_date ?? '',
      c.status,
    ];
    lines.push(fields.map(csvField).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** rubs-<period start>-<utility>-<first 8 of the id>.csv: ASCII only, safe in any Content-Disposition. */
export function csvFileName(c: CalculationResponse): string {
  return `rubs-${c.billing_period_start}-${c.utility_type}-${c.id.slice(0, 8).replace(/[^A-Za-z0-9-]/g, '')}.csv`;
}
