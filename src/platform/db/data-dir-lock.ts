import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * One process per embedded-database folder. PGlite has no lock of its own (its postmaster.pid
 * holds a made-up pid), so two processes on one folder each write it as if alone, and one side's
 * writes are lost. The first process to open a folder writes a lock file beside it naming itself;
 * a second refuses to start (DataDirLockedError) until the first has stopped.
 *
 * A lock whose holder is gone (a crash, SIGKILL, a reboot) is taken over, never left to block:
 * - same machine (host name): the holder is gone when its pid is not running, when the machine has
 *   booted since (Linux boot id), or when its pid now belongs to a process started at another time
 *   (Linux /proc start time, which also covers a container restarted with the same host name);
 * - another machine or container sharing the folder: its pid means nothing here, so the holder
 *   refreshes the file's time every HEARTBEAT_MS and a lock not refreshed for STALE_AFTER_MS is gone.
 * The file is written whole before it appears (hard link of a complete file) and a stale one is
 * moved aside atomically before it is replaced, so two processes starting together cannot both
 * take it.
 */

/** How often a holder refreshes its lock file's modification time. */
export const HEARTBEAT_MS = 10_000;
/** A lock from another host (or one whose pid cannot be checked) not refreshed for this long is stale. */
export const STALE_AFTER_MS = 60_000;

/** What the lock file holds (JSON). */
export interface LockHolder {
  pid: number;
  hostname: string;
  /** Linux boot id of the holder's machine, null elsewhere. */
  boot_id: string | null;
  /** The holder's start time as Linux /proc/<pid>/stat counts it (clock ticks since boot), null elsewhere. */
  process_start: string | null;
  acquired_at: string;
}

/** What the lock reads from the operating system; tests replace it. */
export interface LockEnvironment {
  pid: number;
  hostname: string;
  bootId: string | null;
  /** The start time of a running process (as LockHolder.process_start), null when unknown. */
  processStart(pid: number): string | null;
  isAlive(pid: number): boolean;
  now(): number;
}

