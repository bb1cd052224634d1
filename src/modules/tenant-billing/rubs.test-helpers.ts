/**
 * Shared by the allocator's tests (not a test file itself): the input of the hand-worked README
 * examples (rubs.calc*.test.ts), and the fast-check arbitraries of the properties
 * (rubs.properties*.test.ts).
 */
import fc from 'fast-check';
import { allocate, AllocationError } from './rubs.calc';
import { ALLOCATION_METHODS, type Allocation, type AllocationInput, type BillingUnit, type Occupancy } from './rubs.types';

const JANUARY = { periodStart: '2026-01-01', periodEnd: '2026-01-31' };

export function input(overrides: Partial<AllocationInput> & { units: BillingUnit[] }): AllocationInput {
  return {
    method: 'sqft',
    vacancyPolicy: 'redistribute',
    rounding: 'per_unit',
    commonAreaPercent: 0,
    adminFeePercent: 0,
    sqftWeightPercent: 50,
    totalCents: 0,
    ...JANUARY,
    ...overrides,
  };
}

/** A unit that changed hands in the period: the resident who left, then the one who came (each names its own days). */
export const turnoverUnit = (unit_id: string, left: Occupancy, came: Occupancy): BillingUnit => ({
  unit_id,
  tenant_name: '',
  occupancies: [left, came],
});

const PERIOD_START = Date.UTC(2026, 0, 1);
export const date = (dayOffset: number) => new Date(PERIOD_START + dayOffset * 86_400_000).toISOString().slice(0, 10);
/** A number with at most `places` decimals, as a client would write it. */
export const decimal = (max: number, places: number) => fc.integer({ min: 0, max: max * 10 ** places }).map((v) => v / 10 ** places);

export const unitArb = (i: number, periodDays: number): fc.Arbitrary<BillingUnit> =>
  fc
    .record({
      unit_id: fc.constant(`U${i}`),
      tenant_name: fc.constant(`Tenant ${i}`),
      sqft: fc.oneof(fc.integer({ min: 0, max: 5000 }), decimal(5000, 2)),
      occupant_count: fc.integer({ min: 0, max: 8 }),
      custom_weight: fc.oneof(fc.integer({ min: 0, max: 100 }), decimal(100, 4)),
      is_vacant: fc.integer({ min: 0, max: 9 }).map((v) => v < 2),
      move_in: fc.option(fc.integer({ min: -5, max: periodDays + 5 }).map(date), { nil: null, freq: 4 }),
      move_out: fc.option(fc.integer({ min: -5, max: periodDays + 5 }).map(date), { nil: null, freq: 4 }),
    })
    .map((u) => (u.move_in && u.move_out && u.move_out < u.move_in ? { ...u, move_out: u.move_in } : u));

/** How `inputArb` draws each allocation setting; a property that needs another range replaces that one (`{ ...SETTINGS_ARB, ... }`). */
export const SETTINGS_ARB = {
  method: fc.constantFrom(...ALLOCATION_METHODS),
  vacancyPolicy: fc.constantFrom('redistribute' as const, 'owner_pays' as const),
  rounding: fc.constantFrom('per_unit' as const, 'exact' as const),
  commonAreaPercent: fc.oneof(fc.constant(0), decimal(50, 2)),
  adminFeePercent: fc.oneof(fc.constant(0), decimal(15, 4)),
  sqftWeightPercent: decimal(100, 1),
  totalCents: fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 9_999_999_999_999 })),
};

type Settings = Pick<
  AllocationInput,
  'method' | 'vacancyPolicy' | 'rounding' | 'commonAreaPercent' | 'adminFeePercent' | 'sqftWeightPercent' | 'totalCents'
>;

/** The input of drawn settings `s` (their allocation keys only) over `periodDays` days from 2026-01-01. */
export const inputOf = (s: Settings, periodDays: number, units: BillingUnit[]): AllocationInput => ({
  method: s.method,
  vacancyPolicy: s.vacancyPolicy,
  rounding: s.rounding,
  commonAreaPercent: s.commonAreaPercent,
  adminFeePercent: s.adminFeePercent,
  sqftWeightPercent: s.sqftWeightPercent,
  totalCents: s.totalCents,
  periodStart: date(0),
  periodEnd: date(periodDays - 1),
  units,
});

export const inputArb: fc.Arbitrary<AllocationInput> = fc
  .record({ periodDays: fc.integer({ min: 1, max: 62 }), n: fc.integer({ min: 1, max: 25 }), ...SETTINGS_ARB })
  .chain((p) => fc.tuple(fc.constant(p), fc.tuple(...Array.from({ length: p.n }, (_, i) => unitArb(i, p.periodDays)))))
  .map(([p, units]) => inputOf(p, p.periodDays, units));

/** The allocation, or null for input it rightly refuses (no one or nothing to bill by). */
export function tryAllocate(i: AllocationInput, arithmetic: 'auto' | 'bigint' = 'auto'): Allocation | null {
  try {
    return allocate(i, { arithmetic });
  } catch (err) {
    if (err instanceof AllocationError) return null;
    throw err;
  }
}

export const RUNS = { numRuns: 400 };

/** Asserts `check` on each input `arb` draws (RUNS of them) and its allocation; input the allocator rightly refuses is skipped. */
export function forEachAllocation(arb: fc.Arbitrary<AllocationInput>, check: (i: AllocationInput, a: Allocation) => void): void {
  fc.assert(
    fc.property(arb, (i) => {
      const a = tryAllocate(i);
      if (a) check(i, a);
    }),
    RUNS,
  );
}
