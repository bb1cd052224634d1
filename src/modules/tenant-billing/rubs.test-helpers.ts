/**
 * Shared by the allocator's tests (not a test file itself): the input of the hand-worked README
 * examples (rubs.calc*.test.ts), and the fast-check arbitraries of the properties
 * (rubs.properties*.test.ts).
 */
import fc from 'fast-check';
import { allocate, AllocationError } from './rubs.calc';
import { ALLOCATION_METHODS, type Allocation, type AllocationInput, type BillingUnit } from './rubs.types';

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

export const inputArb: fc.Arbitrary<AllocationInput> = fc
  .record({
    periodDays: fc.integer({ min: 1, max: 62 }),
    n: fc.integer({ min: 1, max: 25 }),
    method: fc.constantFrom(...ALLOCATION_METHODS),
    vacancyPolicy: fc.constantFrom('redistribute' as const, 'owner_pays' as const),
    rounding: fc.constantFrom('per_unit' as const, 'exact' as const),
    commonAreaPercent: fc.oneof(fc.constant(0), decimal(50, 2)),
    adminFeePercent: fc.oneof(fc.constant(0), decimal(15, 4)),
    sqftWeightPercent: decimal(100, 1),
    totalCents: fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 9_999_999_999_999 })),
  })
  .chain((p) => fc.tuple(fc.constant(p), fc.tuple(...Array.from({ length: p.n }, (_, i) => unitArb(i, p.periodDays)))))
  .map(([p, units]) => ({
    method: p.method,
    vacancyPolicy: p.vacancyPolicy,
    rounding: p.rounding,
    commonAreaPercent: p.commonAreaPercent,
    adminFeePercent: p.adminFeePercent,
    sqftWeightPercent: p.sqftWeightPercent,
    totalCents: p.totalCents,
    periodStart: date(0),
    periodEnd: date(p.periodDays - 1),
    units,
  }));

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
