import crypto from 'node:crypto';
import type { Logger } from '../logger';
import type { EnqueueOptions, EnqueueResult, FailedJob, InProcessJobQueue, Processors, QueueDefinitions } from './types';
import {
  UnrecoverableError,
  backoffDelay,
  errorText,
  isUnrecoverable,
  checkJobId,
  parsePayload,
  processorFor,
  retryPolicy,
} from './policy';

export interface InProcessOptions<D extends QueueDefinitions> {
  definitions: D;
  logger: Logger;
  /** Resolved on the first job run: services are built after the queue. */
  processors?: () => Processors<D>;
}

/** How long a finished job's id still deduplicates: 24 h, as long as BullMQ keeps completed jobs. */
const DEDUP_WINDOW_MS = 24 * 3600_000;
/** Bound on remembered job ids. */
const MAX_REMEMBERED_IDS = 10_000;
/** How many finally-failed jobs failedJobs() keeps. */
const MAX_FAILED_JOBS = 100;

interface Job {
  queue: string;
  id: string;
  payload: unknown;
  orderingKey?: string;
}

/** A counting semaphore that gives up (resolves false) once the queue closes. */
class Slots {
  private waiting: Array<(ok: boolean) => void> = [];
  constructor(private free: number) {}
  acquire(): Promise<boolean> {
    if (this.free > 0) {
      this.free -= 1;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next(true);
    else this.free += 1;
  }
  abandonWaiters(): void {
    for (const w of this.waiting.splice(0)) w(false);
  }
}

/** What a queue's jobs run with: its definitions, log, slots and timers, its processors, and whether it closed. */
interface Runtime {
  definitions: QueueDefinitions;
  logger: Logger;
  slots: Map<string, Slots>;
  timers: Map<NodeJS.Timeout, () => void>;
  failed: FailedJob[];
  closed(): boolean;
  resolveProcessor(queue: string): ReturnType<typeof processorFor>;
}

const idKey = (queue: string, id: string) => `${queue}\u0000${id}`;

function rememberFinished(knownIds: Map<string, number>, queue: string, id: string) {
  const k = idKey(queue, id);
  knownIds.delete(k);
  knownIds.set(k, Date.now() + DEDUP_WINDOW_MS);
  for (const [key, expiry] of knownIds) {
    if (knownIds.size <= MAX_REMEMBERED_IDS && expiry > Date.now()) break;
    if (expiry === Infinity) continue;
    knownIds.delete(key);
  }
}

/** Resolves after ms, or early with false when the queue closes. */
function sleep(rt: Pick<Runtime, 'closed' | 'timers'>, ms: number): Promise<boolean> {
  if (rt.closed()) return Promise.resolve(false);
  if (ms <= 0) return new Promise((resolve) => setImmediate(() => resolve(!rt.closed())));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      rt.timers.delete(timer);
      resolve(!rt.closed());
    }, ms);
    rt.timers.set(timer, () => resolve(false));
  });
}

function recordFailure(rt: Pick<Runtime, 'failed' | 'logger'>, job: Job, attempts: number, err: unknown) {
  const entry: FailedJob = {
    queue: job.queue,
    jobId: job.id,
    payload: job.payload,
    orderingKey: job.orderingKey,
    attempts,
    error: errorText(err),
    failedAt: new Date().toISOString(),
  };
  rt.failed.unshift(entry);
  rt.failed.length = Math.min(rt.failed.length, MAX_FAILED_JOBS);
  rt.logger.error({ err, queue: job.queue, jobId: job.id, attempts, payload: job.payload }, 'job failed permanently');
}

/** Runs a job to success or final failure; returns early (job dropped) when the queue closes. */
async function runJob(rt: Runtime, job: Job): Promise<void> {
  const { attempts, backoffMs } = retryPolicy(rt.definitions[job.queue]);
  const slot = rt.slots.get(job.queue)!;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (rt.closed() || !(await slot.acquire())) {
      rt.logger.warn({ queue: job.queue, jobId: job.id }, 'queue closed: pending in-process job dropped');
      return;
    }
    let error: unknown;
    try {
      if (rt.closed()) throw new Error('queue closed');
      let payload: unknown;
      let processor: ReturnType<typeof processorFor>;
      try {
        payload = parsePayload(rt.definitions, job.queue, job.payload);
        processor = rt.resolveProcessor(job.queue);
      } catch (err) {
        throw new UnrecoverableError(errorText(err));
      }
      await processor(payload, { jobId: job.id, attempt, queue: job.queue });
      return;
    } catch (err) {
      error = err;
    } finally {
      slot.release();
    }
    if (rt.closed()) {
      rt.logger.warn({ err: error, queue: job.queue, jobId: job.id }, 'queue closed: failed in-process job not retried');
      return;
    }
    if (attempt === attempts || isUnrecoverable(error)) {
      recordFailure(rt, job, attempt, error);
      return;
    }
    rt.logger.warn({ err: error, queue: job.queue, jobId: job.id, attempt }, 'job failed, will retry');
    if (!(await sleep(rt, backoffDelay(backoffMs, attempt)))) return;
  }
}

