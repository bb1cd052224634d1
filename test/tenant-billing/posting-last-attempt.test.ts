/**
 * Posting a calculation's charges to the PMS ledger (issue 30, item 6), when the provider keeps failing
 * or answers ambiguously: the job's last attempt, unknown outcomes and their reconciliation, and the
 * sweeper that queues lines whose job was lost. The jobs run when a test calls the processor itself.
 */
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { FakePmsLedger } from '../helpers/fake-pms-ledger';
import { as, calculateBody } from './helpers';
import { createProcessors } from '../../jobs';
import { rubsPostingProcessor } from '../../jobs/rubs-posting';
import type { InProcessJobQueue } from '../../src/platform/queue/types';
import type { AppQueues } from '../../src/queues';
import { errorBody } from '../helpers/error-body';
import { API_KEY, linkedCalculation, PMS_UNITS, type Posting } from './posting-helpers';

describe("posting: the job's last attempt, and the sweeper", () => {
  const fake = new FakePmsLedger();
  let t: TestApp;
  let token: string;
  let clockOffset = 0;
  /** The rubs-posting jobs queued: this app runs them only when a test calls the processor itself. */
  const queued: Array<{ calculation_id: string; action: string }> = [];

  beforeAll(async () => {
    const url = await fake.start();
    t = await createTestApp({
      // In-process: these tests run the processor themselves and drain the queue.
      env: { PMS_API_URL: url, PMS_API_KEY: API_KEY, REDIS_URL: '' },
      now: () => new Date(Date.now() + clockOffset),
      processors: () => ({
        ...createProcessors(t.services),
        'rubs-posting': async (payload) => {
          queued.push(payload);
        },
      }),
    });
    token = (await registerUser(t)).token;
  });
  afterAll(async () => {
    await t.stop();
    await fake.stop();
  });

  let linked = 0;
  const calculation = async (units: unknown[] = PMS_UNITS) =>
    (await linkedCalculation(t, token, fake, { conn: 'conn-last', pmsProperty: `P-last-${++linked}` }, units)).id;
  const posting = async (id: string) => (await as(t, token).get(`/billing/calculations/${id}`).expect(200)).body.posting as Posting;
  const drain = () => (t.deps.queue as InProcessJobQueue<AppQueues>).drain();
  /** Sends `action` of calculation `id` (202) and lets the app queue its jobs: `queued` then holds those jobs only. */
  const queueJobs = async (id: string, action: 'post' | 'reverse') => {
    queued.length = 0;
    await as(t, token).post(`/billing/calculations/${id}/${action}`).expect(202);
    await drain();
  };
  /** The rubs-posting processor, run by the test itself. */
  const run: ReturnType<typeof rubsPostingProcessor> = (payload, ctx) => rubsPostingProcessor(t.services)(payload, ctx);

  it('a provider still failing: lines stay pending with the reason while the job retries, and fail with it after the last attempt', async () => {
    const id = await calculation();
    fake.behaviour = (_call, res) => {
      res.writeHead(503).end();
      return true;
    };
    await queueJobs(id, 'post');
    expect(queued).toEqual([{ calculation_id: id, action: 'post' }]);

    await expect(run(queued[0] as never, { attempt: 1 })).rejects.toThrow('3 post lines of calculation');
    let state = await posting(id);
    expect(state.status).toBe('pending');
    expect(state.lines.map((l) => [l.status, l.attempts, l.error])).toEqual(Array(3).fill(['pending', 3, 'HTTP 503 (3 tries)']));

    // Issue 46 replaced "failed after the last attempt": a 503 may come after the charge was made, so the outcome is unknown,
    // and the lines count as on the ledger (no void, no re-bill) until posting again reconciles them under their keys.
    await expect(run(queued[0] as never, { attempt: 4 })).rejects.toMatchObject({ name: 'UnrecoverableError' });
    state = await posting(id);
    expect(state).toMatchObject({ status: 'unknown', posted: 0, pending: 0, failed: 0, unknown: 3 });
    expect(state.lines.map((l) => [l.status, l.attempts, l.error])).toEqual(Array(3).fill(['unknown', 6, 'HTTP 503 (3 tries)']));
    expect(fake.charges.size).toBe(0);
    expect((await as(t, token).post(`/billing/calculations/${id}/void`, { reason: 'wrong meter read' }).expect(409)).body).toEqual(
      errorBody({ detail: 'Calculation has charges posted to the PMS: reverse it before voiding it' }),
    );

    // The provider is back: posting again sends the unknown lines under their keys.
    fake.behaviour = undefined;
    await as(t, token).post(`/billing/calculations/${id}/post`).expect(202);
    await drain();
    await run(queued[1] as never, { attempt: 1 });
    state = await posting(id);
    expect(state).toMatchObject({ status: 'posted', posted: 3, failed: 0 });
    expect(state.lines.map((l) => l.attempts)).toEqual([7, 7, 7]);
  });

  it('lines failing in a row end the attempt early: the rest are not sent until the next attempt', async () => {
    const id = await calculation(Array.from({ length: 20 }, (_, i) => ({ unit_id: `u${i + 1}`, tenant_name: `T${i + 1}`, sqft: 100 })));
    fake.behaviour = (call, res) => {
      if (!call.idempotencyKey?.startsWith(`${id}:`)) return false;
      res.writeHead(500).end();
      return true;
    };
    await queueJobs(id, 'post');
    await expect(run(queued[0] as never, { attempt: 1 })).rejects.toThrow('20 post lines of calculation');
    let state = await posting(id);
    // The 10 in flight fail; once 5 have failed in a row no more is sent: at most 4 lines went out after the first 10.
    const tried = state.lines.filter((l) => l.attempts === 3 && l.error === 'HTTP 500 (3 tries)').length;
    expect(tried).toBeGreaterThanOrEqual(10);
    expect(tried).toBeLessThanOrEqual(14);
    expect(state.lines.filter((l) => l.attempts === 0 && l.error === null && l.status === 'pending')).toHaveLength(20 - tried);
    expect(fake.calls.filter((c) => c.idempotencyKey?.startsWith(`${id}:`))).toHaveLength(3 * tried);

    // Issue 46: lines sent (a 500 may come after the charge was made) end unknown; lines never sent fail.
    await expect(run(queued[0] as never, { attempt: 4 })).rejects.toMatchObject({ name: 'UnrecoverableError' });
    state = await posting(id);
    expect(state).toMatchObject({ status: 'unknown', unknown: 20 - state.failed });
    expect(state.failed).toBeGreaterThan(0);
    expect(new Set(state.lines.filter((l) => l.status === 'unknown').map((l) => l.error))).toEqual(new Set(['HTTP 500 (3 tries)']));
    expect(new Set(state.lines.filter((l) => l.status === 'failed').map((l) => [l.attempts, l.error].join(' ')))).toEqual(
      new Set(['0 not sent: the provider kept failing (HTTP 500 (3 tries))']),
    );
    fake.behaviour = undefined;
  });

  it('a charge made and then answered with a 500 is unknown, not failed: it blocks void and re-bill, and is reconciled under its key (issue 46)', async () => {
    const id = await calculation();
    const u1 = `${id}:u1:0:post`;
    // The provider makes u1's charge, then answers 500, every time: the charge exists, we were never told.
    fake.behaviour = (call, res, ledger) => {
      if (call.idempotencyKey !== u1) return false;
      ledger.create(call);
      res.writeHead(500).end();
      return true;
    };
    await queueJobs(id, 'post');
    await expect(run(queued[0] as never, { attempt: 4 })).rejects.toMatchObject({ name: 'UnrecoverableError' });
    let state = await posting(id);
    expect(state).toMatchObject({ status: 'unknown', posted: 2, unknown: 1, failed: 0 });
    expect(state.lines.find((l) => l.unit_id === 'u1')).toMatchObject({
      status: 'unknown',
      error: 'HTTP 500 (3 tries)',
      provider_charge_id: null,
    });
    expect(fake.charges.has(u1)).toBe(true);

    // Before: failed, so void and a re-bill were allowed and the re-bill's post charged u1 twice. Now both are refused.
    expect((await as(t, token).post(`/billing/calculations/${id}/void`, { reason: 'typo' }).expect(409)).body).toEqual(
      errorBody({ detail: 'Calculation has charges posted to the PMS: reverse it before voiding it' }),
    );
    const calc = (await as(t, token).get(`/billing/calculations/${id}`).expect(200)).body;
    const rebill = await as(t, token)
      .post('/billing/calculate-rubs', calculateBody(calc.property_id, calc.billing_config_id, { total_amount: 1100, units: PMS_UNITS }))
      .expect(409);
    expect(rebill.body.detail).toMatch(/has charges posted to the PMS: reverse it first$/);

    // Reverse: u1's charge is sent again under its own key first (the provider answers with the charge it made), then
    // every charge is reversed once: no second charge, no reversal of a charge never made.
    fake.behaviour = undefined;
    await queueJobs(id, 'reverse');
    expect(queued).toEqual([
      { calculation_id: id, action: 'post' },
      { calculation_id: id, action: 'reverse' },
    ]);
    for (const job of queued) await run(job as never, { attempt: 1 });
    state = await posting(id);
    expect(state).toMatchObject({ status: 'reversed', posted: 3, reversed: 3, unknown: 0, pending: 0 });
    expect(fake.charges.get(u1)!.creations).toBe(1);
    expect([...fake.charges.keys()].filter((k) => k.startsWith(id)).sort()).toHaveLength(6);
    expect(fake.duplicates()).toEqual([]);
  });

  it('a reversal waits for the answer on an unknown charge, and is not sent for a charge the provider refused', async () => {
    const id = await calculation();
    const u1 = `${id}:u1:0:post`;
    fake.behaviour = (call, res) => {
      if (call.idempotencyKey !== u1) return false;
      res.writeHead(503).end();
      return true;
    };
    await queueJobs(id, 'post');
    await expect(run(queued[0] as never, { attempt: 4 })).rejects.toMatchObject({ name: 'UnrecoverableError' });
    // Asked again, the provider now refuses u1's charge for good (the resident left): nothing was made, nothing is reversed.
    fake.behaviour = (call, res) => {
      if (call.idempotencyKey !== u1) return false;
      res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'resident has moved out' }));
      return true;
    };
    await queueJobs(id, 'reverse');
    // The reversal job alone first: u1's charge has no answer yet, so its reversal waits.
    await expect(run(queued[1] as never, { attempt: 1 })).rejects.toThrow(/waiting for the answer on the charge it reverses/);
    await run(queued[0] as never, { attempt: 1 });
    await run(queued[1] as never, { attempt: 2 });
    const state = await posting(id);
    // The provider answers the key it never charged with a refusal: the charge was never made, so its reversal is not sent.
    expect(state.lines.filter((l) => l.unit_id === 'u1').map((l) => [l.action, l.status, l.error])).toEqual([
      ['post', 'failed', 'HTTP 422: resident has moved out'],
      ['reverse', 'failed', 'the charge was never made (the provider refused it): nothing to reverse'],
    ]);
    expect(fake.charges.has(`${id}:u1:0:reverse`)).toBe(false);
    expect(state).toMatchObject({ status: 'reversed', posted: 2, reversed: 2 });
    fake.behaviour = undefined;
  });

  it('the sweeper queues again the lines whose job was lost, a minute on', async () => {
    const id = await calculation();
    await queueJobs(id, 'post');
    expect(queued).toHaveLength(1);
    const sweep = () => t.deps.queue.enqueue('webhook-sweep', { older_than_ms: 10_000 }, { jobId: `sweep-${clockOffset}` });
    await sweep();
    await drain();
    expect(queued.filter((j) => j.calculation_id === id)).toHaveLength(1); // a few seconds old: left to its job
    clockOffset += 61_000;
    await sweep();
    await drain();
    expect(queued.filter((j) => j.calculation_id === id)).toEqual([
      { calculation_id: id, action: 'post' },
      { calculation_id: id, action: 'post' },
    ]);
  });
});
