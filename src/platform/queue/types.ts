import type { z } from 'zod';

/** A queue's definition: its payload schema and retry policy. */
export interface QueueDefinition<S extends z.ZodType = z.ZodType> {
  payload: S;
  /** Attempts in all (first run included). Default 5. */
  attempts?: number;
  /** First back-off delay in ms, doubled per retry. Default 1000. */
  backoffMs?: number;
  /** Jobs without an ordering key that may run at once per worker. Default 4. */
  concurrency?: number;
}

export type QueueDefinitions = Record<string, QueueDefinition>;

export interface EnqueueOptions {
  /** Jobs sharing a key run one at a time, in enqueue order. */
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

export interface JobQueue<D extends QueueDefinitions = QueueDefinitions> {
  readonly driver: 'bullmq' | 'inprocess';
  /** Validates the payload (throws on a bad one) and adds the job. Fails fast when Redis is down. */
  enqueue<N extends keyof D & string>(queue: N, payload: z.input<D[N]['payload']>, opts?: EnqueueOptions): Promise<EnqueueResult>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
