import { z } from 'zod';
import { createJobQueue, startWorkers, type JobQueue } from '../src/platform/queue';
import { minuteStamp, runScheduleTick, startScheduler, validateSchedules, type Schedule } from '../src/platform/scheduler';
import { appSchedules } from '../src/schedules';
import { deleteRedisPrefix, redisPrefix, silentLogger, sleep, waitFor } from './helpers/queue-harness';

const redisUrl = process.env.REDIS_URL;

const queues = { rollup: { payload: z.object({ day: z.string() }), attempts: 1 } };
type Queues = typeof queues;

const runs: string[] = [];
const processors = {
  rollup: async (p: { day: string }, ctx: { jobId: string }) => {
    runs.push(`${ctx.jobId}|${p.day}`);
  },
};

const daily: Schedule<Queues> = {
  name: 'daily-rollup',
  cron: '5 0 * * *',
  queue: 'rollup',
  payload: (tick) => ({ day: tick.toISOString().slice(0, 10) }),
};

describe('schedule definitions', () => {
  it('stamps ticks by minute, without the ":" BullMQ ids may not contain', () => {
    expect(minuteStamp(new Date('2026-11-22T00:05:59.999Z'))).toBe('20261122T0005Z');
  });

  it('rejects an invalid cron expression and duplicate names', () => {
    expect(() => validateSchedules<Queues>([{ ...daily, cron: '61 * * * *' }])).toThrow(
      'Schedule "daily-rollup" has an invalid cron expression "61 * * * *"',
    );
    expect(() => validateSchedules<Queues>([daily, daily])).toThrow('Duplicate schedule name "daily-rollup"');
  });

  it('the app schedule list is valid', () => {
    expect(() => validateSchedules(appSchedules)).not.toThrow();
  });
});

function tickSuite(label: string, makeQueues: () => { a: JobQueue<Queues>; b: JobQueue<Queues>; stop(): Promise<void> }) {
  describe(label, () => {
    let q: ReturnType<typeof makeQueues>;
    beforeAll(() => {
      q = makeQueues();
    });
    afterAll(() => q.stop());

    it('two schedulers ticking the same minute enqueue the job once', async () => {
      const day = `${label}-a`;
      const schedule: Schedule<Queues> = { ...daily, name: `rollup-${label.replace(/\W/g, '')}`, payload: () => ({ day }) };
      const first = await runScheduleTick(q.a, schedule, new Date('2026-11-22T00:05:00.000Z'));
      const second = await runScheduleTick(q.b, schedule, new Date('2026-11-22T00:05:00.850Z'));
      expect(first).toEqual({ jobId: `${schedule.name}@20261122T0005Z`, deduplicated: false });
      expect(second).toEqual({ jobId: first.jobId, deduplicated: true });
      const next = await runScheduleTick(q.b, schedule, new Date('2026-11-23T00:05:00.000Z'));
      expect(next).toEqual({ jobId: `${schedule.name}@20261123T0005Z`, deduplicated: false });
      await waitFor(() => runs.filter((r) => r.endsWith(`|${day}`)).length === 2);
      await sleep(100);
      expect(runs.filter((r) => r.endsWith(`|${day}`))).toEqual([`${first.jobId}|${day}`, `${next.jobId}|${day}`]);
    });

    it('cron tasks fire and enqueue; two running schedulers add each tick once', async () => {
      const day = `${label}-live`;
      const everySecond: Schedule<Queues> = {
        name: `live-${label.replace(/\W/g, '')}`,
        cron: '* * * * * *',
        queue: 'rollup',
        payload: () => ({ day }),
        jobId: (tick) => `live-${label.replace(/\W/g, '')}@${tick.toISOString().slice(0, 19).replace(/[-:]/g, '')}`,
      };
      const s1 = startScheduler({ queue: q.a, schedules: [everySecond], logger: silentLogger });
      const s2 = startScheduler({ queue: q.b, schedules: [everySecond], logger: silentLogger });
      await waitFor(() => runs.filter((r) => r.endsWith(`|${day}`)).length >= 2, 50);
      await Promise.all([s1.stop(), s2.stop()]);
      await sleep(200);
      const ids = runs.filter((r) => r.endsWith(`|${day}`)).map((r) => r.split('|')[0]);
      expect(new Set(ids).size).toBe(ids.length);
    });
  });
}

tickSuite('in-process queue', () => {
  const queue = createJobQueue({ definitions: queues, logger: silentLogger, processors: () => processors });
  return { a: queue, b: queue, stop: () => queue.close() };
});

(redisUrl ? describe : describe.skip)('BullMQ (runs when REDIS_URL is set)', () => {
  const prefix = redisPrefix('scheduler');
  afterAll(() => deleteRedisPrefix(redisUrl!, prefix));
  tickSuite('two producers', () => {
    const a = createJobQueue({ definitions: queues, logger: silentLogger, redisUrl, prefix });
    const b = createJobQueue({ definitions: queues, logger: silentLogger, redisUrl, prefix });
    const stopWorkers = startWorkers({ definitions: queues, redisUrl: redisUrl!, processors, logger: silentLogger, prefix });
    return { a, b, stop: async () => Promise.all([stopWorkers(), a.close(), b.close()]).then(() => undefined) };
  });
});
