import type { z } from 'zod';
import type { Queue } from 'bullmq';

/** A queue's definition: its payload schema and retry policy. */
export interface QueueDefinition<S extends z.ZodType = z.ZodType> {
  payload: S;
  /** Attempts in all (first run included). Default 5. */
  attempts?: number;
  /** First back-off delay in ms, doubled per retry. Default 1000. */
  backoffMs?: number;
  /** Jobs that may run at once per worker process (ordering keys still run one at a time). Default 4. */
  concurrency?: number;
}

export type QueueDefinitions = Record<string, QueueDefinition>;

export const DEFAULT_ATTEMPTS = 5;
export const DEFAULT_BACKOFF_MS = 1000;
export const DEFAULT_CONCURRENCY = 4;

export interface EnqueueOptions {
  /** Jobs sharing a key run one at a time, in enqueue order, even across retries and worker processes. */
  orderingKey?: string;
  /** Deterministic id: a second enqueue with the same id while the first is known is a no-op. */
  jobId?: string;
  delayMs?: number;
}

export interface EnqueueResult {
  jobId: string;
  /** True when a job with this jobId already existed and nothing was added. */
  deduplicated: boolean;
}

export interface JobContext {
  jobId: string;
  /** 1-based attempt number. */
  attempt: number;
  queue: string;
}

export type Processor<S extends z.ZodType> = (payload: z.output<S>, ctx: JobContext) => Promise<void>;
export type Processors<D extends QueueDefinitions> = { [N in keyof D]: Processor<D[N]['payload']> };

/** A job that used up its attempts (or threw UnrecoverableError), as an operator sees it. */
export interface FailedJob {
  queue: string;
  jobId: string;
  payload: unknown;
  orderingKey?: string;
  attempts: number;
  error: string;
  failedAt: string;
}

interface JobQueueBase<D extends QueueDefinitions> {
  /** Validates the payload (throws on a bad one) and adds the job. Fails fast when Redis is down. */
  enqueue<N extends keyof D & string>(queue: N, payload: z.input<D[N]['payload']>, opts?: EnqueueOptions): Promise<EnqueueResult>;
  /** True when the queue backend answers (always true in-process). */
  ping(): Promise<boolean>;
  /** Stops taking jobs, waits for running ones, closes connections. */
  close(): Promise<void>;
}

export interface BullJobQueue<D extends QueueDefinitions = QueueDefinitions> extends JobQueueBase<D> {
  readonly driver: 'bullmq';
  /** The BullMQ queues (for Bull Board). */
  bullQueues(): Queue[];
}

export interface InProcessJobQueue<D extends QueueDefinitions = QueueDefinitions> extends JobQueueBase<D> {
  readonly driver: 'inprocess';
  /** The most recent finally-failed jobs, newest first. */
  failedJobs(): FailedJob[];
  /** Resolves once no job is pending or running (tests, and the single-process shutdown). */
  drain(): Promise<void>;
}

export type JobQueue<D extends QueueDefinitions = QueueDefinitions> = BullJobQueue<D> | InProcessJobQueue<D>;
