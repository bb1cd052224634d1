import os from 'node:os';
import { DelayedError, Worker, type Job, type Queue } from 'bullmq';
import type { Logger } from '../logger';
import type { Processors, QueueDefinitions } from './types';
import { UnrecoverableError, errorText, isUnrecoverable, parsePayload, processorFor, retryPolicy } from './policy';
import { DEFAULT_PREFIX, closeQueue, openQueue, type StoredJobData } from './bullmq';
import { ORDERING_LOCK_TTL_MS, OrderingStore } from './ordering';
import { closeRedis, workerConnection } from './redis';
import { isRedisConnectionError } from '../redis';

export interface StartWorkersOptions<D extends QueueDefinitions> {
  definitions: D;
  redisUrl: string;
  processors: Processors<D>;
  logger: Logger;
  prefix?: string;
  /** How long a keyed job whose turn has not come waits before looking again. Default 1000 ms. */
  orderingPollMs?: number;
}

/** Heads in these states will never run again and must not block their key. */
const DEAD_STATES = new Set(['completed', 'failed', 'unknown']);

/** What every queue's worker shares. */
interface WorkerContext<D extends QueueDefinitions> {
  opts: StartWorkersOptions<D>;
  connection: ReturnType<typeof workerConnection>;
  ordering: OrderingStore;
  prefix: string;
  pollMs: number;
  workerName: string;
}

/** The ordering-key steps of one queue: taking a key's turn, and waking the key's next job. */
function keyTurns(name: string, queue: Queue, ordering: OrderingStore, logger: Logger) {
  return {
    /** Promotes the key's next job out of its poll delay, unless it has a delay of its own left. */
    async wakeNext(nextId: string | null): Promise<void> {
      if (!nextId) return;
      const next = await queue.getJob(nextId);
      if (!next || next.timestamp + (next.opts.delay ?? 0) > Date.now()) return;
      if (await next.isDelayed()) await next.promote();
    },

    /** True once this job holds its key; drops heads that BullMQ already finished or lost. */
    async takeTurn(key: string, jobId: string, token: string): Promise<boolean> {
      for (;;) {
        const res = await ordering.acquire(name, key, jobId, token);
        if (res.acquired) return true;
        if (res.head === jobId) return false; // our turn, but a previous attempt still holds the lock
        const headState = await queue.getJobState(res.head);
        if (!DEAD_STATES.has(headState)) return false;
        logger.warn({ queue: name, orderingKey: key, jobId: res.head, state: headState }, 'dropping finished job from ordering key');
        await ordering.dropHead(name, key, res.head);
      }
    },
  };
}

/** One queue's BullMQ Worker: each job parsed, ordered by its key (see ordering.ts) and handed to its processor. */
function startQueueWorker<D extends QueueDefinitions>(
  c: WorkerContext<D>,
  name: string,
  def: D[keyof D],
): { worker: Worker; queue: Queue } {
  const { definitions, logger } = c.opts;
  const { ordering, pollMs } = c;
  const processor = processorFor(c.opts.processors, name);
  const { attempts, concurrency } = retryPolicy(def);
  const queue = openQueue(name, def, c.connection, c.prefix);
  const { wakeNext, takeTurn } = keyTurns(name, queue, ordering, logger);

  const run = async (job: Job<StoredJobData>, token?: string) => {
    const jobId = job.id!;
    const ctx = { jobId, attempt: job.attemptsMade + 1, queue: name };
    let payload: unknown;
    try {
      payload = parsePayload(definitions, name, job.data.payload);
    } catch (err) {
      throw new UnrecoverableError(errorText(err));
    }
    const key = job.data.orderingKey;
    if (key === undefined) return processor(payload, ctx);
    if (token === undefined) throw new Error('BullMQ gave no lock token: cannot order the job');

    if (!(await takeTurn(key, jobId, token))) {
      await job.moveToDelayed(Date.now() + pollMs, token);
      throw new DelayedError();
    }
    const renew = setInterval(() => {
      ordering
        .extend(name, key, jobId, token)
        .catch((err: unknown) => logger.warn({ err, queue: name, jobId }, 'could not extend ordering lock'));
    }, ORDERING_LOCK_TTL_MS / 3);
    try {
      await processor(payload, ctx);
    } catch (err) {
      // The same test BullMQ applies next (Job.shouldRetryJob), with the attempts the job was added with.
      if (isUnrecoverable(err) || ctx.attempt >= (job.opts.attempts ?? attempts))
        await wakeNext(await ordering.release(name, key, jobId, token)).catch(() => undefined);
      else await ordering.unlock(name, key, jobId, token);
      throw err;
    } finally {
      clearInterval(renew);
    }
    await wakeNext(await ordering.release(name, key, jobId, token)).catch(() => undefined);
  };

  const worker = new Worker<StoredJobData>(name, run, { connection: c.connection, prefix: c.prefix, concurrency, name: c.workerName });
  // Redis out of reach is one outage, logged once by its connection (logOutages), not once per queue and retry.
  worker.on('error', (err) => {
    if (!isRedisConnectionError(err)) logger.warn({ err, queue: name }, 'worker error');
  });
  worker.on('failed', (job, err) => {
    if (!job) return;
    const final = job.finishedOn !== undefined || isUnrecoverable(err) || job.attemptsMade >= (job.opts.attempts ?? attempts);
    const fields = { err, queue: name, jobId: job.id, attempt: job.attemptsMade, payload: job.data.payload };
    if (final) logger.error(fields, 'job failed permanently');
    else logger.warn(fields, 'job failed, will retry');
  });
  return { worker, queue };
}

/**
 * The worker side of the BullMQ driver: one BullMQ Worker per queue (startQueueWorker).
 * Returns a closer that stops taking jobs and waits for the running ones.
 */
export function startWorkers<D extends QueueDefinitions>(opts: StartWorkersOptions<D>): () => Promise<void> {
  const prefix = opts.prefix ?? DEFAULT_PREFIX;
  const connection = workerConnection(opts.redisUrl, opts.logger);
  const context: WorkerContext<D> = {
    opts,
    connection,
    ordering: new OrderingStore(connection, prefix),
    prefix,
    pollMs: opts.orderingPollMs ?? 1000,
    // BullMQ stores it on each job it hands out (processedBy), so an operator can tell which process ran a job.
    workerName: `${os.hostname()}:${process.pid}`,
  };
  const workers: Worker[] = [];
  const queues: Queue[] = [];
  for (const [name, def] of Object.entries(opts.definitions)) {
    const { worker, queue } = startQueueWorker(context, name, def as D[keyof D]);
    queues.push(queue);
    workers.push(worker);
  }

  return async () => {
    await Promise.allSettled(workers.map((w) => w.close()));
    await Promise.allSettled(queues.map(closeQueue));
    await closeRedis(connection);
  };
}