export class DataDirLockedError extends Error {
  constructor(readonly folder: string, readonly lockFile: string, readonly holder: LockHolder | null) {
    const who = holder
      ? `process ${holder.pid} on ${holder.hostname} (since ${holder.acquired_at})`
      : 'another process';
    super(
      `The embedded database folder ${folder} is in use by ${who}. Two processes on one folder lose data: `
        + 'stop the other one first, or give this one its own DATA_DIR (or set DATABASE_URL to share a PostgreSQL database). '
        + `The lock is ${lockFile}; one left by a process that is gone is taken over at the next start.`,
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly lockFile: string;
  /** Stops the heartbeat and removes the lock file (if it is still this holder's). */
  release(): void;
}

const readOrNull = (file: string) => {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
};

/** Field 22 of /proc/<pid>/stat (after the parenthesised command, which may hold spaces). */
function linuxProcessStart(pid: number): string | null {
  const stat = readOrNull(`/proc/${pid}/stat`);
  if (!stat) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? null;
}

export const systemLockEnvironment = (): LockEnvironment => ({
  pid: process.pid,
  hostname: os.hostname(),
  bootId: readOrNull('/proc/sys/kernel/random/boot_id'),
  processStart: linuxProcessStart,
  isAlive: (pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (err) {
      // EPERM: it exists, under another user.
      return (err as NodeJS.ErrnoException).code === 'EPERM';
    }
  },
  now: () => Date.now(),
});

/** The lock file of a folder: beside it, `<folder>.lock`. */
export const lockFileOf = (folder: string) => `${path.resolve(folder)}.lock`;

/** Lock files this process holds: a second open of one of them in this process is refused too. */
const heldHere = new Set<string>();

function parseHolder(text: string | null): LockHolder | null {
  if (!text) return null;
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (!Number.isInteger(h.pid) || typeof h.hostname !== 'string') return null;
    return { pid: h.pid!, hostname: h.hostname, boot_id: h.boot_id ?? null, process_start: h.process_start ?? null, acquired_at: String(h.acquired_at ?? '') };
  } catch {
    return null;
  }
}

/** Whether the lock file `text` (modified at `mtimeMs`) still belongs to a live holder. */
function isHeld(lockFile: string, text: string | null, mtimeMs: number, env: LockEnvironment): boolean {
  const fresh = env.now() - mtimeMs < STALE_AFTER_MS;
  const holder = parseHolder(text);
  // Unreadable (not written by this code) or from another host: only the heartbeat tells.
  if (!holder || holder.hostname !== env.hostname) return fresh;
  if (holder.boot_id && env.bootId && holder.boot_id !== env.bootId) return false;
  // Our own pid: held if this process holds it; otherwise a previous life of a process with this pid.
  if (holder.pid === env.pid) return heldHere.has(lockFile);
  if (!env.isAlive(holder.pid)) return false;
  const start = env.processStart(holder.pid);
  if (holder.process_start && start) return holder.process_start === start;
  return fresh;
}

const errnoOf = (err: unknown) => (err as NodeJS.ErrnoException).code;

/**
 * Creates `lockFile` holding `content` unless it exists (false then): a hard link of the complete
 * draft, so nobody reads it half-written; on a file system without hard links, an exclusive create
 * (a reader that finds it still empty takes it for a fresh lock, which it is).
 */
function createExclusive(draft: string, lockFile: string, content: string): boolean {
  try {
    fs.linkSync(draft, lockFile);
    return true;
  } catch (err) {
    if (errnoOf(err) === 'EEXIST') return false;
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'].includes(errnoOf(err) ?? '')) throw err;
  }
  try {
    fs.writeFileSync(lockFile, content, { flag: 'wx' });
    return true;
  } catch (err) {
    if (errnoOf(err) === 'EEXIST') return false;
    throw err;
  }
}

/**
 * Takes the lock of `folder` for this process, or throws DataDirLockedError naming the holder.
 * Synchronous: it runs once, at start-up, before the database is opened.
 */
export function acquireDataDirLock(folder: string, env: LockEnvironment = systemLockEnvironment()): DataDirLock {
  const lockFile = lockFileOf(folder);
  const mine: LockHolder = {
    pid: env.pid,
    hostname: env.hostname,
    boot_id: env.bootId,
    process_start: env.processStart(env.pid),
    acquired_at: new Date(env.now()).toISOString(),
  };
  const content = JSON.stringify(mine);
  const unique = `${process.pid}.${crypto.randomBytes(6).toString('hex')}`;
  const draft = `${lockFile}.${unique}.tmp`;
  fs.mkdirSync(path.dirname(lockFile), { recursive: true });
  fs.writeFileSync(draft, content);
  try {
    for (let attempt = 0; attempt < 10; attempt++) {
      if (createExclusive(draft, lockFile, content)) return hold(lockFile, content);
      let stat: fs.Stats;
      try {
        stat = fs.statSync(lockFile);
      } catch (err) {
        if (errnoOf(err) === 'ENOENT') continue; // released meanwhile
        throw err;
      }
      const text = readOrNull(lockFile);
      if (isHeld(lockFile, text, stat.mtimeMs, env)) throw new DataDirLockedError(folder, lockFile, parseHolder(text));
      // Stale: move it aside (atomic), and make sure what moved is the file judged stale, not a
      // fresh lock another starter took in between; that one is put back.
      const aside = `${lockFile}.${unique}.stale`;
      try {
        fs.renameSync(lockFile, aside);
      } catch (err) {
        if (errnoOf(err) === 'ENOENT') continue;
        throw err;
      }
      const moved = readOrNull(aside);
      if (moved !== text) {
        try {
          fs.linkSync(aside, lockFile);
        } catch {
          // A third starter took the lock meanwhile: refused all the same.
        }
        fs.rmSync(aside, { force: true });
        throw new DataDirLockedError(folder, lockFile, parseHolder(moved));
      }
      fs.rmSync(aside, { force: true });
    }
    throw new DataDirLockedError(folder, lockFile, null);
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

function hold(lockFile: string, content: string): DataDirLock {
  heldHere.add(lockFile);
  const ours = () => readOrNull(lockFile) === content;
  const heartbeat = setInterval(() => {
    try {
      if (!ours()) {
        clearInterval(heartbeat);
        process.emitWarning(`The lock ${lockFile} was taken by another process: stop one of them, they share a database folder.`);
        return;
      }
      const now = new Date();
      fs.utimesSync(lockFile, now, now);
    } catch {
      // The folder went away (tests removing temp folders): nothing left to guard.
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  let released = false;
  return {
    lockFile,
    release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      heldHere.delete(lockFile);
      if (ours()) fs.rmSync(lockFile, { force: true });
    },
  };
}
