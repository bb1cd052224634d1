/**
 * A tenant's statement for one unit of a stored calculation: the master bill, the deduction,
 * the unit's factor and share, the fee, and the calculation written out so the tenant can
 * check it by hand. Pure: built from the stored answer and the property.
 */
import type { UnitBill } from './presenters';
import type { StatementProperty } from './repository';
import type { CalculationResponse } from './schemas.response';
import type { FactorName } from './rubs.types';
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

/** Calculation fields a statement reads besides its line. */
export type StatementCalculation = Omit<CalculationResponse, 'unit_bills'>;

const DAYS_NOUN: Record<FactorName, string> = {
  sqft: 'sqft-days',
  occupant_count: 'occupant-days',
  custom_weight: 'weight-days',
  unit_count: 'unit-days',
};

/** The unit's factors as the statement shows them, each against the total the policy divides by. */
function statementFactors(c: StatementCalculation, unit: UnitBill) {
  const totalOf = c.vacancy_policy === 'redistribute' ? 'billed_units' : 'all_units';
  const table = c.occupant_factors !== null;
  return c.allocation_basis.factors.map((f) => {
    const factorDays = totalOf === 'billed_units' ? f.billed_factor_days : f.all_factor_days;
    const factorKwh = totalOf === 'billed_units' ? f.billed_factor_kwh : f.all_factor_kwh;
    return {
      factor: f.factor,
      value: unitValue(unit, f.factor),
      ...(f.factor === 'occupant_count' && table && unit.occupant_factor !== undefined
        ? { occupancy_factor: { occupants: unit.occupant_count ?? 0, factor: unit.occupant_factor } }
        : {}),
      occupied_days: unit.occupied_days,
      weight_percent: f.weight_percent,
      total: totalOf === 'billed_units' ? f.billed_total : f.all_total,
      ...(factorDays === undefined ? {} : { total_factor_days: factorDays }),
      ...(factorKwh === undefined
        ? {}
        : { total_factor_kwh: factorKwh, occupied_kwh: unit.occupied_kwh ?? c.allocation_basis.period_kwh! }),
      total_of: totalOf as 'billed_units' | 'all_units',
    };
  });
}

type StatementFactor = ReturnType<typeof statementFactors>[number];

