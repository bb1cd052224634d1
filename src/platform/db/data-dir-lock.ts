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
 *
 * A lock file deleted while its holder runs (by hand, by a clean-up script) would let a second
 * process in. The holder's heartbeat checks the file as well as refreshing it:
 * - gone: it is put back, naming the holder, the same atomic way it was first created, so a process
 *   starting later is refused as usual (LockEvents.onRestored says so);
 * - naming anyone else: another process opened the folder in the moments it had no lock. Two
 *   writers on one folder lose data, so the holder stops using it: the heartbeat ends and
 *   LockEvents.onLost is called, by default printing why and exiting the process with code 1.
 * A second process can thus share the folder for at most one HEARTBEAT_MS.
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

/** Who holds the lock, as the errors say it. */
const holderText = (holder: LockHolder | null) =>
  holder ? `process ${holder.pid} on ${holder.hostname} (since ${holder.acquired_at})` : 'another process';

/** An error about the folder's lock: the folder, its lock file and the process that holds it (null: unknown). */
abstract class DataDirLockError extends Error {
  constructor(
    readonly folder: string,
    readonly lockFile: string,
    readonly holder: LockHolder | null,
    message: string,
  ) {
    super(message);
  }
}

export class DataDirLockedError extends DataDirLockError {
  constructor(folder: string, lockFile: string, holder: LockHolder | null) {
    super(
      folder,
      lockFile,
      holder,
      `The embedded database folder ${folder} is in use by ${holderText(holder)}. Two processes on one folder lose data: ` +
        'stop the other one first, or give this one its own DATA_DIR (or set DATABASE_URL to share a PostgreSQL database). ' +
        `The lock is ${lockFile}; one left by a process that is gone is taken over at the next start.`,
    );
    this.name = 'DataDirLockedError';
  }
}

export class DataDirLockLostError extends DataDirLockError {
  constructor(folder: string, lockFile: string, holder: LockHolder | null) {
    super(
      folder,
      lockFile,
      holder,
      `The lock ${lockFile} of the embedded database folder ${folder} was deleted and ${holderText(holder)} has opened the folder since. ` +
        'Two processes on one folder lose data, so this one stops using it: stop the other one too, then start one process. ' +
        'Never delete the lock file of a running process.',
    );
    this.name = 'DataDirLockLostError';
  }
}

/** What the holder's heartbeat reports; the defaults suit a server process. */
export interface LockEvents {
  /** The lock file was gone and has been put back naming this process. Default: a process warning. */
  onRestored?(lockFile: string): void;
  /** Another process holds the folder now; this one must stop writing to it. Default: exitOnLostLock. */
  onLost?(err: DataDirLockLostError): void;
}

/** Prints why and exits with code 1, without closing the database: closing it would write to the folder. */
export function exitOnLostLock(err: DataDirLockLostError): void {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}

/** What one heartbeat found. */
export type HeartbeatOutcome =
  | 'refreshed'
  | 'restored'
  | 'lost'
  /** The file could not be checked (its folder went away); the next beat looks again. */
  | 'unchecked'
  /** Released, or lost before. */
  | 'stopped';

export interface DataDirLock {
  readonly lockFile: string;
  /** One heartbeat now (a timer runs it every HEARTBEAT_MS): refreshes, restores or gives up the lock. */
  heartbeat(): HeartbeatOutcome;
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
    return {
      pid: h.pid!,
      hostname: h.hostname,
      boot_id: h.boot_id ?? null,
      process_start: h.process_start ?? null,
      acquired_at: String(h.acquired_at ?? ''),
    };
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
export function acquireDataDirLock(folder: string, env: LockEnvironment = systemLockEnvironment(), events: LockEvents = {}): DataDirLock {
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
      if (createExclusive(draft, lockFile, content)) return hold(folder, lockFile, content, draft, events);
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

function hold(folder: string, lockFile: string, content: string, draft: string, events: LockEvents): DataDirLock {
  heldHere.add(lockFile);
  const ours = () => readOrNull(lockFile) === content;
  let stopped = false;
  const stop = () => {
    stopped = true;
    clearInterval(timer);
    heldHere.delete(lockFile);
  };
  /** Puts the deleted lock file back, as acquire creates it; false when another process got there first. */
  const restore = () => {
    fs.writeFileSync(draft, content);
    try {
      return createExclusive(draft, lockFile, content);
    } finally {
      fs.rmSync(draft, { force: true });
    }
  };
  const heartbeat = (): HeartbeatOutcome => {
    if (stopped) return 'stopped';
    try {
      if (ours()) {
        const now = new Date();
        fs.utimesSync(lockFile, now, now);
        return 'refreshed';
      }
      if (!fs.existsSync(lockFile) && restore()) {
        (events.onRestored ?? warnRestored)(lockFile);
        return 'restored';
      }
    } catch {
      // The folder went away (tests removing temp folders): nothing left to guard.
      return 'unchecked';
    }
    // The file names someone else: a process that started while it was gone (whether or not it still
    // runs, it has written to the folder this process has open).
    stop();
    (events.onLost ?? exitOnLostLock)(new DataDirLockLostError(folder, lockFile, parseHolder(readOrNull(lockFile))));
    return 'lost';
  };
  const timer = setInterval(heartbeat, HEARTBEAT_MS);
  timer.unref();
  let released = false;
  return {
    lockFile,
    heartbeat,
    release() {
      if (released) return;
      released = true;
      stop();
      if (ours()) fs.rmSync(lockFile, { force: true });
    },
  };
}

const warnRestored = (lockFile: string) =>
  process.emitWarning(
    `The lock ${lockFile} was deleted while this process holds the folder; it has been put back. Never delete the lock file of a running process.`,
  );
