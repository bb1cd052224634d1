import type { z } from 'zod';
import { toFieldErrors } from '../../platform/http/validate';
import { calculateRubsBody } from './schemas';
import { pmsUnits, unitsOfMethod } from './schemas.units';
import type { BillingUnit } from './rubs.types';

const unit = (overrides: Record<string, unknown> = {}) => ({ unit_id: 'A', tenant_name: 'a', sqft: 100, ...overrides });
const errorsOf = (schema: z.ZodType, input: unknown) => {
  const parsed = schema.safeParse(input);
  return parsed.success ? [] : toFieldErrors(parsed.error);
};
/** The units' problems by themselves (as the PMS's are checked). */
const unitErrors = (units: unknown[]) => errorsOf(pmsUnits, { units });
const methodErrors = (method: Parameters<typeof unitsOfMethod>[0], units: BillingUnit[]) => errorsOf(unitsOfMethod(method), { units });

describe('the unit schemas (the one check of units, from a request body or the PMS)', () => {
  it('accept valid units of every method', () => {
    const u = {
      unit_id: 'A',
      tenant_name: '',
      sqft: 10.5,
      occupant_count: 2,
      custom_weight: 99.9999,
      move_in: '2026-01-02',
      move_out: '2026-01-02',
    };
    expect(unitErrors([u])).toEqual([]);
    for (const method of ['sqft', 'occupant_count', 'unit_count', 'custom_weight', 'sqft_occupant'] as const) {
      expect(methodErrors(method, [u])).toEqual([]);
    }
    expect(unitErrors([{ unit_id: 'A', tenant_name: 'a' }])).toEqual([]);
    expect(methodErrors('unit_count', [{ unit_id: 'A', tenant_name: 'a' }])).toEqual([]);
  });

  it('name the field of every problem, one per field, in unit order', () => {
    expect(
      unitErrors([
        unit({ unit_id: '' }),
        unit({ unit_id: 'C', sqft: 1e10 }),
        unit({ unit_id: 'D', sqft: 0.00001 }),
        unit({ unit_id: 'E', sqft: -0.00001 }),
        unit({ unit_id: 'F', move_in: '2026-02-29' }),
        unit({ unit_id: 'G', move_in: '2026-03-02', move_out: '2026-03-01' }),
        unit({ unit_id: 'H', occupant_count: -1.5 }),
        unit({ unit_id: 'I', custom_weight: 100.01 }),
      ]),
    ).toEqual([
      { field: 'units.0.unit_id', message: 'ensure this value has at least 1 characters' },
      { field: 'units.1.sqft', message: 'ensure this value is less than or equal to 1000000000' },
      { field: 'units.2.sqft', message: 'ensure this value has at most 4 decimal places' },
      { field: 'units.3.sqft', message: 'ensure this value is greater than or equal to 0' },
      { field: 'units.4.move_in', message: 'invalid date format, expected YYYY-MM-DD' },
      { field: 'units.5.move_out', message: 'move_out must not be before move_in' },
      { field: 'units.6.occupant_count', message: 'value is not a valid integer' },
      { field: 'units.7.custom_weight', message: 'ensure this value is less than or equal to 100' },
    ]);
  });

  it('a repeated unit_id, a missing field, a value of the wrong type, a unit that is not an object', () => {
    expect(unitErrors([unit({ unit_id: 'B' }), unit({ unit_id: 'B' }), unit({ unit_id: 'C' }), unit({ unit_id: 'B' })])).toEqual([
      { field: 'units.1.unit_id', message: "unit_id 'B' appears more than once" },
      { field: 'units.3.unit_id', message: "unit_id 'B' appears more than once" },
    ]);
    expect(
      unitErrors([
        unit({ tenant_name: undefined }),
        unit({ unit_id: 'B', sqft: Number.POSITIVE_INFINITY }),
        unit({ unit_id: 'C', is_vacant: 'yes' }),
      ]),
    ).toEqual([
      { field: 'units.0.tenant_name', message: 'field required' },
      { field: 'units.1.sqft', message: 'value is not a valid number' },
      { field: 'units.2.is_vacant', message: 'value could not be parsed to a boolean' },
    ]);
    expect(unitErrors([unit(), 5, null, ['A']])).toEqual([
      { field: 'units.1', message: 'value is not a valid dict' },
      { field: 'units.2', message: 'value is not a valid dict' },
      { field: 'units.3', message: 'value is not a valid dict' },
    ]);
  });

  it('empty and oversized lists', () => {
    expect(unitErrors([])).toEqual([{ field: 'units', message: 'units array must not be empty' }]);
    const many = Array.from({ length: 10_001 }, (_, i) => unit({ unit_id: String(i) }));
    expect(unitErrors(many)).toEqual([{ field: 'units', message: 'units array must not have more than 10000 units' }]);
  });

  it('the method names each missing factor; occupants are whole, weights 0 to 100, both factors for the blend', () => {
    expect(methodErrors('sqft', [unit(), unit({ unit_id: 'B', sqft: undefined }), unit({ unit_id: 'C', sqft: null })])).toEqual([
      { field: 'units.1.sqft', message: 'sqft required for sqft allocation method' },
      { field: 'units.2.sqft', message: 'sqft required for sqft allocation method' },
    ]);
    expect(methodErrors('sqft_occupant', [unit()])).toEqual([
      { field: 'units.0.occupant_count', message: 'occupant_count required for sqft_occupant allocation method' },
    ]);
    expect(methodErrors('custom_weight', [unit()])).toEqual([
      { field: 'units.0.custom_weight', message: 'custom_weight required for custom_weight allocation method' },
    ]);
  });
});

