import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { OrderingStore } from '../src/platform/queue/ordering';
import { UnrecoverableError, createJobQueue, type Processors } from '../src/platform/queue';
import {
  bullHarness,
  deleteRedisPrefix,
  inProcessHarness,
  redisPrefix,
  silentLogger,
  sleep,
  testQueues,
  waitFor,
  type Harness,
  type TestQueues,
} from './helpers/queue-harness';

const redisUrl = process.env.REDIS_URL;

interface Event {
  kind: 'start' | 'end';
  key: string;
  n: number;
  attempt: number;
}

/** What the processors saw; every test uses its own ids and keys. */
const events: Event[] = [];
const flakyCalls = new Map<string, number[]>();
const gates = new Map<string, () => void>();
const gated = { started: new Set<string>(), finished: new Set<string>() };

const processors: Processors<TestQueues> = {
  async ordered(p, ctx) {
    events.push({ kind: 'start', key: p.key, n: p.n, attempt: ctx.attempt });
    await sleep(p.ms);
    events.push({ kind: 'end', key: p.key, n: p.n, attempt: ctx.attempt });
    if (ctx.attempt <= p.failAttempts) throw new Error(`attempt ${ctx.attempt} of ${p.n} fails`);
  },
  async flaky(p) {
    const calls = flakyCalls.get(p.id) ?? [];
    calls.push(Date.now());
    flakyCalls.set(p.id, calls);
    if (calls.length <= p.failTimes) {
      if (p.unrecoverable) throw new UnrecoverableError(`cannot fix ${p.id}`);
      throw new Error(`boom ${calls.length}`);
    }
  },
  async gated(p) {
    gated.started.add(p.id);
    await new Promise<void>((resolve) => gates.set(p.id, resolve));
    gated.finished.add(p.id);
  },
};

interface FailedView {
  attempts: number;
  error: string;
  payload: unknown;
}

const uid = () => crypto.randomBytes(4).toString('hex');

/** Every key's events: strictly start/end pairs of one job at a time, jobs in enqueue order. */
function expectStrictOrder(keys: string[], jobsPerKey: number) {
  for (const key of keys) {
    const mine = events.filter((e) => e.key === key);
    const succeeded: number[] = [];
    for (let i = 0; i < mine.length; i += 2) {
      const [start, end] = [mine[i], mine[i + 1]];
      expect(start.kind).toBe('start');
      expect(end).toEqual({ ...start, kind: 'end' }); // nothing of this key ran in between
      if (succeeded.length > 0) expect(start.n).toBeGreaterThanOrEqual(succeeded[succeeded.length - 1]);
      const lastAttemptOfJob = i + 2 >= mine.length || mine[i + 2].n !== start.n;
      if (lastAttemptOfJob) succeeded.push(start.n);
    }
    expect(succeeded).toEqual(Array.from({ length: jobsPerKey }, (_, n) => n));
  }
}

/**
 * `make(true)` gives a harness of its own: with BullMQ, on a prefix no other harness's workers
 * read, so a job it enqueues cannot be taken by the shared harness's workers.
 */
