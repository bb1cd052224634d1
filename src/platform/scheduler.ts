import cron from 'node-cron';
import type { z } from 'zod';
import type { Logger } from './logger';
import type { EnqueueResult, JobQueue, QueueDefinitions } from './queue/types';
import { isRedisConnectionError } from './redis';

/**
 * One periodic job: on each cron tick (UTC) the scheduler only enqueues; the work runs in a worker.
 * The job id is derived from the tick time, so several scheduler processes ticking the same
 * moment add the job once.
 */
export type Schedule<D extends QueueDefinitions> = {
  [N in keyof D & string]: {
    name: string;
    /** node-cron expression, evaluated in UTC (5 fields; a 6th leading field is seconds). */
    cron: string;
    queue: N;
    payload: (tick: Date) => z.input<D[N]['payload']>;
    /** Default `${name}@${YYYYMMDDTHHmm}Z`: one job per minute. Sub-minute schedules must give their own. */
    jobId?: (tick: Date) => string;
  };
}[keyof D & string];

/** The tick's minute as `20261122T0247Z` (BullMQ job ids may not contain ':'). */
export function minuteStamp(tick: Date): string {
  return `${tick.toISOString().slice(0, 16).replace(/[-:]/g, '')}Z`;
}

export function defaultScheduleJobId(name: string, tick: Date): string {
  return `${name}@${minuteStamp(tick)}`;
}

/** What a tick does: enqueue the schedule's job with its deterministic id. Tests call it with a chosen time. */
export function runScheduleTick<D extends QueueDefinitions>(queue: JobQueue<D>, schedule: Schedule<D>, tick: Date): Promise<EnqueueResult> {
  const jobId = schedule.jobId ? schedule.jobId(tick) : defaultScheduleJobId(schedule.name, tick);
  return queue.enqueue(schedule.queue, schedule.payload(tick), { jobId });
}

export interface SchedulerOptions<D extends QueueDefinitions> {
  queue: JobQueue<D>;
  schedules: ReadonlyArray<Schedule<D>>;
  logger: Logger;
}

export interface RunningScheduler {
  /** Stops the cron tasks and waits for ticks that are enqueueing. */
  stop(): Promise<void>;
}

/** Checks every schedule (unique names, valid cron) before anything starts. */
export function validateSchedules<D extends QueueDefinitions>(schedules: ReadonlyArray<Schedule<D>>): void {
  const names = new Set<string>();
  for (const s of schedules) {
    if (names.has(s.name)) throw new Error(`Duplicate schedule name "${s.name}"`);
    names.add(s.name);
    if (!cron.validate(s.cron)) throw new Error(`Schedule "${s.name}" has an invalid cron expression "${s.cron}"`);
  }
}

export function startScheduler<D extends QueueDefinitions>(opts: SchedulerOptions<D>): RunningScheduler {
  const { queue, schedules, logger } = opts;
  validateSchedules(schedules);
  const inFlight = new Set<Promise<unknown>>();
  const tasks = schedules.map((schedule) =>
    cron.schedule(
      schedule.cron,
      (ctx) => {
        const tick = runScheduleTick(queue, schedule, ctx.date)
          .then((res) => logger.debug({ schedule: schedule.name, ...res }, 'schedule tick'))
          .catch((err: unknown) => {
            // Redis out of reach: the outage is logged once (platform/redis.ts logOutages), and the next tick enqueues again.
            if (isRedisConnectionError(err)) logger.debug({ schedule: schedule.name }, 'schedule tick skipped: Redis is unreachable');
            else logger.error({ err, schedule: schedule.name }, 'schedule tick could not enqueue');
          });
        inFlight.add(tick);
        void tick.finally(() => inFlight.delete(tick));
      },
      { name: schedule.name, timezone: 'UTC', noOverlap: true },
    ),
  );
  logger.info({ schedules: schedules.map((s) => `${s.name} (${s.cron})`) }, 'scheduler started');
  return {
    async stop() {
      await Promise.all(tasks.map((t) => t.destroy()));
      await Promise.allSettled([...inFlight]);
    },
  };
}
