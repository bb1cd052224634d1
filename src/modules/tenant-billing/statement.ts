/**
 * A tenant's statement for one unit of a stored calculation: the master bill, the deduction,
 * the unit's factor and share, the fee, and the calculation written out so the tenant can
 * check it by hand. Pure: built from the stored answer and the property.
 */
import type { UnitBill } from './presenters';
import type { StatementProperty } from './repository';
import type { CalculationResponse } from './schemas';
import type { FactorName } from './rubs.calc';
import { percent2, percentAsWritten, quantity, usd } from './format';

const NOUN: Record<FactorName, [string, string]> = {
  sqft: ['sqft', 'sqft'],
  occupant_count: ['occupant', 'occupants'],
  custom_weight: ['weight', 'weight'],
  unit_count: ['unit', 'units'],
};

function measure(name: FactorName, value: number): string {
  const [one, many] = NOUN[name];
  return `${quantity(value)} ${value === 1 ? one : many}`;
}

function unitValue(unit: UnitBill, name: FactorName): number {
  if (name === 'unit_count') return 1;
  return (unit[name] as number | undefined) ?? 0;
}

export function buildStatement(c: Omit<CalculationResponse, 'unit_bills'>, property: StatementProperty, unit: UnitBill) {
  const basis = c.allocation_basis;
  const totalOf = c.vacancy_policy === 'redistribute' ? 'billed_units' : 'all_units';
  const factors = basis.factors.map((f) => ({
    factor: f.factor,
    value: unitValue(unit, f.factor),
    occupied_days: unit.occupied_days,
    weight_percent: f.weight_percent,
    total: totalOf === 'billed_units' ? f.billed_total : f.all_total,
    total_of: totalOf as 'billed_units' | 'all_units',
  }));
  const rate = c.admin_fee_rate;
  const formula: string[] = [];
  formula.push(c.common_area_percent > 0
    ? `Billable amount = ${usd(c.total_amount)} - common area ${percentAsWritten(c.common_area_percent)} (${usd(c.common_area_deduction)}) = ${usd(c.billable_amount)}`
    : `Billable amount = ${usd(c.total_amount)} (no common-area deduction)`);

  const prorated = !unit.is_vacant && unit.occupied_days < basis.period_days;
  const whose = totalOf === 'billed_units' ? 'of the occupied units' : 'of all units, vacant ones included';
  if (unit.is_vacant) {
    formula.push(c.vacancy_policy === 'redistribute'
      ? 'This unit was vacant for the whole period: it is not billed, and the occupied units share the billable amount.'
      : 'This unit was vacant for the whole period: it is not billed, and the owner pays its share.');
  } else {
    const terms = factors.map((f) => {
      const days = prorated ? ` x ${unit.occupied_days}/${basis.period_days} days occupied` : '';
      const part = `${measure(f.factor, f.value)}${days} / ${measure(f.factor, f.total)}`;
      return factors.length > 1 ? `${percentAsWritten(f.weight_percent)} x ${part}` : part;
    });
    formula.push(`Your share = ${terms.join(' + ')} ${whose} = ${percent2(unit.allocation_percent)}`);
    const simple = factors.length === 1 && !prorated;
    const exact = c.rounding === 'exact'
      ? ` (rounded by largest remainder, so all units' base charges add up to the billed amount to the cent)`
      : '';
    formula.push(simple
      ? `Base charge = ${usd(c.billable_amount)} x ${quantity(factors[0].value)} / ${quantity(factors[0].total)} = ${usd(unit.base_charge)}${exact}`
      : `Base charge = ${usd(c.billable_amount)} x your share = ${usd(unit.base_charge)}${exact}`);
    const feeExact = c.rounding === 'exact' && rate > 0 ? ' (rounded by largest remainder, so all admin fees add up to the cent)' : '';
    formula.push(`Admin fee = ${usd(unit.base_charge)} x ${percentAsWritten(rate * 100)} = ${usd(unit.admin_fee)}${feeExact}`);
  }
  formula.push(`Total charge = ${usd(unit.base_charge)} + ${usd(unit.admin_fee)} = ${usd(unit.total_charge)}`);

  return {
    calculation_id: c.id,
    property: {
      id: property.id, name: property.name, address: property.address, city: property.city, state: property.state, zip_code: property.zipCode,
    },
    billing_period_start: c.billing_period_start,
    billing_period_end: c.billing_period_end,
    period_days: basis.period_days,
    utility_type: c.utility_type,
    method: c.method,
    vacancy_policy: c.vacancy_policy,
    rounding: c.rounding,
    master_bill: {
      total_amount: c.total_amount,
      common_area_percent: c.common_area_percent,
      common_area_deduction: c.common_area_deduction,
      billable_amount: c.billable_amount,
    },
    unit,
    share: { allocation_percent: unit.allocation_percent, factors },
    charges: { base_charge: unit.base_charge, admin_fee_rate: rate, admin_fee: unit.admin_fee, total_charge: unit.total_charge },
    formula,
    calculated_at: c.calculated_at,
  };
}

export type Statement = ReturnType<typeof buildStatement>;