/**
 * The single-process driver (no REDIS_URL): runs the same processors with the same
 * semantics as BullMQ. Jobs sharing an ordering key form a promise chain, so a job
 * starts only after the previous one of its key succeeded or finally failed (retries
 * included). Jobs live in memory: close() waits for attempts already running and
 * drops jobs that are still waiting (logged), as a restart would.
 */
export function createInProcessQueue<D extends QueueDefinitions>(opts: InProcessOptions<D>): InProcessJobQueue<D> {
  const { definitions, logger } = opts;

  /** jobId -> expiry (Infinity while pending). Map order = insertion order, used for eviction. */
  const knownIds = new Map<string, number>();
  const keyTails = new Map<string, Promise<void>>();
  const slots = new Map(Object.keys(definitions).map((q) => [q, new Slots(retryPolicy(definitions[q]).concurrency)]));
  const failed: FailedJob[] = [];
  const pending = new Set<Promise<void>>();
  const timers = new Map<NodeJS.Timeout, () => void>();
  let processors: Processors<D> | undefined;
  let closed = false;

  function resolveProcessor(queue: string) {
    processors ??= opts.processors?.();
    return processorFor(processors, queue);
  }

  const rt: Runtime = { definitions, logger, slots, timers, failed, closed: () => closed, resolveProcessor };

  function track(p: Promise<void>) {
    pending.add(p);
    void p.finally(() => pending.delete(p));
  }

  return {
    driver: 'inprocess',

    async enqueue(queue, payload, eo: EnqueueOptions = {}): Promise<EnqueueResult> {
      if (closed) throw new Error('Job queue is closed');
      parsePayload(definitions, queue, payload);
      // Same round trip as BullMQ's JSON storage, so a payload that works here works there.
      const stored: unknown = JSON.parse(JSON.stringify(payload));
      if (eo.jobId !== undefined) checkJobId(eo.jobId);
      const id = eo.jobId ?? crypto.randomUUID();
      const known = knownIds.get(idKey(queue, id));
      if (known !== undefined && known > Date.now()) return { jobId: id, deduplicated: true };
      knownIds.set(idKey(queue, id), Infinity);

      const job: Job = { queue, id, payload: stored, orderingKey: eo.orderingKey };
      const ready = sleep(rt, eo.delayMs ?? 0);
      let run: Promise<void>;
      if (eo.orderingKey === undefined) {
        run = ready.then((ok) => (ok ? runJob(rt, job) : undefined));
      } else {
        const tailKey = idKey(queue, eo.orderingKey);
        const previous = keyTails.get(tailKey) ?? Promise.resolve();
        run = Promise.all([previous, ready]).then(([, ok]) => {
          if (ok && !closed) return runJob(rt, job);
          logger.warn({ queue, jobId: id }, 'queue closed: pending in-process job dropped');
        });
        keyTails.set(tailKey, run);
        void run.finally(() => {
          if (keyTails.get(tailKey) === run) keyTails.delete(tailKey);
        });
      }
      const done = run
        .catch((err: unknown) => logger.error({ err, queue, jobId: id }, 'in-process job crashed'))
        .finally(() => rememberFinished(knownIds, queue, id));
      track(done);
      return { jobId: id, deduplicated: false };
    },

    failedJobs: () => failed.map((f) => ({ ...f })),

    async drain() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },

    ping: async () => !closed,

    async close() {
      if (closed) return;
      closed = true;
      for (const [timer, wake] of timers) {
        clearTimeout(timer);
        wake();
      }
      timers.clear();
      for (const s of slots.values()) s.abandonWaiters();
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