function behaviour(
  label: string,
  make: (isolated?: boolean) => Harness,
  failedOf: (h: Harness, queue: string, jobId: string) => Promise<FailedView | undefined>,
) {
  describe(label, () => {
    let h: Harness;
    beforeAll(() => {
      h = make();
    });
    afterAll(() => h.stop());

    it('runs jobs of one ordering key in enqueue order and never concurrently, retries included', async () => {
      const keys = [`a-${uid()}`, `b-${uid()}`, `c-${uid()}`];
      const perKey = 8;
      // The attempt on which each key's last job is done: failing ones retry, up to 3 attempts in all.
      const lastAttempt = new Map<string, number>();
      for (let n = 0; n < perKey; n++) {
        for (const key of keys) {
          const roll = Math.random();
          // Some jobs fail once and retry; a few use up all 3 attempts and end failed.
          const payload = { key, n, ms: Math.floor(Math.random() * 25), failAttempts: roll < 0.1 ? 3 : roll < 0.35 ? 1 : 0 };
          if (n === perKey - 1) lastAttempt.set(key, Math.min(payload.failAttempts + 1, 3));
          await h.queue.enqueue('ordered', payload, { orderingKey: key });
        }
      }
      await waitFor(() =>
        keys.every((key) =>
          events.some((e) => e.key === key && e.kind === 'end' && e.n === perKey - 1 && e.attempt === lastAttempt.get(key)),
        ),
      );
      await sleep(50); // a job that overtook another would show up now
      expectStrictOrder(keys, perKey);
    });

    it('a later job of a key waits for an earlier job that finally fails', async () => {
      const key = `f-${uid()}`;
      await h.queue.enqueue('ordered', { key, n: 0, ms: 5, failAttempts: 3 }, { orderingKey: key });
      await h.queue.enqueue('ordered', { key, n: 1, ms: 1, failAttempts: 0 }, { orderingKey: key });
      await waitFor(() => events.some((e) => e.key === key && e.n === 1 && e.kind === 'end'));
      const mine = events.filter((e) => e.key === key).map((e) => `${e.kind}${e.n}.${e.attempt}`);
      expect(mine).toEqual(['start0.1', 'end0.1', 'start0.2', 'end0.2', 'start0.3', 'end0.3', 'start1.1', 'end1.1']);
    });

    it('a duplicate jobId runs once', async () => {
      const id = `dup-${uid()}`;
      const first = await h.queue.enqueue('flaky', { id, failTimes: 0 }, { jobId: id });
      const second = await h.queue.enqueue('flaky', { id, failTimes: 0 }, { jobId: id });
      expect(first).toEqual({ jobId: id, deduplicated: false });
      expect(second).toEqual({ jobId: id, deduplicated: true });
      await waitFor(() => (flakyCalls.get(id)?.length ?? 0) > 0);
      const third = await h.queue.enqueue('flaky', { id, failTimes: 0 }, { jobId: id });
      expect(third.deduplicated).toBe(true);
      await sleep(100);
      expect(flakyCalls.get(id)).toHaveLength(1);
    });

    it('a failing job retries with back-off, then ends failed where an operator sees it', async () => {
      const id = `fail-${uid()}`;
      const { jobId } = await h.queue.enqueue('flaky', { id, failTimes: 99 }, { jobId: id });
      await waitFor(async () => (await failedOf(h, 'flaky', jobId)) !== undefined);
      const calls = flakyCalls.get(id)!;
      expect(calls).toHaveLength(testQueues.flaky.attempts);
      // Exponential back-off: at least 20 ms, then at least 40 ms (timers may round down by a millisecond).
      expect(calls[1] - calls[0]).toBeGreaterThanOrEqual(19);
      expect(calls[2] - calls[1]).toBeGreaterThanOrEqual(39);
      const failed = await failedOf(h, 'flaky', jobId);
      expect(failed).toEqual({ attempts: 3, error: 'boom 3', payload: { id, failTimes: 99 } });
    });

    it('a job that fails then succeeds is not failed', async () => {
      const id = `flaky-${uid()}`;
      const { jobId } = await h.queue.enqueue('flaky', { id, failTimes: 2 });
      await waitFor(() => (flakyCalls.get(id)?.length ?? 0) === 3);
      await sleep(50);
      expect(await failedOf(h, 'flaky', jobId)).toBeUndefined();
    });

    it('UnrecoverableError stops retrying at once', async () => {
      const id = `unrec-${uid()}`;
      const { jobId } = await h.queue.enqueue('flaky', { id, failTimes: 99, unrecoverable: true });
      await waitFor(async () => (await failedOf(h, 'flaky', jobId)) !== undefined);
      expect(flakyCalls.get(id)).toHaveLength(1);
      expect((await failedOf(h, 'flaky', jobId))?.error).toBe(`cannot fix ${id}`);
    });

    it('rejects a payload that does not match the queue schema', async () => {
      await expect(h.queue.enqueue('flaky', { id: 1 } as never)).rejects.toThrow('Invalid payload for queue "flaky"');
    });

    it('close() waits for a running job', async () => {
      const own = make(true);
      const id = `gate-${uid()}`;
      await own.queue.enqueue('gated', { id });
      await waitFor(() => gated.started.has(id));
      let closed = false;
      const closing = own.stop().then(() => {
        closed = true;
      });
      await sleep(50);
      expect(closed).toBe(false);
      gates.get(id)!();
      await closing;
      expect(gated.finished.has(id)).toBe(true);
    });
  });
}