/** The formula's lines for a billed unit: its share, its base charge (within the limits) and its fees. */
function billedFormula(c: StatementCalculation, unit: UnitBill, factors: StatementFactor[]): string[] {
  const formula: string[] = [];
  const table = c.occupant_factors !== null;
  const whose = c.vacancy_policy === 'redistribute' ? 'of the occupied units' : 'of all units, vacant ones included';
  const limit = unit.charge_limit;
  const billingFee = unit.billing_fee ?? 0;
  const shareCharge = limit ? limit.share_charge : unit.base_charge;
  const rate = c.admin_fee_rate;
  const terms = factors.map((f) => {
    // What the unit counts for: the factor as entered, or the table's factor for its head count.
    const counted =
      'occupancy_factor' in f && f.occupancy_factor
        ? `occupancy factor ${quantity(f.occupancy_factor.factor)} (${measure('occupant_count', f.occupancy_factor.occupants)})`
        : measure(f.factor, f.value);
    const part =
      f.total_factor_kwh !== undefined
        ? `${counted} x ${quantity(f.occupied_kwh!)} kWh (${f.occupied_days} days) / ${quantity(f.total_factor_kwh)} ${table && f.factor === 'occupant_count' ? 'factor' : DAYS_NOUN[f.factor].replace('-days', '')}-kWh`
        : f.total_factor_days === undefined
          ? `${counted} / ${table && f.factor === 'occupant_count' ? `${quantity(f.total)} in occupancy factors` : measure(f.factor, f.total)}`
          : `${counted} x ${f.occupied_days} days / ${quantity(f.total_factor_days)} ${table && f.factor === 'occupant_count' ? 'factor-days' : DAYS_NOUN[f.factor]}`;
    return factors.length > 1 ? `${percentAsWritten(f.weight_percent)} x ${part}` : part;
  });
  formula.push(`Your share = ${terms.join(' + ')} ${whose} = ${percent2(unit.allocation_percent)}`);
  const f0 = factors[0];
  const simple =
    factors.length === 1 && f0.total_factor_days === undefined && f0.total_factor_kwh === undefined && !('occupancy_factor' in f0);
  const exact =
    c.rounding === 'exact' ? ` (rounded by largest remainder, so all units' base charges add up to the billed amount to the cent)` : '';
  const shareLine = simple
    ? `${usd(c.billable_amount)} x ${quantity(f0.value)} / ${quantity(f0.total)} = ${usd(shareCharge)}${exact}`
    : `${usd(c.billable_amount)} x your share = ${usd(shareCharge)}${exact}`;
  if (limit?.limit === 'max_charge') {
    formula.push(
      `Base charge = ${shareLine}, capped at the maximum charge of ${usd(c.max_charge ?? unit.base_charge)}: ${usd(unit.base_charge)} (the owner pays the rest)`,
    );
  } else if (limit?.limit === 'min_charge') {
    formula.push(
      `Base charge = ${shareLine}, raised to the minimum charge of ${usd(c.min_charge ?? unit.base_charge)}: ${usd(unit.base_charge)}`,
    );
  } else {
    formula.push(`Base charge = ${shareLine}`);
  }
  const feeExact = c.rounding === 'exact' && rate > 0 ? ' (rounded by largest remainder, so all admin fees add up to the cent)' : '';
  formula.push(`Admin fee = ${usd(unit.base_charge)} x ${percentAsWritten(rate * 100)} = ${usd(unit.admin_fee)}${feeExact}`);
  if (billingFee > 0) formula.push(`Billing fee = ${usd(billingFee)}`);
  return formula;
}

export function buildStatement(c: StatementCalculation, property: StatementProperty, unit: UnitBill) {
  const basis = c.allocation_basis;
  const factors = statementFactors(c, unit);
  const rate = c.admin_fee_rate;

  const formula: string[] = [];
  formula.push(
    c.common_area_percent > 0
      ? `Billable amount = ${usd(c.total_amount)} - common area ${percentAsWritten(c.common_area_percent)} (${usd(c.common_area_deduction)}) = ${usd(c.billable_amount)}`
      : `Billable amount = ${usd(c.total_amount)} (no common-area deduction)`,
  );

  const limit = unit.charge_limit;
  const billingFee = unit.billing_fee ?? 0;
  if (unit.is_vacant) {
    formula.push(
      c.vacancy_policy === 'redistribute'
        ? 'This unit was vacant for the whole period: it is not billed, and the occupied units share the billable amount.'
        : 'This unit was vacant for the whole period: it is not billed, and the owner pays its share.',
    );
  } else {
    formula.push(...billedFormula(c, unit, factors));
  }
  formula.push(
    billingFee > 0
      ? `Total charge = ${usd(unit.base_charge)} + ${usd(unit.admin_fee)} + ${usd(billingFee)} = ${usd(unit.total_charge)}`
      : `Total charge = ${usd(unit.base_charge)} + ${usd(unit.admin_fee)} = ${usd(unit.total_charge)}`,
  );

  return {
    calculation_id: c.id,
    invoice_number: unit.invoice_number ?? null,
    due_date: c.due_date,
    property: {
      id: property.id,
      name: property.name,
      address: property.address,
      city: property.city,
      state: property.state,
      zip_code: property.zipCode,
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
    charges: {
      share_charge: limit ? limit.share_charge : unit.base_charge,
      charge_limit: limit ? limit.limit : null,
      base_charge: unit.base_charge,
      admin_fee_rate: rate,
      admin_fee: unit.admin_fee,
      billing_fee: billingFee,
      total_charge: unit.total_charge,
    },
    formula,
    calculated_at: c.calculated_at,
  };
}

export type Statement = ReturnType<typeof buildStatement>;
