import type { Redis } from 'ioredis';

/*
 * Strict per-key order on BullMQ (which has no groups in its open-source edition).
 *
 * Per (queue, orderingKey) Redis keeps:
 *   list  - the job ids of the key in enqueue order; the head is the only job allowed to run;
 *   lock  - "<jobId>:<bullmq lock token>" of the attempt running the head, with a TTL renewed
 *           while it runs, so two workers (or a stalled and a re-delivered copy) never overlap;
 *   reg   - a per-job marker (7 days) saying the job was appended once, so the producer's
 *           append and a worker's self-append can never add a job twice.
 *
 * Producer: BullMQ add first, then REGISTER (append). A producer awaits both before its next
 * enqueue, so one producer's jobs are appended in its enqueue order.
 * Worker, on picking a keyed job: ACQUIRE. If the job is not in the list (the producer died
 * between add and append, or an operator retried a finished job) it appends itself at the tail.
 * Not its turn -> the job goes back to delayed (DelayedError, no attempt used) and polls again;
 * the finishing job also promotes the next head so it does not wait for the poll.
 * Retryable failure -> UNLOCK only: the job stays head, later jobs keep waiting through its back-off.
 * Success or final failure -> RELEASE: pop it and free the lock.
 * A head that BullMQ already finished or lost (failed by the stall checker, removed by an
 * operator) would block the key forever, so a waiting job drops such a head (DROP_HEAD).
 * Delivery stays at-least-once: a job re-delivered after its release appends itself again.
 */

const ACQUIRE = `
local pos = redis.call('LPOS', KEYS[1], ARGV[1])
if not pos then
  redis.call('RPUSH', KEYS[1], ARGV[1])
  redis.call('SET', KEYS[3], '1', 'EX', ARGV[4])
  pos = redis.call('LLEN', KEYS[1]) - 1
end
if pos ~= 0 then return {0, redis.call('LINDEX', KEYS[1], 0)} end
local holder = redis.call('GET', KEYS[2])
if holder and holder ~= ARGV[2] then return {0, ARGV[1]} end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return {1, ARGV[1]}`;

const REGISTER = `
if redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[2]) then
  redis.call('RPUSH', KEYS[1], ARGV[1])
  return 1
end
return 0`;

const RELEASE = `
redis.call('LREM', KEYS[1], 1, ARGV[1])
if redis.call('GET', KEYS[2]) == ARGV[2] then redis.call('DEL', KEYS[2]) end
return redis.call('LINDEX', KEYS[1], 0)`;

const UNLOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

const EXTEND = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

const DROP_HEAD = `
if redis.call('LINDEX', KEYS[1], 0) ~= ARGV[1] then return 0 end
redis.call('LPOP', KEYS[1])
local holder = redis.call('GET', KEYS[2])
if holder and string.sub(holder, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. ':' then redis.call('DEL', KEYS[2]) end
return 1`;

const MARKER_TTL_S = 7 * 24 * 3600;
export const ORDERING_LOCK_TTL_MS = 30_000;

export type AcquireResult = { acquired: true } | { acquired: false; head: string };

export class OrderingStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly lockTtlMs = ORDERING_LOCK_TTL_MS,
  ) {}

  private keys(queue: string, key: string) {
    const base = `${this.prefix}-ordering:${queue}`;
    return { list: `${base}:list:${key}`, lock: `${base}:lock:${key}`, reg: (jobId: string) => `${base}:reg:${jobId}` };
  }

  private lockValue = (jobId: string, token: string) => `${jobId}:${token}`;

  /** Appends a newly added job to its key's order; a second call for the same job is a no-op. */
  async register(queue: string, key: string, jobId: string): Promise<void> {
    const k = this.keys(queue, key);
    await this.redis.eval(REGISTER, 2, k.list, k.reg(jobId), jobId, MARKER_TTL_S);
  }

  /** Takes the key's lock when this job is the head and no other attempt holds it. */
  async acquire(queue: string, key: string, jobId: string, token: string): Promise<AcquireResult> {
    const k = this.keys(queue, key);
    const [ok, head] = (await this.redis.eval(
      ACQUIRE,
      3,
      k.list,
      k.lock,
      k.reg(jobId),
      jobId,
      this.lockValue(jobId, token),
      this.lockTtlMs,
      MARKER_TTL_S,
    )) as [number, string];
    return ok === 1 ? { acquired: true } : { acquired: false, head };
  }

  /** Keeps the lock of a long-running attempt alive. */
  async extend(queue: string, key: string, jobId: string, token: string): Promise<void> {
    await this.redis.eval(EXTEND, 1, this.keys(queue, key).lock, this.lockValue(jobId, token), this.lockTtlMs);
  }

  /** The job is done (succeeded or finally failed): removes it and frees the key. Returns the next head. */
  async release(queue: string, key: string, jobId: string, token: string): Promise<string | null> {
    const k = this.keys(queue, key);
    return (await this.redis.eval(RELEASE, 2, k.list, k.lock, jobId, this.lockValue(jobId, token))) as string | null;
  }

  /** The attempt failed but will be retried: the job keeps its place, only the lock goes. */
  async unlock(queue: string, key: string, jobId: string, token: string): Promise<void> {
    await this.redis.eval(UNLOCK, 1, this.keys(queue, key).lock, this.lockValue(jobId, token));
  }

  /** Removes a head that can never run again (finished or gone from BullMQ). */
  async dropHead(queue: string, key: string, headId: string): Promise<boolean> {
    const k = this.keys(queue, key);
    return (await this.redis.eval(DROP_HEAD, 2, k.list, k.lock, headId)) === 1;
  }

  /** The key's job ids in order (tests and diagnostics). */
  async pending(queue: string, key: string): Promise<string[]> {
    return this.redis.lrange(this.keys(queue, key).list, 0, -1);
  }
}