behaviour(
  'in-process driver',
  () => inProcessHarness(processors),
  async (h, queue, jobId) => {
    if (h.queue.driver !== 'inprocess') throw new Error('expected the in-process driver');
    const f = h.queue.failedJobs().find((j) => j.queue === queue && j.jobId === jobId);
    return f && { attempts: f.attempts, error: f.error, payload: f.payload };
  },
);

describe('in-process driver limits', () => {
  it('drain() resolves once every pending job has run', async () => {
    const h = inProcessHarness(processors);
    const key = `drain-${uid()}`;
    for (let n = 0; n < 3; n++)
      await h.queue.enqueue('ordered', { key, n, ms: 5, failAttempts: 0 }, { orderingKey: key, delayMs: n === 0 ? 20 : undefined });
    if (h.queue.driver !== 'inprocess') throw new Error('expected the in-process driver');
    await h.queue.drain();
    expect(events.filter((e) => e.key === key && e.kind === 'end').map((e) => e.n)).toEqual([0, 1, 2]);
    await h.stop();
  });

  it('close() drops jobs still waiting for their back-off and refuses new ones', async () => {
    const h = inProcessHarness(processors);
    const id = `drop-${uid()}`;
    await h.queue.enqueue('flaky', { id, failTimes: 99 });
    await waitFor(() => (flakyCalls.get(id)?.length ?? 0) === 1);
    await h.stop();
    expect(flakyCalls.get(id)).toHaveLength(1);
    await expect(h.queue.enqueue('flaky', { id, failTimes: 0 })).rejects.toThrow('Job queue is closed');
  });
});

(redisUrl ? describe : describe.skip)('BullMQ driver (runs when REDIS_URL is set)', () => {
  const prefix = redisPrefix('queue');
  afterAll(() => deleteRedisPrefix(redisUrl!, prefix));

  behaviour(
    'two worker processes',
    (isolated) => bullHarness(redisUrl!, isolated ? `${prefix}-own` : prefix, processors),
    async (h, queue, jobId) => {
      if (h.queue.driver !== 'bullmq') throw new Error('expected the BullMQ driver');
      const q = h.queue.bullQueues().find((b) => b.name === queue)!;
      const job = (await q.getFailed()).find((j) => j.id === jobId);
      if (!job) return undefined;
      expect(await job.getState()).toBe('failed');
      return { attempts: job.attemptsMade, error: job.failedReason, payload: job.data.payload };
    },
  );

  it('a head that BullMQ no longer knows does not block its key, and an unregistered job registers itself', async () => {
    const h = bullHarness(redisUrl!, prefix, processors, 1);
    const key = `heal-${uid()}`;
    const redis = new Redis(redisUrl!);
    // A job id appended to the key but gone from BullMQ (removed by an operator).
    await new OrderingStore(redis, prefix).register('ordered', key, 'ghost');
    // A job added to BullMQ by a producer that died before appending it to its key.
    const bull = h.queue.driver === 'bullmq' ? h.queue.bullQueues().find((q) => q.name === 'ordered')! : undefined;
    await bull!.add(
      'ordered',
      { payload: { key, n: 0, ms: 1, failAttempts: 0 }, orderingKey: key, nonce: 'n' },
      { jobId: `orphan-${key}` },
    );
    await h.queue.enqueue('ordered', { key, n: 1, ms: 1, failAttempts: 0 }, { orderingKey: key });
    await waitFor(() => events.filter((e) => e.key === key && e.kind === 'end').length === 2);
    // The orphan joins the key when a worker first sees it, so either order is right; overlap is not.
    const seen = events.filter((e) => e.key === key).map((e) => `${e.kind}${e.n}`);
    expect([
      ['start0', 'end0', 'start1', 'end1'],
      ['start1', 'end1', 'start0', 'end0'],
    ]).toContainEqual(seen);
    expect(await new OrderingStore(redis, prefix).pending('ordered', key)).toEqual([]);
    await redis.quit();
    await h.stop();
  });

  it('a producer fails fast when Redis is unreachable', async () => {
    const queue = createJobQueue({ definitions: testQueues, logger: silentLogger, redisUrl: 'redis://127.0.0.1:1' });
    await expect(queue.enqueue('flaky', { id: 'x', failTimes: 0 })).rejects.toThrow('Job queue unavailable');
    expect(await queue.ping()).toBe(false);
    await queue.close();
  });
});
