import fs from 'node:fs';
import path from 'node:path';

/**
 * A CPU budget for one process, from the Linux cgroup `cpu` controller (v2's cpu.max, or v1's CFS
 * quota): the scale-out figure gives each web process a fraction of a core to stand in for a
 * machine of its own, so that two of them, PostgreSQL, Redis, the worker and the load generator
 * do not all compete for the same two cores.
 */
export interface CpuCap {
  cores: number;
  /** Where the cap lives, for the log. */
  where: string;
  /** Puts the process (all its threads) under the cap. */
  add(pid: number): void;
  /** Moves the processes still alive back to the cgroup they came from and removes the cap. */
  remove(): void;
}

/** Short periods: a process that used its quota waits at most one period, so the cap adds little latency of its own. */
const PERIOD_US = 10_000;

interface Hierarchy {
  /** The cgroup folder a new cap goes in (the bench's own cgroup, or a parent that delegates cpu). */
  parent: string;
  version: 1 | 2;
  /** The cgroup folder of a process, in this hierarchy. */
  cgroupOf(pid: number): string;
}

function hierarchy(): Hierarchy | null {
  let lines: string[];
  try {
    lines = fs.readFileSync('/proc/self/cgroup', 'utf8').trim().split('\n');
  } catch {
    return null;
  }
  const pathIn = (file: string, match: (controllers: string[]) => boolean) => {
    for (const line of file.trim().split('\n')) {
      const [, controllers, at] = line.split(':');
      if (match(controllers.split(','))) return at;
    }
    return null;
  };
  // cgroup v1 with its own cpu hierarchy.
  const v1Root = ['/sys/fs/cgroup/cpu', '/sys/fs/cgroup/cpu,cpuacct'].find((dir) => fs.existsSync(path.join(dir, 'cpu.cfs_quota_us')));
  if (v1Root && pathIn(lines.join('\n'), (c) => c.includes('cpu')) !== null) {
    const of = (pid: number) => path.join(v1Root, pathIn(fs.readFileSync(`/proc/${pid}/cgroup`, 'utf8'), (c) => c.includes('cpu')) ?? '/');
    return { parent: of(process.pid), version: 1, cgroupOf: of };
  }
  // cgroup v2 (unified) with cpu delegated to the bench's cgroup.
  const at = pathIn(lines.join('\n'), (c) => c.length === 1 && c[0] === '');
  if (at === null) return null;
  const parent = path.join('/sys/fs/cgroup', at);
  try {
    if (!fs.readFileSync(path.join(parent, 'cgroup.subtree_control'), 'utf8').split(/\s+/).includes('cpu')) return null;
  } catch {
    return null;
  }
  const of = (pid: number) => path.join('/sys/fs/cgroup', pathIn(fs.readFileSync(`/proc/${pid}/cgroup`, 'utf8'), (c) => c.length === 1 && c[0] === '') ?? '/');
  return { parent, version: 2, cgroupOf: of };
}

/** A cap of `cores` (fractions allowed) named `name`, or null where cgroups cannot be written (not Linux, no permission). */
export function createCpuCap(name: string, cores: number): CpuCap | null {
  const h = hierarchy();
  if (!h) return null;
  const dir = path.join(h.parent, `${name}-${process.pid}`);
  const quota = Math.max(1000, Math.round(cores * PERIOD_US));
  try {
    fs.mkdirSync(dir);
    if (h.version === 1) {
      fs.writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
      fs.writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(quota));
    } else {
      fs.writeFileSync(path.join(dir, 'cpu.max'), `${quota} ${PERIOD_US}`);
    }
  } catch {
    try {
      fs.rmdirSync(dir);
    } catch {
      // never made
    }
    return null;
  }
  const origins = new Map<number, string>();
  return {
    cores,
    where: `cgroup v${h.version} ${dir}`,
    add(pid) {
      origins.set(pid, h.cgroupOf(pid));
      fs.writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
    },
    remove() {
      for (const [pid, origin] of origins) {
        try {
          fs.writeFileSync(path.join(origin, 'cgroup.procs'), String(pid));
        } catch {
          // ended
        }
      }
      try {
        fs.rmdirSync(dir);
      } catch {
        // a process still in it (it could not be moved back): the folder goes when it ends
      }
    },
  };
}
