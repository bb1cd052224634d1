import { UnrecoverableError } from 'bullmq';
import type { JobContext, Processors, QueueDefinition, QueueDefinitions } from './types';
import { DEFAULT_ATTEMPTS, DEFAULT_BACKOFF_MS, DEFAULT_CONCURRENCY } from './types';

/**
 * Throw this from a processor when retrying cannot help (bad data, a deleted
 * record): the job fails at once. BullMQ's own class, so both drivers honour it.
 */
export { UnrecoverableError };

export function isUnrecoverable(err: unknown): boolean {
  return err instanceof UnrecoverableError || (err instanceof Error && err.name === 'UnrecoverableError');
}

export interface RetryPolicy {
  attempts: number;
  backoffMs: number;
  concurrency: number;
}

/** The one place where retry defaults apply. */
export function retryPolicy(def: QueueDefinition): RetryPolicy {
  return {
    attempts: Math.max(1, def.attempts ?? DEFAULT_ATTEMPTS),
    backoffMs: Math.max(0, def.backoffMs ?? DEFAULT_BACKOFF_MS),
    concurrency: Math.max(1, def.concurrency ?? DEFAULT_CONCURRENCY),
  };
}

/** Delay before attempt `failedAttempts + 1`: backoffMs, 2x, 4x... (BullMQ's 'exponential' back-off). */
export function backoffDelay(backoffMs: number, failedAttempts: number): number {
  return backoffMs * 2 ** Math.max(0, failedAttempts - 1);
}

/** Validates a payload against its queue's schema; a bad payload or unknown queue is a programmer error. */
export function parsePayload(definitions: QueueDefinitions, queue: string, payload: unknown): unknown {
  const def = definitions[queue];
  if (!def) throw new Error(`Unknown queue "${queue}"`);
  const parsed = def.payload.safeParse(payload);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new Error(`Invalid payload for queue "${queue}": ${issues}`);
  }
  return parsed.data;
}

/** A queue's processor, called by the drivers with an already parsed payload; a missing one is a wiring error. */
export function processorFor<D extends QueueDefinitions>(
  processors: Processors<D> | undefined,
  queue: string,
): (payload: unknown, ctx: JobContext) => Promise<void> {
  const processor = processors?.[queue as keyof D] as ((payload: unknown, ctx: JobContext) => Promise<void>) | undefined;
  if (!processor) throw new Error(`No processor registered for queue "${queue}"`);
  return processor;
}

/** BullMQ's rules for custom job ids, applied by both drivers so an id that works in-process works on Redis. */
export function checkJobId(jobId: string): void {
  if (jobId === '') throw new Error('Job id must not be empty');
  if (`${parseInt(jobId, 10)}` === jobId) throw new Error(`Job id "${jobId}" must not be an integer`);
  if (jobId.includes(':')) throw new Error(`Job id "${jobId}" must not contain ":"`);
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
