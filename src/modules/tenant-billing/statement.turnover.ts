/**
 * The statement of a unit that turned over within the period (issue 46), asked without
 * `?occupancy`: each occupancy's part exactly as its resident's own statement shows it, and the
 * unit as a whole, whose every amount is the sum of the parts' in cents. Pure, like statement.ts.
 */
import { fromCents, toCents } from '../../platform/money';
import type { UnitBill } from './presenters';
import type { StatementProperty } from './repository';
import { buildStatement, type Statement, type StatementCalculation } from './statement';
import { percent2, usd } from './format';

/** One occupancy's part: the fields of its own statement that are its resident's, and its index. */
export type StatementPart = Pick<Statement, 'invoice_number' | 'unit' | 'share' | 'charges' | 'formula'> & { occupancy: number };

type PartFactor = Statement['share']['factors'][number] & { occupancy: number };

export type TurnoverStatement = Omit<Statement, 'share'> & {
  share: { allocation_percent: number; factors: PartFactor[] };
  occupancies: StatementPart[];
};

/** Sums 2-decimal amounts in integer cents, so the whole is the parts to the cent. */
const sumMoney = (amounts: readonly number[]): number => fromCents(amounts.reduce((sum, a) => sum + toCents(a), 0));

/** The days of the period a part covers: its move dates, clamped to the period (YYYY-MM-DD compares as text). */
export function partDates(
  c: Pick<StatementCalculation, 'billing_period_start' | 'billing_period_end'>,
  unit: UnitBill,
): { from: string; to: string } {
  const from = unit.move_in && unit.move_in > c.billing_period_start ? unit.move_in : c.billing_period_start;
  const to = unit.move_out && unit.move_out < c.billing_period_end ? unit.move_out : c.billing_period_end;
  return { from, to };
}

export const residentName = (unit: UnitBill): string => (unit.tenant_name === '' ? '(no name given)' : unit.tenant_name);

/** The unit as a whole: its residents, the factor fields every part shares, and the sums of the parts. */
function wholeUnit(bills: readonly UnitBill[]): UnitBill {
  const unit: Record<string, unknown> = {
    unit_id: bills[0].unit_id,
    tenant_name: bills
      .map((b) => b.tenant_name)
      .filter((name) => name !== '')
      .join(', '),
  };
  // sqft and custom_weight are the unit's; occupant_count is each resident's, shown only when they agree.
  for (const field of ['sqft', 'occupant_count', 'custom_weight'] as const) {
    const value = bills[0][field];
    if (value !== undefined && bills.every((b) => b[field] === value)) unit[field] = value;
  }
  // Hundredths of a percent, summed as integers: the unit's share is the sum of the shares printed.
  unit.allocation_percent = bills.reduce((sum, b) => sum + Math.round(b.allocation_percent * 100), 0) / 100;
  unit.base_charge = sumMoney(bills.map((b) => b.base_charge));
  unit.admin_fee = sumMoney(bills.map((b) => b.admin_fee));
  unit.total_charge = sumMoney(bills.map((b) => b.total_charge));
  unit.is_vacant = bills.every((b) => b.is_vacant);
  unit.occupied_days = bills.reduce((sum, b) => sum + b.occupied_days, 0);
  if (bills.some((b) => b.billing_fee !== undefined)) unit.billing_fee = sumMoney(bills.map((b) => b.billing_fee ?? 0));
  return unit as UnitBill;
}

export function buildTurnoverStatement(
  c: StatementCalculation,
  property: StatementProperty,
  bills: readonly UnitBill[],
): TurnoverStatement {
  const own = bills.map((bill) => buildStatement(c, property, bill));
  const parts: StatementPart[] = own.map((s, i) => ({
    occupancy: bills[i].occupancy ?? i,
    invoice_number: s.invoice_number,
    unit: s.unit,
    share: s.share,
    charges: s.charges,
    formula: s.formula,
  }));
  const unit = wholeUnit(bills);
  const charges = parts.map((p) => p.charges);
  // A limit names what moved the unit's base charge only when every part it moved was moved the same way.
  const limits = [...new Set(charges.flatMap((ch) => (ch.charge_limit ? [ch.charge_limit] : [])))];

  const formula = [own[0].formula[0]];
  for (const p of parts) {
    const { from, to } = partDates(c, p.unit);
    formula.push(
      `Occupancy ${p.occupancy}, ${residentName(p.unit)}, ${from} to ${to} (${p.unit.occupied_days} days): ` +
        `share ${percent2(p.share.allocation_percent)}, total charge ${usd(p.charges.total_charge)}`,
    );
  }
  formula.push(`Unit total = ${charges.map((ch) => usd(ch.total_charge)).join(' + ')} = ${usd(unit.total_charge)}`);

  return {
    ...own[0],
    invoice_number: null,
    unit,
    share: {
      allocation_percent: unit.allocation_percent,
      factors: parts.flatMap((p) => p.share.factors.map((f) => ({ occupancy: p.occupancy, ...f }))),
    },
    charges: {
      share_charge: sumMoney(charges.map((ch) => ch.share_charge)),
      charge_limit: limits.length === 1 ? limits[0] : null,
      base_charge: unit.base_charge,
      admin_fee_rate: c.admin_fee_rate,
      admin_fee: unit.admin_fee,
      billing_fee: sumMoney(charges.map((ch) => ch.billing_fee)),
      total_charge: unit.total_charge,
    },
    formula,
    occupancies: parts,
  };
}