describe('occupancies (turnover, issue 30): 422 naming the unit', () => {
  const APRIL = { billing_period_start: '2026-04-01', billing_period_end: '2026-04-30' };
  const body = (units: unknown[]) => ({
    property_id: 'p',
    billing_config_id: 'c',
    ...APRIL,
    total_amount: 100,
    utility_type: 'water',
    units,
  });
  const turnover = (occupancies: unknown, extra: Record<string, unknown> = {}) => ({
    unit_id: '301',
    tenant_name: '',
    sqft: 800,
    occupancies,
    ...extra,
  });

  /** The 422's errors for a body of one unit, 301, with these occupancies. */
  const errorsOfStays = (occupancies: unknown[]) => errorsOf(calculateRubsBody, body([turnover(occupancies)]));

  it('accepts residents one after another, dates outside the period clamped to it', () => {
    expect(
      errorsOfStays([
        { tenant_name: 'Dana', move_in: '2025-06-01', move_out: '2026-04-15' },
        { tenant_name: 'Eli', move_in: '2026-04-16' },
      ]),
    ).toEqual([]);
  });

  it('overlapping, starting after they end, outside the period', () => {
    expect(
      errorsOfStays([
        { tenant_name: 'Dana', move_out: '2026-04-15' },
        { tenant_name: 'Eli', move_in: '2026-04-15' },
        { tenant_name: 'Gus', move_in: '2026-04-20', move_out: '2026-04-18' },
        { tenant_name: 'Hal', move_in: '2026-05-02' },
      ]),
    ).toEqual([
      { field: 'units.0.occupancies.2.move_out', message: "unit '301': occupancy 2 moves out before it moves in" },
      { field: 'units.0.occupancies.3', message: "unit '301': occupancy 3 has no day in the billing period" },
      { field: 'units.0.occupancies.1', message: "unit '301': occupancies 0 and 1 overlap" },
    ]);
  });

  it('two stays overlapping only outside the period: the one with no day in it is named, not an overlap', () => {
    expect(
      errorsOfStays([
        { tenant_name: 'Dana', move_in: '2026-03-01', move_out: '2026-03-20' },
        { tenant_name: 'Eli', move_in: '2026-03-10' },
      ]),
    ).toEqual([{ field: 'units.0.occupancies.0', message: "unit '301': occupancy 0 has no day in the billing period" }]);
  });

  it('no unit-level vacancy or dates beside occupancies; not empty, at most 31', () => {
    const stays = Array.from({ length: 32 }, (_, d) => ({ tenant_name: `T${d}` }));
    expect(
      errorsOf(
        calculateRubsBody,
        body([
          turnover([{ tenant_name: 'Dana' }], { is_vacant: true, move_in: '2026-04-01' }),
          { ...turnover([]), unit_id: '302' },
          { ...turnover(stays), unit_id: '303' },
        ]),
      ),
    ).toEqual([
      {
        field: 'units.0.is_vacant',
        message:
          "unit '301': is_vacant cannot be combined with occupancies (each occupancy has its dates; days no occupancy covers are vacant)",
      },
      {
        field: 'units.0.move_in',
        message:
          "unit '301': move_in cannot be combined with occupancies (each occupancy has its dates; days no occupancy covers are vacant)",
      },
      { field: 'units.1.occupancies', message: "unit '302': occupancies must not be empty" },
      { field: 'units.2.occupancies', message: "unit '303': at most 31 occupancies" },
    ]);
  });

  it('the occupant methods need a head count on each occupancy, none on the unit', () => {
    expect(
      methodErrors('occupant_count', [
        turnover([
          { tenant_name: 'Dana', occupant_count: 2 },
          { tenant_name: 'Eli', move_in: '2026-04-20' },
        ]) as BillingUnit,
      ]),
    ).toEqual([
      {
        field: 'units.0.occupancies.1.occupant_count',
        message: "unit '301': occupant_count required for each occupancy by the occupant methods",
      },
    ]);
    expect(methodErrors('sqft', [turnover([{ tenant_name: 'Dana' }]) as BillingUnit])).toEqual([]);
  });
});
