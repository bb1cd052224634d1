import fs from 'node:fs';

/**
 * CPU time (in clock ticks) used so far by the bench's own processes, by role, read from /proc
 * (Linux). PostgreSQL and Redis are left out: they serve other clients too, and a PostgreSQL
 * backend that exits takes its CPU time with it.
 */
export type CpuSample = Record<'web' | 'worker' | 'scheduler' | 'bench', number>;

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** This process, or a role it started (its child: another bench on the machine is not counted). */
function roleOf(pid: string, parent: number): keyof CpuSample | null {
  if (Number(pid) === process.pid) return 'bench';
  if (parent !== process.pid) return null;
  const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\u0000', ' ');
  const role = /scripts\/start\.mjs (web|worker|scheduler)\b/.exec(cmd)?.[1];
  return (role as keyof CpuSample | undefined) ?? null;
}

export function sampleCpu(): CpuSample | null {
  if (!fs.existsSync('/proc/self/stat')) return null;
  const sample: CpuSample = { web: 0, worker: 0, scheduler: 0, bench: 0 };
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      // After the command name: state, ppid, ... utime (14th field of the line), stime.
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      const role = roleOf(pid, Number(fields[1]));
      if (!role) continue;
      sample[role] += Number(fields[11]) + Number(fields[12]); // utime + stime
    } catch {
      // the process ended meanwhile
    }
  }
  return sample;
}

/** CPU milliseconds per unit of work between two samples, e.g. "web 0.29, worker 0.13, ...". */
export function cpuPer(before: CpuSample | null, after: CpuSample | null, units: number): string {
  if (!before || !after) return 'n/a';
  return (Object.keys(after) as Array<keyof CpuSample>)
    .filter((k) => after[k] > before[k])
    .map((k) => `${k} ${(((after[k] - before[k]) * TICK_MS) / units).toFixed(2)}`)
    .join(', ');
}
