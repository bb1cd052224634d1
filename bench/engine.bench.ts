/**
 * Bill engine throughput on one core: bills per second for a real tiered
 * time-of-use + demand tariff (LGS-TOU-N: on/mid/off-peak periods sharing the
 * month's 12,500 kWh tier, facility demand, fixed charge), with no usage
 * profile so every bill also splits usage by the load shape, and most bills
 * (8,000-48,000 kWh) split both tiers over the periods. Requests vary usage, demand
 * and month so no result can be reused. The figure is bills per CPU-second of
 * the loop (one thread), so other load on the machine does not lower it. Run alone: `npx tsx bench/engine.bench.ts`.
 */
import { readUrdbLines } from '../src/modules/tariffs/bundled';
import { normalizeUrdbRecord } from '../src/modules/tariffs/urdb.normalize';
import { REFERENCE_DIR } from '../src/modules/utilities/reference';
import { bundledLoadShapes } from '../src/modules/pricing/load-shapes';
import { calculateBill, type BillRequest } from '../src/modules/pricing/engine';
import type { Tariff } from '../src/modules/tariffs/tariff.model';

export const ENGINE_BENCH_TARIFF = '539f6b16ec4f024411ec9847';

function loadTariff(label: string): Tariff {
  const [line] = readUrdbLines(REFERENCE_DIR, new Set([label]));
  if (!line?.record) throw new Error(`tariff ${label} is not in the bundled data`);
  const r = normalizeUrdbRecord(line.record, { state: null, importedAt: new Date() });
  if (!r.ok) throw new Error(`tariff ${label} rejected: ${r.reason}`);
  return r.tariff;
}

export interface EngineBenchResult {
  tariffId: string;
  billsPerSecond: number;
}

/** Measures bills/second for `seconds` after a warm-up; prints and returns the figure. */
export async function benchEngine(seconds = 3): Promise<EngineBenchResult> {
  const tariff = loadTariff(ENGINE_BENCH_TARIFF);
  const shapes = bundledLoadShapes();
  const requests: BillRequest[] = Array.from({ length: 4096 }, (_, i) => ({
    usageKwh: 8000 + ((i * 7919) % 40_000) + (i % 10) / 10,
    demandKw: 50 + (i % 200),
    month: (i % 12) + 1,
  }));
  let sink = 0;
  const run = (n: number) => {
    for (let i = 0; i < n; i++) sink += calculateBill(tariff, requests[i & 4095], shapes).totalCostCents;
  };
  run(200_000); // warm-up: JIT and the per-tariff cache
  // CPU time of this (single-threaded) loop, not wall time: other processes sharing the core do not count against it.
  let bills = 0;
  const cpuStart = process.cpuUsage();
  const deadline = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  while (process.hrtime.bigint() < deadline) {
    run(10_000);
    bills += 10_000;
  }
  const cpu = process.cpuUsage(cpuStart);
  const billsPerSecond = Math.round(bills / ((cpu.user + cpu.system) / 1e6));
  if (sink === 0) throw new Error('engine produced no totals');
  console.log(`bill engine: ${billsPerSecond} bills/s on one core (tiered TOU + demand tariff ${ENGINE_BENCH_TARIFF})`);
  return { tariffId: ENGINE_BENCH_TARIFF, billsPerSecond };
}

if (require.main === module) {
  benchEngine(Number(process.argv[2] ?? 3)).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
