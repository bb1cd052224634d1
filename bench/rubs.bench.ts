/**
 * RUBS allocator throughput on one core: allocations of 100 units per CPU-second. Each allocation
 * splits a different master bill over 100 units by sqft (a tenth vacant, a tenth moving in or out
 * within the period) with a common-area deduction, an admin fee and largest-remainder rounding, the
 * costlier mode. CPU time of the loop, not wall time, so other load on the machine does not lower
 * it. Run alone: `npx tsx bench/rubs.bench.ts`.
 */
import { allocate } from '../src/modules/tenant-billing/rubs.calc';
import type { AllocationInput, BillingUnit } from '../src/modules/tenant-billing/rubs.types';

export const ALLOCATOR_UNITS = 100;

function benchUnits(): BillingUnit[] {
  return Array.from({ length: ALLOCATOR_UNITS }, (_, i) => ({
    unit_id: `U-${i + 1}`,
    tenant_name: `Tenant ${i + 1}`,
    sqft: 550 + ((i * 37) % 900) + (i % 4) * 0.25,
    is_vacant: i % 10 === 9,
    move_in: i % 10 === 3 ? '2026-01-12' : null,
    move_out: i % 10 === 6 ? '2026-01-20' : null,
  }));
}

export interface AllocatorBenchResult {
  perSecond: number;
}

/** Measures allocations/second for `seconds` after a warm-up; prints and returns the figure. */
export async function benchAllocator(seconds = 3): Promise<AllocatorBenchResult> {
  const input: AllocationInput = {
    method: 'sqft',
    vacancyPolicy: 'redistribute',
    rounding: 'exact',
    commonAreaPercent: 7.5,
    adminFeePercent: 4,
    sqftWeightPercent: 50,
    periodStart: '2026-01-01',
    periodEnd: '2026-01-31',
    totalCents: 0,
    units: benchUnits(),
  };
  let sink = 0;
  // A different bill each time ($1,000.00 to $51,000.00), so no result can be reused.
  const run = (n: number, from: number) => {
    for (let i = 0; i < n; i++)
      sink += allocate({ ...input, totalCents: 100_000 + (((from + i) * 7919) % 5_000_000) }).reconciliation.billedToTenantsCents;
  };
  run(5_000, 0); // warm-up: JIT
  let done = 0;
  const cpuStart = process.cpuUsage();
  const deadline = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  while (process.hrtime.bigint() < deadline) {
    run(500, done);
    done += 500;
  }
  const cpu = process.cpuUsage(cpuStart);
  const perSecond = Math.round(done / ((cpu.user + cpu.system) / 1e6));
  if (sink === 0) throw new Error('allocator billed nothing');
  console.log(`RUBS allocator: ${perSecond} allocations of ${ALLOCATOR_UNITS} units/s on one core`);
  return { perSecond };
}

if (require.main === module) {
  benchAllocator(Number(process.argv[2] ?? 3)).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
