import fc from 'fast-check';
import { toFieldErrors } from '../../platform/http/validate';
import { validateUnits } from './units.validate';
import { unitBody } from './schemas';
import type { BillingUnit } from './rubs.types';

const unit = (overrides: Partial<BillingUnit> = {}): BillingUnit => ({ unit_id: 'A', tenant_name: 'a', sqft: 100, ...overrides });

describe('validateUnits (the same checks for request and PMS units)', () => {
  it('accepts valid units of every method', () => {
    const u = { unit_id: 'A', tenant_name: '', sqft: 10.5, occupant_count: 2, custom_weight: 99.9999, move_in: '2026-01-02', move_out: '2026-01-02' };
    for (const method of ['sqft', 'occupant_count', 'unit_count', 'custom_weight', 'sqft_occupant'] as const) {
      expect(validateUnits(method, [u])).toEqual([]);
    }
    expect(validateUnits('unit_count', [{ unit_id: 'A', tenant_name: 'a' }])).toEqual([]);
  });

  it('names the field of every problem, in unit order', () => {
    const units: BillingUnit[] = [
      unit({ unit_id: '' }),
      unit({ unit_id: 'B', sqft: undefined }),
      unit({ unit_id: 'B' }),
      unit({ unit_id: 'C', sqft: Number.POSITIVE_INFINITY }),
      unit({ unit_id: 'D', sqft: 1e10 }),
      unit({ unit_id: 'E', sqft: 0.00001 }),
      unit({ unit_id: 'F', move_in: '2026-02-29' }),
      unit({ unit_id: 'G', move_in: '2026-03-02', move_out: '2026-03-01' }),
      unit({ unit_id: 'H', tenant_name: undefined as unknown as string }),
    ];
    expect(validateUnits('sqft', units)).toEqual([
      { field: 'units.0.unit_id', message: 'ensure this value has at least 1 characters' },
      { field: 'units.1.sqft', message: 'sqft required for sqft allocation method' },
      { field: 'units.2.unit_id', message: "unit_id 'B' appears more than once" },
      { field: 'units.3.sqft', message: 'value is not a valid number' },
      { field: 'units.4.sqft', message: 'ensure this value is less than or equal to 1000000000' },
      { field: 'units.5.sqft', message: 'ensure this value has at most 4 decimal places' },
      { field: 'units.6.move_in', message: 'invalid date format, expected YYYY-MM-DD' },
      { field: 'units.7.move_out', message: 'move_out must not be before move_in' },
      { field: 'units.8.tenant_name', message: 'field required' },
    ]);
  });

  it('per method: occupants are whole, weights 0 to 100, both factors for the blend', () => {
    expect(validateUnits('occupant_count', [unit({ occupant_count: 2.5 })])).toEqual([{ field: 'units.0.occupant_count', message: 'value is not a valid integer' }]);
    expect(validateUnits('custom_weight', [unit({ custom_weight: 100.01 })])).toEqual([{ field: 'units.0.custom_weight', message: 'ensure this value is less than or equal to 100' }]);
    expect(validateUnits('custom_weight', [unit({ custom_weight: -1 })])).toEqual([{ field: 'units.0.custom_weight', message: 'ensure this value is greater than or equal to 0' }]);
    expect(validateUnits('sqft_occupant', [unit()])).toEqual([{ field: 'units.0.occupant_count', message: 'occupant_count required for sqft_occupant allocation method' }]);
  });

  it('a unit that is not an object', () => {
    expect(validateUnits('unit_count', [unit(), 5, null, ['A']])).toEqual([
      { field: 'units.1', message: 'value is not a valid dict' },
      { field: 'units.2', message: 'value is not a valid dict' },
      { field: 'units.3', message: 'value is not a valid dict' },
    ]);
  });

  it('empty and oversized lists; at most 100 problems listed', () => {
    expect(validateUnits('sqft', [])).toEqual([{ field: 'units', message: 'units array must not be empty' }]);
    const many = Array.from({ length: 10_001 }, (_, i) => unit({ unit_id: String(i) }));
    expect(validateUnits('sqft', many)).toEqual([{ field: 'units', message: 'units array must not have more than 10000 units' }]);
    const bad = Array.from({ length: 500 }, (_, i) => unit({ unit_id: String(i), sqft: -1 }));
    expect(validateUnits('sqft', bad)).toHaveLength(100);
  });
});

