import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DataDirLockLostError,
  DataDirLockedError,
  STALE_AFTER_MS,
  HEARTBEAT_MS,
  acquireDataDirLock,
  lockFileOf,
  systemLockEnvironment,
  type LockEnvironment,
  type LockHolder,
} from './data-dir-lock';

/** The lock's view of the operating system, as another process on this host would have it. */
function environment(overrides: Partial<LockEnvironment> = {}): LockEnvironment {
  return {
    pid: 4242,
    hostname: 'host-a',
    bootId: 'boot-1',
    processStart: (pid) => `start-${pid}`,
    isAlive: () => true,
    now: () => Date.now(),
    ...overrides,
  };
}

const holderOf = (folder: string) => JSON.parse(fs.readFileSync(lockFileOf(folder), 'utf8')) as LockHolder;
const writeLock = (folder: string, holder: Partial<LockHolder>, ageMs = 0) => {
  const file = lockFileOf(folder);
  fs.writeFileSync(file, JSON.stringify({ hostname: 'host-a', boot_id: 'boot-1', acquired_at: '2026-01-01T00:00:00.000Z', ...holder }));
  const at = new Date(Date.now() - ageMs);
  fs.utimesSync(file, at, at);
};

describe('the embedded database folder lock', () => {
  let dir: string;
  let folder: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-api-lock-'));
    folder = path.join(dir, 'pglite');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is a file beside the folder naming the holder; a second opener on the same host is refused while the holder runs', () => {
    const lock = acquireDataDirLock(folder, environment({ pid: 100 }));
    expect(lock.lockFile).toBe(`${folder}.lock`);
    expect(holderOf(folder)).toMatchObject({ pid: 100, hostname: 'host-a', boot_id: 'boot-1', process_start: 'start-100' });
    let refused: unknown;
    try {
      acquireDataDirLock(folder, environment({ pid: 200 }));
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(DataDirLockedError);
    expect((refused as Error).message).toContain(`The embedded database folder ${folder} is in use by process 100 on host-a`);
    expect((refused as Error).message).toContain('give this one its own DATA_DIR');
    expect(holderOf(folder).pid).toBe(100);
    lock.release();
  });

  it('refuses a second open in the same process', () => {
    const lock = acquireDataDirLock(folder);
    expect(() => acquireDataDirLock(folder)).toThrow(DataDirLockedError);
    lock.release();
  });

  it('is released on a clean stop: the file is gone and the next opener takes it', () => {
    const lock = acquireDataDirLock(folder, environment({ pid: 100 }));
    lock.release();
    lock.release();
    expect(fs.existsSync(lockFileOf(folder))).toBe(false);
    acquireDataDirLock(folder, environment({ pid: 200 })).release();
    // Only the holder's own file is removed: one another process wrote in its place stays.
    const first = acquireDataDirLock(folder, environment({ pid: 300 }));
    writeLock(folder, { pid: 400, process_start: 'start-400' });
    first.release();
    expect(holderOf(folder).pid).toBe(400);
  });

  it('takes over the lock of a process that is gone (a crash, SIGKILL)', () => {
    writeLock(folder, { pid: 100, process_start: 'start-100' }, 1000);
    const lock = acquireDataDirLock(folder, environment({ pid: 200, isAlive: (pid) => pid !== 100 }));
    expect(holderOf(folder).pid).toBe(200);
    lock.release();
  });

  it('takes over a lock whose pid now belongs to another process, or from before the machine booted', () => {
    writeLock(folder, { pid: 100, process_start: 'an-earlier-start' });
    acquireDataDirLock(folder, environment({ pid: 200 })).release();
    writeLock(folder, { pid: 100, process_start: 'start-100', boot_id: 'boot-0' });
    acquireDataDirLock(folder, environment({ pid: 200 })).release();
    // A lock naming this very pid that this process does not hold: a previous life (a container restarted).
    writeLock(folder, { pid: 200, process_start: 'start-200' });
    acquireDataDirLock(folder, environment({ pid: 200 })).release();
  });

  it('a holder on another host (a container sharing the folder) counts while its heartbeat is fresh', () => {
    writeLock(folder, { pid: 7, hostname: 'host-b', boot_id: 'boot-9' }, STALE_AFTER_MS / 2);
    expect(() => acquireDataDirLock(folder, environment())).toThrow('in use by process 7 on host-b');
    writeLock(folder, { pid: 7, hostname: 'host-b', boot_id: 'boot-9' }, STALE_AFTER_MS + 1000);
    acquireDataDirLock(folder, environment()).release();
    // A file it cannot read is judged by its age alone.
    fs.writeFileSync(lockFileOf(folder), '');
    expect(() => acquireDataDirLock(folder, environment())).toThrow('in use by another process');
  });

  it('keeps its heartbeat: the holder refreshes the file, so a live holder on another host never looks stale', () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    try {
      const lock = acquireDataDirLock(folder, environment({ pid: 100 }));
      const old = new Date(Date.now() - STALE_AFTER_MS * 2);
      fs.utimesSync(lockFileOf(folder), old, old);
      jest.advanceTimersByTime(HEARTBEAT_MS);
      expect(Date.now() - fs.statSync(lockFileOf(folder)).mtimeMs).toBeLessThan(STALE_AFTER_MS);
      expect(() => acquireDataDirLock(folder, environment({ hostname: 'host-b' }))).toThrow(DataDirLockedError);
      lock.release();
    } finally {
      jest.useRealTimers();
    }
  });

  describe('a lock file deleted while its holder runs (issue 46: a second process got in and both wrote)', () => {
    beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] }));
    afterEach(() => jest.useRealTimers());

    it('is put back by the next heartbeat, naming the holder, so a process starting later is refused', () => {
      const onRestored = jest.fn();
      const lock = acquireDataDirLock(folder, environment({ pid: 100 }), { onRestored });
      fs.rmSync(lockFileOf(folder));
      jest.advanceTimersByTime(HEARTBEAT_MS);
      expect(holderOf(folder)).toMatchObject({ pid: 100, hostname: 'host-a', process_start: 'start-100' });
      expect(onRestored).toHaveBeenCalledWith(lockFileOf(folder));
      expect(() => acquireDataDirLock(folder, environment({ pid: 200 }))).toThrow('is in use by process 100 on host-a');
      // No draft is left beside it, and the restored file is released like the first one.
      expect(fs.readdirSync(dir)).toEqual(['pglite.lock']);
      expect(lock.heartbeat()).toBe('refreshed');
      lock.release();
      expect(fs.existsSync(lockFileOf(folder))).toBe(false);
    });

    it('gives the folder up when another process took it meanwhile: onLost names that process, the heartbeat ends', () => {
      const onLost = jest.fn();
      const first = acquireDataDirLock(folder, environment({ pid: 100 }), { onLost });
      fs.rmSync(lockFileOf(folder));
      const second = acquireDataDirLock(folder, environment({ pid: 200 }));
      jest.advanceTimersByTime(HEARTBEAT_MS);
      expect(onLost).toHaveBeenCalledTimes(1);
      const lost = onLost.mock.calls[0][0] as DataDirLockLostError;
      expect(lost).toBeInstanceOf(DataDirLockLostError);
      expect(lost.holder).toMatchObject({ pid: 200, hostname: 'host-a' });
      expect(lost.message).toContain(
        `The lock ${lockFileOf(folder)} of the embedded database folder ${folder} was deleted and process 200 on host-a`,
      );
      jest.advanceTimersByTime(HEARTBEAT_MS * 3);
      expect(onLost).toHaveBeenCalledTimes(1);
      expect(first.heartbeat()).toBe('stopped');
      // The lock stays the other process's: the first neither overwrites nor removes it.
      first.release();
      expect(holderOf(folder).pid).toBe(200);
      second.release();
    });

    it('gives it up for any lock file not its own, and by default prints why and exits with code 1', () => {
      const exit = jest.spyOn(process, 'exit').mockImplementation(() => undefined as never);
      const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
      try {
        const lock = acquireDataDirLock(folder, environment({ pid: 100 }));
        fs.writeFileSync(lockFileOf(folder), '');
        expect(lock.heartbeat()).toBe('lost');
        expect(exit).toHaveBeenCalledWith(1);
        expect(stderr).toHaveBeenCalledWith(expect.stringContaining(`was deleted and another process has opened the folder since`));
        lock.release();
        expect(fs.readFileSync(lockFileOf(folder), 'utf8')).toBe('');
      } finally {
        exit.mockRestore();
        stderr.mockRestore();
      }
    });
  });

  it('reads the real process table: this process is alive with a start time, on Linux', () => {
    const env = systemLockEnvironment();
    expect(env.isAlive(process.pid)).toBe(true);
    if (process.platform === 'linux') expect(env.processStart(process.pid)).toMatch(/^\d+$/);
  });
});