describe('occupancies (turnover, issue 30): 422 naming the unit', () => {
  const APRIL = { start: '2026-04-01', end: '2026-04-30' };
  const turnover = (occupancies: unknown, extra: Record<string, unknown> = {}) => ({ unit_id: '301', tenant_name: '', sqft: 800, occupancies, ...extra });

  it('accepts residents one after another, dates outside the period clamped to it', () => {
    expect(validateUnits('sqft', [turnover([
      { tenant_name: 'Dana', move_in: '2025-06-01', move_out: '2026-04-15' },
      { tenant_name: 'Eli', move_in: '2026-04-16' },
    ])], APRIL)).toEqual([]);
  });

  it('overlapping, starting after they end, outside the period', () => {
    expect(validateUnits('sqft', [turnover([
      { tenant_name: 'Dana', move_out: '2026-04-15' },
      { tenant_name: 'Eli', move_in: '2026-04-15' },
      { tenant_name: 'Gus', move_in: '2026-04-20', move_out: '2026-04-18' },
      { tenant_name: 'Hal', move_in: '2026-05-02' },
    ])], APRIL)).toEqual([
      { field: 'units.0.occupancies.2.move_out', message: "unit '301': occupancy 2 moves out before it moves in" },
      { field: 'units.0.occupancies.3', message: "unit '301': occupancy 3 has no day in the billing period" },
      { field: 'units.0.occupancies.1', message: "unit '301': occupancies 0 and 1 overlap" },
    ]);
  });

  it('no unit-level vacancy or dates beside occupancies; head counts for the occupant methods; not empty', () => {
    expect(validateUnits('occupant_count', [
      turnover([{ tenant_name: 'Dana' }], { is_vacant: true, move_in: '2026-04-01', occupant_count: undefined }),
      { ...turnover([]), unit_id: '302' },
    ], APRIL)).toEqual([
      { field: 'units.0.is_vacant', message: "unit '301': is_vacant cannot be combined with occupancies (each occupancy has its dates; days no occupancy covers are vacant)" },
      { field: 'units.0.move_in', message: "unit '301': move_in cannot be combined with occupancies (each occupancy has its dates; days no occupancy covers are vacant)" },
      { field: 'units.0.occupancies.0.occupant_count', message: "unit '301': occupant_count required for each occupancy by the occupant methods" },
      { field: 'units.1.occupancies', message: "unit '302': occupancies must not be empty" },
    ]);
  });
});

describe('validateUnits says what the documented unit schema (unitBody) would say', () => {
  const absent = Symbol('absent');
  const anyOf = <T>(...values: T[]) => fc.constantFrom(absent, null, 'text', '', 12, -3, 1.5, true, [], {}, ...values);
  const unitArb = fc.record({
    unit_id: anyOf('U1', 'x'.repeat(200), 'x'.repeat(201)),
    tenant_name: anyOf('Ana', 'x'.repeat(201)),
    sqft: anyOf(0, 850.25, 1e9, 1e9 + 1, 0.0001),
    occupant_count: anyOf(0, 4, 1_000_000, 1_000_001, -1.5),
    custom_weight: anyOf(0, 100, 100.5, 33.3333),
    is_vacant: anyOf(false),
    move_in: anyOf('2026-01-31', '2026-02-30', '01/02/2026'),
    move_out: anyOf('2026-12-31', '2026-13-01'),
  }).map((u) => Object.fromEntries(Object.entries(u).filter(([, v]) => v !== absent)));

  it('the same field and message for every field (the first problem of each)', () => {
    fc.assert(fc.property(unitArb, (u) => {
      const firstPerField = (errors: Array<{ field: string; message: string }>) => {
        const seen = new Map<string, string>();
        for (const e of errors) if (!seen.has(e.field)) seen.set(e.field, e.message);
        return [...seen.entries()];
      };
      const parsed = unitBody.safeParse(u);
      const fromZod = parsed.success ? [] : firstPerField(toFieldErrors(parsed.error));
      // unit_count needs no factor; move_out before move_in is the one rule unitBody cannot state.
      const fromValidator = firstPerField(validateUnits('unit_count', [u]).map((e) => ({ ...e, field: e.field.replace(/^units\.0\./, '') })))
        .filter(([, message]) => message !== 'move_out must not be before move_in');
      expect(fromValidator).toEqual(fromZod);
    }), { numRuns: 2000 });
  });
});
